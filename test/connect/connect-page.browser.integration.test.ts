import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startSalesforceSimulator, type SalesforceSimulator } from '../simulators/salesforce';
import { startZohoSimulator, type ZohoSimulator } from '../simulators/zoho';
import { startDynamicsSimulator, type DynamicsSimulator } from '../simulators/dynamics';
import { startCloseSimulator, type CloseSimulator } from '../simulators/close';
import { startAttioSimulator, type AttioSimulator } from '../simulators/attio';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';
import { startPipedriveSimulator, type PipedriveSimulator } from '../simulators/pipedrive';
import { startZendeskSellSimulator, type ZendeskSellSimulator } from '../simulators/zendesk-sell';
import { startJiraSimulator, type JiraSimulator } from '../simulators/jira';
import { jiraOnSimulator } from '../support/connect-providers';
import { ProviderRegistry, defaultProviders } from '../../src/providers/registry';
import type { ProviderAdapter } from '../../src/providers/types';

/**
 * The hosted connect page in a real browser (Debian's Chromium through playwright-core), with the real
 * Zendesk adapter against the Zendesk simulator; Zendesk's OAuth endpoints are pointed at the OAuth
 * simulator through the project's OAuth app; the eight CRMs likewise (HubSpot, Pipedrive, Salesforce, Dynamics
 * 365 Sales, Zoho CRM, Attio, Close, Zendesk Sell) and Jira (its site chosen among those the grant reaches), each
 * end to end with its provider's authorize and token request shapes, and the connection then used through the
 * passthrough endpoint. Screenshots of every step go to test-artifacts/connect/.
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
  let hubspotAuth: OAuthSimulator;
  let hubspot: HubSpotSimulator;
  let pipedriveAuth: OAuthSimulator;
  let pipedrive: PipedriveSimulator;
  let sellAuth: OAuthSimulator;
  let sell: ZendeskSellSimulator;
  let jiraAuth: OAuthSimulator;
  let jira: JiraSimulator;
  /** The callback address of each CRM's OAuth app, as PUT /oauth-apps gave it. */
  const redirectUris: Record<string, string> = {};
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
    // HubSpot, Close, Attio and Zendesk Sell have one API host (their manifests' default base URL,
    // not typed on the page): moved to their simulators here, as their OAuth endpoints are moved to OAuth
    // simulators through the project's apps, so that no test reaches a real API. Pipedrive's OAuth connections
    // call the company domain its token answer gives (`api_domain`, the simulator's address below).
    close = await startCloseSimulator({ apiKeys: [] });
    attio = await startAttioSimulator({ tokens: [] });
    hubspot = await startHubSpotSimulator({ accessTokens: [] });
    pipedrive = await startPipedriveSimulator({ apiTokens: [] });
    sell = await startZendeskSellSimulator({ tokens: [] });
    const moved: Record<string, string> = { close: close.url, attio: attio.url, hubspot: hubspot.url, 'zendesk-sell': sell.url };
    // Jira: Atlassian's API host (accessible-resources and the gateway under /ex/jira/{cloudId}) is the Jira simulator.
    jira = await startJiraSimulator({ accessTokens: [] });
    const adapters = defaultProviders().map((a): ProviderAdapter => {
      if (a.manifest.name === 'jira') return jiraOnSimulator(jira);
      return moved[a.manifest.name] ? { ...a, manifest: { ...a.manifest, defaultBaseUrl: moved[a.manifest.name] } } : a;
    });
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
    // HubSpot (https://app.hubspot.com/oauth/authorize, https://api.hubapi.com/oauth/v1/token): space-separated
    // scopes, no PKCE, the client's id and secret in the form.
    hubspotAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-hubspot', clientSecret: 'hs-oauth-secret', name: 'Acme Contact Sync', redirectUris: [] }],
      paths: { authorize: '/oauth/authorize', token: '/oauth/v1/token' },
      clientAuth: 'post',
    });
    hubspotAuth.onAccessToken = (token) => hubspot.addAccessToken(token, { kind: 'oauth' });
    // Pipedrive (https://oauth.pipedrive.com/oauth/authorize and /oauth/token): the client authenticates with
    // HTTP basic, and the token answer names the company's api_domain (here the simulator).
    pipedriveAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-pipedrive', clientSecret: 'pd-oauth-secret', name: 'Acme Deal Sync', redirectUris: [] }],
      paths: { authorize: '/oauth/authorize', token: '/oauth/token' },
      clientAuth: 'basic',
      shapeTokenAnswer: (answer) => ({ ...answer, api_domain: pipedrive.url }),
    });
    pipedriveAuth.onAccessToken = (token) => pipedrive.addOAuthToken(token);
    // Zendesk Sell (https://api.getbase.com/oauth2/authorize and /oauth2/token): HTTP basic client authentication.
    sellAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-zendesk-sell', clientSecret: 'sell-oauth-secret', name: 'Acme Pipeline Sync', redirectUris: [] }],
      paths: { authorize: '/oauth2/authorize', token: '/oauth2/token' },
      clientAuth: 'basic',
    });
    sellAuth.onAccessToken = (token) => sell.addToken(token);
    // Jira (https://auth.atlassian.com/authorize and /oauth/token): a JSON token request, rotating refresh tokens.
    jiraAuth = await startOAuthSimulator({
      clients: [{ clientId: 'omniport-jira', clientSecret: 'jira-oauth-secret', name: 'Acme Issue Sync', redirectUris: [] }],
      paths: { authorize: '/authorize', token: '/oauth/token' },
      clientAuth: 'post',
    });
    jiraAuth.onAccessToken = (token) => jira.addAccessToken(token);
    // The project's OAuth app of each CRM, pointed at its authorization server's simulator.
    for (const [provider, sim] of [
      ['salesforce', sfAuth],
      ['dynamics', dvAuth],
      ['zoho', zohoAuth],
      ['close', closeAuth],
      ['attio', attioAuth],
      ['hubspot', hubspotAuth],
      ['pipedrive', pipedriveAuth],
      ['zendesk-sell', sellAuth],
      ['jira', jiraAuth],
    ] as const) {
      const { clientId, clientSecret } = sim.clients[0]!;
      const res = await server.call('PUT', `/oauth-apps/${provider}`, {
        body: { client_id: clientId, client_secret: clientSecret, authorize_url: `${sim.url}${sim.paths.authorize}`, token_url: `${sim.url}${sim.paths.token}` },
      });
      expect(res.status).toBe(200);
      redirectUris[provider] = res.body.data.redirect_uri;
      sim.addRedirectUri(clientId, res.body.data.redirect_uri);
    }
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
    await hubspotAuth?.close();
    await hubspot?.close();
    await pipedriveAuth?.close();
    await pipedrive?.close();
    await sellAuth?.close();
    await sell?.close();
    await jiraAuth?.close();
    await jira?.close();
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

  interface CrmFlow {
    provider: string;
    /** The product's name on the connect page. */
    name: string;
    /** The OAuth app's name on the provider's consent page (the simulator's client). */
    app: string;
    origin: string;
    auth: OAuthSimulator;
    /** What the linked user does on the provider's page before "Continue with …" (type an address, choose a login host). */
    choose?: (oauthForm: Locator) => Promise<unknown>;
    /** The authorization request's parameters beyond client_id, redirect_uri, response_type and state (null: absent). */
    authorize: Record<string, unknown>;
    /** The token request's parameter names, sorted (the simulator records names, never values). */
    tokenParams: string[];
    /** The API address the connection must have (a simulator, never a real API). */
    baseUrl: string;
    /** A GET the provider answers with the connection's access token, sent through POST /passthrough. */
    probe: { path: string; query?: Record<string, string> };
    /** How the token request is encoded (default form-encoded; Jira's is JSON). */
    tokenContentType?: string;
    /** What the linked user does on Omniport after approving, before "… is connected" (choose a site). */
    afterApprove?: (page: Page) => Promise<unknown>;
  }

  /**
   * One CRM's OAuth flow end to end in the browser: magic link → the product in the list → its page → the
   * provider's consent page (the OAuth simulator, whose authorization request is checked) → Approve → callback
   * → token request (its shape checked) → "… is connected" → a valid connection whose token the provider accepts.
   */
  async function connectCrmWithOAuth(flow: CrmFlow) {
    const link = await magicLink(flow.origin, flow.origin);
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    let authorize: Record<string, string>;
    try {
      await page.goto(link.url);
      await Promise.all([page.waitForURL(new RegExp(`/providers/${flow.provider}$`)), page.locator(`a.provider[href$="/providers/${flow.provider}"]`).click()]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(`Connect ${flow.name}`);
      const oauthForm = page.locator('form[action$="/oauth"]');
      // Without a choice to make, nothing to type: the provider has one API host, or the token answer names it.
      if (flow.choose) await flow.choose(oauthForm);
      else expect(await oauthForm.locator('input[name="base_url"], select[name="base_url"]').count()).toBe(0);
      await shot(page, `20-${flow.provider}-choose.png`);
      await Promise.all([page.waitForURL(`${flow.auth.url}${flow.auth.paths.authorize}?**`), oauthForm.getByRole('button', { name: `Continue with ${flow.name}` }).click()]);

      // The authorization request, as the provider takes it: the project's client, its registered callback, a
      // signed state (`<flow>.<expiry>.<HMAC>`), and the provider's own scopes, PKCE and extra parameters.
      authorize = Object.fromEntries(new URL(page.url()).searchParams);
      const expected = Object.entries(flow.authorize).filter(([, v]) => v !== null);
      expect(Object.keys(authorize).sort()).toEqual(['client_id', 'redirect_uri', 'response_type', 'state', ...expected.map(([k]) => k)].sort());
      expect(authorize).toMatchObject({ client_id: flow.auth.clients[0]!.clientId, redirect_uri: redirectUris[flow.provider], response_type: 'code', ...Object.fromEntries(expected) });
      expect(authorize.state).toMatch(/^[\w-]+\.\d+\.[\w-]+$/);
      if (authorize.code_challenge_method) expect(authorize.code_challenge).toMatch(/^[\w-]{43}$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${flow.app} wants to access your Acme account`);
      if (flow.afterApprove) {
        await Promise.all([page.waitForURL(/\/connect\/oauth\/callback\?/), page.getByRole('button', { name: 'Approve' }).click()]);
        await flow.afterApprove(page);
      } else {
        await Promise.all([page.waitForURL(/\/connect\/ml_[A-Za-z0-9]+\/done\?r=/), page.getByRole('button', { name: 'Approve' }).click()]);
      }
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${flow.name} is connected`);
      await shot(page, `21-${flow.provider}-connected.png`);
      expect(errors, errors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }

    // One token request: the code exchanged (with its PKCE verifier where a challenge was sent), form-encoded (or JSON).
    expect(flow.auth.grants).toMatchObject([{ grantType: 'authorization_code', ok: true, contentType: flow.tokenContentType ?? 'application/x-www-form-urlencoded', params: flow.tokenParams }]);
    expect(flow.tokenParams.includes('code_verifier')).toBe(authorize.code_challenge !== undefined);
    const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(conns).toMatchObject([{ provider: flow.provider, status: 'valid', base_url: flow.baseUrl }]);
    // Usable: the provider accepts the stored access token on a call made through Omniport.
    const probe = await server.call('POST', '/passthrough', { headers: { 'x-connection-token': conns[0].connection_token }, body: { method: 'GET', ...flow.probe } });
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    expect(probe.body.data.status, JSON.stringify(probe.body.data.body)).toBe(200);
    return { authorize };
  }

  it('connects Salesforce with OAuth: sandbox login chosen, PKCE, and the org\'s instance URL as the connection\'s address', async () => {
    await connectCrmWithOAuth({
      provider: 'salesforce',
      name: 'Salesforce',
      app: 'Acme Revenue Sync',
      origin: 'tailspin',
      auth: sfAuth,
      choose: (form) => form.getByLabel('Where you sign in to Salesforce').selectOption({ label: 'Sandbox (test.salesforce.com)' }),
      authorize: { scope: 'api refresh_token', code_challenge: expect.any(String), code_challenge_method: 'S256' },
      tokenParams: ['client_id', 'client_secret', 'code', 'code_verifier', 'grant_type', 'redirect_uri'],
      baseUrl: salesforce.url,
      probe: { path: '/services/data/v59.0/limits' },
    });
  });

  it('connects Microsoft Dynamics 365 Sales with OAuth: the environment URL typed, a tenant-specific authority, PKCE, and the environment as scope', async () => {
    await connectCrmWithOAuth({
      provider: 'dynamics',
      name: 'Microsoft Dynamics 365 Sales',
      app: 'Acme Sales Connector',
      origin: 'wingtip',
      auth: dvAuth,
      choose: (form) => form.getByLabel('Your Microsoft Dynamics 365 Sales address').fill(dynamics.url),
      authorize: { scope: `${dynamics.url}/.default offline_access`, code_challenge: expect.any(String), code_challenge_method: 'S256' },
      // The identity platform takes the scope again on the token request.
      tokenParams: ['client_id', 'client_secret', 'code', 'code_verifier', 'grant_type', 'redirect_uri', 'scope'],
      baseUrl: dynamics.url,
      probe: { path: '/api/data/v9.2/WhoAmI' },
    });
    expect(dvAuth.grants[0]!.scope).toBe(`${dynamics.url}/.default offline_access`);
  });

  it('connects Zoho CRM with OAuth: data centre chosen, comma-separated scopes offline, and the api_domain as the connection\'s address', async () => {
    await connectCrmWithOAuth({
      provider: 'zoho',
      name: 'Zoho CRM',
      app: 'Acme CRM Sync',
      origin: 'fabrikam',
      auth: zohoAuth,
      choose: (form) => form.getByLabel('Where you sign in to Zoho CRM').selectOption({ label: 'Europe (accounts.zoho.eu)' }),
      authorize: { scope: 'ZohoCRM.modules.ALL,ZohoCRM.settings.fields.READ,ZohoCRM.users.READ', access_type: 'offline', prompt: 'consent', code_challenge: null },
      tokenParams: ['client_id', 'client_secret', 'code', 'grant_type', 'redirect_uri'],
      baseUrl: zoho.url,
      probe: { path: '/crm/v8/users', query: { type: 'CurrentUser' } },
    });
  });

  it('connects HubSpot with OAuth: no address to type, its scopes space-separated, no PKCE', async () => {
    await connectCrmWithOAuth({
      provider: 'hubspot',
      name: 'HubSpot',
      app: 'Acme Contact Sync',
      origin: 'proseware',
      auth: hubspotAuth,
      authorize: {
        scope: [
          'oauth',
          'crm.objects.contacts.read',
          'crm.objects.contacts.write',
          'crm.objects.companies.read',
          'crm.objects.companies.write',
          'crm.objects.deals.read',
          'crm.objects.deals.write',
          'crm.objects.owners.read',
          'crm.schemas.contacts.read',
          'crm.schemas.companies.read',
          'crm.schemas.deals.read',
        ].join(' '),
      },
      tokenParams: ['client_id', 'client_secret', 'code', 'grant_type', 'redirect_uri'],
      baseUrl: hubspot.url,
      probe: { path: '/crm/v3/objects/contacts', query: { limit: '1' } },
    });
  });

  it('connects Pipedrive with OAuth: no PKCE, the client authenticated with HTTP basic on the token request', async () => {
    await connectCrmWithOAuth({
      provider: 'pipedrive',
      name: 'Pipedrive',
      app: 'Acme Deal Sync',
      origin: 'lucerne',
      auth: pipedriveAuth,
      authorize: { scope: 'base contacts:full deals:full activities:full users:read' },
      // HTTP basic: no client_id or client_secret in the form.
      tokenParams: ['code', 'grant_type', 'redirect_uri'],
      baseUrl: pipedrive.url,
      probe: { path: '/v1/users/me' },
    });
  });

  it('connects Zendesk Sell with OAuth: no address to type, its scopes, the client authenticated with HTTP basic', async () => {
    await connectCrmWithOAuth({
      provider: 'zendesk-sell',
      name: 'Zendesk Sell',
      app: 'Acme Pipeline Sync',
      origin: 'alpine-ski-house',
      auth: sellAuth,
      authorize: { scope: 'read write profile' },
      tokenParams: ['code', 'grant_type', 'redirect_uri'],
      baseUrl: sell.url,
      probe: { path: '/v2/users/self' },
    });
  });

  for (const [provider, name, app, origin] of [
    ['close', 'Close', 'Acme Lead Sync', 'adventure-works'],
    ['attio', 'Attio', 'Acme Workspace Sync', 'litware'],
  ] as const) {
    it(`connects ${name} with OAuth: no address to type, no scope, no PKCE`, async () => {
      await connectCrmWithOAuth({
        provider,
        name,
        app,
        origin,
        auth: provider === 'close' ? closeAuth : attioAuth,
        authorize: {},
        tokenParams: ['client_id', 'client_secret', 'code', 'grant_type', 'redirect_uri'],
        baseUrl: provider === 'close' ? close.url : attio.url,
        probe: { path: provider === 'close' ? '/api/v1/me/' : '/v2/self' },
      });
    });
  }

  it('connects Jira with OAuth: Atlassian\'s audience and consent, a JSON token request, and the site chosen among those the grant reaches', async () => {
    // The grant reaches two Jira sites: the page asks which (nothing chosen for the user).
    jira.accessibleResources.push({
      id: 'c0ffee00-1111-4222-8333-444455556666',
      name: 'Northwind Engineering',
      url: 'https://northwind-eng.atlassian.net',
      scopes: ['read:jira-work', 'write:jira-work', 'read:jira-user', 'manage:jira-webhook'],
      avatarUrl: 'https://site-admin-avatar-cdn.prod.public.atl-paas.net/avatars/240/flag.png',
    });
    await connectCrmWithOAuth({
      provider: 'jira',
      name: 'Jira',
      app: 'Acme Issue Sync',
      origin: 'woodgrove',
      auth: jiraAuth,
      authorize: { scope: 'read:jira-work write:jira-work read:jira-user manage:jira-webhook offline_access', audience: 'api.atlassian.com', prompt: 'consent' },
      tokenParams: ['client_id', 'client_secret', 'code', 'grant_type', 'redirect_uri'],
      tokenContentType: 'application/json',
      afterApprove: async (page) => {
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Choose your Jira site');
        expect(await page.getByRole('radio').count()).toBe(2);
        await page.getByRole('radio', { name: /Simulated Jira/ }).check();
        await shot(page, '22-jira-choose-site.png');
        await Promise.all([page.waitForURL(/\/connect\/ml_[A-Za-z0-9]+\/done\?r=/), page.getByRole('button', { name: 'Connect this site' }).click()]);
      },
      baseUrl: `${jira.url}/ex/jira/${jira.cloudId}`,
      probe: { path: '/rest/api/3/myself' },
    });
    // The probe went through the gateway with the chosen site's cloud id.
    expect(jira.requests.some((r) => r.path === `/ex/jira/${jira.cloudId}/rest/api/3/myself` && r.auth?.scheme === 'bearer' && r.status === 200)).toBe(true);
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
