/**
 * Jira through the hosted connect page (OAuth 2.0 3LO): the authorization request carries Atlassian's
 * `audience=api.atlassian.com` and `prompt=consent`, the code is exchanged with a JSON body, and the sites the
 * token reaches are read from accessible-resources. One Jira site is connected as it is; among several the
 * page asks which (a site outside the list is refused, nothing connected); the connection's base URL is the
 * gateway with the site's cloud id. Refresh tokens rotate: each renewal's new one is saved and used next.
 * The OAuth simulator plays auth.atlassian.com; the Jira simulator plays api.atlassian.com (gateway and
 * accessible-resources).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { startJiraSimulator, type AccessibleResource, type JiraSimulator } from '../simulators/jira';
import { createLink, decide, request } from '../support/connect-flow';
import { jiraOnSimulator } from '../support/connect-providers';

let server: TestServer;
let auth: OAuthSimulator;
let jira: JiraSimulator;
let callback: string;
const CLIENT = { clientId: 'omniport-jira', clientSecret: 'jira-oauth-secret', name: 'Acme Issue Sync', redirectUris: [] as string[] };

const otherSite = (over: Partial<AccessibleResource> = {}): AccessibleResource => ({
  id: 'c0ffee00-1111-4222-8333-444455556666',
  name: 'Northwind Engineering',
  url: 'https://northwind-eng.atlassian.net',
  scopes: ['read:jira-work', 'write:jira-work', 'read:jira-user', 'manage:jira-webhook'],
  avatarUrl: 'https://site-admin-avatar-cdn.prod.public.atl-paas.net/avatars/240/flag.png',
  ...over,
});

beforeAll(async () => {
  jira = await startJiraSimulator({ accessTokens: [] });
  // auth.atlassian.com: JSON token requests, the client's id and secret in the body, rotating refresh tokens.
  auth = await startOAuthSimulator({ clients: [CLIENT], paths: { authorize: '/authorize', token: '/oauth/token' }, clientAuth: 'post', rotateRefreshTokens: true });
  auth.onAccessToken = (t) => jira.addAccessToken(t);
  server = await startTestServer({ providers: new ProviderRegistry([jiraOnSimulator(jira)]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
  const app = await server.call('PUT', '/oauth-apps/jira', {
    body: { client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, authorize_url: `${auth.url}/authorize`, token_url: `${auth.url}/oauth/token` },
  });
  expect(app.status, JSON.stringify(app.body)).toBe(200);
  callback = app.body.data.redirect_uri;
  auth.addRedirectUri(CLIENT.clientId, callback);
});
afterAll(async () => {
  await server?.close();
  await auth?.close();
  await jira?.close();
});
beforeEach(() => {
  auth.grants.length = 0;
  auth.accessTokenTtlSeconds = 3600;
  jira.accessibleResources.splice(1);
});

const connectionsOf = async (linkedUser: string) => (await server.call('GET', `/connections?id_linked_user=${linkedUser}`)).body.data as Record<string, unknown>[];

/** Magic link → Jira → "Continue with Jira" (nothing typed) → Approve → the callback's answer. */
async function authorize(origin: string) {
  const link = await createLink(server, { linked_user_origin_id: origin });
  const started = await request(`${link.url}/providers/jira/oauth`, { form: {} });
  expect(started.status, started.text).toBe(303);
  const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0]!;
  const authorizeUrl = new URL(started.location!);
  const back = await request((await decide(auth, authorizeUrl)).href, { cookie });
  return { link, cookie, authorizeUrl, back };
}

