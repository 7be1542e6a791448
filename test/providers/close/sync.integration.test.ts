/**
 * Close sync to the last page: a full run over offset pages while contacts are deleted between pages
 * (none still in Close is skipped), then an incremental run over several event-log pages that picks up
 * the changes and reports the deletions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../../src/providers/registry';
import { createCloseAdapter } from '../../../src/providers/close';
import { startCloseSimulator, type CloseSimulator, type Obj } from '../../simulators/close';
import { expectNoCloseSpecViolations } from '../../conformance/drivers/close';
import { startTestServer, type TestServer } from '../../support/harness';
import { syncAndWait, waitForSync } from '../../support/sync-wait';

const KEY = 'close-sync-key';
const PAGE = 10;
let sim: CloseSimulator;
let server: TestServer;
let token: string;
let connectionId: string;
let contacts: Obj[];
const deletedMidRun: string[] = [];

const stored = async (type: string) =>
  (await server.sql('select remote_id, remote_was_deleted, data from unified_objects where connection_id = $1 and object_type = $2', [connectionId, type])) as {
    remote_id: string;
    remote_was_deleted: boolean;
    data: Record<string, unknown>;
  }[];

beforeAll(async () => {
  sim = await startCloseSimulator({ apiKeys: [KEY] });
  const lead = sim.create('lead', { name: 'Initech' });
  contacts = Array.from({ length: 35 }, (_, i) => sim.create('contact', { lead_id: lead.id, name: `Person ${i}` }));
  // Before the second contacts page, one contact of the first page goes: every later contact moves back by one.
  sim.faults.add({
    method: 'GET',
    path: '/api/v1/contact/',
    when: (req) => req.query.get('_skip') !== '0',
    before: () => {
      sim.remove('contact', contacts[2]!.id);
      deletedMidRun.push(contacts[2]!.id);
    },
  });
  server = await startTestServer({ providers: new ProviderRegistry([createCloseAdapter({ pageSize: PAGE })]) });
  const startedAt = Date.now();
  const res = await server.call('POST', '/connections', { body: { provider: 'close', linked_user_origin_id: 'close-sync', credentials: { api_key: KEY }, base_url: sim.url } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  token = res.body.data.connection_token;
  connectionId = res.body.data.id_connection;
  await waitForSync(server, token, startedAt);
}, 180_000);
afterAll(async () => {
  if (sim) expectNoCloseSpecViolations(sim);
  await server?.close();
  await sim?.close();
});

describe('close sync', () => {
  it('reads every contact still in Close on a full run, though one was deleted between pages', async () => {
    expect(deletedMidRun).toHaveLength(1);
    const rows = await stored('crm.contact');
    const live = sim.all('contact').map((c) => c.id);
    expect(live).toHaveLength(34);
    const seen = new Set(rows.map((r) => r.remote_id));
    expect(live.filter((id) => !seen.has(id))).toEqual([]);
    const pages = sim.requests.filter((r) => r.path === '/api/v1/contact/');
    expect(pages.length).toBeGreaterThanOrEqual(4);
  });

  it('walks the event log to its last page on an incremental run: changes, creations and deletions', async () => {
    // 60 updates (more than one 50-event page), a new contact, and two deletions.
    const changed = contacts.slice(3, 33);
    for (const c of changed) sim.update('contact', c.id, { name: `Renamed ${c.id}` });
    for (const c of changed) sim.update('contact', c.id, { title: 'Engineer' });
    const lead = sim.all('lead')[0]!;
    const added = sim.create('contact', { lead_id: lead.id, name: 'Newcomer' });
    const gone = [contacts[33]!, contacts[34]!];
    for (const c of gone) sim.remove('contact', c.id);
    const before = sim.requests.length;

    const status = await syncAndWait(server, token);
    expect(status.streams.find((s) => s.stream === 'crm.contact')?.mode).toBe('incremental');
    const eventPages = sim.requests.slice(before).filter((r) => r.path === '/api/v1/event/' && r.query.object_type === 'contact');
    expect(eventPages.some((r) => typeof r.query._cursor === 'string')).toBe(true);

    const rows = new Map((await stored('crm.contact')).map((r) => [r.remote_id, r]));
    for (const c of changed) expect(rows.get(c.id)?.data.first_name).toBe('Renamed');
    expect(rows.get(added.id)?.data.first_name).toBe('Newcomer');
    for (const c of gone) expect(rows.get(c.id)?.remote_was_deleted).toBe(true);
    expect(rows.get(contacts[3]!.id)?.remote_was_deleted).toBe(false);
  });

  it('reads objects by id when the events no longer carry their data, and reports those gone as deleted', async () => {
    sim.eventsWithoutData = true;
    const kept = contacts[5]!;
    const removed = contacts[6]!;
    sim.update('contact', kept.id, { name: 'Fetched Again' });
    sim.remove('contact', removed.id);
    const before = sim.requests.length;
    await syncAndWait(server, token);
    sim.eventsWithoutData = false;
    expect(sim.requests.slice(before).some((r) => r.path === `/api/v1/contact/${kept.id}/`)).toBe(true);
    const rows = new Map((await stored('crm.contact')).map((r) => [r.remote_id, r]));
    expect(rows.get(kept.id)?.data.first_name).toBe('Fetched');
    expect(rows.get(removed.id)?.remote_was_deleted).toBe(true);
  });
});
