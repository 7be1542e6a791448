/**
 * The hosted connect page's OAuth flow with the CRM providers' own request shapes: their manifests'
 * authorize and token endpoints (moved to the OAuth simulator by the project's app, as a project may),
 * the parameters each provider documents, and the provider's API accepting the token issued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { closeAdapter, closeManifest } from '../../src/providers/close';
import { salesforceAdapter } from '../../src/providers/salesforce';
import { attioAdapter, attioManifest } from '../../src/providers/attio';
import { dynamicsAdapter, dynamicsManifest } from '../../src/providers/dynamics';
import { startDynamicsSimulator, type DynamicsSimulator } from '../simulators/dynamics';
import { startAttioSimulator, type AttioSimulator } from '../simulators/attio';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startCloseSimulator, type CloseSimulator } from '../simulators/close';
import { startSalesforceSimulator, type SalesforceSimulator } from '../simulators/salesforce';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';
import { syncAndWait, waitForSync } from '../support/sync-wait';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ providers: new ProviderRegistry([closeAdapter, salesforceAdapter, attioAdapter, dynamicsAdapter]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await server?.close();
});

describe('Close', () => {
  let auth: OAuthSimulator;
  let close: CloseSimulator;
  beforeAll(async () => {
    // Close's endpoints, on the simulator: https://app.close.com/oauth2/authorize/ and https://api.close.com/oauth2/token/.
    const paths = { authorize: new URL(closeManifest.oauth!.authorizeUrl).pathname, token: new URL(closeManifest.oauth!.tokenUrl).pathname };
    // The token request carries client_id and client_secret in the form (Close documents no basic auth there).
    auth = await startOAuthSimulator({ paths, clientAuth: 'post' });
    close = await startCloseSimulator({ apiKeys: [] });
    auth.onAccessToken = (t) => close.addAccessToken(t);
  });
  afterAll(async () => {
    await auth?.close();
    await close?.close();
  });

  it('connects with the authorization-code flow Close documents: no scope, no PKCE, a form-encoded token request', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/close', {
      body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}${auth.paths.authorize}`, token_url: `${auth.url}${auth.paths.token}` },
    });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    auth.addRedirectUri(client.clientId, app.body.data.redirect_uri);
    const link = await createLink(server, { linked_user_origin_id: 'close-oauth' });
    const page = await request(`${link.url}/providers/close`);
    expect(page.text).toContain('Continue with Close');

    const startedAt = Date.now();
    const { authorizeUrl, cookie } = await startOAuth(link.url, close.url, 'close');
    expect(authorizeUrl.pathname).toBe('/oauth2/authorize/');
    const params = Object.fromEntries(authorizeUrl.searchParams);
    expect(Object.keys(params).sort()).toEqual(['client_id', 'redirect_uri', 'response_type', 'state']);
    expect(params).toMatchObject({ response_type: 'code', client_id: client.clientId, redirect_uri: app.body.data.redirect_uri });

    const back = await request((await decide(auth, authorizeUrl)).href, { cookie });
    expect(back.status, back.text).toBe(303);
    expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true]]);

    const conns = await server.call('GET', '/connections');
    expect(conns.body.data).toMatchObject([{ provider: 'close', base_url: close.url, status: 'valid' }]);
    // The access token is sent as a bearer token; the first sync reads Close with it.
    await waitForSync(server, conns.body.data[0].connection_token as string, startedAt);
    const calls = close.requests.filter((r) => r.path === '/api/v1/me/');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.auth?.scheme === 'bearer' && r.auth.valid)).toBe(true);
  });
});

describe('Salesforce', () => {
  let auth: OAuthSimulator;
  let sf: SalesforceSimulator;
  beforeAll(async () => {
    // Salesforce's endpoints (on the login host: login.salesforce.com, test.salesforce.com or My Domain), on
    // the simulator. Its token answer has no expires_in, carries the org's instance_url (and id, issued_at,
    // signature), and a refresh answers no new refresh token.
    auth = await startOAuthSimulator({
      paths: { authorize: '/services/oauth2/authorize', token: '/services/oauth2/token' },
      clientAuth: 'post',
      requirePkce: true,
      rotateRefreshTokens: false,
      shapeTokenAnswer: ({ expires_in: _e, refresh_token, ...answer }, grant) => ({
        ...answer,
        ...(grant === 'authorization_code' ? { refresh_token } : {}),
        instance_url: sf.url,
        id: 'https://test.salesforce.com/id/00D5g000000SIMORG/0055g000000SIMUSR',
        issued_at: String(Date.now()),
        signature: 'c2ltdWxhdGVk',
      }),
    });
    sf = await startSalesforceSimulator({ accessTokens: [] });
    auth.onAccessToken = (t) => sf.addAccessToken(t);
  });
  afterAll(async () => {
    await auth?.close();
    await sf?.close();
  });

  it('sends the linked user to the production or sandbox login host, with PKCE and the api refresh_token scopes', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/salesforce', { body: { client_id: client.clientId, client_secret: client.clientSecret } });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    const link = await createLink(server, { linked_user_origin_id: 'sf-hosts' });
    const page = await request(`${link.url}/providers/salesforce`);
    expect(page.text).toContain('Continue with Salesforce');
    expect(page.text).toContain('Sandbox (test.salesforce.com)');
    for (const [chosen, host] of [[undefined, 'login.salesforce.com'], ['https://test.salesforce.com', 'test.salesforce.com']] as const) {
      const res = await request(`${link.url}/providers/salesforce/oauth`, { form: chosen ? { base_url: chosen } : {} });
      expect(res.status, res.text).toBe(303);
      const url = new URL(res.location!);
      expect(`${url.host}${url.pathname}`).toBe(`${host}/services/oauth2/authorize`);
      const params = Object.fromEntries(url.searchParams);
      expect(Object.keys(params).sort()).toEqual(['client_id', 'code_challenge', 'code_challenge_method', 'redirect_uri', 'response_type', 'scope', 'state']);
      expect(params).toMatchObject({ response_type: 'code', scope: 'api refresh_token', code_challenge_method: 'S256' });
    }
  });

  it('connects with the web server flow and PKCE; the instance_url becomes the base URL; a refused session is renewed with the refresh token', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/salesforce', {
      body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}${auth.paths.authorize}`, token_url: `${auth.url}${auth.paths.token}` },
    });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    auth.addRedirectUri(client.clientId, app.body.data.redirect_uri);
    const link = await createLink(server, { linked_user_origin_id: 'sf-oauth' });
    const startedAt = Date.now();
    const { authorizeUrl, cookie } = await startOAuth(link.url, 'https://test.salesforce.com', 'salesforce');
    const back = await request((await decide(auth, authorizeUrl)).href, { cookie });
    expect(back.status, back.text).toBe(303);
    expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true]]);

    const conns = (await server.call('GET', '/connections')).body.data as { provider: string; base_url: string; status: string; connection_token: string }[];
    const conn = conns.find((c) => c.provider === 'salesforce')!;
    expect(conn).toMatchObject({ base_url: sf.url, status: 'valid' });
    await waitForSync(server, conn.connection_token, startedAt);
    const calls = sf.requests.filter((r) => r.path.startsWith('/services/data/v59.0/'));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.auth?.scheme === 'bearer' && r.auth.valid)).toBe(true);

    // The session ends (Salesforce sets no expiry in the token answer): the next call's 401 renews it.
    sf.expireSessions();
    await syncAndWait(server, conn.connection_token);
    expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true], ['refresh_token', true]]);
    const after = (await server.call('GET', '/connections')).body.data.find((c: { provider: string }) => c.provider === 'salesforce');
    expect(after).toMatchObject({ status: 'valid', base_url: sf.url });
  });
});

describe('Attio', () => {
  let auth: OAuthSimulator;
  let attio: AttioSimulator;
  beforeAll(async () => {
    // Attio's endpoints (https://app.attio.com/authorize, https://app.attio.com/oauth/token), on the simulator.
    const paths = { authorize: new URL(attioManifest.oauth!.authorizeUrl).pathname, token: new URL(attioManifest.oauth!.tokenUrl).pathname };
    auth = await startOAuthSimulator({ paths, clientAuth: 'post' });
    attio = await startAttioSimulator({ tokens: [] });
    auth.onAccessToken = (t) => attio.addAccessToken(t);
  });
  afterAll(async () => {
    await auth?.close();
    await attio?.close();
  });

  it('connects with the authorization-code flow: no scope parameter, no PKCE; the token reads the workspace', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/attio', {
      body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}${auth.paths.authorize}`, token_url: `${auth.url}${auth.paths.token}` },
    });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    auth.addRedirectUri(client.clientId, app.body.data.redirect_uri);
    const link = await createLink(server, { linked_user_origin_id: 'attio-oauth' });
    const startedAt = Date.now();
    const { authorizeUrl, cookie } = await startOAuth(link.url, attio.url, 'attio');
    expect(Object.keys(Object.fromEntries(authorizeUrl.searchParams)).sort()).toEqual(['client_id', 'redirect_uri', 'response_type', 'state']);
    const back = await request((await decide(auth, authorizeUrl)).href, { cookie });
    expect(back.status, back.text).toBe(303);
    const conn = (await server.call('GET', '/connections')).body.data.find((c: { provider: string }) => c.provider === 'attio');
    expect(conn).toMatchObject({ base_url: attio.url, status: 'valid' });
    await waitForSync(server, conn.connection_token as string, startedAt);
    const calls = attio.requests.filter((r) => r.path === '/v2/self');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.auth?.scheme === 'bearer' && r.auth.valid)).toBe(true);
  });
});

describe('Microsoft Dynamics 365 Sales', () => {
  const tenant = '72f988bf-86f1-41af-91ab-2d7cd011db47';
  let auth: OAuthSimulator;
  let dv: DynamicsSimulator;
  beforeAll(async () => {
    // The Microsoft identity platform's v2.0 endpoints under a tenant-specific authority
    // (https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize|token), on the simulator. Its token
    // answer has scope, expires_in and ext_expires_in, and a refresh rotates the refresh token.
    auth = await startOAuthSimulator({
      paths: { authorize: `/${tenant}/oauth2/v2.0/authorize`, token: `/${tenant}/oauth2/v2.0/token` },
      clientAuth: 'post',
      requirePkce: true,
      shapeTokenAnswer: ({ scope: _s, ...answer }) => ({ ...answer, scope: `${dv.url}/user_impersonation`, ext_expires_in: answer.expires_in }),
    });
    dv = await startDynamicsSimulator({ accessTokens: [] });
    auth.onAccessToken = (t) => dv.addAccessToken(t);
  });
  afterAll(async () => {
    await auth?.close();
    await dv?.close();
  });

  it('asks for the environment URL and names it in the scope, with PKCE and offline_access, on the organizations authority by default', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/dynamics', { body: { client_id: client.clientId, client_secret: client.clientSecret } });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    const link = await createLink(server, { linked_user_origin_id: 'dv-defaults' });
    const page = await request(`${link.url}/providers/dynamics`);
    expect(page.text).toContain('Continue with Microsoft Dynamics 365 Sales');
    expect(page.text).toContain('https://your-org.crm.dynamics.com');
    const res = await request(`${link.url}/providers/dynamics/oauth`, { form: { base_url: `${dv.url}/` } });
    expect(res.status, res.text).toBe(303);
    const url = new URL(res.location!);
    expect(`${url.origin}${url.pathname}`).toBe(dynamicsManifest.oauth!.authorizeUrl);
    expect(url.pathname).toBe('/organizations/oauth2/v2.0/authorize');
    const params = Object.fromEntries(url.searchParams);
    expect(Object.keys(params).sort()).toEqual(['client_id', 'code_challenge', 'code_challenge_method', 'redirect_uri', 'response_type', 'scope', 'state']);
    expect(params).toMatchObject({ response_type: 'code', scope: `${dv.url}/.default offline_access`, code_challenge_method: 'S256' });
  });

  it('connects through a tenant-specific authority: the environment URL is the base URL; an expired token is renewed with the refresh token and the scope', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/dynamics', {
      body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}${auth.paths.authorize}`, token_url: `${auth.url}${auth.paths.token}` },
    });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    auth.addRedirectUri(client.clientId, app.body.data.redirect_uri);
    const link = await createLink(server, { linked_user_origin_id: 'dv-oauth' });
    const startedAt = Date.now();
    const { authorizeUrl, cookie } = await startOAuth(link.url, dv.url, 'dynamics');
    expect(authorizeUrl.pathname).toBe(`/${tenant}/oauth2/v2.0/authorize`);
    const back = await request((await decide(auth, authorizeUrl)).href, { cookie });
    expect(back.status, back.text).toBe(303);
    const scope = `${dv.url}/.default offline_access`;
    // The token request: form-encoded, the client's secret in the form, the code with its PKCE verifier, and the scope again.
    expect(auth.grants).toMatchObject([
      { grantType: 'authorization_code', ok: true, contentType: 'application/x-www-form-urlencoded', scope, params: ['client_id', 'client_secret', 'code', 'code_verifier', 'grant_type', 'redirect_uri', 'scope'] },
    ]);

    const conn = (await server.call('GET', '/connections')).body.data.find((c: { provider: string }) => c.provider === 'dynamics');
    expect(conn).toMatchObject({ base_url: dv.url, status: 'valid' });
    await waitForSync(server, conn.connection_token as string, startedAt);
    const calls = dv.requests.filter((r) => r.path.startsWith('/api/data/v9.2/'));
    expect(calls.some((r) => r.path === '/api/data/v9.2/WhoAmI')).toBe(true);
    expect(calls.every((r) => r.auth?.scheme === 'bearer' && r.auth.valid)).toBe(true);

    // The access token stops working before its time: the 401 is answered with one refresh, naming the environment again.
    dv.expireAccessTokens();
    await syncAndWait(server, conn.connection_token as string);
    expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true], ['refresh_token', true]]);
    expect(auth.grants[1]).toMatchObject({ scope, params: ['client_id', 'client_secret', 'grant_type', 'refresh_token', 'scope'] });
    const after = (await server.call('GET', '/connections')).body.data.find((c: { provider: string }) => c.provider === 'dynamics');
    expect(after).toMatchObject({ status: 'valid', base_url: dv.url });
  });
});
