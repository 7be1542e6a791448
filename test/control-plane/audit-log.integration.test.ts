/**
 * The audit log, through the real server: every audited control-plane action appears once with its actor
 * (API key, magic link; the CLI's are checked in process.integration.test.ts), request id and source address; replays and refused requests add nothing;
 * no secret is ever stored; another project's entries are never shown; keyset pages newest first, filters,
 * and the retention purge.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { acmeOAuthProvider, acmeTokenProvider } from '../support/connect-providers';
import { connectWithOAuth, createLink, request, setOAuthApp } from '../support/connect-flow';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { ProviderRegistry, defaultProviders } from '../../src/providers/registry';

let server: TestServer;
let zendesk: ZendeskSimulator;
let oauth: OAuthSimulator;
let apiKeyId: string;
const email = 'jane@acme.test';
const apiToken = 'crm-token-audit-7e1f2a9b';
/** Every secret the actions below handle: none may reach the audit log. */
const secrets: string[] = [apiToken];

type Entry = {
  id: string;
  created_at: string;
  action: string;
  actor: { type: string; id: string | null };
  target: { type: string | null; id: string | null };
  request_id: string | null;
  source_address: string | null;
  details: Record<string, unknown>;
};

async function allEntries(apiKey = server.tenant.apiKey, query = ''): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | null = null;
  do {
    const res = await server.call('GET', `/audit-log?limit=3${query}${cursor ? `&cursor=${cursor}` : ''}`, { apiKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    entries.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return entries;
}

beforeAll(async () => {
  zendesk = await startZendeskSimulator({ validateSpec: false });
  oauth = await startOAuthSimulator();
  oauth.addApiToken(email, apiToken);
  server = await startTestServer({
    work: false,
    providers: new ProviderRegistry([...defaultProviders(), acmeOAuthProvider, acmeTokenProvider]),
    env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' },
  });
  const [key] = await server.sql('select id from api_keys where project_id = $1', [server.tenant.projectId]);
  apiKeyId = key!.id as string;
  secrets.push(server.tenant.apiKey, zendesk.credentials[0]!.apiToken, oauth.clients[0]!.clientSecret);
});
afterAll(async () => {
  await server?.close();
  await zendesk?.close();
  await oauth?.close();
});

describe('the audit log', () => {
  /** action → the request id of the call that did it. */
  const done = new Map<string, string>();
  const act = async (action: string, method: string, path: string, opts: Parameters<TestServer['call']>[2] = {}) => {
    const res = await server.call(method, path, opts);
    expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    done.set(action, res.headers.get('x-request-id')!);
    return res;
  };

  it('records each control-plane action once, with the API key, request id and source address', async () => {
    const key = await act('api_key.created', 'POST', '/auth/generate-apikey', { body: { projectId: server.tenant.projectId, userId: server.tenant.userId, keyName: 'ci' } });
    secrets.push(key.body.api_key);
    await act('api_key.revoked', 'DELETE', `/auth/api-keys/${key.body.id_api_key}`);
    await act('linked_user.created', 'POST', '/linked-users', { body: { linked_user_origin_id: 'audited' } });
    const token = await connectZendesk(server, zendesk, { origin: 'audited' });
    secrets.push(token);
    done.set('connection.created', (await server.sql("select request_id from audit_log where action = 'connection.created'"))[0]!.request_id as string);
    await act('passthrough.called', 'POST', '/passthrough', {
      headers: { 'x-connection-token': token },
      body: { method: 'GET', path: '/api/v2/ticket_fields', query: { note: token } },
    });
    await act('sync.requested', 'POST', '/sync', { headers: { 'x-connection-token': token }, body: { full: true } });
    await act('project.updated', 'PATCH', '/project', { body: { sync_interval_minutes: 30 } });
    await act('oauth_app.saved', 'PUT', '/oauth-apps/acme-oauth', { body: { client_id: oauth.clients[0]!.clientId, client_secret: oauth.clients[0]!.clientSecret } });
    await act('connect_settings.updated', 'PATCH', '/connect-settings', { body: { allowed_redirect_urls: ['https://app.example.com/'] } });
    const link = await act('magic_link.created', 'POST', '/magic-link/create', { body: { linked_user_origin_id: 'audited-2' } });
    secrets.push(link.body.url.split('/connect/')[1]);
    await act('magic_link.revoked', 'DELETE', `/magic-link/${link.body.id_invite_link}`);
    const attribute = await act('attribute.defined', 'POST', '/field-mapping/define', {
      body: { object_type_owner: 'ticketing.ticket', name: 'priority_score', description: 'Score', data_type: 'number' },
    });
    await act('attribute.deleted', 'DELETE', `/field-mapping/attributes/${attribute.body.data.id_attribute}`);
    const connectionId = (await server.call('GET', '/connections')).body.data[0].id_connection as string;

    // Neither a replay of an Idempotency-Key nor a refused request is an action.
    const idem = randomUUID();
    await act('linked_user.created (idempotent)', 'POST', '/linked-users', { headers: { 'idempotency-key': idem }, body: { linked_user_origin_id: 'idem' } });
    const replay = await server.call('POST', '/linked-users', { headers: { 'idempotency-key': idem }, body: { linked_user_origin_id: 'idem' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await server.call('DELETE', `/auth/api-keys/${randomUUID()}`)).status).toBe(404);
    expect((await server.call('PUT', '/oauth-apps/acme-oauth', { body: { client_id: 'x', client_secret: 'y', token_url: 'ftp://nope' } })).status).toBe(400);

    await act('connection.deleted', 'DELETE', `/connections/${connectionId}`);
    await act('oauth_app.deleted', 'DELETE', '/oauth-apps/acme-oauth');

    const entries = await allEntries();
    const counts = new Map<string, number>();
    for (const e of entries) counts.set(e.action, (counts.get(e.action) ?? 0) + 1);
    const expected = [...done.keys()].map((a) => a.replace(' (idempotent)', ''));
    const expectedCounts = new Map<string, number>();
    for (const a of expected) expectedCounts.set(a, (expectedCounts.get(a) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(expectedCounts));

    for (const [action, requestId] of done) {
      const entry = entries.find((e) => e.request_id === requestId)!;
      expect(entry, action).toBeDefined();
      expect(entry.action).toBe(action.replace(' (idempotent)', ''));
      expect(entry.actor).toEqual({ type: 'api_key', id: apiKeyId });
      expect(entry.source_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
      expect(entry.target.id, action).toBeTruthy();
    }
    const byAction = (a: string) => entries.find((e) => e.action === a)!;
    expect(byAction('connection.created').target).toEqual({ type: 'connection', id: connectionId });
    expect(byAction('connection.created').details).toMatchObject({ provider: 'zendesk' });
    expect(byAction('connection.deleted').target).toEqual({ type: 'connection', id: connectionId });
    expect(byAction('passthrough.called')).toMatchObject({ target: { type: 'connection', id: connectionId }, details: { method: 'GET', path: '/api/v2/ticket_fields', provider_status: 200 } });
    expect(byAction('oauth_app.saved').target).toEqual({ type: 'oauth_app', id: 'acme-oauth' });
    expect(byAction('sync.requested').details).toEqual({ full: true });
    expect(byAction('project.updated').details).toEqual({ fields: ['sync_interval_minutes'] });
    // Newest first.
    const times = entries.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('records connections an end customer makes on a magic link’s page, with the link as actor', async () => {
    await setOAuthApp(server, oauth);
    await server.call('PATCH', '/connect-settings', { body: { allowed_redirect_urls: ['https://app.example.com/'] } });
    const formLink = await createLink(server, { linked_user_origin_id: 'audited-form' });
    secrets.push(formLink.url.split('/connect/')[1]!);
    const submitted = await request(`${formLink.url}/providers/acme-crm/credentials`, { form: { base_url: oauth.url, email, api_token: apiToken } });
    expect(submitted.status, submitted.text).toBe(303);
    const oauthLink = await createLink(server, { linked_user_origin_id: 'audited-oauth' });
    secrets.push(oauthLink.url.split('/connect/')[1]!);
    const { res } = await connectWithOAuth(oauthLink.url, oauth);
    expect(res.status, res.text).toBe(303);

    const made = await allEntries(server.tenant.apiKey, '&action=connection.created');
    const viaLinks = made.filter((e) => e.actor.type === 'magic_link');
    expect(viaLinks.map((e) => [e.actor.id, e.details.via]).sort()).toEqual(
      [
        [formLink.id_invite_link, 'connect_form'],
        [oauthLink.id_invite_link, 'oauth'],
      ].sort(),
    );
    for (const e of viaLinks) {
      expect(e.target.type).toBe('connection');
      expect(e.request_id).toBeTruthy();
      expect(e.source_address).toBeTruthy();
    }
  });

  it('never holds a secret', async () => {
    const dump = JSON.stringify(await server.sql('select * from audit_log'));
    expect(secrets.length).toBeGreaterThanOrEqual(9);
    for (const secret of secrets) expect(dump, 'a secret in the audit log').not.toContain(secret);
  });

  it('never shows another project’s entries, whatever the filter', async () => {
    const other = await server.createTenant('audit-other');
    const mine = await allEntries();
    expect(mine.length).toBeGreaterThan(10);
    expect(await allEntries(other.apiKey)).toEqual([]);
    for (const e of mine.slice(0, 5)) {
      expect(await allEntries(other.apiKey, `&target_id=${e.target.id}`)).toEqual([]);
      expect(await allEntries(other.apiKey, `&actor_id=${e.actor.id}`)).toEqual([]);
    }
    // Its own action is its own.
    expect((await server.call('POST', '/linked-users', { apiKey: other.apiKey, body: { linked_user_origin_id: 'o' } })).status).toBe(201);
    expect((await allEntries(other.apiKey)).map((e) => e.action)).toEqual(['linked_user.created']);
    expect((await allEntries()).length).toBe(mine.length);
  });

  it('pages both ways and filters', async () => {
    const all = await allEntries();
    const first = await server.call('GET', '/audit-log?limit=4');
    const second = await server.call('GET', `/audit-log?limit=4&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((e: Entry) => e.id)).toEqual(all.slice(4, 8).map((e) => e.id));
    const back = await server.call('GET', `/audit-log?limit=4&cursor=${second.body.prev_cursor}`);
    expect(back.body.data).toEqual(first.body.data);
    expect(back.body.prev_cursor).toBeNull();

    const connections = await allEntries(server.tenant.apiKey, '&action=connection.');
    expect(connections.length).toBeGreaterThanOrEqual(4);
    expect(connections.every((e) => e.action.startsWith('connection.'))).toBe(true);
    expect(await allEntries(server.tenant.apiKey, '&created_after=2999-01-01T00:00:00Z')).toEqual([]);
    expect((await allEntries(server.tenant.apiKey, '&created_before=2999-01-01T00:00:00Z')).length).toBe(all.length);
    expect((await allEntries(server.tenant.apiKey, `&actor_id=${apiKeyId}`)).every((e) => e.actor.id === apiKeyId)).toBe(true);
    for (const bad of ['action=DROP%20TABLE', 'action=connection.%25', 'created_after=yesterday', 'cursor=eyJ4IjoxfQ', 'limit=0']) {
      const res = await server.call('GET', `/audit-log?${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });

  it('forgets entries older than the retention (90 days by default)', async () => {
    const ids = (await server.sql('select id from audit_log where project_id = $1 order by created_at limit 2', [server.tenant.projectId])).map((r) => r.id as string);
    await server.sql(`update audit_log set created_at = now() - interval '91 days' where id = $1`, [ids[0]]);
    await server.sql(`update audit_log set created_at = now() - interval '89 days' where id = $1`, [ids[1]]);
    expect(server.omniport.services.audit.retentionDays).toBe(90);
    expect(await server.omniport.services.audit.purgeExpired()).toBe(1);
    const left = (await server.sql('select id from audit_log where id = any($1::uuid[])', [ids])).map((r) => r.id);
    expect(left).toEqual([ids[1]]);
  });

  it('forgets a large backlog in slices of 1,000, each its own statement (issue 32: requests wait behind one slice at most)', async () => {
    await server.sql(
      `insert into audit_log (project_id, actor_type, action, created_at) select $1, 'system', 'bench.old', now() - interval '100 days' from generate_series(1, 2500)`,
      [server.tenant.projectId],
    );
    const deletes: string[] = [];
    const stop = server.omniport.database.observeQueries((q) => q.startsWith('delete from "audit_log"') && deletes.push(q));
    try {
      expect(await server.omniport.services.audit.purgeExpired()).toBe(2500);
    } finally {
      stop();
    }
    expect(deletes).toHaveLength(3);
    expect(await server.sql(`select 1 from audit_log where action = 'bench.old'`)).toEqual([]);
  });
});
