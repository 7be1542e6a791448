/**
 * Field mapping end to end on HubSpot: define → map → create with values → HubSpot received its own
 * properties → GET returns typed values → the value changes in HubSpot → sync → the new value is listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubspotSetup, type HubSpotSetup } from './setup';

let t: HubSpotSetup;
let tierId: string;

async function define(object_type_owner: string, name: string, data_type: string) {
  const res = await t.server.call('POST', '/field-mapping/define', { body: { object_type_owner, name, data_type } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id_attribute as string;
}

async function map(attributeId: string, source_custom_field_id: string, linked_user_id = 'acme') {
  const res = await t.server.call('POST', '/field-mapping/map', { body: { attributeId, source_custom_field_id, source_provider: 'hubspot', linked_user_id } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

beforeAll(async () => {
  t = await hubspotSetup({
    seed(sim) {
      sim.addProperty('contacts', { name: 'loyalty_tier', label: 'Loyalty tier', type: 'string' });
      sim.addProperty('contacts', { name: 'nps_score', label: 'NPS', type: 'number' });
      sim.addProperty('contacts', { name: 'vip', label: 'VIP', type: 'bool', fieldType: 'booleancheckbox' });
      sim.addProperty('deals', { name: 'renewal_date', label: 'Renewal date', type: 'date' });
      sim.addProperty('calls', { name: 'call_quality', label: 'Call quality', type: 'number' });
      sim.addProperty('contacts', { name: 'customer_level', label: 'Customer level', type: 'string' });
    },
  });
  await t.syncAll();
  tierId = await define('crm.contact', 'tier', 'string');
  await map(tierId, 'loyalty_tier');
  await map(await define('crm.contact', 'nps', 'number'), 'nps_score');
  await map(await define('crm.contact', 'vip', 'boolean'), 'vip');
  await map(await define('crm.deal', 'renewal', 'date'), 'renewal_date');
  await map(await define('crm.engagement', 'quality', 'number'), 'call_quality');
}, 240_000);
afterAll(() => t?.close());

describe('HubSpot field mapping', () => {
  it('lists HubSpot’s custom properties as remote fields', async () => {
    const res = await t.server.call('GET', '/field-mapping/remote-fields?provider=hubspot&object_type=crm.contact', { headers: t.headers() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: 'loyalty_tier', label: 'Loyalty tier', type: 'string', object_type: 'crm.contact' },
      { id: 'nps_score', label: 'NPS', type: 'number', object_type: 'crm.contact' },
      { id: 'vip', label: 'VIP', type: 'bool', object_type: 'crm.contact' },
      { id: 'customer_level', label: 'Customer level', type: 'string', object_type: 'crm.contact' },
    ]);
    const all = await t.server.call('GET', '/field-mapping/remote-fields', { headers: t.headers() });
    expect(all.body.data.map((f: { id: string; object_type: string }) => `${f.object_type}:${f.id}`)).toEqual(
      expect.arrayContaining(['crm.deal:renewal_date', 'crm.engagement:call_quality', 'crm.contact:vip']),
    );
    expect(all.body.data.find((f: { id: string }) => f.id === 'call_quality').label).toBe('Call quality (calls)');
  });

  it('create → HubSpot property → typed GET → change in HubSpot → sync → listed', async () => {
    const created = await t.server.call('POST', '/crm/contacts', {
      headers: t.headers(),
      body: { first_name: 'Mapped', field_mappings: { tier: 'gold', nps: 9, vip: true } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.field_mappings).toEqual({ tier: 'gold', nps: 9, vip: true });
    const remoteId = created.body.data.remote_id as string;
    // HubSpot received its own property names, values as strings.
    const post = t.sim.requests.filter((r) => r.method === 'POST' && r.path === '/crm/v3/objects/contacts').at(-1)!;
    expect((post.body as { properties: Record<string, string> }).properties).toMatchObject({ loyalty_tier: 'gold', nps_score: '9', vip: 'true' });
    expect(t.sim.getRecord('contacts', remoteId)!.properties).toMatchObject({ loyalty_tier: 'gold', nps_score: '9', vip: 'true' });

    const got = await t.server.call('GET', `/crm/contacts/${created.body.data.id}`);
    expect(got.body.data.field_mappings).toEqual({ tier: 'gold', nps: 9, vip: true });

    t.sim.updateRecord('contacts', remoteId, { loyalty_tier: 'platinum', nps_score: '10' });
    const runs = await t.syncAll();
    expect(runs['crm.contact']).toMatchObject({ mode: 'incremental' });
    const list = await t.server.call('GET', '/crm/contacts?limit=100', { headers: t.headers() });
    const listed = list.body.data.find((c: { id: string }) => c.id === created.body.data.id);
    expect(listed.field_mappings).toEqual({ tier: 'platinum', nps: 10, vip: true });

    // PATCH writes the property; null clears it.
    const patched = await t.server.call('PATCH', `/crm/contacts/${created.body.data.id}`, { body: { field_mappings: { tier: 'silver', vip: null } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.field_mappings).toEqual({ tier: 'silver', nps: 10, vip: null });
    expect(t.sim.getRecord('contacts', remoteId)!.properties.vip).toBeUndefined();
  });

  it('values of records created in HubSpot come with the first sync (custom properties are read)', async () => {
    const rec = t.sim.createRecord('contacts', { firstname: 'Native', loyalty_tier: 'bronze', nps_score: '3.5' });
    await t.syncAll({ full: true });
    const list = await t.server.call('GET', '/crm/contacts?limit=200', { headers: t.headers() });
    expect(list.body.data.find((c: { remote_id: string }) => c.remote_id === rec.id).field_mappings).toEqual({ tier: 'bronze', nps: 3.5, vip: null });
  });

  it('deals, batch creates and engagements carry mapped values', async () => {
    const deal = await t.server.call('POST', '/crm/deals', { headers: t.headers(), body: { name: 'Renewing', field_mappings: { renewal: '2026-01-01' } } });
    expect(deal.status, JSON.stringify(deal.body)).toBe(201);
    expect(deal.body.data.field_mappings).toEqual({ renewal: '2026-01-01' });
    expect(t.sim.getRecord('deals', deal.body.data.remote_id)!.properties.renewal_date).toBe('2026-01-01');

    const batch = await t.server.call('POST', '/crm/contacts/batch', {
      headers: t.headers(),
      body: [{ first_name: 'B1', field_mappings: { tier: 'gold' } }, { first_name: 'B2', field_mappings: { nps: 'high' } }],
    });
    expect(batch.status).toBe(207);
    expect(batch.body.data[0].field_mappings).toMatchObject({ tier: 'gold' });
    expect(batch.body.data[1]).toMatchObject({ statusCode: 400, details: { field: '[1].field_mappings.nps' } });

    const call = await t.server.call('POST', '/crm/engagements', { headers: t.headers(), body: { type: 'CALL', subject: 'Q', field_mappings: { quality: 4 } } });
    expect(call.status, JSON.stringify(call.body)).toBe(201);
    expect(call.body.data.field_mappings).toEqual({ quality: 4 });
    // The property exists on calls only: a meeting cannot hold it.
    const meeting = await t.server.call('POST', '/crm/engagements', { headers: t.headers(), body: { type: 'MEETING', subject: 'Q', field_mappings: { quality: 4 } } });
    expect(meeting.status).toBe(422);
    expect(meeting.body.details.code).toBe('unsupported_by_provider');
  });

  it('two linked users map the same attribute to different HubSpot properties', async () => {
    const conn = await t.server.call('POST', '/connections', {
      body: { provider: 'hubspot', linked_user_origin_id: 'globex', credentials: { access_token: 'hs-test-token' }, base_url: t.sim.url },
    });
    expect(conn.status).toBe(201);
    await map(tierId, 'customer_level', 'globex');
    const res = await t.server.call('POST', '/crm/contacts', {
      headers: { 'x-connection-token': conn.body.data.connection_token },
      body: { first_name: 'Globex person', field_mappings: { tier: 'enterprise' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Only the mapped attributes of this linked user are read back.
    expect(res.body.data.field_mappings).toEqual({ tier: 'enterprise' });
    const remote = t.sim.getRecord('contacts', res.body.data.remote_id)!;
    expect(remote.properties.customer_level).toBe('enterprise');
    expect(remote.properties.loyalty_tier).toBeUndefined();
  });

  it('type errors are 400, unmapped names 422', async () => {
    const typed = await t.server.call('POST', '/crm/contacts', { headers: t.headers(), body: { first_name: 'x', field_mappings: { nps: 'nine' } } });
    expect(typed.status).toBe(400);
    expect(typed.body.details.field).toBe('field_mappings.nps');
    const unmapped = await t.server.call('POST', '/crm/contacts', { headers: t.headers(), body: { first_name: 'x', field_mappings: { shoe_size: 44 } } });
    expect(unmapped.status).toBe(422);
    expect(unmapped.body.details.field).toBe('field_mappings.shoe_size');
  });

  it('a mapping to a property the account lacks is refused with 422, not sent', async () => {
    await map(await define('crm.contact', 'ghost', 'string'), 'no_such_property');
    const res = await t.server.call('POST', '/crm/contacts', { headers: t.headers(), body: { first_name: 'x', field_mappings: { ghost: 'boo' } } });
    expect(res.status).toBe(422);
    expect(res.body.details.code).toBe('unsupported_by_provider');
    expect(res.body.message).toContain('no_such_property');
  });
});
