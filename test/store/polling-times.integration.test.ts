/**
 * Two meanings of time on every unified object: Omniport's (`created_at`, `modified_at`: when the object
 * entered and last changed in the store) and the provider's (`remote_created_at`, `remote_updated_at`), each
 * with its own list filters. Through the real HTTP server, against the Zendesk simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { createZendeskAdapter } from '../../src/providers/zendesk';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { syncAndWait, waitForSync } from '../support/sync-wait';

let sim: ZendeskSimulator;
let server: TestServer;
let token: string;
const headers = () => ({ 'x-connection-token': token });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Obj {
  id: string;
  remote_id: string;
  name?: string;
  created_at: string;
  modified_at: string;
  remote_created_at: string | null;
  remote_updated_at: string | null;
}

async function list(path: string): Promise<Obj[]> {
  const res = await server.call('GET', path, { headers: headers() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Obj[];
}

/** Every page of a list, following next_cursor. */
async function listAll(path: string, limit: number): Promise<Obj[]> {
  const out: Obj[] = [];
  let cursor: string | null = null;
  do {
    const res = await server.call('GET', `${path}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { headers: headers() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

const toSecond = (d: number | string) => Math.floor(new Date(d).getTime() / 1000) * 1000;
const at = (d: number) => encodeURIComponent(new Date(d).toISOString());

let syncedAt: number;

beforeAll(async () => {
  sim = await startZendeskSimulator();
  // Provider times a day and more in the past, a minute apart.
  sim.seedTickets(12, { commentsPerTicket: 1, spacingMs: 60_000 });
  server = await startTestServer({ providers: new ProviderRegistry([createZendeskAdapter()]) });
  const started = Date.now();
  token = await connectZendesk(server, sim);
  await waitForSync(server, token, started);
  syncedAt = Date.now();
}, 180_000);
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

describe('Omniport times and provider times', () => {
  it('every object carries both; a stored view and a built one agree', async () => {
    const tickets = await list('/ticketing/tickets?limit=100');
    expect(tickets).toHaveLength(12);
    for (const t of tickets) {
      expect(Date.parse(t.created_at)).toBeLessThanOrEqual(syncedAt);
      expect(Date.parse(t.modified_at)).toBeGreaterThanOrEqual(Date.parse(t.created_at));
      const remote = sim.state.tickets.get(Number(t.remote_id))!;
      // Zendesk writes its times to the second.
      expect(t.remote_updated_at).toBe(new Date(toSecond(remote.updated_at)).toISOString());
      expect(t.remote_created_at).toBe(new Date(toSecond(remote.created_at)).toISOString());
    }
    // With remote_data the view is built in JavaScript rather than read as stored JSON: the same times.
    const built = await list('/ticketing/tickets?limit=100&remote_data=true');
    for (const [i, t] of tickets.entries()) {
      expect(built[i]).toMatchObject({ created_at: t.created_at, modified_at: t.modified_at, remote_created_at: t.remote_created_at, remote_updated_at: t.remote_updated_at });
    }
  });

  it('a change made in the provider before a poll at P and stored by a sync after P is returned by modified_after=P', async () => {
    const [changed, other] = [...sim.state.tickets.values()].slice(0, 2);
    sim.updateTicketRemotely(changed!.id, { subject: 'changed before the poll' });
    const changedAt = sim.state.tickets.get(changed!.id)!.updated_at;
    await sleep(20);
    const P = Date.now();
    // The poll at P: the change is not stored yet.
    expect(await list(`/ticketing/tickets?modified_after=${at(P)}`)).toEqual([]);
    await sleep(20);
    await syncAndWait(server, token);

    const polled = await list(`/ticketing/tickets?modified_after=${at(P)}`);
    expect(polled.map((t) => t.name)).toEqual(['changed before the poll']);
    expect(Date.parse(polled[0]!.modified_at)).toBeGreaterThanOrEqual(P);
    // The provider's time is before P: remote_updated_after finds it from the provider's change on.
    expect(Date.parse(polled[0]!.remote_updated_at!)).toBeLessThan(P);
    const byRemote = await list(`/ticketing/tickets?remote_updated_after=${at(toSecond(changedAt))}`);
    expect(byRemote.map((t) => t.remote_id)).toEqual([String(changed!.id)]);
    expect(await list(`/ticketing/tickets?remote_updated_after=${at(P)}`)).toEqual([]);
    // A ticket read again unchanged by the same sync keeps its modified_at.
    const untouched = (await list('/ticketing/tickets?limit=100')).find((t) => t.remote_id === String(other!.id))!;
    expect(Date.parse(untouched.modified_at)).toBeLessThan(P);
  });

  it('objects without a provider time (tags) match the filters on Omniport’s times', async () => {
    const tags = await list('/ticketing/tags?limit=100');
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.every((t) => t.remote_updated_at === null && t.created_at && t.modified_at)).toBe(true);
    expect(await list('/ticketing/tags?limit=100&modified_after=1900-01-01T00:00:00Z')).toHaveLength(tags.length);
    expect(await list('/ticketing/tags?limit=100&created_after=1900-01-01T00:00:00Z')).toHaveLength(tags.length);
    expect(await list(`/ticketing/tags?limit=100&created_before=${at(Date.now() + 60_000)}`)).toHaveLength(tags.length);
    // No provider time: no match on the provider's.
    expect(await list('/ticketing/tags?limit=100&remote_updated_after=1900-01-01T00:00:00Z')).toEqual([]);
  });

  it('a list filtered on a time is in that time’s order, every object once across pages; cursors do not cross orders', async () => {
    const all = await listAll('/ticketing/tickets?modified_after=1900-01-01T00:00:00Z', 5);
    expect(all).toHaveLength(12);
    expect(new Set(all.map((t) => t.id)).size).toBe(12);
    const keys = all.map((t) => `${t.modified_at} ${t.id}`);
    expect(keys).toEqual([...keys].sort());
    // Provider-time order, with both bounds.
    const byRemote = await listAll(`/ticketing/tickets?remote_created_after=1900-01-01T00:00:00Z&remote_created_before=${at(Date.now())}`, 4);
    expect(byRemote).toHaveLength(12);
    const remoteKeys = byRemote.map((t) => t.remote_created_at!);
    expect(remoteKeys).toEqual([...remoteKeys].sort());
    // A cursor of the plain list is not a cursor of a time-ordered one.
    const plain = await server.call('GET', '/ticketing/tickets?limit=2', { headers: headers() });
    const crossed = await server.call('GET', `/ticketing/tickets?limit=2&modified_after=1900-01-01T00:00:00Z&cursor=${plain.body.next_cursor}`, { headers: headers() });
    expect(crossed.status).toBe(400);
    expect(crossed.body.details.field).toBe('cursor');
  });

  it('a deletion moves modified_at; a write through the API answers Omniport’s times, and its event carries them', async () => {
    const [victim] = [...sim.state.tickets.values()].slice(-1);
    sim.deleteTicketRemotely(victim!.id);
    const before = Date.now();
    await sleep(5);
    await syncAndWait(server, token);
    const deleted = await list(`/ticketing/tickets?include_deleted=true&modified_after=${at(before)}`);
    expect(deleted.map((t) => [t.remote_id, (t as unknown as { remote_was_deleted: boolean }).remote_was_deleted])).toEqual([[String(victim!.id), true]]);

    const writeStart = Date.now();
    const created = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: { name: 'written through the API', description: 'hello' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const view = created.body.data as Obj;
    expect(Date.parse(view.created_at)).toBeGreaterThanOrEqual(writeStart - 5);
    expect(view.modified_at).toBe(view.created_at);
    expect(view.remote_created_at).not.toBeNull();
    const read = await server.call('GET', `/ticketing/tickets/${view.id}`);
    expect(read.body.data).toMatchObject({ created_at: view.created_at, modified_at: view.modified_at, remote_created_at: view.remote_created_at });
    const events = await server.call('GET', '/events?type=ticketing.ticket.created&limit=100');
    const event = (events.body.data as { data: { object: Obj } }[]).find((e) => e.data.object.id === view.id)!;
    expect(event.data.object).toMatchObject({ created_at: view.created_at, modified_at: view.modified_at, remote_created_at: view.remote_created_at });
  });
});
