/**
 * Intercom companies through the Scroll API (`GET /companies/scroll`). List all companies (`POST /companies/list`)
 * "does not include companies who have no associated users" and returns at most 10,000 companies (API 2.14
 * reference, listAllCompanies), so the adapter scrolls: one scroll per app at a time (a second is refused 400
 * `scroll_exists`), a scroll unused for a minute expires (404 `not_found`), a 500 asks for a restart
 * (scrollOverAllCompanies). Through the sync engine, on the test database (PGlite or PostgreSQL).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createIntercomAdapter } from '../../../src/providers/intercom';
import { ProviderRegistry } from '../../../src/providers/registry';
import { startTestServer, type TestServer } from '../../support/harness';
import { startIntercomSimulator, type IntercomSimulator } from '../../simulators/intercom';

let server: TestServer;
let sim: IntercomSimulator;
let connectionId: string;

beforeAll(async () => {
  // A list cap of 3 and scroll pages of 2 stand in for Intercom's 10,000 and 100.
  sim = await startIntercomSimulator({ companyListCap: 3, companyScrollPage: 2 });
  server = await startTestServer({ providers: new ProviderRegistry([createIntercomAdapter({ pageSize: 2 })]), work: false });
  const res = await server.call('POST', '/connections', { body: { provider: 'intercom', linked_user_origin_id: 'companies-walk', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url } });
  expect(res.status).toBe(201);
  connectionId = res.body.data.id_connection;
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});
beforeEach(() => {
  sim.clock.advance(61_000); // no scroll left open by the test before
});

const companyState = async () =>
  new Map((await server.sql(`select remote_id, remote_was_deleted from unified_objects where connection_id = $1 and object_type = 'ticketing.account'`, [connectionId])).map((r) => [String(r.remote_id), r.remote_was_deleted as boolean]));
const live = async () => [...(await companyState()).entries()].filter(([, d]) => !d).map(([id]) => id);
const scrollCalls = () => sim.requests.filter((r) => r.path === '/companies/scroll');

describe('intercom companies: the Scroll API', () => {
  it('syncs every company: those without users and those beyond the 10,000 List all companies returns', async () => {
    const withUsers = sim.seedCompanies(4, { withUsers: true });
    const without = sim.seedCompanies(3);
    // what List all companies would give: 3 (the cap) of the 5 with users
    const listed = await fetch(`${sim.url}/companies/list?per_page=60`, { method: 'POST', headers: { authorization: `Bearer ${sim.tokens[0]}`, 'intercom-version': '2.14' } });
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(3);

    const { sync } = server.omniport.services;
    expect(await sync.run(connectionId, 'ticketing.account')).toMatchObject({ outcome: 'done', records: 8 });
    expect(new Set(await live())).toEqual(new Set([sim.seed!.northwind, ...withUsers, ...without]));
    // one scroll, page after page with its scroll_param, to the empty page that ends it
    const calls = scrollCalls();
    expect(calls[0]!.query.scroll_param).toBeUndefined();
    expect(calls.slice(1).every((r) => r.query.scroll_param !== undefined && r.query.scroll_param === calls[1]!.query.scroll_param)).toBe(true);
    expect(calls.length).toBe(5);
    expect(sim.openScroll()).toBeNull();
    expect(sim.specViolations).toEqual([]);
  });

  it('a company deleted while the scroll runs is marked deleted once Intercom confirms it gone', async () => {
    const { sync } = server.omniport.services;
    const [gone] = sim.seedCompanies(1);
    expect(await sync.run(connectionId, 'ticketing.account')).toMatchObject({ outcome: 'done' });
    const fault = sim.faults.add({ path: '/companies/scroll', when: (req) => req.query.get('scroll_param') !== null, before: () => sim.companies.delete(gone!) });
    expect(await sync.run(connectionId, 'ticketing.account')).toMatchObject({ outcome: 'done', markedDeleted: 1 });
    expect(fault.hits).toBe(1);
    expect((await companyState()).get(gone!)).toBe(true);
    expect(sim.requests.some((r) => r.method === 'GET' && r.path === `/companies/${gone}` && r.status === 404)).toBe(true);
  });

  it('waits while another scroll of the workspace is open (400 scroll_exists), and goes on once it has expired', async () => {
    const { sync } = server.omniport.services;
    // another integration of the same workspace holds the app's one scroll
    const other = await fetch(`${sim.url}/companies/scroll`, { headers: { authorization: `Bearer ${sim.tokens[0]}`, 'intercom-version': '2.14' } });
    expect(other.status).toBe(200);
    const waiting = await sync.run(connectionId, 'ticketing.account');
    expect(waiting).toMatchObject({ outcome: 'waiting' });
    expect((waiting as { resumeAt: Date }).resumeAt.getTime()).toBeGreaterThan(Date.now() + 55_000);
    expect(sim.requests.at(-1)).toMatchObject({ path: '/companies/scroll', status: 400 });
    const [state] = await server.sql(`select status from sync_states where connection_id = $1 and stream = 'ticketing.account'`, [connectionId]);
    expect(state).toMatchObject({ status: 'waiting_for_rate_limit' });

    sim.clock.advance(61_000); // unused for a minute: Intercom lets it expire
    expect(await sync.run(connectionId, 'ticketing.account')).toMatchObject({ outcome: 'done', markedDeleted: 0 });
  });

  it('starts the scroll over when a saved position has expired, or when Intercom asks for a restart (500)', async () => {
    const { sync } = server.omniport.services;
    const before = (await live()).length;
    // a run cut at its deadline after the first page, continued after more than a minute: the scroll is gone
    expect(await sync.run(connectionId, 'ticketing.account', { full: true, deadline: Date.now() - 1 })).toMatchObject({ outcome: 'continued' });
    sim.clock.advance(61_000);
    const from = sim.requests.length;
    expect(await sync.run(connectionId, 'ticketing.account')).toMatchObject({ outcome: 'done', markedDeleted: 0 });
    const resumed = sim.requests.slice(from).filter((r) => r.path === '/companies/scroll');
    expect(resumed[0]).toMatchObject({ status: 404 });
    expect(resumed[1]!.query.scroll_param).toBeUndefined();
    expect((await live()).length).toBe(before);

    // "Request failed due to an internal network error. Please restart the scroll operation."
    const broken = sim.faults.add({
      path: '/companies/scroll',
      when: (req) => req.query.get('scroll_param') !== null,
      status: 500,
      body: { type: 'error.list', request_id: 'r-1', errors: [{ code: 'server_error', message: 'Request failed due to an internal network error. Please restart the scroll operation.' }] },
      before: () => sim.dropScroll(),
    });
    const at = sim.requests.length;
    expect(await sync.run(connectionId, 'ticketing.account')).toMatchObject({ outcome: 'done', markedDeleted: 0 });
    expect(broken.hits).toBe(1);
    expect(sim.requests.slice(at).filter((r) => r.path === '/companies/scroll' && r.query.scroll_param === undefined).length).toBe(2);
    expect((await live()).length).toBe(before);
  });
});