describe('Jira on the connect page', () => {
  it('offers "Continue with Jira" without an address to type, and asks Atlassian for the gateway audience with consent', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'jira-page' });
    const page = await request(`${link.url}/providers/jira`);
    expect(page.text).toContain('Continue with Jira');
    // The OAuth form has no address (the sites come from Atlassian); the API-token form still asks for it.
    const oauthForm = /<form method="post" action="[^"]*\/oauth"[\s\S]*?<\/form>/.exec(page.text)![0];
    expect(oauthForm).not.toContain('name="base_url"');
    expect(page.text).toMatch(/action="[^"]*\/credentials"[\s\S]*name="base_url"/);

    const res = await request(`${link.url}/providers/jira/oauth`, { form: {} });
    expect(res.status, res.text).toBe(303);
    const url = new URL(res.location!);
    const params = Object.fromEntries(url.searchParams);
    expect(Object.keys(params).sort()).toEqual(['audience', 'client_id', 'prompt', 'redirect_uri', 'response_type', 'scope', 'state']);
    expect(params).toMatchObject({
      audience: 'api.atlassian.com',
      prompt: 'consent',
      response_type: 'code',
      client_id: CLIENT.clientId,
      redirect_uri: callback,
      scope: 'read:jira-work write:jira-work read:jira-user manage:jira-webhook offline_access',
    });
  });

  it('connects the one Jira site the token reaches, through the gateway with its cloud id, and saves each rotated refresh token', async () => {
    // A Confluence site of the same grant is not a Jira site: left out, so the Jira site is the only one.
    jira.accessibleResources.push(otherSite({ name: 'Docs', url: 'https://northwind-docs.atlassian.net', scopes: ['read:confluence-content.all'] }));
    // Access tokens that expire within the renewal margin (this test only): every call through Omniport renews first.
    auth.accessTokenTtlSeconds = 30;
    const { link, back } = await authorize('jira-one-site');
    expect(back.status, back.text).toBe(303);
    expect(back.location).toMatch(/\/connect\/ml_\w+\/done\?r=/);
    // One code exchange, JSON, with the client's credentials in the body (renewals come below).
    expect(auth.grants.filter((g) => g.grantType === 'authorization_code')).toMatchObject([
      { grantType: 'authorization_code', ok: true, contentType: 'application/json', params: ['client_id', 'client_secret', 'code', 'grant_type', 'redirect_uri'] },
    ]);
    const [conn] = await connectionsOf(link.linked_user.id_linked_user);
    expect(conn).toMatchObject({ provider: 'jira', status: 'valid', base_url: `${jira.url}/ex/jira/${jira.cloudId}` });

    // Usable: passthrough calls reach the site through the gateway.
    const token = conn!.connection_token as string;
    // Atlassian rotates refresh tokens: after each renewal only the new one works, so renewals in a row
    // succeed only if each one's refresh token was saved (the first sync, in the background, renews too).
    for (let round = 1; round <= 2; round++) {
      const again = await server.call('POST', '/passthrough', { headers: { 'x-connection-token': token }, body: { method: 'GET', path: '/rest/api/3/myself' } });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.data.status).toBe(200);
      const refreshes = auth.grants.filter((g) => g.grantType === 'refresh_token');
      expect(refreshes.length).toBeGreaterThanOrEqual(round);
      expect(refreshes.every((g) => g.ok && g.contentType === 'application/json'), JSON.stringify(refreshes)).toBe(true);
    }
    expect(jira.requests.some((r) => r.path === `/ex/jira/${jira.cloudId}/rest/api/3/myself` && r.auth?.scheme === 'bearer' && r.status === 200)).toBe(true);
    const [after] = await connectionsOf(link.linked_user.id_linked_user);
    expect(after).toMatchObject({ status: 'valid' });
    // Its short-lived tokens would go on being renewed by its syncs during the next tests.
    expect((await server.call('DELETE', `/connections/${conn!.id_connection}`)).status).toBe(204);
  });

  it('asks which site when the token reaches several, refuses a site outside them, and connects the one chosen', async () => {
    jira.accessibleResources.push(otherSite());
    const { link, cookie, back } = await authorize('jira-two-sites');
    // Nothing chosen for the user: a page lists both sites; no connection yet, one token request.
    expect(back.status, back.text).toBe(200);
    expect(back.text).toContain('Choose your Jira site');
    expect(back.text).toContain('Simulated Jira');
    expect(back.text).toContain('Northwind Engineering');
    expect(back.text).toContain(`value="${jira.cloudId}"`);
    expect(back.text).toContain('value="c0ffee00-1111-4222-8333-444455556666"');
    expect(await connectionsOf(link.linked_user.id_linked_user)).toEqual([]);
    const state = /name="state" value="([^"]+)"/.exec(back.text)![1]!;

    // A site the token does not reach (a tampered form): refused, said clearly, nothing connected.
    const stranger = await request(`${server.url}/connect/oauth/callback`, { form: { state, site: '99999999-0000-4000-8000-000000000000' }, cookie });
    expect(stranger.status, stranger.text).toBe(422);
    expect(stranger.text).toContain('Choose one of the Jira sites your account gave access to (the site sent is not one of them); nothing was connected.');
    expect(stranger.text).toContain('Northwind Engineering');
    const none = await request(`${server.url}/connect/oauth/callback`, { form: { state }, cookie });
    expect(none.status).toBe(422);
    expect(none.text).toContain('no site was chosen');
    expect(await connectionsOf(link.linked_user.id_linked_user)).toEqual([]);
    // The choice without the browser's flow cookie is not this browser's.
    const noCookie = await request(`${server.url}/connect/oauth/callback`, { form: { state, site: jira.cloudId } });
    expect(noCookie.status).toBe(400);
    expect(await connectionsOf(link.linked_user.id_linked_user)).toEqual([]);

    const chosen = await request(`${server.url}/connect/oauth/callback`, { form: { state, site: jira.cloudId }, cookie });
    expect(chosen.status, chosen.text).toBe(303);
    expect(chosen.location).toMatch(/\/connect\/ml_\w+\/done\?r=/);
    const conns = await connectionsOf(link.linked_user.id_linked_user);
    expect(conns).toMatchObject([{ provider: 'jira', status: 'valid', base_url: `${jira.url}/ex/jira/${jira.cloudId}` }]);
    expect(auth.grants.filter((g) => g.grantType === 'authorization_code')).toHaveLength(1);
    const me = await server.call('POST', '/passthrough', { headers: { 'x-connection-token': conns[0]!.connection_token as string }, body: { method: 'GET', path: '/rest/api/3/myself' } });
    expect(me.body.data?.status, JSON.stringify(me.body)).toBe(200);

    // The choice is made once.
    const replay = await request(`${server.url}/connect/oauth/callback`, { form: { state, site: 'c0ffee00-1111-4222-8333-444455556666' }, cookie });
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('This sign-in was already used');
    expect(await connectionsOf(link.linked_user.id_linked_user)).toHaveLength(1);
  });

  it('connects nothing when the token reaches no Jira site, and says so', async () => {
    jira.accessibleResources.splice(0, 1, otherSite({ name: 'Docs', scopes: ['read:confluence-content.all'] }));
    try {
      const { link, back } = await authorize('jira-no-site');
      expect(back.status).toBe(400);
      expect(back.text).toContain('reaches no Jira site');
      expect(await connectionsOf(link.linked_user.id_linked_user)).toEqual([]);
    } finally {
      jira.accessibleResources.splice(0, 1, { id: jira.cloudId, name: 'Simulated Jira', url: jira.url, scopes: ['read:jira-work', 'write:jira-work', 'read:jira-user', 'manage:jira-webhook'], avatarUrl: 'https://site-admin-avatar-cdn.prod.public.atl-paas.net/avatars/240/rocket.png' });
    }
  });
});
