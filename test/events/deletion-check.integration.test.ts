/**
 * Deletion checks through the HTTP server (Pipedrive: its persons, organizations, deals, activities and
 * notes lists leave deleted objects out, so incremental runs cannot see deletions): the project's
 * interval, GET /sync/status, an object deleted in Pipedrive marked deleted with its `.deleted` event,
 * nothing marked after a failed listing, and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unifiedId } from '../../src/core/unified/ids';
import { setUp, TOKEN, type PipedriveSetup } from '../providers/pipedrive/support';
import type { Tenant } from '../support/harness';

let s: PipedriveSetup;
let other: Tenant;
let otherToken: string;
let otherConnectionId: string;

interface CheckStatus {
  status: string;
  ids_listed: number;
  marked_deleted: number;
  last_success_at: string | null;
  last_error: string | null;
  next_at: string | null;
}

async function checkOf(stream: string, token = s.token, apiKey?: string): Promise<CheckStatus | null> {
  const res = await s.server.call('GET', '/sync/status', { headers: { 'x-connection-token': token }, apiKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.streams.find((x: { stream: string }) => x.stream === stream).deletion_check;
}

/** Queues the deletion checks and waits until the contacts' one has ended (`idle` after `since`, or `failed`). */
async function checkDeletions(until: (c: CheckStatus) => boolean, timeoutMs = 60_000): Promise<CheckStatus> {
  const queued = await s.server.call('POST', '/sync', { headers: s.headers(), body: { check_deletions: true } });
  expect(queued.status, JSON.stringify(queued.body)).toBe(202);
  expect(queued.body.data.queued).toContain('crm.contact#deletions');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = (await checkOf('crm.contact'))!;
    if (until(c)) return c;
    if (Date.now() > deadline) throw new Error(`deletion check did not end: ${JSON.stringify(c)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const personRow = async (connectionId: string, remoteId: number) =>
  (await s.server.sql("select remote_was_deleted from unified_objects where connection_id = $1 and object_type = 'crm.contact' and remote_id = $2", [connectionId, String(remoteId)]))[0];

const deletedEvents = async (apiKey?: string) =>
  (await s.server.call('GET', '/events?type=crm.contact.deleted&limit=100', { apiKey })).body.data as { data: { object: { remote_id: string } } }[];

beforeAll(async () => {
  s = await setUp({
    contactSync: false,
    seed: (sim) => {
      sim.seedOrganizations(3);
      sim.seedPersons(8, { linkOrganizations: true });
    },
  });
  // Another project connected to the same Pipedrive account.
  other = await s.server.createTenant('other');
  const res = await s.server.call('POST', '/connections', {
    apiKey: other.apiKey,
    body: { provider: 'pipedrive', linked_user_origin_id: 'acme', credentials: { api_token: TOKEN }, base_url: s.sim.url },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  otherToken = res.body.data.connection_token;
  otherConnectionId = res.body.data.id_connection;
  const deadline = Date.now() + 120_000;
  while ((await s.server.sql("select 1 from unified_objects where connection_id = $1 and object_type = 'crm.contact'", [otherConnectionId])).length < 8) {
    if (Date.now() > deadline) throw new Error('the other connection did not sync');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);
afterAll(async () => {
  await s?.close();
});

describe('deletion checks', () => {
  it('the interval is a project setting: 360 minutes by default, validated, and null turns it off', async () => {
    expect((await s.server.call('GET', '/project')).body.data.deletion_check_interval_minutes).toBe(360);
    for (const bad of [0, 14, 1.5, '60', 30 * 24 * 60 + 1]) {
      const res = await s.server.call('PATCH', '/project', { body: { deletion_check_interval_minutes: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(res.body)).toContain('deletion_check_interval_minutes');
    }
    const off = await s.server.call('PATCH', '/project', { body: { deletion_check_interval_minutes: null } });
    expect(off.body.data).toMatchObject({ deletion_check_interval_minutes: null, sync_interval_minutes: 60 });
    expect((await checkOf('crm.contact'))!.next_at).toBeNull();
    const on = await s.server.call('PATCH', '/project', { body: { deletion_check_interval_minutes: 120 } });
    expect(on.body.data.deletion_check_interval_minutes).toBe(120);
    const check = (await checkOf('crm.contact'))!;
    expect(check).toMatchObject({ status: 'never_run', ids_listed: 0, last_success_at: null });
    expect(Date.parse(check.next_at!)).toBeGreaterThan(Date.now() + 100 * 60_000);
    // Streams that need no check (read whole every run) show none.
    expect(await checkOf('crm.user')).toBeNull();
  });

  it('an object deleted in Pipedrive is marked deleted after the check, with its crm.contact.deleted event', async () => {
    const victim = s.sim.entities('persons')[2]!;
    s.sim.deleteEntity('persons', victim.id);
    // An incremental sync cannot see it: Pipedrive's lists leave deleted persons out.
    expect(await personRow(s.connectionId, victim.id)).toMatchObject({ remote_was_deleted: false });

    const started = Date.now();
    const check = await checkDeletions((c) => c.status === 'idle' && c.last_success_at !== null && Date.parse(c.last_success_at) >= started - 5);
    expect(check).toMatchObject({ ids_listed: 7, marked_deleted: 1, last_error: null });
    expect(await personRow(s.connectionId, victim.id)).toMatchObject({ remote_was_deleted: true });
    const got = await s.server.call('GET', `/crm/contacts/${unifiedId(s.connectionId, 'crm.contact', String(victim.id))}`);
    expect(got.status).toBe(200);
    const events = await deletedEvents();
    expect(events.map((e) => e.data.object.remote_id)).toEqual([String(victim.id)]);
    // Ids only: the check read the persons list without option labels, in pages of 500.
    const lists = s.sim.requests.filter((r) => r.path === '/api/v2/persons' && r.query.include_option_labels === undefined);
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((r) => r.query.limit === '500')).toBe(true);

    // Tenant isolation: the other project's copy of the same person is its own business.
    expect(await personRow(otherConnectionId, victim.id)).toMatchObject({ remote_was_deleted: false });
    expect(await deletedEvents(other.apiKey)).toEqual([]);
    expect(await checkOf('crm.contact', otherToken, other.apiKey)).toMatchObject({ status: 'never_run' });
    // Another project's connection token with this project's key is unknown.
    expect((await s.server.call('GET', '/sync/status', { headers: { 'x-connection-token': otherToken } })).status).toBe(401);
  });

  it('a listing that fails marks nothing', async () => {
    const victim = s.sim.entities('persons')[4]!;
    s.sim.deleteEntity('persons', victim.id);
    // The first page answers, the second fails (page size 500: a third person page is needed).
    for (let i = 0; i < 600; i++) s.sim.createEntity('persons', { name: `Filler ${i}`, first_name: 'Filler', last_name: String(i) });
    const fault = s.sim.faults.add({ method: 'GET', path: '/api/v2/persons', status: 500, times: Infinity, when: (req) => req.query.get('cursor') !== null });
    try {
      const check = await checkDeletions((c) => c.status === 'failed');
      expect(check.last_error).toBeTruthy();
      expect(await personRow(s.connectionId, victim.id)).toMatchObject({ remote_was_deleted: false });
      expect((await deletedEvents()).map((e) => e.data.object.remote_id)).not.toContain(String(victim.id));
    } finally {
      s.sim.faults.remove(fault);
    }
  });
});
