/**
 * Sync across many pages through the API: 3,000 contacts and 500 deals (with companies and associations)
 * synced by the job queue after the connection is made (POST /connections queues it; GET /sync/status is
 * polled), then incremental syncs (POST /sync) that read only the changes: with HubSpot's search index lagging
 * writes, past the search result cap, and with records archived in HubSpot. The simulator's cap is lowered from
 * HubSpot's 10,000 to 1,000 so that passing it takes 1,200 changes, not 12,000; bench/crm-hubspot.ts measures
 * 50,000 records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncAndWait, waitForSync } from '../../support/sync-wait';
import { hubspotSetup, type HubSpotSetup } from './setup';

const CONTACTS = 3_000;
const DEALS = 500;
const COMPANIES = 100;
const SEARCH_CAP = 1_000;
let t: HubSpotSetup;
let firstSync: { streams: { stream: string; mode: string; records_in_run: number }[] };

const streamOf = (s: typeof firstSync, key: string) => s.streams.find((x) => x.stream === key)!;
const count = async (objectType: string, where = '') =>
  (await t.server.sql(`select count(*)::int as n from unified_objects where connection_id = $1 and object_type = $2 ${where}`, [t.connectionId, objectType]))[0]!.n as number;

beforeAll(async () => {
  const startedAt = Date.now();
  t = await hubspotSetup({
    server: { work: true },
    sim: { searchResultCap: SEARCH_CAP },
    seed(sim) {
      sim.seedCompanies(COMPANIES);
      sim.seedContacts(CONTACTS, { associateCompanies: true });
      sim.seedDeals(DEALS, { associateContacts: true });
      sim.seedEngagements('notes', 50, { associateWith: 'contacts' });
      sim.seedEngagements('tasks', 20, { associateWith: 'deals' });
      sim.seedEngagements('calls', 10, { associateWith: 'contacts' });
      sim.seedEngagements('meetings', 10, { associateWith: 'companies' });
      sim.seedEngagements('emails', 10, { associateWith: 'contacts' });
    },
  });
  // The connection queued its first (full) sync; the worker runs it in the background.
  firstSync = await waitForSync(t.server, t.token, startedAt, 280_000);
}, 300_000);
afterAll(() => t?.close());

describe('HubSpot sync across pages', () => {
  it('the first sync read every record to the last page, with associations', async () => {
    expect(streamOf(firstSync, 'crm.contact')).toMatchObject({ mode: 'full', records_in_run: CONTACTS });
    expect(streamOf(firstSync, 'crm.deal')).toMatchObject({ mode: 'full', records_in_run: DEALS });
    expect(await count('crm.contact')).toBe(CONTACTS);
    expect(await count('crm.deal')).toBe(DEALS);
    expect(await count('crm.company')).toBe(COMPANIES);
    expect(await count('crm.engagement')).toBe(30);
    expect(await count('crm.note')).toBe(50);
    expect(await count('crm.task')).toBe(20);
    expect(await count('crm.stage')).toBe(7);
    expect(await count('crm.user')).toBe(3);
    // 100 a page: one list call per 100 live contacts, then one for the archived ones.
    const contactLists = t.sim.requests.filter((r) => r.method === 'GET' && r.path === '/crm/v3/objects/contacts');
    expect(contactLists.filter((r) => r.query.archived === 'false')).toHaveLength(CONTACTS / 100);
    expect(contactLists.filter((r) => r.query.archived === 'true')).toHaveLength(1);
    // Every contact has its company, every deal its contact (seeded that way).
    expect(await count('crm.contact', `and data->>'company_id' is null`)).toBe(0);
    expect(await count('crm.deal', `and jsonb_array_length(data->'contact_ids') = 0`)).toBe(0);

    const page = await t.server.call('GET', '/crm/deals?limit=3&remote_data=true', { headers: t.headers() });
    expect(page.status).toBe(200);
    for (const d of page.body.data) {
      expect(d.amount).toBe(d.remote_data.properties.amount);
      expect(d.stage_id).toEqual(expect.any(String));
      expect(d.contact_ids).toHaveLength(1);
    }
  });

  it('an incremental sync reads only the changes, and archived records come out deleted', async () => {
    const contacts = t.sim.records('contacts');
    const deals = t.sim.records('deals');
    const changed = contacts.slice(0, 37);
    changed.forEach((c, i) => t.sim.updateRecord('contacts', c.id, { firstname: `Changed${i}` }));
    deals.slice(100, 111).forEach((d) => t.sim.updateRecord('deals', d.id, { amount: '1234.56' }));
    const archived = contacts.slice(1000, 1005);
    archived.forEach((c) => t.sim.archiveRecord('contacts', c.id));
    t.sim.resetRequests();

    const status = await syncAndWait(t.server, t.token);
    expect(streamOf(status, 'crm.contact')).toMatchObject({ mode: 'incremental', records_in_run: 37 + 5 });
    expect(streamOf(status, 'crm.deal')).toMatchObject({ mode: 'incremental', records_in_run: 11 });
    expect(streamOf(status, 'crm.company')).toMatchObject({ mode: 'incremental', records_in_run: 0 });
    // Changes came from the search API, not from listing everything again.
    expect(t.sim.requests.filter((r) => r.path === '/crm/v3/objects/contacts' && r.query.archived === 'false')).toHaveLength(0);
    expect(t.sim.requests.filter((r) => r.path === '/crm/v3/objects/contacts/search')).toHaveLength(1);

    const rows = await t.server.sql(`select data->>'first_name' as n from unified_objects where connection_id = $1 and object_type = 'crm.contact' and remote_id = $2`, [
      t.connectionId,
      changed[36]!.id,
    ]);
    expect(rows[0]!.n).toBe('Changed36');
    expect(await count('crm.contact', 'and remote_was_deleted')).toBe(5);
    expect(await count('crm.deal', `and data->>'amount' = '1234.56'`)).toBe(11);
    const ids = await t.server.sql(`select id from unified_objects where connection_id = $1 and object_type = 'crm.contact' and remote_id = $2`, [t.connectionId, archived[0]!.id]);
    const gone = await t.server.call('GET', `/crm/contacts/${ids[0]!.id}`);
    expect(gone.body.data).toMatchObject({ remote_id: archived[0]!.id, remote_was_deleted: true });
  });

  it('changes still hidden by the search index lag are picked up by the next run', async () => {
    // An hour of lag for the first run, none for the second: no timing on a busy machine decides the outcome.
    t.sim.setSearchIndexLag(3_600_000);
    try {
      const target = t.sim.records('contacts')[2000]!;
      t.sim.updateRecord('contacts', target.id, { lastname: 'Lagging' });
      const lastName = async () =>
        (await t.server.sql(`select data->>'last_name' as n from unified_objects where connection_id = $1 and object_type = 'crm.contact' and remote_id = $2`, [t.connectionId, target.id]))[0]!.n;
      const before = await lastName();
      await syncAndWait(t.server, t.token);
      // Not yet in HubSpot's search index: this run could not see it.
      expect(await lastName()).toBe(before);
      t.sim.setSearchIndexLag(0);
      const seen = await syncAndWait(t.server, t.token);
      expect(streamOf(seen, 'crm.contact').mode).toBe('incremental');
      expect(await lastName()).toBe('Lagging');
    } finally {
      t.sim.setSearchIndexLag(0);
    }
  });

  it('more changes than the search cap: keyset paging never hits it', async () => {
    const changes = SEARCH_CAP + 200;
    const contacts = t.sim.records('contacts').slice(0, changes);
    contacts.forEach((c) => t.sim.updateRecord('contacts', c.id, { jobtitle: 'Engineer', lastname: 'Bulk' }));
    t.sim.resetRequests();
    const status = await syncAndWait(t.server, t.token);
    // The last-modified window also holds the few changed by the previous tests.
    expect(streamOf(status, 'crm.contact').records_in_run).toBeGreaterThanOrEqual(changes);
    expect(await count('crm.contact', `and data->>'last_name' = 'Bulk'`)).toBe(changes);
    const searches = t.sim.requests.filter((r) => r.path === '/crm/v3/objects/contacts/search');
    // 200 results a page (HubSpot's most): more pages than one query could ever reach.
    expect(searches.length).toBeGreaterThan(SEARCH_CAP / 200);
    expect(searches.every((r) => r.status === 200 && (r.body as { after?: unknown }).after === undefined)).toBe(true);
  });
});
