import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startSalesforceSimulator, type SalesforceSimulator } from '../simulators/salesforce';
import { startZohoSimulator, type ZohoSimulator } from '../simulators/zoho';
import { startDynamicsSimulator, type DynamicsSimulator } from '../simulators/dynamics';
import { startCloseSimulator, type CloseSimulator } from '../simulators/close';
import { startAttioSimulator, type AttioSimulator } from '../simulators/attio';
import { ProviderRegistry, defaultProviders } from '../../src/providers/registry';
import type { ProviderAdapter } from '../../src/providers/types';

/**
 * The hosted connect page in a real browser (Debian's Chromium through playwright-core), with the real
 * Zendesk adapter against the Zendesk simulator; Zendesk's OAuth endpoints are pointed at the OAuth
 * simulator through the project's OAuth app; Salesforce, Dynamics 365 Sales, Close and Attio likewise, each
 * with its provider's authorize and token request shapes. Screenshots of every step go to test-artifacts/connect/.
 */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`Skipping the connect page browser tests: ${CHROMIUM} is absent (install it with: apt-get install -y chromium).`);
}
const artifacts = path.resolve(import.meta.dirname, '../../test-artifacts/connect');

describe.skipIf(!hasChromium)('hosted connect page in Chromium', () => {
  let server: TestServer;
  let oauth: OAuthSimulator;
  let zendesk: ZendeskSimulator;
  let sfAuth: OAuthSimulator;
  let salesforce: SalesforceSimulator;
  let dvAuth: OAuthSimulator;
  let dynamics: DynamicsSimulator;
  let closeAuth: OAuthSimulator;
  let close: CloseSimulator;
  let attioAuth: OAuthSimulator;
  let attio: AttioSimulator;
  const tenant = '72f988bf-86f1-41af-91ab-2d7cd011db47';
  let zohoAuth: OAuthSimulator;
  let zoho: ZohoSimulator;
  let browser: Browser;
  const returnUrl = 'https://app.example.com/settings/integrations';

  beforeAll(async () => {
    fs.mkdirSync(artifacts, { recursive: true });
    zendesk = await startZendeskSimulator();
    oauth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-zendesk', clientSecret: 'zd-oauth-secret', name: 'Acme Support Hub', redirectUris: [] }],
      paths: { authorize: '/oauth/authorizations/new', token: '/oauth/tokens' },
    });
    // Zendesk accepts the tokens its authorization server issues.
    oauth.onAccessToken = (token) => zendesk.addAccessToken(token);
    // Close and Attio have one API host (their manifests' default base URL, not typed on the page): moved to
    // their simulators here, as their OAuth endpoints are moved to OAuth simulators through the project's apps.
    close = await startCloseSimulator({ apiKeys: [] });
    attio = await startAttioSimulator({ tokens: [] });
    const moved: Record<string, string> = { close: close.url, attio: attio.url };
    const adapters = defaultProviders().map((a): ProviderAdapter => (moved[a.manifest.name] ? { ...a, manifest: { ...a.manifest, defaultBaseUrl: moved[a.manifest.name] } } : a));
    server = await startTestServer({ providers: new ProviderRegistry(adapters), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
    const app = await server.call('PUT', '/oauth-apps/zendesk', {
      body: {
        client_id: 'omniport-zendesk',
        client_secret: 'zd-oauth-secret',
        authorize_url: `${oauth.url}/oauth/authorizations/new`,
        token_url: `${oauth.url}/oauth/tokens`,
      },
    });
    expect(app.status).toBe(200);
    oauth.addRedirectUri('omniport-zendesk', app.body.data.redirect_uri);
    // Salesforce: its login host's endpoints on a second OAuth simulator, answering in Salesforce's token
    // shape (the org's instance_url, no expires_in); PKCE required, as a connected app may demand.
    salesforce = await startSalesforceSimulator({ accessTokens: [] });
    sfAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-salesforce', clientSecret: 'sf-oauth-secret', name: 'Acme Revenue Sync', redirectUris: [] }],
      paths: { authorize: '/services/oauth2/authorize', token: '/services/oauth2/token' },
      requirePkce: true,
      rotateRefreshTokens: false,
      shapeTokenAnswer: ({ expires_in: _e, ...answer }) => ({ ...answer, instance_url: salesforce.url, issued_at: String(Date.now()), signature: 'c2lt' }),
    });
    sfAuth.onAccessToken = (token) => salesforce.addAccessToken(token);
    const sfApp = await server.call('PUT', '/oauth-apps/salesforce', {
      body: {
        client_id: 'omniport-salesforce',
        client_secret: 'sf-oauth-secret',
        authorize_url: `${sfAuth.url}/services/oauth2/authorize`,
        token_url: `${sfAuth.url}/services/oauth2/token`,
      },
    });
    expect(sfApp.status).toBe(200);
    sfAuth.addRedirectUri('omniport-salesforce', sfApp.body.data.redirect_uri);
    // Dynamics: the Microsoft identity platform's v2.0 endpoints under a tenant-specific authority, answering
    // in its token shape (scope, expires_in, ext_expires_in); PKCE required; Dataverse accepts its tokens.
    dynamics = await startDynamicsSimulator({ accessTokens: [] });
    dvAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-dynamics', clientSecret: 'dv-oauth-secret', name: 'Acme Sales Connector', redirectUris: [] }],
      paths: { authorize: `/${tenant}/oauth2/v2.0/authorize`, token: `/${tenant}/oauth2/v2.0/token` },
      requirePkce: true,
      shapeTokenAnswer: ({ scope: _s, ...answer }) => ({ ...answer, scope: `${dynamics.url}/user_impersonation`, ext_expires_in: answer.expires_in }),
    });
    dvAuth.onAccessToken = (token) => dynamics.addAccessToken(token);
    // Close (https://app.close.com/oauth2/authorize/, https://api.close.com/oauth2/token/) and Attio
    // (https://app.attio.com/authorize, https://app.attio.com/oauth/token): no scope, no PKCE.
    closeAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-close', clientSecret: 'close-oauth-secret', name: 'Acme Lead Sync', redirectUris: [] }],
      paths: { authorize: '/oauth2/authorize/', token: '/oauth2/token/' },
      clientAuth: 'post',
    });
    closeAuth.onAccessToken = (token) => close.addAccessToken(token);
    attioAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-attio', clientSecret: 'attio-oauth-secret', name: 'Acme Workspace Sync', redirectUris: [] }],
      paths: { authorize: '/authorize', token: '/oauth/token' },
      clientAuth: 'post',
    });
    attioAuth.onAccessToken = (token) => attio.addAccessToken(token);
    for (const [provider, sim, clientId, secret] of [
      ['dynamics', dvAuth, 'omniport-dynamics', 'dv-oauth-secret'],
      ['close', closeAuth, 'omniport-close', 'close-oauth-secret'],
      ['attio', attioAuth, 'omniport-attio', 'attio-oauth-secret'],
    ] as const) {
      const res = await server.call('PUT', `/oauth-apps/${provider}`, {
        body: { client_id: clientId, client_secret: secret, authorize_url: `${sim.url}${sim.paths.authorize}`, token_url: `${sim.url}${sim.paths.token}` },
      });
      expect(res.status).toBe(200);
      sim.addRedirectUri(clientId, res.body.data.redirect_uri);
    }
    // Zoho CRM: the data centre's accounts server on a third OAuth simulator, whose token answer names the
    // API domain (api_domain), which becomes the connection's address.
    zoho = await startZohoSimulator({ accessTokens: [] });
    zohoAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-zoho', clientSecret: 'zoho-oauth-secret', name: 'Acme CRM Sync', redirectUris: [] }],
      paths: { authorize: '/oauth/v2/auth', token: '/oauth/v2/token' },
      rotateRefreshTokens: false,
      shapeTokenAnswer: (answer) => ({ ...answer, api_domain: zoho.url, token_type: 'Bearer' }),
    });
    zohoAuth.onAccessToken = (token) => zoho.addAccessToken(token);
    const zohoApp = await server.call('PUT', '/oauth-apps/zoho', {
      body: { client_id: 'omniport-zoho', client_secret: 'zoho-oauth-secret', authorize_url: `${zohoAuth.url}/oauth/v2/auth`, token_url: `${zohoAuth.url}/oauth/v2/token` },
    });
    expect(zohoApp.status).toBe(200);
    zohoAuth.addRedirectUri('omniport-zoho', zohoApp.body.data.redirect_uri);
    await server.call('PATCH', '/connect-settings', { body: { allowed_redirect_urls: ['https://app.example.com/settings/'] } });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await oauth?.close();
    await zendesk?.close();
    await sfAuth?.close();
    await salesforce?.close();
    await zohoAuth?.close();
    await zoho?.close();
    await dvAuth?.close();
    await dynamics?.close();
    await closeAuth?.close();
    await close?.close();
    await attioAuth?.close();
    await attio?.close();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(artifacts, name), fullPage: true });

  /** Presses Tab until the focused element matches, as a keyboard user would. */
  async function tabTo(page: Page, matches: (el: { tag: string; text: string }) => boolean, max = 25) {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      // A string, evaluated in the page (the tests are compiled without the DOM library).
      const el = await page.evaluate<{ tag: string; text: string }>(
        "({ tag: document.activeElement?.tagName ?? '', text: document.activeElement?.textContent?.trim() ?? '' })",
      );
      if (matches(el)) return el;
    }
    throw new Error('the element could not be reached with the keyboard');
  }

  const magicLink = async (origin: string, alias: string) => {
    const res = await server.call('POST', '/magic-link/create', {
      body: { linked_user_origin_id: origin, alias, email: 'it@northwind.test', redirect_url: returnUrl },
    });
    expect(res.status).toBe(201);
    return res.body as { url: string; linked_user: { id_linked_user: string }; id_invite_link: string };
  };

  it('connects Zendesk with OAuth: magic link → provider → authorize on Zendesk → success page', async () => {
    const link = await magicLink('northwind', 'Northwind Traders');
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text())); // e.g. a CSP violation
    try {
      // 1. The link opens the list of products; reach Zendesk with the keyboard alone.
      await page.goto(link.url);
      await expect.poll(() => page.title()).toBe('Connect your account · Omniport');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect your account');
      expect(await page.getByText('Northwind Traders').count()).toBe(1);
      await shot(page, '01-provider-list.png');
      await tabTo(page, (el) => el.tag === 'A' && el.text.includes('Zendesk'));
      await Promise.all([page.waitForURL(/\/providers\/zendesk$/), page.keyboard.press('Enter')]);

      // 2. Zendesk offers OAuth ("Continue with Zendesk") and the API-token form; both need the account's address.
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Connect Zendesk');
      const oauthForm = page.locator('form[action$="/oauth"]');
      await oauthForm.getByLabel('Your Zendesk address').fill(zendesk.url);
      await shot(page, '02-zendesk-choose-how.png');
      await Promise.all([page.waitForURL(`${oauth.url}/oauth/authorizations/new?**`), oauthForm.getByRole('button', { name: 'Continue with Zendesk' }).click()]);

      // 3. The provider's consent page (the simulator), reached with PKCE and a signed state.
      const authorize = new URL(page.url());
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('scope')).toBe('read write');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Support Hub wants to access your Acme account');
      await shot(page, '03-authorize-on-provider.png');
      await Promise.all([page.waitForURL(/\/connect\/ml_[A-Za-z0-9]+\/done\?r=/), page.getByRole('button', { name: 'Approve' }).click()]);

      // 4. Back on Omniport: connected, with a way back to the developer's app.
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Zendesk is connected');
      expect(await page.getByRole('link', { name: 'Return to app.example.com' }).getAttribute('href')).toBe(returnUrl);
      await shot(page, '04-oauth-connected.png');
      // Reloading the success page is harmless (nothing is submitted again).
      await page.reload();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Zendesk is connected');
      expect(errors, errors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }

    const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(conns).toMatchObject([{ provider: 'zendesk', status: 'valid', base_url: zendesk.url }]);
    // Zendesk was called with the OAuth access token (Bearer), first to check it.
    expect(zendesk.requests.some((r) => r.authScheme === 'bearer' && /users\/me/.test(r.path) && r.status === 200)).toBe(true);
    const created = await server.sql("select payload from events where type = 'connection.created' and payload->>'id_connection' = $1", [conns[0].id_connection]);
    expect(created).toHaveLength(1);
  });

  it('connects Salesforce with OAuth: sandbox login chosen, PKCE, and the org\'s instance URL as the connection\'s address', async () => {
    const link = await magicLink('tailspin', 'Tailspin Toys');
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(`${link.url}/providers/salesforce`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Connect Salesforce');
      const oauthForm = page.locator('form[action$="/oauth"]');
      await oauthForm.getByLabel('Where you sign in to Salesforce').selectOption({ label: 'Sandbox (test.salesforce.com)' });
      await shot(page, '11-salesforce-choose-login.png');
      await Promise.all([page.waitForURL(`${sfAuth.url}/services/oauth2/authorize?**`), oauthForm.getByRole('button', { name: 'Continue with Salesforce' }).click()]);
      const authorize = new URL(page.url());
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('scope')).toBe('api refresh_token');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Revenue Sync wants to access your Acme account');
      await Promise.all([page.waitForURL(/\/connect\/ml_[A-Za-z0-9]+\/done\?r=/), page.getByRole('button', { name: 'Approve' }).click()]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Salesforce is connected');
      await shot(page, '12-salesforce-connected.png');
      expect(errors, errors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
    const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(conns).toMatchObject([{ provider: 'salesforce', status: 'valid', base_url: salesforce.url }]);
  });

  it('connects Microsoft Dynamics 365 Sales with OAuth: the environment URL typed, a tenant-specific authority, PKCE, and the environment as scope', async () => {
    const link = await magicLink('wingtip', 'Wingtip Toys');
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(link.url);
      await Promise.all([page.waitForURL(/\/providers\/dynamics$/), page.getByRole('link', { name: /Microsoft Dynamics 365 Sales/ }).click()]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Connect Microsoft Dynamics 365 Sales');
      const oauthForm = page.locator('form[action$="/oauth"]');
      await oauthForm.getByLabel('Your Microsoft Dynamics 365 Sales address').fill(dynamics.url);
      await shot(page, '13-dynamics-environment.png');
      await Promise.all([
        page.waitForURL(`${dvAuth.url}/${tenant}/oauth2/v2.0/authorize?**`),
        oauthForm.getByRole('button', { name: 'Continue with Microsoft Dynamics 365 Sales' }).click(),
      ]);
      const authorize = new URL(page.url());
      expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: 'omniport-dynamics',
        scope: `${dynamics.url}/.default offline_access`,
        code_challenge_method: 'S256',
      });
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Sales Connector wants to access your Acme account');
      await Promise.all([page.waitForURL(/\/connect\/ml_[A-Za-z0-9]+\/done\?r=/), page.getByRole('button', { name: 'Approve' }).click()]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Microsoft Dynamics 365 Sales is connected');
      await shot(page, '14-dynamics-connected.png');
      expect(errors, errors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
    // The token request as the identity platform takes it: form-encoded, the code with its PKCE verifier, and the scope again.
    expect(dvAuth.grants).toMatchObject([
      {
        grantType: 'authorization_code',
        ok: true,
        contentType: 'application/x-www-form-urlencoded',
        scope: `${dynamics.url}/.default offline_access`,
        params: ['client_id', 'client_secret', 'code', 'code_verifier', 'grant_type', 'redirect_uri', 'scope'],
      },
    ]);
    const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(conns).toMatchObject([{ provider: 'dynamics', status: 'valid', base_url: dynamics.url }]);
    expect(dynamics.requests.some((r) => r.path === '/api/data/v9.2/WhoAmI' && r.auth?.valid === true && r.status === 200)).toBe(true);
  });

  for (const [provider, name, app, origin] of [
    ['close', 'Close', 'Acme Lead Sync', 'adventure-works'],
    ['attio', 'Attio', 'Acme Workspace Sync', 'litware'],
  ] as const) {
    it(`connects ${name} with OAuth: no address to type, no scope, no PKCE`, async () => {
      const auth = provider === 'close' ? closeAuth : attioAuth;
      const link = await magicLink(origin, origin);
      const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
      const page = await context.newPage();
      try {
        await page.goto(`${link.url}/providers/${provider}`);
        const oauthForm = page.locator('form[action$="/oauth"]');
        expect(await oauthForm.locator('input[name="base_url"]').count()).toBe(0);
        await Promise.all([page.waitForURL(`${auth.url}${auth.paths.authorize}?**`), oauthForm.getByRole('button', { name: `Continue with ${name}` }).click()]);
        const params = Object.fromEntries(new URL(page.url()).searchParams);
        expect(Object.keys(params).sort()).toEqual(['client_id', 'redirect_uri', 'response_type', 'state']);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${app} wants to access your Acme account`);
        await Promise.all([page.waitForURL(/\/connect\/ml_[A-Za-z0-9]+\/done\?r=/), page.getByRole('button', { name: 'Approve' }).click()]);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${name} is connected`);
        await shot(page, `15-${provider}-connected.png`);
      } finally {
        await context.close();
      }
      expect(auth.grants).toMatchObject([{ grantType: 'authorization_code', ok: true, params: ['client_id', 'client_secret', 'code', 'grant_type', 'redirect_uri'] }]);
      const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
      expect(conns).toMatchObject([{ provider, status: 'valid', base_url: provider === 'close' ? close.url : attio.url }]);
    });
  }

  it('connects Zoho CRM with OAuth: data centre chosen, comma-separated scopes offline, and the api_domain as the connection\'s address', async () => {
    const link = await magicLink('fabrikam', 'Fabrikam');
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(`${link.url}/providers/zoho`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Connect Zoho CRM');
      const oauthForm = page.locator('form[action$="/oauth"]');
      await oauthForm.getByLabel('Where you sign in to Zoho CRM').selectOption({ label: 'Europe (accounts.zoho.eu)' });
      await shot(page, '13-zoho-choose-data-centre.png');
      await Promise.all([page.waitForURL(`${zohoAuth.url}/oauth/v2/auth?**`), oauthForm.getByRole('button', { name: 'Continue with Zoho CRM' }).click()]);
      const authorize = new URL(page.url());
      expect(authorize.searchParams.get('scope')).toBe('ZohoCRM.modules.ALL,ZohoCRM.settings.fields.READ,ZohoCRM.users.READ');
      expect(authorize.searchParams.get('access_type')).toBe('offline');
      expect(authorize.searchParams.get('prompt')).toBe('consent');
      expect(authorize.searchParams.get('code_challenge')).toBeNull();
      await Promise.all([page.waitForURL(/\/connect\/ml_[A-Za-z0-9]+\/done\?r=/), page.getByRole('button', { name: 'Approve' }).click()]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Zoho CRM is connected');
      await shot(page, '14-zoho-connected.png');
      expect(errors, errors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
    const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(conns).toMatchObject([{ provider: 'zoho', status: 'valid', base_url: zoho.url }]);
  });

  it('connects Zendesk with an API token, explaining a refused token first', async () => {
    const link = await magicLink('contoso', 'Contoso Ltd');
    const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(link.url);
      await Promise.all([page.waitForURL(/\/providers\/zendesk$/), page.locator('a.provider[href$="/providers/zendesk"]').click()]);
      const form = page.locator('form[action$="/credentials"]');
      await form.getByLabel('Your Zendesk address').fill(zendesk.url);
      await form.getByLabel('Email').fill('agent@example.com');
      await form.getByLabel('API token').fill('not-the-right-token');
      await shot(page, '05-token-form.png');
      await Promise.all([page.waitForLoadState('load'), form.getByRole('button', { name: 'Connect Zendesk' }).click()]);

      // The refusal is explained; what was typed is kept, except the token; focus goes to the message.
      const alert = page.getByRole('alert');
      expect(await alert.textContent()).toContain('Zendesk did not accept these credentials');
      expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('error-summary');
      const again = page.locator('form[action$="/credentials"]');
      expect(await again.getByLabel('Email').inputValue()).toBe('agent@example.com');
      expect(await again.getByLabel('API token').inputValue()).toBe('');
      await shot(page, '06-token-form-refused.png');

      await again.getByLabel('API token').fill('test-token');
      await Promise.all([page.waitForURL(/\/done\?r=/), again.getByRole('button', { name: 'Connect Zendesk' }).click()]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Zendesk is connected');
      await shot(page, '07-token-connected.png');

      // Back on the list, Zendesk shows as connected.
      await page.getByRole('link', { name: 'Connect another product' }).click();
      expect(await page.locator('a.provider[href$="/providers/zendesk"]').textContent()).toContain('Connected');
    } finally {
      await context.close();
    }
    const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(conns).toMatchObject([{ provider: 'zendesk', status: 'valid' }]);
  });

  it('shows clear pages for an expired and a revoked link', async () => {
    const expired = await magicLink('fabrikam', 'Fabrikam');
    await server.sql("update invite_links set expires_at = now() - interval '1 minute' where id = $1", [expired.id_invite_link]);
    const revoked = await magicLink('fabrikam', 'Fabrikam');
    await server.call('DELETE', `/magic-link/${revoked.id_invite_link}`);
    const context = await browser.newContext({ viewport: { width: 900, height: 500 } });
    const page = await context.newPage();
    try {
      const res = await page.goto(expired.url);
      expect(res?.status()).toBe(410);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link has expired');
      await shot(page, '08-expired-link.png');
      await page.goto(revoked.url);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link is no longer active');
      await shot(page, '09-revoked-link.png');
    } finally {
      await context.close();
    }
  });
});
