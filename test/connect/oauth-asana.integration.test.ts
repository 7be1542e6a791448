/**
 * Asana through the hosted connect page's OAuth flow: the authorization request has Asana's shape
 * (https://app.asana.com/-/oauth_authorize with client_id, redirect_uri, state, scope `default` and a PKCE S256
 * challenge), the code goes to /-/oauth_token with its verifier, and the token is checked against the Asana
 * API (`GET /users/me`). Asana's access tokens last an hour: one Asana refuses is refreshed with the refresh
 * token and the call goes on. The OAuth simulator stands in for app.asana.com at Asana's own paths.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { asanaManifest, createAsanaAdapter } from '../../src/providers/asana';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startAsanaSimulator, type AsanaSimulator } from '../simulators/asana';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';

let server: TestServer;
let auth: OAuthSimulator;
let asana: AsanaSimulator;

beforeAll(async () => {
  auth = await startOAuthSimulator({ paths: { authorize: '/-/oauth_authorize', token: '/-/oauth_token' }, clientAuth: 'post', requirePkce: true });
  // The traffic is checked against Asana's description by the conformance suite.
  asana = await startAsanaSimulator({ validateSpec: false });
  auth.onAccessToken = (t) => asana.acceptToken(t);
  server = await startTestServer({ providers: new ProviderRegistry([createAsanaAdapter()]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
  await asana?.close();
});

it('declares Asana\'s real endpoints', () => {
  expect(asanaManifest.oauth).toEqual({ hosts: ['app.asana.com'], authorizeUrl: 'https://app.asana.com/-/oauth_authorize', tokenUrl: 'https://app.asana.com/-/oauth_token', scopes: ['default'], pkce: true });
});

it('connects Asana with OAuth (PKCE, scope default), checks the token with GET /users/me, and refreshes a token Asana refuses', async () => {
  const client = auth.clients[0]!;
  const app = await server.call('PUT', '/oauth-apps/asana', {
    body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}/-/oauth_authorize`, token_url: `${auth.url}/-/oauth_token` },
  });
  expect(app.status, JSON.stringify(app.body)).toBe(200);
  auth.addRedirectUri(client.clientId, `${server.url}/connect/oauth/callback`);
  const link = await createLink(server, { linked_user_origin_id: 'cust-asana' });

  const { authorizeUrl, cookie } = await startOAuth(link.url, asana.url, 'asana');
  expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${auth.url}/-/oauth_authorize`);
  const params = Object.fromEntries(authorizeUrl.searchParams);
  expect(params).toMatchObject({ client_id: client.clientId, redirect_uri: `${server.url}/connect/oauth/callback`, response_type: 'code', scope: 'default', code_challenge_method: 'S256' });
  expect(params.code_challenge).toBeTruthy();

  const callback = await decide(auth, authorizeUrl);
  const done = await request(callback.href, { cookie });
  expect(done.status, done.text).toBe(303);
  expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true]]);
  expect(asana.requests.some((r) => r.path === '/users/me' && r.headers.authorization === 'Bearer [redacted]')).toBe(true);
  const conns = await server.call('GET', '/connections');
  expect(conns.body.data).toMatchObject([{ provider: 'asana', status: 'valid', base_url: asana.url }]);

  // The hour is up: Asana refuses the token, Omniport refreshes it once and the call goes on.
  asana.rejectAllTokens();
  const fields = await server.call('GET', '/field-mapping/remote-fields?object_type=ticketing.ticket', { headers: { 'x-connection-token': conns.body.data[0].connection_token } });
  expect(fields.status, JSON.stringify(fields.body)).toBe(200);
  expect(fields.body.data.map((f: { label: string }) => f.label)).toContain('Order number');
  expect(auth.refreshCount()).toBe(1);
});
