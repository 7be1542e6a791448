import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type Tenant, type TestServer } from '../support/harness';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { connectZendesk } from '../support/connect-simulators';
import { syncAndWait } from '../support/sync-wait';
import { generatedTicket, inMemoryTicketsProvider } from '../support/in-memory-tickets';
import { ProviderRegistry, defaultProviders } from '../../src/providers/registry';
import { AppError } from '../../src/core/errors';
import type { ProviderAdapter } from '../../src/providers/types';

/**
 * The operator dashboard in a real browser (Debian's Chromium through playwright-core) against the real
 * server, with a Zendesk simulator connection: sign in, the connection and its sync progress, "Sync now",
 * API keys, magic links, provider calls, every page. Screenshots go to test-artifacts/dashboard/.
 */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`Skipping the dashboard browser tests: ${CHROMIUM} is absent (install it with: apt-get install -y chromium).`);
}
const artifacts = path.resolve(import.meta.dirname, '../../test-artifacts/dashboard');

/**
 * A provider whose ticket stream saves a page of 250 and then waits for the test to let each next page through
 * (so the dashboard is seen while the count rises), and whose user stream always fails.
 */
function gatedProvider() {
  let allowed = 1;
  let wake = () => {};
  const base = inMemoryTicketsProvider({ name: 'gated', tickets: 0, pageSize: 250 });
  const adapter: ProviderAdapter = {
    ...base,
    manifest: { ...base.manifest, capabilities: { 'ticketing.ticket': ['list', 'get', 'sync'], 'ticketing.user': ['list', 'sync'] } },
    syncers: [
      {
        ...base.syncers[0]!,
        async *run() {
          for (let p = 0; p < 3; p++) {
            while (p >= allowed) await new Promise<void>((resolve) => (wake = resolve));
            yield { records: Array.from({ length: 250 }, (_, j) => generatedTicket(p * 250 + j + 1)), resume: p < 2 ? String(p + 1) : null };
          }
        },
      },
      {
        key: 'ticketing.user',
        objectTypes: ['ticketing.user'],
        incremental: false,
        reportsDeletions: false,
        // eslint-disable-next-line require-yield
        async *run() {
          throw new AppError('provider_error', 'Gated answered 500 to the users list');
        },
      },
    ],
  };
  return { adapter, nextPage: () => (allowed++, wake()) };
}

