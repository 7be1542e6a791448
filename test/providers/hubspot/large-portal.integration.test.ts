/**
 * Portals larger than a URL or a page: hundreds of custom properties (naming them all in a GET would pass
 * HubSpot's request-line limit, 414), and objects with more associations than one page of a batch read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubspotSetup, type HubSpotSetup } from './setup';

const CUSTOM = 400;
let t: HubSpotSetup;

beforeAll(async () => {
  t = await hubspotSetup({
    seed(sim) {
      for (let i = 0; i < CUSTOM; i++) sim.addProperty('contacts', { name: `customer_specific_attribute_${i}`, type: 'string' });
      sim.seedContacts(250);
    },
  });
});
afterAll(() => t?.close());

it('syncs every contact of a portal whose property list does not fit in a URL, with no 414', async () => {
  const out = await t.syncAll();
  expect(out['crm.contact']!.records).toBe(250);
  expect(t.sim.requests.filter((r) => r.status === 414)).toEqual([]);
  const reads = t.sim.requests.filter((r) => r.method === 'POST' && r.path === '/crm/v3/objects/contacts/batch/read');
  expect(reads.length).toBe(Math.ceil(250 / 100)); // one per page of live contacts (the archived list is empty)
});

it('reads a contact back after an update with every custom property', async () => {
  const [contact] = (await t.server.call('GET', '/crm/contacts?limit=1', { headers: t.headers() })).body.data;
  t.sim.updateRecord('contacts', contact.remote_id, { customer_specific_attribute_399: 'last one' });
  const res = await t.server.call('PATCH', `/crm/contacts/${contact.id}?remote_data=true`, { body: { first_name: 'Renamed' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.first_name).toBe('Renamed');
  expect(res.body.data.remote_data.properties.customer_specific_attribute_399).toBe('last one');
  expect(t.sim.requests.filter((r) => r.status === 414)).toEqual([]);
});

describe('associations paged per object', () => {
  let p: HubSpotSetup;
  beforeAll(async () => {
    // 50 targets a page per object, so one deal with 120 contacts needs three pages of its own.
    p = await hubspotSetup({ sim: { associationPageSize: 50 }, seed: (sim) => void sim.seedContacts(130) });
  });
  afterAll(() => p?.close());

  it('reads every contact of a deal whose associations span several pages (incremental sync, v4 batch read)', async () => {
    await p.syncAll();
    const deal = p.sim.state.insert('deals', { dealname: 'Big deal' });
    const contacts = [...p.sim.state.objects.contacts.values()].slice(0, 120);
    for (const c of contacts) p.sim.associate('deals', deal.id, 'contacts', c.id, [3]);
    const runs = await p.syncAll();
    expect(runs['crm.deal']!.mode).toBe('incremental');
    const [row] = await p.server.sql(`select data from unified_objects where connection_id = $1 and object_type = 'crm.deal' and remote_id = $2`, [p.connectionId, deal.id]);
    expect(((row!.data as { contact_ids: string[] }).contact_ids ?? []).length).toBe(120);
  });
});
