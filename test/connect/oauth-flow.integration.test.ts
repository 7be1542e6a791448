import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Tenant, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { connectRegistry, connectWithOAuth, createLink, decide, request, setOAuthApp, startOAuth } from '../support/connect-flow';
import { STATE_KEY_PURPOSE, signState } from '../../src/core/oauth';

let server: TestServer;
let sim: OAuthSimulator;
let other: Tenant;

beforeAll(async () => {
  sim = await startOAuthSimulator();
  server = await startTestServer({ providers: connectRegistry(), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
  other = await server.createTenant('other');
  await setOAuthApp(server, sim);
  await server.call('PATCH', '/connect-settings', { body: { allowed_redirect_urls: ['https://app.example.com/integrations/'] } });
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const connectionsOf = async (linkedUserId: string) => (await server.call('GET', `/connections?id_linked_user=${linkedUserId}`)).body.data;

describe('OAuth 2.0 through the hosted connect page', () => {
  it('runs the authorization-code flow with PKCE and creates the connection, its event and its first sync', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-flow', redirect_url: 'https://app.example.com/integrations/done?x=1' });
    sim.tickets.push({ id: 99, subject: 'synced by the first run', updated_at: new Date().toISOString() });
    const { authorizeUrl, setCookie } = await startOAuth(link.url, sim.url);
    // The browser is sent to the provider with PKCE (S256) and a signed state; the cookie binds the flow to it.
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${sim.url}/oauth/authorize`);
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: sim.clients[0]!.clientId,
      redirect_uri: `${server.url}/connect/oauth/callback`,
      scope: 'tickets:read tickets:write',
      code_challenge_method: 'S256',
    });
    expect(authorizeUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\/connect\/oauth\/callback/);

    const consent = await request(authorizeUrl.href);
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('Approve');

    const cookie = setCookie.split(';')[0]!;
    const callback = await decide(sim, authorizeUrl);
    const done = await request(callback.href, { cookie });
    expect(done.status, done.text).toBe(303);
    expect(done.location).toMatch(new RegExp(`^/connect/${link.url.split('/connect/')[1]}/done\\?r=`));
    expect(done.headers.get('set-cookie')).toMatch(/Max-Age=0/);

    const success = await request(new URL(done.location!, server.url).href);
    expect(success.status).toBe(200);
    expect(success.text).toContain('Acme Helpdesk is connected');
    expect(success.text).toContain('href="https://app.example.com/integrations/done?x=1"');
    expect(success.headers.get('referrer-policy')).toBe('no-referrer');
    expect(success.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const [conn] = await connectionsOf(link.linked_user.id_linked_user);
    expect(conn).toMatchObject({ provider: 'acme-oauth', status: 'valid', base_url: sim.url });

    // Tokens stored encrypted, with their expiry; never in clear in the database.
    const row = (await server.sql('select credentials_encrypted from connections where id = $1', [conn.id_connection]))[0]!;
    const credentials = server.box.decryptJson<Record<string, string>>(row.credentials_encrypted as string);
    expect(credentials.access_token).toMatch(/^sim_at_/);
    expect(credentials.refresh_token).toMatch(/^sim_rt_/);
    expect(Date.parse(credentials.expires_at!)).toBeGreaterThan(Date.now() + 3_500_000);
    const dump = JSON.stringify(await server.sql('select * from connections'));
    expect(dump).not.toContain(credentials.access_token);
    expect(dump).not.toContain(credentials.refresh_token);

    // connection.created carries the connection token, never the provider's tokens.
    const events = await server.sql("select payload from events where type = 'connection.created' and payload->>'id_connection' = $1", [conn.id_connection]);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ provider: 'acme-oauth', via: 'connect_oauth', linked_user_origin_id: 'cust-flow' });
    // The connection token is kept for webhook delivery, encrypted: never in clear in the table.
    expect(server.box.decrypt((events[0]!.payload as Record<string, string>).connection_token_encrypted!)).toBe(conn.connection_token);
    expect(JSON.stringify(events)).not.toContain(conn.connection_token);
    expect(JSON.stringify(events)).not.toContain(credentials.access_token);
    expect(JSON.stringify(events)).not.toContain(credentials.refresh_token);

    // The first sync runs in the background with the new token (not inside the callback).
    const status = async () =>
      (await server.call('GET', '/sync/status', { headers: { 'x-connection-token': conn.connection_token } })).body.data.streams[0];
    await expect.poll(async () => JSON.stringify(await status()), { timeout: 30_000 }).toMatch(/"last_success_at":"/);
    expect(await status()).toMatchObject({ stream: 'ticketing.ticket', records_in_run: 1, last_error: null });
    expect(sim.apiCalls.filter((c) => c.path === '/api/tickets').map((c) => c.token)).toEqual([credentials.access_token]);
  });

  it('asks for the account’s address before leaving for the provider', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-address' });
    const page = await request(`${link.url}/providers/acme-oauth`);
    expect(page.text).toContain('Continue with Acme Helpdesk');
    expect(page.text).toContain('<label for="oauth-base_url">Your Acme Helpdesk address</label>');
    const missing = await request(`${link.url}/providers/acme-oauth/oauth`, { form: {} });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('Enter the address of your Acme Helpdesk account');
    expect(missing.headers.get('set-cookie')).toBeNull();
    const bad = await request(`${link.url}/providers/acme-oauth/oauth`, { form: { base_url: 'ftp://files.example.com' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('The address must start with https://');
    expect(await server.sql('select id from oauth_flows where invite_link_id = $1', [link.id_invite_link])).toEqual([]);
  });

  it('lets a project override the provider’s endpoints (a separate authorization server)', async () => {
    const auth = await startOAuthSimulator({ paths: { authorize: '/authorize', token: '/token' } });
    try {
      const tenant = await server.createTenant('override');
      const client = auth.clients[0]!;
      const app = await server.call('PUT', '/oauth-apps/acme-oauth', {
        apiKey: tenant.apiKey,
        body: { client_id: client.clientId, client_secret: client.clientSecret, authorize_url: `${auth.url}/authorize`, token_url: `${auth.url}/token`, scopes: ['read'] },
      });
      expect(app.body.data).toMatchObject({ scopes: ['read'], scopes_overridden: true, authorize_url: `${auth.url}/authorize`, token_url: `${auth.url}/token` });
      auth.addRedirectUri(client.clientId, `${server.url}/connect/oauth/callback`);
      const link = await createLink(server, { linked_user_origin_id: 'cust-override' }, tenant.apiKey);

      // The account's API (`sim`) does not know the separate server's tokens yet: checking the new token
      // fails after the exchange, shown as a page with a way to try again, and nothing is stored.
      const refused = await startOAuth(link.url, sim.url);
      const refusedBack = await request((await decide(auth, refused.authorizeUrl)).href, { cookie: refused.cookie });
      expect(refusedBack.status).toBe(422);
      expect(refusedBack.text).toContain('The product reported a problem');
      expect(refusedBack.text).toContain('acme-oauth refused these credentials');
      expect(refusedBack.text).toContain('Try again');
      expect((await server.call('GET', '/connections', { apiKey: tenant.apiKey })).body.data).toEqual([]);

      // `sim` stays the account's API; now it accepts the tokens the separate server issues.
      auth.onAccessToken = (t) => sim.acceptAccessToken(t);
      const before = sim.grants.length;
      const { authorizeUrl, cookie } = await startOAuth(link.url, sim.url);
      expect(authorizeUrl.href.startsWith(`${auth.url}/authorize?`)).toBe(true);
      expect(authorizeUrl.searchParams.get('scope')).toBe('read');
      const callback = await decide(auth, authorizeUrl);
      const res = await request(callback.href, { cookie });
      expect(res.status, res.text).toBe(303);
      expect(auth.grants.map((g) => [g.grantType, g.ok])).toEqual([
        ['authorization_code', true],
        ['authorization_code', true],
      ]);
      expect(sim.grants.length).toBe(before);
      const conns = await server.call('GET', '/connections', { apiKey: tenant.apiKey });
      expect(conns.body.data).toMatchObject([{ provider: 'acme-oauth', base_url: sim.url, status: 'valid' }]);
    } finally {
      await auth.close();
    }
  });
});

describe('attacks on the flow', () => {
  it('refuses a tampered state, and creates nothing', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-tamper' });
    const { authorizeUrl, cookie } = await startOAuth(link.url, sim.url);
    const callback = await decide(sim, authorizeUrl);
    const grantsBefore = sim.grants.length;
    const state = callback.searchParams.get('state')!;
    const [flowId, exp, sig] = state.split('.') as [string, string, string];
    const tampered = [
      `${flowId}.${Number(exp) + 3600}.${sig}`, // a longer life
      `${flowId}.${exp}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`, // another signature
      `${flowId}.${exp}`, // no signature
      'garbage',
    ];
    for (const s of tampered) {
      const url = new URL(callback);
      url.searchParams.set('state', s);
      const res = await request(url.href, { cookie });
      expect(res.status, s).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.text).toContain('We could not verify this sign-in');
    }
    // Without the browser's cookie (another browser, or a link sent to a victim), the genuine state fails too.
    const noCookie = await request(callback.href);
    expect(noCookie.status).toBe(400);
    expect(noCookie.text).toContain('We could not verify this sign-in');
    expect(sim.grants.length).toBe(grantsBefore); // the code never reached the token endpoint
    expect(await connectionsOf(link.linked_user.id_linked_user)).toEqual([]);
    // The genuine state with its cookie still works (the failed attempts did not use it up).
    const ok = await request(callback.href, { cookie });
    expect(ok.status).toBe(303);
  });

  it('refuses a replayed state: single use', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-replay' });
    const { res, callback, cookie } = await connectWithOAuth(link.url, sim);
    expect(res.status).toBe(303);
    const exchanges = sim.grants.length;
    const replay = await request(callback.href, { cookie });
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('This sign-in was already used');
    expect(sim.grants.length).toBe(exchanges); // the code was not sent to the provider again
    expect(await connectionsOf(link.linked_user.id_linked_user)).toHaveLength(1);
  });

  it('refuses an expired state, whether the signed expiry or the stored flow says so', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-expired' });
    const { authorizeUrl, cookie } = await startOAuth(link.url, sim.url);
    const callback = await decide(sim, authorizeUrl);
    const [flowId] = callback.searchParams.get('state')!.split('.') as [string];
    const nonce = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;

    // A correctly signed state whose expiry has passed (as if the user came back an hour later).
    const signer = server.box.signer(STATE_KEY_PURPOSE);
    const late = new URL(callback);
    late.searchParams.set('state', signState(signer, flowId, Math.floor(Date.now() / 1000) - 60, nonce));
    const signedExpired = await request(late.href, { cookie });
    expect(signedExpired.status).toBe(400);
    expect(signedExpired.text).toContain('This sign-in took too long');

    // The flow row expired (the state's own expiry not yet reached).
    await server.sql("update oauth_flows set expires_at = now() - interval '1 minute' where id = $1", [flowId]);
    const rowExpired = await request(callback.href, { cookie });
    expect(rowExpired.status).toBe(400);
    expect(rowExpired.text).toContain('This sign-in took too long');
    expect(rowExpired.text).toContain(`href="/connect/${link.url.split('/connect/')[1]}"`); // try again
    expect(await connectionsOf(link.linked_user.id_linked_user)).toEqual([]);
  });

  it('never redirects to a URL the project did not allow', async () => {
    for (const url of [
      'https://evil.example.net/integrations/',
      'https://app.example.com.evil.net/integrations/',
      'https://app.example.com/integrations/../admin',
      'https://app.example.com/integrations/%2e%2e/admin',
      'https://app.example.com@evil.net/integrations/',
      'http://app.example.com/integrations/',
      'javascript:alert(1)//https://app.example.com/integrations/',
      'https://app.example.com/integrationsX',
    ]) {
      const res = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-redirect', redirect_url: url } });
      expect(res.status, url).toBe(422);
      expect(res.body.details).toMatchObject({ field: 'redirect_url', reason: 'redirect_url_not_allowed' });
    }
    // Allowed when the link was made, withdrawn before the user finished: no return button.
    const link = await createLink(server, { linked_user_origin_id: 'cust-redirect', redirect_url: 'https://app.example.com/integrations/x' });
    await server.call('PATCH', '/connect-settings', { body: { allowed_redirect_urls: [] } });
    try {
      const { res } = await connectWithOAuth(link.url, sim);
      const success = await request(new URL(res.location!, server.url).href);
      expect(success.text).toContain('is connected');
      expect(success.text).not.toContain('app.example.com');
      // The connect page ignores a redirect_url in its own query string.
      const page = await request(`${link.url}?redirect_url=https://evil.example.net/`);
      expect(page.text).not.toContain('evil.example.net');
      // A forged success page parameter is refused (it is signed).
      const forged = await request(`${link.url}/done?r=${Buffer.from(JSON.stringify({ provider: 'acme-oauth', redirectUrl: 'https://evil.example.net/', reauthorized: false, exp: Date.now() + 60_000 })).toString('base64url')}.AAAA`);
      expect(forged.status).toBe(303);
      expect(forged.location).toBe(`/connect/${link.url.split('/connect/')[1]}`);
    } finally {
      await server.call('PATCH', '/connect-settings', { body: { allowed_redirect_urls: ['https://app.example.com/integrations/'] } });
    }
  });

  it('answers another project’s magic link as unknown, and its links never open another project’s providers', async () => {
    const theirs = await server.call('POST', '/magic-link/create', { apiKey: other.apiKey, body: { linked_user_origin_id: 'x', providers: ['acme-crm'] } });
    expect(theirs.status).toBe(201);
    const id = theirs.body.id_invite_link;
    const unknownId = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', `/magic-link/${id}`],
      ['DELETE', `/magic-link/${id}`],
    ] as const) {
      const cross = await server.call(method, path);
      const unknown = await server.call(method, path.replace(id, unknownId));
      expect(cross.status).toBe(404);
      expect({ ...cross.body, details: { ...cross.body.details, request_id: 0 } }).toEqual({ ...unknown.body, details: { ...unknown.body.details, request_id: 0 } });
    }
    expect((await server.call('GET', '/magic-link?limit=1000')).body.data.some((l: { id_invite_link: string }) => l.id_invite_link === id)).toBe(false);
    // Creating a link for another project's id is a 404, like an unknown project.
    const forOther = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'x', id_project: other.projectId } });
    expect(forOther.status).toBe(404);
    expect(forOther.body.details).toMatchObject({ code: 'not_found', field: 'id_project' });
    // Their link works for them, still active (our DELETE did nothing), and shows only their providers
    // (our OAuth app is not theirs: no acme-oauth).
    const page = await request(theirs.body.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Acme CRM');
    expect(page.text).not.toContain('Acme Helpdesk');
    expect((await request(`${theirs.body.url}/providers/acme-oauth`)).status).toBe(404);
    expect((await request(`${theirs.body.url}/providers/acme-oauth/oauth`, { form: { base_url: sim.url } })).status).toBe(404);
  });

  it('shows the user’s refusal and provider errors as pages, and keeps the flow single-use', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-deny' });
    const { authorizeUrl, cookie } = await startOAuth(link.url, sim.url);
    const denied = await decide(sim, authorizeUrl, 'deny');
    const res = await request(denied.href, { cookie });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Access was not granted');
    expect(res.text).toContain('Try again');

    // The provider refuses the code exchange (e.g. a wrong client secret).
    const second = await startOAuth(link.url, sim.url);
    const callback = await decide(sim, second.authorizeUrl);
    sim.failNextTokenRequest(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    const refused = await request(callback.href, { cookie: second.cookie });
    expect(refused.status).toBe(502);
    expect(refused.text).toContain('The product refused the sign-in');
    expect(refused.text).toContain('invalid_client: Client authentication failed');
    expect(refused.text).not.toContain(sim.clients[0]!.clientSecret);
    expect(await connectionsOf(link.linked_user.id_linked_user)).toEqual([]);

    // PKCE: a code exchanged without the right verifier is refused by the provider.
    const third = await startOAuth(link.url, sim.url);
    const cb3 = await decide(sim, third.authorizeUrl);
    await server.sql("update oauth_flows set code_verifier_encrypted = $1 where used_at is null", [server.box.encrypt('wrong-verifier-'.padEnd(50, 'x'))]);
    const pkce = await request(cb3.href, { cookie: third.cookie });
    expect(pkce.status).toBe(502);
    expect(pkce.text).toContain('PKCE verification failed');
  });

  it('refuses a revoked link at every step, and a flow whose link was revoked meanwhile', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-revoke' });
    const { authorizeUrl, cookie } = await startOAuth(link.url, sim.url);
    const callback = await decide(sim, authorizeUrl);
    expect((await server.call('DELETE', `/magic-link/${link.id_invite_link}`)).body.data.status).toBe('revoked');
    const res = await request(callback.href, { cookie });
    expect(res.status).toBe(400);
    expect(res.text).toContain('no longer active');
    const page = await request(link.url);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link is no longer active');
    expect((await request(`${link.url}/providers/acme-oauth/oauth`, { form: { base_url: sim.url } })).status).toBe(410);
  });
});
