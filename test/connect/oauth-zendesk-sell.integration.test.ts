/**
 * Zendesk Sell through the hosted connect page: Sell's authorization-code flow (https://api.getbase.com
 * /oauth2/authorize and /oauth2/token, moved to the OAuth simulator by the project's app), scopes
 * `read write profile`, client authentication with HTTP basic at the token endpoint, and the Core API
 * accepting the token issued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { zendeskSellAdapter, zendeskSellManifest } from '../../src/providers/zendesk-sell';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startZendeskSellSimulator, type ZendeskSellSimulator } from '../simulators/zendesk-sell';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';
import { waitForSync } from '../support/sync-wait';

let server: TestServer;
let auth: OAuthSimulator;
let sell: ZendeskSellSimulator;

beforeAll(async () => {
  server = await startTestServer({ providers: new ProviderRegistry([zendeskSellAdapter]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
  const paths = { authorize: new URL(zendeskSellManifest.oauth!.authorizeUrl).pathname, token: new URL(zendeskSellManifest.oauth!.tokenUrl).pathname };
  // Sell authenticates the client at the token endpoint with HTTP basic only.
  auth = await startOAuthSimulator({ paths, clientAuth: 'basic' });
  sell = await startZendeskSellSimulator({ tokens: [] });
  auth.onAccessToken = (t) => sell.addToken(t);
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
  await sell?.close();
});

describe('Zendesk Sell', () => {
  it('connects with the authorization-code flow: read write profile, no PKCE, basic client authentication; the token reads Sell', async () => {
    const client = auth.clients[0]!;
    const app = await server.call('PUT', '/oauth-apps/zendesk-sell', {
      body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}${auth.paths.authorize}`, token_url: `${auth.url}${auth.paths.token}` },
    });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    auth.addRedirectUri(client.clientId, app.body.data.redirect_uri);
    const link = await createLink(server, { linked_user_origin_id: 'sell-oauth' });
    const page = await request(`${link.url}/providers/zendesk-sell`);
    expect(page.text).toContain('Continue with Zendesk Sell');

    const startedAt = Date.now();
    const { authorizeUrl, cookie } = await startOAuth(link.url, sell.url, 'zendesk-sell');
    expect(authorizeUrl.pathname).toBe('/oauth2/authorize');
    const params = Object.fromEntries(authorizeUrl.searchParams);
    expect(Object.keys(params).sort()).toEqual(['client_id', 'redirect_uri', 'response_type', 'scope', 'state']);
    expect(params).toMatchObject({ response_type: 'code', scope: 'read write profile' });
    const back = await request((await decide(auth, authorizeUrl)).href, { cookie });
    expect(back.status, back.text).toBe(303);
    expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true]]);

    const conn = (await server.call('GET', '/connections')).body.data.find((c: { provider: string }) => c.provider === 'zendesk-sell');
    expect(conn).toMatchObject({ status: 'valid', base_url: sell.url });
    await waitForSync(server, conn.connection_token as string, startedAt);
    const calls = sell.requests.filter((r) => r.path.startsWith('/v2/'));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.auth?.scheme === 'bearer' && r.auth.valid)).toBe(true);
    expect(sell.contractViolations).toEqual([]);
  });
});
