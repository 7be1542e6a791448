import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Tenant, type TestServer } from '../support/harness';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { connectZendesk } from '../support/connect-simulators';
import { syncAndWait } from '../support/sync-wait';
import { DashboardClient } from './dashboard-client';

/**
 * The operator dashboard through the real HTTP server, without a browser: sign-in, session cookie and
 * CSRF rules, tenant isolation, the end of a session with its key, and the provider call log.
 */
describe('operator dashboard', () => {
  let server: TestServer;
  let zendesk: ZendeskSimulator;
  let other: Tenant;
  let ownConnection: string;
  let ownToken: string;
  let otherConnection: string;

  beforeAll(async () => {
    zendesk = await startZendeskSimulator();
    zendesk.seedTickets(5, { commentsPerTicket: 1 });
    server = await startTestServer();
    ownToken = await connectZendesk(server, zendesk, { origin: 'acme' });
    await syncAndWait(server, ownToken);
    ownConnection = (await server.call('GET', '/connections')).body.data[0].id_connection;
    other = await server.createTenant('other');
    const cred = zendesk.credentials[0]!;
    const created = await server.call('POST', '/connections', {
      apiKey: other.apiKey,
      body: { provider: 'zendesk', linked_user_origin_id: 'other-secret-customer', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: zendesk.url },
    });
    expect(created.status).toBe(201);
    otherConnection = created.body.data.id_connection;
    await server.omniport.services.dashboard.calls.flush();
  });
  afterAll(async () => {
    await server?.close();
    await zendesk?.close();
  });

  it('sends the connect page’s security headers and strict cookies; no page without a session', async () => {
    const client = new DashboardClient(server.url);
    const login = await client.get('/dashboard/login');
    expect(login.status).toBe(200);
    const csp = login.headers.get('content-security-policy')!;
    const nonce = csp.match(/script-src 'nonce-([^']+)'/)![1];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(login.text).toContain(`nonce="${nonce}"`);
    expect(login.headers.get('x-frame-options')).toBe('DENY');
    expect(login.headers.get('referrer-policy')).toBe('no-referrer');
    expect(login.headers.get('cache-control')).toBe('no-store');
    // The CSRF secret's cookie: HttpOnly, SameSite=Strict, scoped to the dashboard, not Secure on http.
    const csrfCookie = login.cookies.find((c) => c.startsWith('omniport_dashboard_csrf='))!;
    expect(csrfCookie).toMatch(/HttpOnly/i);
    expect(csrfCookie).toMatch(/SameSite=Strict/i);
    expect(csrfCookie).toMatch(/Path=\/dashboard/);

    for (const path of ['/dashboard', '/dashboard/connections', '/dashboard/api-keys', `/dashboard/connections/${ownConnection}`]) {
      const res = await new DashboardClient(server.url).get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location'), path).toBe('/dashboard/login');
    }
    // An API key header does not open the dashboard: only a session does.
    const withHeader = await new DashboardClient(server.url).get('/dashboard/connections', { 'x-api-key': server.tenant.apiKey });
    expect(withHeader.status).toBe(303);
    // Assets are public and served locally.
    const htmx = await client.get('/dashboard/assets/htmx.min.js');
    expect(htmx.status).toBe(200);
    expect(htmx.headers.get('content-type')).toContain('javascript');
  });

  it('signs in with a key posted once: a session cookie (HttpOnly, SameSite=Strict), the key in no URL, cookie or page', async () => {
    const client = new DashboardClient(server.url);
    const wrong = await client.signIn(`sk_test_${'x'.repeat(40)}`);
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('This API key is not valid');

    const res = await client.signIn(server.tenant.apiKey);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/connections');
    const session = res.cookies.find((c) => c.startsWith('omniport_dashboard='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Strict/i);
    expect(session).toMatch(/Path=\/dashboard/);
    expect(session).not.toMatch(/Secure/i); // plain http here; Secure on https
    expect(session).not.toContain(server.tenant.apiKey);

    const page = await client.get('/dashboard/connections');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(server.tenant.apiKey);
    expect(page.text).toContain('Zendesk');
    expect(page.text).toContain('acme');
    expect(page.text).toContain(`/dashboard/connections/${ownConnection}`);
    // The database holds a hash of the session id, never the id itself.
    const sid = decodeURIComponent(client.jar.get('omniport_dashboard')!).split('.')[0]!;
    const rows = await server.sql('select id_hash from dashboard_sessions');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => String(r.id_hash).includes(sid))).toBe(false);
  });

  it('refuses a form without its CSRF token (sign-in included) and a token of another browser', async () => {
    const anonymous = new DashboardClient(server.url);
    await anonymous.get('/dashboard/login');
    const noToken = await anonymous.post('/dashboard/login', { api_key: server.tenant.apiKey }, { csrf: false });
    expect(noToken.status).toBe(403);
    expect(anonymous.jar.has('omniport_dashboard')).toBe(false);

    const client = new DashboardClient(server.url);
    await client.signIn(server.tenant.apiKey);
    const before = (await server.call('GET', '/auth/api-keys')).body.data.length;
    const forged = await client.post('/dashboard/api-keys', { name: 'forged' }, { csrf: false });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This form could not be accepted');
    // A token from another browser's page does not match this browser's secret.
    const stranger = new DashboardClient(server.url);
    await stranger.get('/dashboard/login');
    const foreign = await client.post('/dashboard/api-keys', { name: 'forged', _csrf: stranger.csrf! });
    expect(foreign.status).toBe(403);
    const deleteForged = await client.post(`/dashboard/connections/${ownConnection}/delete`, { confirm: 'yes' }, { csrf: false });
    expect(deleteForged.status).toBe(403);
    expect((await server.call('GET', '/auth/api-keys')).body.data.length).toBe(before);
    expect((await server.call('GET', `/connections/${ownConnection}`)).status).toBe(200);
  });

  it('shows only the session’s project: another project’s connection, user and calls are not found', async () => {
    const client = new DashboardClient(server.url);
    await client.signIn(server.tenant.apiKey);
    for (const path of ['/dashboard/connections', '/dashboard/linked-users', '/dashboard/magic-links', '/dashboard/api-keys']) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain(otherConnection);
      expect(res.text, path).not.toContain('other-secret-customer');
    }
    expect((await client.get(`/dashboard/connections/${otherConnection}`)).status).toBe(404);
    expect((await client.get(`/dashboard/connections/${otherConnection}/sync`)).status).toBe(404);
    await client.get('/dashboard/connections');
    expect((await client.post(`/dashboard/connections/${otherConnection}/delete`, { confirm: 'yes' })).status).toBe(404);
    expect((await client.post(`/dashboard/connections/${otherConnection}/sync`)).status).toBe(404);
    expect((await server.call('GET', `/connections/${otherConnection}`, { apiKey: other.apiKey })).status).toBe(200);
    const otherKey = (await server.call('GET', '/auth/api-keys', { apiKey: other.apiKey })).body.data[0].id_api_key;
    expect((await client.post(`/dashboard/api-keys/${otherKey}/revoke`)).status).toBe(404);
    expect((await server.call('GET', '/connections', { apiKey: other.apiKey })).status).toBe(200);

    // The other project signs in to its own dashboard and sees its own connection only.
    const theirs = new DashboardClient(server.url);
    await theirs.signIn(other.apiKey);
    const page = await theirs.get('/dashboard/connections');
    expect(page.text).toContain(otherConnection);
    expect(page.text).not.toContain(ownConnection);
  });

  it('ends every session of a key when the key is revoked (through the API or the dashboard)', async () => {
    const issued = await server.call('POST', '/auth/generate-apikey', { body: { projectId: server.tenant.projectId, userId: server.tenant.userId, keyName: 'operator' } });
    expect(issued.status).toBe(201);
    const client = new DashboardClient(server.url);
    expect((await client.signIn(issued.body.api_key)).status).toBe(303);
    expect((await client.get('/dashboard/connections')).status).toBe(200);
    expect((await server.call('DELETE', `/auth/api-keys/${issued.body.id_api_key}`)).status).toBeLessThan(300);
    const after = await client.get('/dashboard/connections');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/dashboard/login');
    const post = await client.post('/dashboard/api-keys', { name: 'after revocation' });
    expect(post.status).toBe(401);
    const htmx = await client.get(`/dashboard/connections/${ownConnection}/sync`, { 'hx-request': 'true' });
    expect(htmx.status).toBe(401);
    expect(htmx.headers.get('hx-redirect')).toBe('/dashboard/login');

    // Revoking the session's own key from the dashboard signs out at once.
    const second = await server.call('POST', '/auth/generate-apikey', { body: { projectId: server.tenant.projectId, userId: server.tenant.userId, keyName: 'operator 2' } });
    const own = new DashboardClient(server.url);
    await own.signIn(second.body.api_key);
    await own.get('/dashboard/api-keys');
    const revoked = await own.post(`/dashboard/api-keys/${second.body.id_api_key}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/dashboard/login?done=session-key-revoked');
    expect((await own.get('/dashboard/connections')).status).toBe(303);
    expect((await server.call('GET', '/connections', { apiKey: second.body.api_key })).status).toBe(401);
  });

  it('creates an API key shown once and usable, and a magic link; revokes both; writes the audit log', async () => {
    const client = new DashboardClient(server.url);
    await client.signIn(server.tenant.apiKey);
    await client.get('/dashboard/api-keys');
    const empty = await client.post('/dashboard/api-keys', { name: '   ' });
    expect(empty.status).toBe(400);
    const created = await client.post('/dashboard/api-keys', { name: 'from the dashboard' });
    expect(created.status).toBe(200);
    const key = created.text.match(/id="once-value" type="text" readonly value="([^"]+)"/)![1]!;
    expect(key).toMatch(/^sk_test_/);
    expect((await server.call('GET', '/connections', { apiKey: key })).status).toBe(200);
    // Shown once: the list afterwards holds its prefix only.
    const list = await client.get('/dashboard/api-keys');
    expect(list.text).toContain('from the dashboard');
    expect(list.text).not.toContain(key);
    const id = (await server.call('GET', '/auth/api-keys')).body.data.find((k: { key_name: string }) => k.key_name === 'from the dashboard').id_api_key;
    const revoked = await client.post(`/dashboard/api-keys/${id}/revoke`);
    expect(revoked.status).toBe(303);
    expect((await server.call('GET', '/connections', { apiKey: key })).status).toBe(401);

    await client.get('/dashboard/magic-links');
    const missing = await client.post('/dashboard/magic-links', { linked_user_origin_id: '' });
    expect(missing.status).toBe(400);
    const link = await client.post('/dashboard/magic-links', { linked_user_origin_id: 'northwind', alias: 'Northwind <Traders>' });
    expect(link.status).toBe(200);
    const url = link.text.match(/id="once-value" type="text" readonly value="([^"]+)"/)![1]!;
    expect(url).toMatch(new RegExp(`^${server.url}/connect/ml_`));
    expect(link.text).toContain('Northwind &lt;Traders&gt;'); // escaped, never markup
    expect((await fetch(url)).status).toBe(200);
    const links = (await server.call('GET', '/magic-link')).body.data as { id_invite_link: string; status: string }[];
    const active = links.find((l) => l.status === 'active')!;
    expect((await client.post(`/dashboard/magic-links/${active.id_invite_link}/revoke`)).status).toBe(303);
    expect((await fetch(url)).status).toBe(410);

    const audit = (await server.call('GET', '/audit-log?limit=100')).body.data as { action: string; actor: { type: string } }[];
    const byDashboard = audit.filter((e) => e.actor.type === 'dashboard_session').map((e) => e.action);
    expect(byDashboard).toEqual(expect.arrayContaining(['api_key.created', 'api_key.revoked', 'magic_link.created', 'magic_link.revoked']));
  });

  it('shows sync per stream, queues a sync (form and htmx), and lists provider calls without secrets', async () => {
    const client = new DashboardClient(server.url);
    await client.signIn(server.tenant.apiKey);
    const page = await client.get(`/dashboard/connections/${ownConnection}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="sync"');
    expect(page.text).toMatch(/<progress id="sync-progress" value="\d+" max="\d+"/);
    expect(page.text).toContain('/api/v2/incremental/tickets/cursor');
    // Provider calls: method, path, status, duration; the credentials nowhere.
    expect(page.text).toMatch(/<code>GET<\/code>/);
    expect(page.text).toContain('/api/v2/');
    const cred = zendesk.credentials[0]!;
    expect(page.text).not.toContain(cred.apiToken);
    const calls = await server.sql('select method, path, status, duration_ms, rate_limit from provider_calls where connection_id = $1', [ownConnection]);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => typeof c.status === 'number' && Number(c.duration_ms) >= 0)).toBe(true);
    expect(JSON.stringify(calls)).not.toContain(cred.apiToken);

    const queued = await client.post(`/dashboard/connections/${ownConnection}/sync`);
    expect(queued.status).toBe(303);
    expect(queued.headers.get('location')).toMatch(new RegExp(`^/dashboard/connections/${ownConnection}\\?done=sync-queued&since=\\d+$`));
    await client.get(`/dashboard/connections/${ownConnection}`);
    const fragment = await client.post(`/dashboard/connections/${ownConnection}/sync`, {}, { headers: { 'hx-request': 'true' } });
    expect(fragment.status).toBe(200);
    expect(fragment.text.startsWith('<section id="sync"')).toBe(true);
    expect(fragment.text).toContain('Sync queued');
    expect(fragment.text).toMatch(/hx-get="\/dashboard\/connections\/[0-9a-f-]+\/sync\?since=\d+" hx-trigger="every 2s"/);
    const audit = (await server.call('GET', '/audit-log?action=sync.requested')).body.data as { actor: { type: string } }[];
    expect(audit.some((e) => e.actor.type === 'dashboard_session')).toBe(true);
  });

  it('purges provider calls past their retention with the housekeeping purge', async () => {
    // The syncs queued by the tests above are over and their calls written: none is logged after the ageing.
    await syncAndWait(server, ownToken);
    await server.omniport.services.dashboard.calls.flush();
    await server.sql(`update provider_calls set started_at = now() - interval '8 days' where connection_id = $1`, [ownConnection]);
    await server.sql(`insert into provider_calls (project_id, connection_id, method, path, status, duration_ms, started_at) values ($1, $2, 'GET', '/recent', 200, 5, now())`, [
      server.tenant.projectId,
      ownConnection,
    ]);
    await server.omniport.services.dashboard.purgeExpired();
    const left = await server.sql('select path from provider_calls where connection_id = $1', [ownConnection]);
    expect(left.map((r) => r.path)).toEqual(['/recent']);
  });

  it('deletes a connection only with the confirmation ticked', async () => {
    const client = new DashboardClient(server.url);
    await client.signIn(server.tenant.apiKey);
    await client.get(`/dashboard/connections/${ownConnection}`);
    expect((await client.post(`/dashboard/connections/${ownConnection}/delete`)).status).toBe(400);
    const deleted = await client.post(`/dashboard/connections/${ownConnection}/delete`, { confirm: 'yes' });
    expect(deleted.status).toBe(303);
    expect((await server.call('GET', `/connections/${ownConnection}`)).status).toBe(404);
    const list = await client.get('/dashboard/connections?done=connection-deleted');
    expect(list.text).toContain('The connection and its synced data were deleted.');
  });

  // Last: it spends this address's sign-in budget for the rest of the minute.
  it('answers 429 with Retry-After after ten failed sign-ins a minute from one address, and still lets the right key in', async () => {
    const client = new DashboardClient(server.url);
    await client.get('/dashboard/login');
    // An earlier test spent one failure already: the budget runs out within these ten.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await client.post('/dashboard/login', { api_key: `sk_test_${String(i).repeat(40)}` })).status);
    expect(statuses[0]).toBe(401);
    expect(statuses.at(-1)).toBe(429);
    const refused = await client.post('/dashboard/login', { api_key: `sk_test_${'x'.repeat(40)}` });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(client.jar.has('omniport_dashboard')).toBe(false);
    const signedIn = await client.post('/dashboard/login', { api_key: server.tenant.apiKey });
    expect(signedIn.status).toBe(303);
    expect(client.jar.has('omniport_dashboard')).toBe(true);
  });
});
