/**
 * Intercom's List all companies (`POST /companies/list`) is "sorted by the `last_request_at` field and by
 * default is ordered descending, most recently requested first", in numbered pages (API 2.14 reference,
 * listAllCompanies). A company whose user comes back while a run pages jumps to the top, onto a page already
 * read: that run does not list it. Companies are read whole every run and a full run infers deletions, so
 * the run must ask Intercom for each company it did not list before marking it deleted. Through the sync
 * engine, on the test database (PGlite or PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntercomAdapter } from '../../../src/providers/intercom';
import { ProviderRegistry } from '../../../src/providers/registry';
import { startTestServer, type TestServer } from '../../support/harness';
import { startIntercomSimulator, type IntercomSimulator } from '../../simulators/intercom';

let server: TestServer;
let sim: IntercomSimulator;
let connectionId: string;

beforeAll(async () => {
  sim = await startIntercomSimulator();
  server = await startTestServer({ providers: new ProviderRegistry([createIntercomAdapter({ pageSize: 2 })]), work: false });
  const res = await server.call('POST', '/connections', { body: { provider: 'intercom', linked_user_origin_id: 'companies-walk', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url } });
  expect(res.status).toBe(201);
  connectionId = res.body.data.id_connection;
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const companyState = async () =>
  new Map((await server.sql(`select remote_id, remote_was_deleted from unified_objects where connection_id = $1 and object_type = 'ticketing.account'`, [connectionId])).map((r) => [String(r.remote_id), r.remote_was_deleted as boolean]));

describe('intercom companies: a company active while a run pages', () => {
  it('is not marked deleted by the run that did not list it; the one deleted is, once Intercom confirms it gone', async () => {
    const made = sim.seedCompanies(6);
    const { sync } = server.omniport.services;
    expect(await sync.run(connectionId, 'ticketing.account')).toMatchObject({ outcome: 'done' });
    expect([...(await companyState()).values()].filter((d) => !d)).toHaveLength(7);

    // The company with the oldest last request (the last page) becomes active before page 2 is read, and one
    // company is deleted: the active one moves to page 1, already read.
    const [quiet] = made;
    const [gone] = made.slice(-1);
    sim.companies.delete(gone!);
    const fault = sim.faults.add({ method: 'POST', path: '/companies/list', when: (req) => req.query.get('page') === '2', before: () => sim.touchCompanyRemotely(quiet!) });
    const run = await sync.run(connectionId, 'ticketing.account');
    expect(fault.hits).toBe(1);
    expect(run).toMatchObject({ outcome: 'done', markedDeleted: 1 });
    const state = await companyState();
    expect(state.get(quiet!)).toBe(false);
    expect(state.get(gone!)).toBe(true);
    expect(sim.requests.some((r) => r.method === 'GET' && r.path === `/companies/${quiet}`)).toBe(true);
    expect(sim.specViolations).toEqual([]);
  });
});
