/**
 * Pipedrive sync across many pages through Omniport (job runner, POST /sync and GET /sync/status): 2,500
 * contacts and 1,000 deals on the first (full) run, then incremental runs that read only the changes,
 * deletions, and a crashed run that resumes where it stopped (that one driven by `services.sync.run`
 * directly, to make it fail at a chosen page). Scale (50,000 records) is measured by bench/crm-pipedrive.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unifiedId } from '../../../src/core/unified/ids';
import { syncAndWait } from '../../support/sync-wait';
import { expectNoSpecViolations, listAll, setUp, type PipedriveSetup } from './support';

const PERSONS = 2_500;
const DEALS = 1_000;
const ORGS = 200;
let s: PipedriveSetup;
let firstSyncMs = 0;
const ids = (type: string, remoteId: number | string) => unifiedId(s.connectionId, type, String(remoteId));

async function counts(): Promise<Record<string, number>> {
  const rows = await s.server.sql(
    'select object_type, count(*)::int as n, count(*) filter (where remote_was_deleted)::int as deleted from unified_objects where connection_id = $1 group by object_type',
    [s.connectionId],
  );
  return Object.fromEntries(rows.flatMap((r) => [[r.object_type, r.n], [`${r.object_type}:deleted`, r.deleted]]));
}

beforeAll(async () => {
  const t0 = Date.now();
  s = await setUp({
    contactSync: false,
    syncTimeoutMs: 600_000,
    seed: (sim) => {
      sim.seedOrganizations(ORGS);
      sim.seedPersons(PERSONS, { linkOrganizations: true });
      sim.seedDeals(DEALS, { linkPersons: true });
    },
  });
  firstSyncMs = Date.now() - t0;
}, 700_000);
afterAll(async () => {
  await s?.close();
});

describe('pipedrive sync across pages', { timeout: 180_000 }, () => {
  it('synced every contact and deal page by page on connection (full run)', async () => {
    const c = await counts();
    expect(c).toMatchObject({ 'crm.contact': PERSONS, 'crm.deal': DEALS, 'crm.company': ORGS, 'crm.user': 3, 'crm.stage': 5 });
    const personPages = s.sim.requests.filter((r) => r.method === 'GET' && r.path === '/api/v2/persons');
    // Each page read once; on a loaded machine a run resumed after a timeout reads its page once more.
    expect(new Set(personPages.map((r) => r.query.cursor ?? '')).size).toBe(PERSONS / 500);
    expect(personPages.length).toBeLessThanOrEqual(PERSONS / 500 + 1);
    for (const r of personPages) {
      expect(r.query).toMatchObject({ limit: '500', sort_by: 'id', sort_direction: 'asc', include_option_labels: 'true' });
      expect(r.query.updated_since).toBeUndefined();
    }
    // open/won/lost deals, then the deleted ones
    const dealPages = s.sim.requests.filter((r) => r.method === 'GET' && r.path === '/api/v2/deals');
    expect(dealPages.filter((r) => r.query.status === undefined)).toHaveLength(DEALS / 500);
    expect(dealPages.filter((r) => r.query.status === 'deleted')).toHaveLength(1);

    const status = (await s.server.call('GET', '/sync/status', { headers: s.headers() })).body.data;
    const contacts = status.streams.find((x: { stream: string }) => x.stream === 'crm.contact');
    expect(contacts).toMatchObject({ status: 'idle', mode: 'full', records_in_run: PERSONS });
    console.info(`pipedrive first sync of ${PERSONS + DEALS + ORGS} records (all streams, through the job runner): ${firstSyncMs} ms`);

    // a sample reads right, associations included
    const person = s.sim.entities('persons')[123]!;
    const got = await s.server.call('GET', `/crm/contacts/${ids('crm.contact', person.id)}`);
    const view = got.body.data;
    expect(view).toMatchObject({ first_name: person.first_name, last_name: person.last_name, company_id: ids('crm.company', person.org_id!), user_id: ids('crm.user', person.owner_id) });
    const deal = s.sim.entities('deals')[77]!;
    const d = (await s.server.call('GET', `/crm/deals/${ids('crm.deal', deal.id)}`)).body;
    expect(d.data).toMatchObject({ amount: String(deal.value), stage_id: ids('crm.stage', deal.stage_id), contact_ids: deal.person_id ? [ids('crm.contact', deal.person_id)] : [] });
    expectNoSpecViolations(s.sim);
  });

  it('reads only the changes on the next run (incremental, updated_since), deleted deals included', async () => {
    s.sim.resetRequests();
    const persons = s.sim.entities('persons');
    const deals = s.sim.entities('deals');
    for (const p of persons.slice(100, 107)) s.sim.updateEntity('persons', p.id, { name: `Changed ${p.id}`, first_name: 'Changed', last_name: String(p.id) });
    const added = [s.sim.createEntity('persons', { name: 'New One', first_name: 'New', last_name: 'One' }), s.sim.createEntity('persons', { name: 'New Two', first_name: 'New', last_name: 'Two' })];
    for (const d of deals.slice(10, 13)) s.sim.updateEntity('deals', d.id, { value: 4321.09 });
    s.sim.deleteEntity('deals', deals[20]!.id);
    s.sim.deleteEntity('persons', persons[30]!.id);

    const status = await syncAndWait(s.server, s.token, { timeoutMs: 120_000 });
    const stream = (name: string) => status.streams.find((x) => x.stream === name)!;
    expect(stream('crm.contact')).toMatchObject({ mode: 'incremental', records_in_run: 9 });
    expect(stream('crm.deal')).toMatchObject({ mode: 'incremental', records_in_run: 4 });
    for (const r of s.sim.requests.filter((x) => x.method === 'GET' && (x.path === '/api/v2/persons' || x.path === '/api/v2/deals'))) {
      expect(r.query.updated_since).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(s.sim.requests.filter((x) => x.path === '/api/v2/persons')).toHaveLength(1);

    const changed = await listAll(s, `/crm/contacts?remote_updated_after=${new Date(Date.now() - 600_000).toISOString()}`);
    expect(changed.map((c) => `${c.first_name} ${c.last_name}`).sort()).toEqual([...persons.slice(100, 107).map((p) => `Changed ${p.id}`), 'New One', 'New Two'].sort());
    expect(changed.map((c) => c.id)).toEqual(expect.arrayContaining(added.map((p) => ids('crm.contact', p.id))));
    const deal = (await s.server.call('GET', `/crm/deals/${ids('crm.deal', deals[11]!.id)}`)).body;
    expect(deal.data.amount).toBe('4321.09');

    // the deleted deal comes with Pipedrive's deleted flag; the deleted person waits for a full run
    const c = await counts();
    expect(c['crm.deal:deleted']).toBe(1);
    expect(c['crm.contact:deleted']).toBe(0);
    expect(c['crm.contact']).toBe(PERSONS + 2);
  });

  it('marks what a complete full run did not see as deleted', async () => {
    const status = await syncAndWait(s.server, s.token, { full: true, timeoutMs: 300_000 });
    expect(status.streams.find((x) => x.stream === 'crm.contact')).toMatchObject({ mode: 'full', records_in_run: PERSONS + 1 });
    const c = await counts();
    expect(c['crm.contact:deleted']).toBe(1);
    expect(c['crm.deal:deleted']).toBe(1);
    const gone = s.sim.entities('persons', { includeDeleted: true }).find((p) => p.is_deleted)!;
    const view = (await s.server.call('GET', `/crm/contacts/${ids('crm.contact', gone.id)}`)).body;
    expect(view.data.remote_was_deleted).toBe(true);
  });

  it('resumes a crashed run at the page where it stopped', async () => {
    const sync = s.server.omniport.services.sync;
    s.sim.resetRequests();
    let pages = 0;
    const fault = s.sim.faults.add({ method: 'GET', path: '/api/v2/persons', status: 500, times: Infinity, when: () => ++pages > 3 });
    await expect(sync.run(s.connectionId, 'crm.contact', { full: true })).rejects.toThrow(/pipedrive/);
    s.sim.faults.remove(fault);
    const failed = (await s.server.call('GET', '/sync/status', { headers: s.headers() })).body.data.streams.find((x: { stream: string }) => x.stream === 'crm.contact');
    expect(failed).toMatchObject({ status: 'failed', records_in_run: 1500 });

    s.sim.resetRequests();
    const result = await sync.run(s.connectionId, 'crm.contact');
    expect(result).toMatchObject({ outcome: 'done', mode: 'full', records: PERSONS + 1 });
    const reads = s.sim.requests.filter((r) => r.path === '/api/v2/persons');
    expect(reads).toHaveLength(Math.ceil((PERSONS + 1) / 500) - 3);
    expect(reads[0]!.query.cursor).toBeTypeOf('string');
    // the resumed run is still one full run: nothing it saw is marked deleted
    expect((await counts())['crm.contact:deleted']).toBe(1);
  });
});
