import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Tenant, type TestServer } from '../support/harness';
import { connectRegistry, request } from '../support/connect-flow';

let server: TestServer;
let other: Tenant;
const unknownId = '00000000-0000-4000-8000-000000000000';
const hours = (iso: string) => (Date.parse(iso) - Date.now()) / 3_600_000;

beforeAll(async () => {
  server = await startTestServer({ providers: connectRegistry(), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
  other = await server.createTenant('other');
});
afterAll(() => server.close());

describe('POST /magic-link/create (endpoint 10)', () => {
  it('creates the linked user and a 7-day link to the hosted connect page; the secret is stored hashed', async () => {
    const res = await server.call('POST', '/magic-link/create', {
      body: { linked_user_origin_id: 'cust-ml-1', email: 'ops@acme.test', alias: 'Acme Inc', id_project: server.tenant.projectId },
    });
    expect(res.status).toBe(201);
    const link = res.body;
    expect(Object.keys(link)).toEqual(expect.arrayContaining(['id_invite_link', 'url', 'expires_at', 'linked_user']));
    expect(link.url).toMatch(new RegExp(`^${server.url}/connect/ml_[A-Za-z0-9]{43}$`));
    expect(link.status).toBe('active');
    expect(hours(link.expires_at)).toBeGreaterThan(7 * 24 - 0.1);
    expect(hours(link.expires_at)).toBeLessThanOrEqual(7 * 24);
    // linked_user is shaped like GET /linked-users/{id}.
    const lu = await server.call('GET', `/linked-users/${link.linked_user.id_linked_user}`);
    expect(link.linked_user).toEqual(lu.body.data);
    expect(link.linked_user).toMatchObject({ linked_user_origin_id: 'cust-ml-1', alias: 'Acme Inc', email: 'ops@acme.test', id_project: server.tenant.projectId });

    const token = link.url.split('/connect/')[1];
    const stored = JSON.stringify(await server.sql('select * from invite_links'));
    expect(stored).not.toContain(token);

    // The page opens.
    const page = await request(link.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('Acme CRM');
    expect(page.text).toContain('Acme Inc');
    // An OAuth-only provider is offered once the project has set its OAuth app (not here).
    expect(page.text).not.toContain('Acme Helpdesk');
  });

  it('escapes what the developer and the user typed on every page', async () => {
    const alias = '<img src=x onerror=alert(1)>"\'';
    const link = (await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-xss', alias } })).body;
    const page = await request(link.url);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;');
  });

  it('reuses the linked user of an origin id, filling a missing alias or email but never overwriting', async () => {
    const first = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-2' } });
    expect(first.body.linked_user).toMatchObject({ alias: null, email: null });
    const second = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-2', alias: 'Beta', email: 'b@beta.test' } });
    expect(second.body.linked_user.id_linked_user).toBe(first.body.linked_user.id_linked_user);
    expect(second.body.linked_user).toMatchObject({ alias: 'Beta', email: 'b@beta.test' });
    const third = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-2', alias: 'Other name' } });
    expect(third.body.linked_user.alias).toBe('Beta');
    expect(third.body.id_invite_link).not.toBe(second.body.id_invite_link);
    expect(third.body.url).not.toBe(second.body.url);
  });

  it('answers another project’s id, or an unknown one, as 404; validates its input', async () => {
    for (const id of [other.projectId, unknownId, 'not-a-project']) {
      const res = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'x', id_project: id } });
      expect(res.status).toBe(404);
      expect(res.body.details).toMatchObject({ code: 'not_found', field: 'id_project' });
    }
    // Nothing was created for that call.
    expect((await server.call('GET', '/linked-users?linked_user_origin_id=x')).body.data).toEqual([]);

    const cases: [Record<string, unknown>, string][] = [
      [{}, 'body.linked_user_origin_id'],
      [{ linked_user_origin_id: 'x', email: 'nope' }, 'body.email'],
      [{ linked_user_origin_id: 'x', expires_in_hours: 0 }, 'body.expires_in_hours'],
      [{ linked_user_origin_id: 'x', verticals: ['accounting'] }, 'body.verticals.0'],
      [{ linked_user_origin_id: 'x', surprise: 1 }, 'body'],
    ];
    for (const [body, path] of cases) {
      const res = await server.call('POST', '/magic-link/create', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.issues[0].path).toBe(path);
    }
    const unknownProvider = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'x', providers: ['nope'] } });
    expect(unknownProvider.status).toBe(400);
    expect(unknownProvider.body.details).toMatchObject({ field: 'providers', allowed: ['acme-oauth', 'acme-crm'] });
    // acme-oauth needs an OAuth app, which this project has not set: nothing could be connected.
    const nothing = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'x', providers: ['acme-oauth'] } });
    expect(nothing.status).toBe(422);
    expect(nothing.body.details.reason).toBe('no_connectable_provider');
    expect((await server.call('POST', '/magic-link/create', { apiKey: null, body: { linked_user_origin_id: 'x' } })).status).toBe(401);
  });

  it('expires after the requested time, or the configured default', async () => {
    const short = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-3', expires_in_hours: 2 } });
    expect(hours(short.body.expires_at)).toBeGreaterThan(1.99);
    expect(hours(short.body.expires_at)).toBeLessThanOrEqual(2);

    const configured = await startTestServer({
      providers: connectRegistry(),
      env: { OMNIPORT_MAGIC_LINK_TTL_HOURS: '24', OMNIPORT_PUBLIC_URL: 'https://connect.example.com/' },
      work: false,
    });
    try {
      const res = await configured.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'c' } });
      expect(hours(res.body.expires_at)).toBeGreaterThan(23.99);
      expect(hours(res.body.expires_at)).toBeLessThanOrEqual(24);
      expect(res.body.url).toMatch(/^https:\/\/connect\.example\.com\/connect\/ml_/);
    } finally {
      await configured.close();
    }
  });

  it('shows a clear page for expired, revoked and unknown links', async () => {
    const link = (await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-4' } })).body;
    await server.sql("update invite_links set expires_at = now() - interval '1 second' where id = $1", [link.id_invite_link]);
    const expired = await request(link.url);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('This link has expired');
    expect(expired.text).toContain('Ask the sender for a new link');
    expect(expired.text).not.toMatch(/stack|Error:|at .*\.ts/);
    expect((await request(`${link.url}/providers/acme-crm`)).status).toBe(410);
    expect((await request(`${link.url}/providers/acme-crm/credentials`, { form: { email: 'a@b.test' } })).status).toBe(410);
    expect((await server.call('GET', `/magic-link/${link.id_invite_link}`)).body.data.status).toBe('expired');

    const revokedLink = (await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-4' } })).body;
    const revoked = await server.call('DELETE', `/magic-link/${revokedLink.id_invite_link}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    const again = await server.call('DELETE', `/magic-link/${revokedLink.id_invite_link}`);
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at); // idempotent
    const page = await request(revokedLink.url);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link is no longer active');

    for (const url of [`${server.url}/connect/ml_${'x'.repeat(43)}`, `${server.url}/connect/whatever`, `${server.url}/connect/ml_<script>`]) {
      const unknown = await request(url);
      expect(unknown.status).toBe(404);
      expect(unknown.text).toContain('This link is not valid');
    }
    expect((await server.call('DELETE', `/magic-link/${unknownId}`)).status).toBe(404);
    expect((await server.call('GET', '/magic-link/nope')).status).toBe(404);
  });

  it('lists links with their status (never their URL), by linked user and status', async () => {
    const a = (await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-5' } })).body;
    const b = (await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-5' } })).body;
    await server.call('DELETE', `/magic-link/${a.id_invite_link}`);
    const all = await server.call('GET', `/magic-link?id_linked_user=${a.linked_user.id_linked_user}`);
    expect(all.body.data.map((l: { id_invite_link: string; status: string }) => [l.id_invite_link, l.status])).toEqual([
      [a.id_invite_link, 'revoked'],
      [b.id_invite_link, 'active'],
    ]);
    expect(JSON.stringify(all.body)).not.toContain('/connect/ml_');
    const active = await server.call('GET', `/magic-link?id_linked_user=${a.linked_user.id_linked_user}&status=active`);
    expect(active.body.data.map((l: { id_invite_link: string }) => l.id_invite_link)).toEqual([b.id_invite_link]);
    const page1 = await server.call('GET', '/magic-link?limit=1');
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await server.call('GET', `/magic-link?limit=1&cursor=${page1.body.next_cursor}`);
    expect(page2.body.data[0].id_invite_link).not.toBe(page1.body.data[0].id_invite_link);
    expect((await server.call('GET', '/magic-link?status=lost')).status).toBe(400);
  });

  it('offers only the providers enabled for the project and chosen for the link', async () => {
    const byProvider = (await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-6', providers: ['acme-crm'] } })).body;
    expect(byProvider.providers).toEqual(['acme-crm']);
    const page = await request(byProvider.url);
    expect(page.text).toContain('Acme CRM');
    expect(page.text).not.toContain('Acme Helpdesk');
    expect((await request(`${byProvider.url}/providers/acme-oauth`)).status).toBe(404);

    const byVertical = (await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-6', verticals: ['crm'] } })).body;
    expect(byVertical.verticals).toEqual(['crm']);
    expect((await request(byVertical.url)).text).toContain('Acme CRM');
    // acme-oauth is the only ticketing provider, and it has no OAuth app here.
    expect((await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-6', verticals: ['ticketing'] } })).status).toBe(422);

    const settings = await server.call('PATCH', '/connect-settings', { body: { enabled_providers: ['acme-oauth'] } });
    expect(settings.body.data).toEqual({ enabled_providers: ['acme-oauth'], allowed_redirect_urls: [] });
    try {
      const none = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'cust-ml-6' } });
      expect(none.status).toBe(422);
      expect((await request(byProvider.url)).text).not.toContain('Acme CRM'); // disabled for the project since
    } finally {
      await server.call('PATCH', '/connect-settings', { body: { enabled_providers: null } });
    }
  });

  it('validates the connect settings', async () => {
    expect((await server.call('GET', '/connect-settings')).body.data).toEqual({ enabled_providers: null, allowed_redirect_urls: [] });
    const bad = [
      { enabled_providers: ['nope'] },
      { allowed_redirect_urls: ['not a url'] },
      { allowed_redirect_urls: ['http://app.example.com/'] },
      { allowed_redirect_urls: ['https://user:pw@app.example.com/'] },
      { allowed_redirect_urls: ['https://app.example.com/#x'] },
    ];
    for (const body of bad) expect((await server.call('PATCH', '/connect-settings', { body })).status, JSON.stringify(body)).toBe(400);
    const ok = await server.call('PATCH', '/connect-settings', { body: { allowed_redirect_urls: ['https://app.example.com/cb', 'http://localhost:3000/'] } });
    expect(ok.body.data.allowed_redirect_urls).toEqual(['https://app.example.com/cb', 'http://localhost:3000/']);
    // Another project's settings are its own.
    expect((await server.call('GET', '/connect-settings', { apiKey: other.apiKey })).body.data.allowed_redirect_urls).toEqual([]);
    const created = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'c7', redirect_url: 'https://app.example.com/cb' } });
    expect(created.body.redirect_url).toBe('https://app.example.com/cb');
    expect((await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'c7', redirect_url: 'https://app.example.com/cb2' } })).status).toBe(422);
  });
});
