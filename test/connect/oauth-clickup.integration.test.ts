/**
 * ClickUp through the hosted connect page's OAuth flow: the authorization request has ClickUp's shape
 * (https://app.clickup.com/api with client_id, redirect_uri and state; no scope, no PKCE), the code goes to
 * /v2/oauth/token as a JSON body (the reference's GetAccessToken), and the token — sent as a Bearer token — is
 * checked against the ClickUp API (`GET /v2/team`). The OAuth simulator stands in for app.clickup.com and the
 * token endpoint, at ClickUp's own paths.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { clickupManifest, createClickUpAdapter } from '../../src/providers/clickup';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startClickUpSimulator, type ClickUpSimulator } from '../simulators/clickup';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';

let server: TestServer;
let auth: OAuthSimulator;
let clickup: ClickUpSimulator;

beforeAll(async () => {
  auth = await startOAuthSimulator({ paths: { authorize: '/api', token: '/v2/oauth/token' }, clientAuth: 'post' });
  // The traffic is checked against ClickUp's reference by the conformance suite.
  clickup = await startClickUpSimulator({ rateLimit: { perMinute: 100_000 }, validateSpec: false });
  auth.onAccessToken = (t) => clickup.acceptToken(t);
  server = await startTestServer({ providers: new ProviderRegistry([createClickUpAdapter()]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
  await clickup?.close();
});

it('declares ClickUp\'s real endpoints', () => {
  expect(clickupManifest.oauth).toEqual({ hosts: ['api.clickup.com'], authorizeUrl: 'https://app.clickup.com/api', tokenUrl: 'https://api.clickup.com/api/v2/oauth/token', scopes: [], pkce: false, tokenRequestBody: 'json' });
});

it('connects ClickUp with OAuth: authorize without scope or PKCE, the code exchanged as JSON, the token checked with GET /v2/team', async () => {
  const client = auth.clients[0]!;
  const app = await server.call('PUT', '/oauth-apps/clickup', {
    body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}/api`, token_url: `${auth.url}/v2/oauth/token` },
  });
  expect(app.status, JSON.stringify(app.body)).toBe(200);
  auth.addRedirectUri(client.clientId, `${server.url}/connect/oauth/callback`);
  const link = await createLink(server, { linked_user_origin_id: 'cust-clickup' });

  const { authorizeUrl, cookie } = await startOAuth(link.url, clickup.url, 'clickup');
  expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${auth.url}/api`);
  const params = Object.fromEntries(authorizeUrl.searchParams);
  expect(params).toMatchObject({ client_id: client.clientId, redirect_uri: `${server.url}/connect/oauth/callback` });
  expect(params.state).toBeTruthy();
  expect(params.code_challenge).toBeUndefined();

  const callback = await decide(auth, authorizeUrl);
  const done = await request(callback.href, { cookie });
  expect(done.status, done.text).toBe(303);
  expect(auth.grants.map((g) => [g.grantType, g.ok, g.contentType])).toEqual([['authorization_code', true, 'application/json']]);
  const team = clickup.requests.find((r) => r.path === '/v2/team');
  expect(team?.headers.authorization).toMatch(/^Bearer /);
  const conns = await server.call('GET', '/connections');
  expect(conns.body.data).toMatchObject([{ provider: 'clickup', status: 'valid', base_url: clickup.url }]);
});
