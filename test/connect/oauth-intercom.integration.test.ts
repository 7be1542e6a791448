/**
 * Intercom through the hosted connect page's OAuth flow: the authorization request has Intercom's shape
 * (https://app.intercom.com/oauth with client_id, redirect_uri and state; no scope — scopes are set on the
 * app — and no PKCE), the code goes to /auth/eagle/token (client_secret_post), and the token is checked
 * against the Intercom API (`GET /me`). The OAuth simulator stands in for app.intercom.com and
 * api.intercom.io's token endpoint, at Intercom's own paths; the project points its OAuth app at it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { intercomAdapter, intercomManifest } from '../../src/providers/intercom';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startIntercomSimulator, type IntercomSimulator } from '../simulators/intercom';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';

let server: TestServer;
let auth: OAuthSimulator;
let intercom: IntercomSimulator;

beforeAll(async () => {
  auth = await startOAuthSimulator({ paths: { authorize: '/oauth', token: '/auth/eagle/token' }, clientAuth: 'post' });
  intercom = await startIntercomSimulator();
  auth.onAccessToken = (t) => intercom.acceptToken(t);
  server = await startTestServer({ providers: new ProviderRegistry([intercomAdapter]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
  await intercom?.close();
});

it('declares Intercom\'s real endpoints', () => {
  expect(intercomManifest.oauth).toEqual({ hosts: ['api.intercom.io', 'api.eu.intercom.io', 'api.au.intercom.io'], authorizeUrl: 'https://app.intercom.com/oauth', tokenUrl: 'https://api.intercom.io/auth/eagle/token', scopes: [], pkce: false });
});

it('connects Intercom with OAuth: authorize without scope or PKCE, code exchanged at /auth/eagle/token, token checked with GET /me', async () => {
  const client = auth.clients[0]!;
  const app = await server.call('PUT', '/oauth-apps/intercom', {
    body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}/oauth`, token_url: `${auth.url}/auth/eagle/token` },
  });
  expect(app.status, JSON.stringify(app.body)).toBe(200);
  auth.addRedirectUri(client.clientId, `${server.url}/connect/oauth/callback`);
  const link = await createLink(server, { linked_user_origin_id: 'cust-intercom' });

  const { authorizeUrl, cookie } = await startOAuth(link.url, intercom.url, 'intercom');
  expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${auth.url}/oauth`);
  const params = Object.fromEntries(authorizeUrl.searchParams);
  expect(params).toMatchObject({ client_id: client.clientId, redirect_uri: `${server.url}/connect/oauth/callback`, response_type: 'code' });
  expect(params.state).toBeTruthy();
  expect(params.code_challenge).toBeUndefined();
  expect(params.scope ?? '').toBe('');

  const callback = await decide(auth, authorizeUrl);
  const done = await request(callback.href, { cookie });
  expect(done.status, done.text).toBe(303);
  expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true]]);
  // The new token reached Intercom's API: the credential check (GET /me) with the version header.
  const me = intercom.requests.find((r) => r.path === '/me');
  expect(me?.headers.authorization).toBe('Bearer [redacted]');
  expect(me?.headers['intercom-version']).toBe('2.14');
  const conns = await server.call('GET', '/connections');
  expect(conns.body.data).toMatchObject([{ provider: 'intercom', status: 'valid', base_url: intercom.url }]);
});
