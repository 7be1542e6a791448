/**
 * Freshdesk's agents, groups, companies and contacts are listed whole every run, by page number (`page`,
 * `per_page`; developers.freshdesk.com/api, Pagination), in an order the reference does not give. A contact
 * deleted after its page was read moves every later one back a place, so the next page starts one too far
 * and one contact goes unread. A full run infers deletions, so it must ask Freshdesk for each object it did
 * not list before marking it deleted. Through the sync engine, on the test database (PGlite or PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRequestsDocumented } from '../../contracts/contract';
import { contract } from '../../contracts/freshdesk.contract';
import { createFreshdeskAdapter } from '../../../src/providers/freshdesk';
import { ProviderRegistry } from '../../../src/providers/registry';
import { startTestServer, type TestServer } from '../../support/harness';
import { startFreshdeskSimulator, type FreshdeskSimulator } from '../../simulators/freshdesk';

let server: TestServer;
let sim: FreshdeskSimulator;
let connectionId: string;

beforeAll(async () => {
  sim = await startFreshdeskSimulator({ rateLimit: { perMinute: 100_000 } });
  server = await startTestServer({ providers: new ProviderRegistry([createFreshdeskAdapter({ pageSize: 2 })]), work: false });
  const res = await server.call('POST', '/connections', { body: { provider: 'freshdesk', linked_user_origin_id: 'lists-walk', credentials: { api_key: sim.apiKeys[0]! }, base_url: sim.url } });
  expect(res.status).toBe(201);
  connectionId = res.body.data.id_connection;
});
afterAll(async () => {
  const violations = sim?.contractViolations ?? [];
  await server?.close();
  await sim?.close();
  expect(violations).toEqual([]);
  expectRequestsDocumented(contract, sim?.requests ?? []);
});

const contactState = async () =>
  new Map((await server.sql(`select remote_id, remote_was_deleted from unified_objects where connection_id = $1 and object_type = 'ticketing.contact'`, [connectionId])).map((r) => [String(r.remote_id), r.remote_was_deleted as boolean]));

describe('freshdesk contacts: one deleted while a run pages', () => {
  it('the contact it kept from being read is not marked deleted; the deleted one is once Freshdesk confirms it gone', async () => {
    for (let i = 0; i < 5; i++) sim.state.addContact({ name: `Contact ${i}`, email: `c${i}@example.com` });
    const { sync } = server.omniport.services;
    expect(await sync.run(connectionId, 'ticketing.contact')).toMatchObject({ outcome: 'done' });
    const listed = [...sim.state.contacts.values()].filter((c) => !c.deleted);
    expect([...(await contactState()).values()].filter((d) => !d)).toHaveLength(listed.length);

    // Before page 2 is read, the first contact (read on page 1) is deleted: the third moves onto page 1.
    // Another one is soft-deleted (Freshdesk's "delete": listed with state=deleted only).
    const [victim, , shifted] = listed;
    const soft = listed.at(-1)!;
    soft.deleted = true;
    const fault = sim.faults.add({ method: 'GET', path: '/api/v2/contacts', when: (req) => req.query.get('page') === '2', before: () => void sim.state.contacts.delete(victim!.id) });
    const run = await sync.run(connectionId, 'ticketing.contact');
    expect(fault.hits).toBe(1);
    // The deleted contact was read on page 1 before its deletion, the third never: neither is marked (Freshdesk,
    // asked about the unread one, still has it); the soft-deleted one is.
    expect(run).toMatchObject({ outcome: 'done', markedDeleted: 1 });
    let state = await contactState();
    expect([state.get(String(victim!.id)), state.get(String(soft.id)), state.get(String(shifted!.id))]).toEqual([false, true, false]);
    expect(sim.requests.some((r) => r.method === 'GET' && r.path === `/api/v2/contacts/${shifted!.id}`)).toBe(true);
    // The next run does not list the deleted one, and Freshdesk confirms it gone.
    expect(await sync.run(connectionId, 'ticketing.contact')).toMatchObject({ outcome: 'done', markedDeleted: 1 });
    state = await contactState();
    expect([state.get(String(victim!.id)), state.get(String(soft.id)), state.get(String(shifted!.id))]).toEqual([true, true, false]);
  });
});
