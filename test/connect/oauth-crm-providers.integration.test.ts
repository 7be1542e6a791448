/**
 * The hosted connect page's OAuth flow with the CRM providers' own request shapes: their manifests'
 * authorize and token endpoints (moved to the OAuth simulator by the project's app, as a project may),
 * the parameters each provider documents, and the provider's API accepting the token issued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { closeAdapter, closeManifest } from '../../src/providers/close';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startCloseSimulator, type CloseSimulator } from '../simulators/close';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';
import { waitForSync } from '../support/sync-wait';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ providers: new ProviderRegistry([closeAdapter]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
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
