/**
 * Help Scout through the hosted connect page's OAuth flow: the authorization request goes to Help Scout's consent
 * page (`/authentication/authorizeClientApplication` with client_id and state; no scope, no PKCE), the code is
 * exchanged at `/v2/oauth2/token` with the client id and secret in the form body, and the token — sent as a Bearer
 * token — is checked with `GET /v2/users/me`, then used by the first sync. The OAuth simulator stands in for
 * secure.helpscout.net and the token endpoint, at Help Scout's own paths.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { createHelpScoutAdapter, helpscoutManifest } from '../../src/providers/helpscout';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startHelpScoutSimulator, type HelpScoutSimulator } from '../simulators/helpscout';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';
import { syncAndWait } from '../support/sync-wait';

let server: TestServer;
let auth: OAuthSimulator;
let helpscout: HelpScoutSimulator;

beforeAll(async () => {
  auth = await startOAuthSimulator({ paths: { authorize: '/authentication/authorizeClientApplication', token: '/v2/oauth2/token' }, clientAuth: 'post' });
  helpscout = await startHelpScoutSimulator({ rateLimit: { perMinute: 100_000 } });
  auth.onAccessToken = (t) => helpscout.acceptToken(t);
  server = await startTestServer({ providers: new ProviderRegistry([createHelpScoutAdapter()]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
  await helpscout?.close();
});

it('declares Help Scout\'s real endpoints', () => {
  expect(helpscoutManifest.oauth).toEqual({
    hosts: ['api.helpscout.net'],
    authorizeUrl: 'https://secure.helpscout.net/authentication/authorizeClientApplication',
    tokenUrl: 'https://api.helpscout.net/v2/oauth2/token',
    scopes: [],
    pkce: false,
  });
});

it('connects Help Scout with OAuth: consent, code exchanged in the form body, Bearer token checked and used by the first sync', async () => {
  const client = auth.clients[0]!;
  const app = await server.call('PUT', '/oauth-apps/helpscout', {
    body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}/authentication/authorizeClientApplication`, token_url: `${auth.url}/v2/oauth2/token` },
  });
  expect(app.status, JSON.stringify(app.body)).toBe(200);
  auth.addRedirectUri(client.clientId, `${server.url}/connect/oauth/callback`);
  const link = await createLink(server, { linked_user_origin_id: 'cust-helpscout' });

  const { authorizeUrl, cookie } = await startOAuth(link.url, helpscout.url, 'helpscout');
  expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${auth.url}/authentication/authorizeClientApplication`);
  expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({ client_id: client.clientId });
  expect(authorizeUrl.searchParams.get('state')).toBeTruthy();
  expect(authorizeUrl.searchParams.get('code_challenge')).toBeNull();

  const callback = await decide(auth, authorizeUrl);
  const done = await request(callback.href, { cookie });
  expect(done.status, done.text).toBe(303);
  expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true]]);
  const me = helpscout.requests.find((r) => r.path === '/v2/users/me');
  expect(me?.headers.authorization).toMatch(/^Bearer /);

  const conns = await server.call('GET', '/connections');
  expect(conns.body.data).toMatchObject([{ provider: 'helpscout', status: 'valid', base_url: helpscout.url }]);
  const token = conns.body.data[0].connection_token as string;
  expect(token).toBeTruthy();
  await syncAndWait(server, token);
  const tickets = await server.call('GET', '/ticketing/tickets', { headers: { 'x-connection-token': token } });
  expect(tickets.body.data.map((t: { name: string }) => t.name)).toContain('Where is my order?');
  expect(helpscout.contractViolations).toEqual([]);
});
