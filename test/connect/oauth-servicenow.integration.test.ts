/**
 * ServiceNow through the hosted connect page's OAuth flow: the instance's own endpoints (`/oauth_auth.do`,
 * `/oauth_token.do`, relative to the instance URL the linked user gives), the code exchanged with the client id
 * and secret in the form body, and the token — sent as a Bearer token — checked against the instance's Table API
 * (the connection's own sys_user). The OAuth simulator stands in for the instance's OAuth endpoints, at
 * ServiceNow's own paths.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { createServiceNowAdapter, servicenowManifest } from '../../src/providers/servicenow';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startServiceNowSimulator, type ServiceNowSimulator } from '../simulators/servicenow';
import { createLink, decide, request, startOAuth } from '../support/connect-flow';
import { syncAndWait } from '../support/sync-wait';

let server: TestServer;
let auth: OAuthSimulator;
let instance: ServiceNowSimulator;

beforeAll(async () => {
  auth = await startOAuthSimulator({ paths: { authorize: '/oauth_auth.do', token: '/oauth_token.do' }, clientAuth: 'post' });
  instance = await startServiceNowSimulator();
  auth.onAccessToken = (t) => instance.acceptToken(t);
  server = await startTestServer({ providers: new ProviderRegistry([createServiceNowAdapter()]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
  await instance?.close();
});

it('declares the instance\'s own OAuth endpoints, relative to the instance URL', () => {
  expect(servicenowManifest.oauth).toEqual({ hosts: ['*.service-now.com'], authorizeUrl: '/oauth_auth.do', tokenUrl: '/oauth_token.do', scopes: [], pkce: false });
});

it('connects ServiceNow with OAuth: authorize, code exchanged in the form body, Bearer token checked and used by the first sync', async () => {
  const client = auth.clients[0]!;
  const app = await server.call('PUT', '/oauth-apps/servicenow', {
    body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}/oauth_auth.do`, token_url: `${auth.url}/oauth_token.do` },
  });
  expect(app.status, JSON.stringify(app.body)).toBe(200);
  auth.addRedirectUri(client.clientId, `${server.url}/connect/oauth/callback`);
  const link = await createLink(server, { linked_user_origin_id: 'cust-servicenow' });

  const { authorizeUrl, cookie } = await startOAuth(link.url, instance.url, 'servicenow');
  expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${auth.url}/oauth_auth.do`);
  expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({ response_type: 'code', client_id: client.clientId, redirect_uri: `${server.url}/connect/oauth/callback` });
  expect(authorizeUrl.searchParams.get('code_challenge')).toBeNull();

  const callback = await decide(auth, authorizeUrl);
  const done = await request(callback.href, { cookie });
  expect(done.status, done.text).toBe(303);
  expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([['authorization_code', true]]);
  const me = instance.requests.find((r) => r.path === '/api/now/table/sys_user');
  expect(me?.headers.authorization).toMatch(/^Bearer /);

  const conns = await server.call('GET', '/connections');
  expect(conns.body.data).toMatchObject([{ provider: 'servicenow', status: 'valid', base_url: instance.url }]);
  const token = conns.body.data[0].connection_token as string;
  expect(token).toBeTruthy();
  await syncAndWait(server, token);
  const tickets = await server.call('GET', '/ticketing/tickets', { headers: { 'x-connection-token': token } });
  expect(tickets.body.data.map((t: { name: string }) => t.name)).toContain('Email server down');
  expect(instance.contractViolations).toEqual([]);
});

it('sends the linked user to the OAuth endpoint of the instance they name, when the app sets no endpoints of its own', async () => {
  const client = auth.clients[0]!;
  const app = await server.call('PUT', '/oauth-apps/servicenow', { body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: null, token_url: null } });
  expect(app.status, JSON.stringify(app.body)).toBe(200);
  const link = await createLink(server, { linked_user_origin_id: 'cust-servicenow-2' });
  const { authorizeUrl } = await startOAuth(link.url, instance.url, 'servicenow');
  expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${instance.url}/oauth_auth.do`);
  expect(authorizeUrl.searchParams.get('client_id')).toBe(client.clientId);
});