describe.skipIf(!hasChromium)('operator dashboard in Chromium', () => {
  let server: TestServer;
  let zendesk: ZendeskSimulator;
  let receiver: http.Server;
  let browser: Browser;
  let other: Tenant;
  let connectionId: string;
  const gated = gatedProvider();

  beforeAll(async () => {
    fs.mkdirSync(artifacts, { recursive: true });
    zendesk = await startZendeskSimulator();
    zendesk.seedTickets(40, { commentsPerTicket: 2 });
    const scoreField = zendesk.state.addTicketField({ type: 'integer', title: 'Priority score' });
    // A webhook receiver that takes every delivery.
    receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    server = await startTestServer({ providers: new ProviderRegistry([...defaultProviders(), gated.adapter]) });
    const hook = await server.call('POST', '/webhooks', {
      body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/omniport`, events: ['*'], description: 'Acme backend' },
    });
    expect(hook.status).toBe(201);
    const token = await connectZendesk(server, zendesk, { origin: 'acme-corp' });
    await syncAndWait(server, token);
    connectionId = (await server.call('GET', '/connections')).body.data[0].id_connection;
    const attribute = await server.call('POST', '/field-mapping/define', {
      body: { object_type_owner: 'ticketing.ticket', name: 'priority_score', description: 'Score from our triage model', data_type: 'number' },
    });
    expect(attribute.status).toBe(201);
    const mapped = await server.call('POST', '/field-mapping/map', {
      body: { attributeId: attribute.body.data.id_attribute, source_custom_field_id: String(scoreField.id), source_provider: 'zendesk', linked_user_id: 'acme-corp' },
    });
    expect(mapped.status).toBe(201);
    // Another project, with a customer of its own: never shown to this project's operator.
    other = await server.createTenant('other');
    const cred = zendesk.credentials[0]!;
    const theirs = await server.call('POST', '/connections', {
      apiKey: other.apiKey,
      body: { provider: 'zendesk', linked_user_origin_id: 'other-project-customer', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: zendesk.url },
    });
    expect(theirs.status).toBe(201);
    await server.omniport.services.dashboard.calls.flush();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await zendesk?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(artifacts, name), fullPage: true });
  const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

  /** Presses Tab until the focused element matches, as a keyboard user would. */
  async function tabTo(page: Page, matches: (el: { tag: string; text: string }) => boolean, max = 40) {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const el = await page.evaluate<{ tag: string; text: string }>(
        "({ tag: document.activeElement?.tagName ?? '', text: document.activeElement?.textContent?.trim() ?? '' })",
      );
      if (matches(el)) return el;
    }
    throw new Error('the element could not be reached with the keyboard');
  }

  async function signedIn(apiKey: string, o: { javaScriptEnabled?: boolean; width?: number } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: o.width ?? 1200, height: 900 }, javaScriptEnabled: o.javaScriptEnabled ?? true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text())); // a CSP violation among them
    await page.goto(`${server.url}/dashboard/login`);
    await page.getByLabel('API key').fill(apiKey);
    await Promise.all([page.waitForURL(/\/dashboard\/connections$/), page.keyboard.press('Enter')]);
    return { context, page, errors };
  }

  it('signs in, shows the connection, its sync progress and provider calls, and syncs now', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('dialog', (d) => void d.accept());
    try {
      // 1. /dashboard without a session leads to the sign-in form; the key is typed, never put in a URL.
      await page.goto(`${server.url}/dashboard`);
      expect(page.url()).toBe(`${server.url}/dashboard/login`);
      expect(await h1(page)).toBe('Omniport dashboard');
      await shot(page, '01-sign-in.png');
      await page.keyboard.type(server.tenant.apiKey); // the field has the focus
      await Promise.all([page.waitForURL(/\/dashboard\/connections$/), page.keyboard.press('Enter')]);
      const cookies = await context.cookies();
      expect(cookies.find((c) => c.name === 'omniport_dashboard')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
      expect(JSON.stringify(cookies)).not.toContain(server.tenant.apiKey);
      expect(await page.evaluate<string>('JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie')).not.toContain('sk_');

      // 2. Connections: the Zendesk connection of acme-corp, synced; the other project's nowhere.
      expect(await h1(page)).toBe('Connections');
      const row = page.getByRole('row').filter({ hasText: 'acme-corp' });
      expect(await row.getByRole('link', { name: 'Zendesk' }).count()).toBe(1);
      expect(await row.textContent()).toContain('synced');
      expect(await page.content()).not.toContain('other-project-customer');
      await shot(page, '02-connections.png');

      // 3. The connection: sync per stream, and the provider calls of the first sync.
      await Promise.all([page.waitForURL(new RegExp(`/dashboard/connections/${connectionId}$`)), row.getByRole('link', { name: 'Zendesk' }).click()]);
      expect(await h1(page)).toBe('Zendesk connection');
      const streams = page.getByRole('table', { name: 'Sync streams' });
      expect(await streams.getByRole('row').filter({ hasText: 'ticketing.ticket' }).count()).toBeGreaterThan(0);
      const calls = page.getByRole('table', { name: 'Recent provider calls' });
      expect(await calls.getByRole('row').count()).toBeGreaterThan(2);
      expect(await calls.textContent()).toContain('/api/v2/');
      expect(await page.content()).not.toContain(zendesk.credentials[0]!.apiToken);
      await shot(page, '03-connection.png');

      // 4. "Sync now" with the keyboard: htmx posts it and follows the run (a slow tickets export keeps it running a while).
      zendesk.faults.add({ path: /incremental\/tickets/, delayMs: 2500, times: 1 });
      await tabTo(page, (el) => el.tag === 'BUTTON' && el.text === 'Sync now');
      await page.keyboard.press('Enter');
      await page.getByText('Sync queued').waitFor();
      await page.locator('#sync .badge.busy').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('#sync-progress-text').textContent()).toMatch(/^Syncing: \d+ of \d+ streams done$/);
      await shot(page, '04-sync-running.png');
      await page.locator('#sync-progress-text').filter({ hasText: /streams synced$/ }).waitFor({ timeout: 60_000 });
      const progress = page.locator('#sync-progress');
      expect(await progress.getAttribute('value')).toBe(await progress.getAttribute('max'));
      expect(page.url()).toBe(`${server.url}/dashboard/connections/${connectionId}`); // no page load: htmx
      await shot(page, '05-sync-done.png');

      // 5. Reconnect: a new magic link for this customer, shown once.
      await page.getByRole('button', { name: 'Create reconnect link' }).click();
      const reconnect = await page.getByRole('textbox', { name: 'Reconnect link' }).inputValue();
      expect(reconnect).toMatch(new RegExp(`^${server.url}/connect/ml_`));
      await shot(page, '06-reconnect-link.png');
      expect(errors, errors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('creates an API key shown once and revokes it; creates a magic link; shows every page', async () => {
    const { context, page, errors } = await signedIn(server.tenant.apiKey);
    page.on('dialog', (d) => void d.accept());
    try {
      await page.getByRole('link', { name: 'API keys' }).click();
      expect(await h1(page)).toBe('API keys');
      await page.getByLabel('Name').fill('ci pipeline');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = await page.getByRole('textbox', { name: 'New API key “ci pipeline”' }).inputValue();
      expect(key).toMatch(/^sk_test_[A-Za-z0-9]{32,}$/);
      expect((await server.call('GET', '/connections', { apiKey: key })).status).toBe(200);
      await shot(page, '07-api-key-created.png');
      // Shown once: the list holds its prefix only.
      await page.getByRole('link', { name: 'API keys' }).click();
      expect(await page.content()).not.toContain(key);
      const keyRow = page.getByRole('row').filter({ hasText: 'ci pipeline' });
      await keyRow.getByRole('button', { name: /Revoke/ }).click();
      await page.getByText('The API key was revoked').waitFor();
      expect(await page.getByRole('row').filter({ hasText: 'ci pipeline' }).textContent()).toContain('revoked');
      expect((await server.call('GET', '/connections', { apiKey: key })).status).toBe(401);
      await shot(page, '08-api-key-revoked.png');

      await page.getByRole('link', { name: 'Magic links' }).click();
      await page.getByLabel(/Customer id in your application/).fill('globex');
      await page.getByLabel(/Name/).fill('Globex Corporation');
      await page.getByRole('button', { name: 'Create link' }).click();
      const url = await page.getByRole('textbox', { name: 'New magic link' }).inputValue();
      expect(url).toMatch(new RegExp(`^${server.url}/connect/ml_`));
      expect(await page.getByRole('row').filter({ hasText: 'Globex Corporation' }).textContent()).toContain('active');
      await shot(page, '09-magic-link-created.png');
      const connectPage = await context.newPage();
      await connectPage.goto(url);
      expect(await connectPage.getByRole('heading', { level: 1 }).textContent()).toBe('Connect your account');
      await connectPage.close();

      await page.getByRole('link', { name: 'Linked users' }).click();
      expect(await page.getByRole('row').filter({ hasText: 'acme-corp' }).count()).toBe(1);
      expect(await page.content()).not.toContain('other-project-customer');
      await shot(page, '10-linked-users.png');

      await page.getByRole('link', { name: 'Field mappings' }).click();
      expect(await page.getByRole('table', { name: 'Mappings' }).textContent()).toContain('priority_score');
      await shot(page, '11-field-mappings.png');

      await page.getByRole('link', { name: 'Webhooks' }).click();
      const endpoint = page.getByRole('row').filter({ hasText: 'Acme backend' });
      await endpoint.getByRole('link').click();
      expect(await h1(page)).toBe('Webhook deliveries');
      await expect.poll(async () => {
        await page.reload();
        return page.getByRole('row').filter({ hasText: 'delivered' }).count();
      }, { timeout: 30_000 }).toBeGreaterThan(0);
      await shot(page, '12-webhook-deliveries.png');
      expect(errors, errors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works on a phone-sized screen and without JavaScript', async () => {
    const phone = await signedIn(server.tenant.apiKey, { width: 390 });
    try {
      await phone.page.goto(`${server.url}/dashboard/connections/${connectionId}`);
      await phone.page.screenshot({ path: path.join(artifacts, '13-connection-phone.png') }); // the first screen
      // Nothing wider than the screen but the tables' own scrolling regions.
      const overflow = await phone.page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(1);
    } finally {
      await phone.context.close();
    }
    const noJs = await signedIn(server.tenant.apiKey, { javaScriptEnabled: false });
    try {
      await noJs.page.goto(`${server.url}/dashboard/connections/${connectionId}`);
      await Promise.all([noJs.page.waitForURL(/done=sync-queued/), noJs.page.getByRole('button', { name: 'Sync now' }).click()]);
      expect(await noJs.page.getByText('Sync queued').count()).toBeGreaterThan(0);
      await shot(noJs.page, '14-sync-queued-without-javascript.png');
    } finally {
      await noJs.context.close();
    }
  });

  it('refuses a forged form (no CSRF token) and a revoked key’s session', async () => {
    const { context, page } = await signedIn(server.tenant.apiKey);
    try {
      // The browser's session cookie goes along, the page's token does not.
      const forged = await page.request.post(`${server.url}/dashboard/api-keys`, { form: { name: 'forged' } });
      expect(forged.status()).toBe(403);
      const keys = (await server.call('GET', '/auth/api-keys')).body.data as { key_name: string }[];
      expect(keys.some((k) => k.key_name === 'forged')).toBe(false);
      await page.goto(`${server.url}/dashboard/connections/${connectionId}`);
      // Another project's connection, asked for by its id: not found.
      const theirs = (await server.call('GET', '/connections', { apiKey: other.apiKey })).body.data[0].id_connection;
      const notFound = await page.goto(`${server.url}/dashboard/connections/${theirs}`);
      expect(notFound?.status()).toBe(404);
      await shot(page, '15-other-project-not-found.png');
    } finally {
      await context.close();
    }

    const issued = await server.call('POST', '/auth/generate-apikey', { body: { projectId: server.tenant.projectId, userId: server.tenant.userId, keyName: 'temporary' } });
    const session = await signedIn(issued.body.api_key);
    try {
      expect(await h1(session.page)).toBe('Connections');
      expect((await server.call('DELETE', `/auth/api-keys/${issued.body.id_api_key}`)).status).toBe(200);
      await session.page.reload();
      expect(session.page.url()).toBe(`${server.url}/dashboard/login`);
      await shot(session.page, '16-revoked-key-signed-out.png');
    } finally {
      await session.context.close();
    }
  });

  it('shows a failed stream as failed, and a running stream with its count rising as the page refreshes itself', async () => {
    const made = await server.call('POST', '/connections', {
      body: { provider: 'gated', linked_user_origin_id: 'gated-customer', credentials: { api_token: 'x' }, base_url: 'http://127.0.0.1:9' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { context, page, errors } = await signedIn(server.tenant.apiKey);
    try {
      // The first sync runs in the background from the connection's creation; the page is not reloaded below.
      await page.goto(`${server.url}/dashboard/connections/${made.body.data.id_connection}`);
      const streams = page.getByRole('table', { name: 'Sync streams' });
      const tickets = streams.getByRole('row').filter({ hasText: 'ticketing.ticket' });
      const users = streams.getByRole('row').filter({ hasText: 'ticketing.user' });
      await tickets.filter({ hasText: '250' }).locator('.badge.busy').waitFor({ timeout: 60_000 });
      await users.locator('.badge.bad').filter({ hasText: 'failed' }).waitFor({ timeout: 60_000 });
      expect(await users.textContent()).toContain('Gated answered 500 to the users list');
      expect(await page.locator('#sync-progress-text').textContent()).toMatch(/^Syncing: 0 of 2 streams done, 1 failed$/);
      await shot(page, '17-running-stream-and-failed-stream.png');
      // The next page is let through: htmx's refresh shows the count rising, with no reload.
      gated.nextPage();
      await tickets.filter({ hasText: '500' }).waitFor({ timeout: 60_000 });
      gated.nextPage();
      await page.locator('#sync-progress-text').filter({ hasText: /^1 of 2 streams synced, 1 failed$/ }).waitFor({ timeout: 60_000 });
      expect(await tickets.textContent()).toContain('750');
      expect(await users.locator('.badge.bad').textContent()).toBe('failed');
      await shot(page, '18-synced-with-a-failed-stream.png');
      // The connections list does not call it synced either.
      await page.goto(`${server.url}/dashboard/connections`);
      expect(await page.getByRole('row').filter({ hasText: 'gated-customer' }).textContent()).toContain('1 stream failed');
      expect(errors, errors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
