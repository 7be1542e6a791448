/**
 * Zoho CRM through the hosted connect page: the linked user picks the data centre's accounts server, the
 * authorization request carries Zoho's comma-separated scopes with `access_type=offline` and
 * `prompt=consent`, the token answer's `api_domain` becomes the connection's base URL, and a renewal goes
 * back to the accounts server (not to the API domain). The OAuth simulator plays the accounts server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { zohoAdapter, zohoManifest } from '../../src/providers/zoho';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startZohoSimulator, type ZohoSimulator } from '../simulators/zoho';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';
import { syncAndWait, waitForSync } from '../support/sync-wait';

let server: TestServer;
let auth: OAuthSimulator;
let zoho: ZohoSimulator;

beforeAll(async () => {
  server = await startTestServer({ providers: new ProviderRegistry([zohoAdapter]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
  // Zoho's token answer: access_token, refresh_token (first grant only), api_domain, token_type, expires_in.
  auth = await startOAuthSimulator({
    paths: { authorize: zohoManifest.oauth!.authorizeUrl, token: zohoManifest.oauth!.tokenUrl },
    clientAuth: 'post',
    rotateRefreshTokens: false,
    shapeTokenAnswer: ({ refresh_token, ...answer }, grant) => ({ ...answer, ...(grant === 'authorization_code' ? { refresh_token } : {}), api_domain: zoho.url, token_type: 'Bearer' }),
  });
  zoho = await startZohoSimulator({ accessTokens: [] });
  auth.onAccessToken = (t) => zoho.addAccessToken(t);
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
  await zoho?.close();
});

describe('Zoho CRM', () => {
  it('offers the data centres and asks for the CRM scopes, comma-separated, offline, with consent', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/zoho', { body: { client_id: client.clientId, client_secret: client.clientSecret } });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    const link = await createLink(server, { linked_user_origin_id: 'zoho-hosts' });
    const page = await request(`${link.url}/providers/zoho`);
    expect(page.text).toContain('Continue with Zoho CRM');
    expect(page.text).toContain('Europe (accounts.zoho.eu)');
    for (const [chosen, host] of [[undefined, 'accounts.zoho.com'], ['https://accounts.zoho.eu', 'accounts.zoho.eu']] as const) {
      const res = await request(`${link.url}/providers/zoho/oauth`, { form: chosen ? { base_url: chosen } : {} });
      expect(res.status, res.text).toBe(303);
      const url = new URL(res.location!);
      expect(`${url.host}${url.pathname}`).toBe(`${host}/oauth/v2/auth`);
      const params = Object.fromEntries(url.searchParams);
      expect(Object.keys(params).sort()).toEqual(['access_type', 'client_id', 'prompt', 'redirect_uri', 'response_type', 'scope', 'state']);
      expect(params).toMatchObject({ response_type: 'code', access_type: 'offline', prompt: 'consent', scope: 'ZohoCRM.modules.ALL,ZohoCRM.settings.fields.READ,ZohoCRM.users.READ' });
    }
  });

  it('connects: api_domain becomes the base URL, calls carry Zoho-oauthtoken, and an expired token is renewed at the accounts server', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/zoho', { body: { client_id: client.clientId, client_secret: client.clientSecret } });
    auth.addRedirectUri(client.clientId, app.body.data.redirect_uri);
    const link = await createLink(server, { linked_user_origin_id: 'zoho-oauth' });
    const startedAt = Date.now();
    // The accounts server chosen (here the simulator, as a data centre's accounts.zoho.* host would be).
    const { authorizeUrl, cookie } = await startOAuth(link.url, auth.url, 'zoho');
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${auth.url}/oauth/v2/auth`);
    const back = await request((await decide(auth, authorizeUrl)).href, { cookie });
    expect(back.status, back.text).toBe(303);
    expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true]]);

    const conn = (await server.call('GET', '/connections')).body.data.find((c: { provider: string }) => c.provider === 'zoho');
    expect(conn).toMatchObject({ base_url: zoho.url, status: 'valid' });
    await waitForSync(server, conn.connection_token as string, startedAt);
    const calls = zoho.requests.filter((r) => r.path.startsWith('/crm/v8/'));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.auth?.scheme === 'zoho-oauthtoken' && r.auth.valid)).toBe(true);

    // Zoho access tokens last an hour: the next call's 401 renews it at the accounts server.
    zoho.expireTokens();
    await syncAndWait(server, conn.connection_token as string);
    expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true], ['refresh_token', true]]);
    const after = (await server.call('GET', '/connections')).body.data.find((c: { provider: string }) => c.provider === 'zoho');
    expect(after).toMatchObject({ status: 'valid', base_url: zoho.url });
  });
});
