/**
 * Field mapping on Pipedrive through Omniport's HTTP API: custom fields keyed by 40-character hashes,
 * listed from the *Fields endpoints, written in `custom_fields` by their definition (options by label,
 * money, dates), read back typed, and changes made in Pipedrive picked up by sync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdField } from '../../simulators/pipedrive/model';
import { syncAndWait } from '../../support/sync-wait';
import { expectNoSpecViolations, listAll, setUp, type PipedriveSetup } from './support';

let s: PipedriveSetup;
let leadScore: PdField;
let region: PdField;
let signedOn: PdField;
let budget: PdField;
let tiers: PdField;

beforeAll(async () => {
  s = await setUp({
    seed: (sim) => {
      leadScore = sim.addCustomField('person', { name: 'Lead score', field_type: 'double' });
      region = sim.addCustomField('deal', { name: 'Region', field_type: 'enum', options: ['EMEA', 'APAC', 'AMER'] });
      signedOn = sim.addCustomField('deal', { name: 'Signed on', field_type: 'date' });
      budget = sim.addCustomField('deal', { name: 'Budget', field_type: 'monetary' });
      tiers = sim.addCustomField('organization', { name: 'Tiers', field_type: 'set', options: ['Gold', 'Silver', 'Bronze'] });
      sim.seedOrganizations(1);
      sim.seedPersons(2);
    },
  });
}, 180_000);
afterAll(async () => {
  await s?.close();
});

const option = (f: PdField, label: string) => f.options!.find((o) => o.label === label)!.id;

async function defineAndMap(objectType: string, name: string, dataType: string, field: PdField) {
  const def = await s.server.call('POST', '/field-mapping/define', { body: { object_type_owner: objectType, name, description: field.name, data_type: dataType } });
  expect(def.status, JSON.stringify(def.body)).toBe(201);
  const map = await s.server.call('POST', '/field-mapping/map', {
    body: { attributeId: def.body.data.id_attribute, source_custom_field_id: field.key, source_provider: 'pipedrive', linked_user_id: 'acme' },
  });
  expect(map.status, JSON.stringify(map.body)).toBe(201);
}

describe('pipedrive field mapping end to end', () => {
  it('lists the custom fields of each object (hash key, name, Pipedrive type)', async () => {
    const res = await s.server.call('GET', '/field-mapping/remote-fields?provider=pipedrive&object_type=crm.deal', { headers: s.headers() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([
      { id: region.key, label: 'Region', type: 'enum', object_type: 'crm.deal' },
      { id: signedOn.key, label: 'Signed on', type: 'date', object_type: 'crm.deal' },
      { id: budget.key, label: 'Budget', type: 'monetary', object_type: 'crm.deal' },
    ]);
    expect(region.key).toMatch(/^[0-9a-f]{40}$/);
    const all = await s.server.call('GET', '/field-mapping/remote-fields', { headers: s.headers() });
    expect(all.body.data.map((f: { label: string; object_type: string }) => `${f.object_type}:${f.label}`).sort()).toEqual(
      ['crm.company:Tiers', 'crm.contact:Lead score', 'crm.deal:Budget', 'crm.deal:Region', 'crm.deal:Signed on'].sort(),
    );
  });

  it('define → map → create with values → Pipedrive got its custom fields → GET answers typed values', async () => {
    await defineAndMap('crm.contact', 'lead_score', 'number', leadScore);
    await defineAndMap('crm.deal', 'region', 'string', region);
    await defineAndMap('crm.deal', 'signed_on', 'date', signedOn);
    await defineAndMap('crm.deal', 'budget', 'number', budget);
    await defineAndMap('crm.company', 'tiers', 'json', tiers);

    s.sim.resetRequests();
    const contact = await s.server.call('POST', '/crm/contacts', { headers: s.headers(), body: { first_name: 'Mapped', last_name: 'Person', field_mappings: { lead_score: 87.5 } } });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    expect(contact.body.data.field_mappings).toEqual({ lead_score: 87.5 });
    const sent = s.sim.requests.find((r) => r.method === 'POST' && r.path === '/api/v2/persons')!;
    expect(sent.body).toMatchObject({ name: 'Mapped Person', custom_fields: { [leadScore.key]: 87.5 } });
    expect(s.sim.getEntity('persons', Number(contact.body.data.remote_id))!.custom[leadScore.key]).toBe(87.5);

    const deal = await s.server.call('POST', '/crm/deals?remote_data=true', {
      headers: s.headers(),
      body: { name: 'Mapped deal', amount: '100', currency: 'EUR', field_mappings: { region: 'APAC', signed_on: '2025-02-01', budget: 5000.5 } },
    });
    expect(deal.status, JSON.stringify(deal.body)).toBe(201);
    expect(deal.body.data.field_mappings).toEqual({ region: 'APAC', signed_on: '2025-02-01', budget: 5000.5 });
    const remote = s.sim.getEntity('deals', Number(deal.body.data.remote_id))!;
    expect(remote.custom).toEqual({ [region.key]: option(region, 'APAC'), [signedOn.key]: '2025-02-01', [budget.key]: { value: 5000.5, currency: 'EUR' } });
    // POST answers option ids; the deal was read again with labels, so remote_data is as sync stores it
    expect(deal.body.data.remote_data.custom_fields[region.key]).toEqual({ id: option(region, 'APAC'), label: 'APAC' });

    const company = await s.server.call('POST', '/crm/companies', { headers: s.headers(), body: { name: 'Tiered', field_mappings: { tiers: ['Gold', 'bronze'] } } });
    expect(company.status, JSON.stringify(company.body)).toBe(201);
    expect(company.body.data.field_mappings).toEqual({ tiers: ['Gold', 'Bronze'] });
    expect(s.sim.getEntity('organizations', Number(company.body.data.remote_id))!.custom[tiers.key]).toEqual([option(tiers, 'Gold'), option(tiers, 'Bronze')]);

    for (const [path, view] of [
      ['contacts', contact],
      ['deals', deal],
      ['companies', company],
    ] as const) {
      const got = await s.server.call('GET', `/crm/${path}/${view.body.data.id}`);
      expect(got.status).toBe(200);
      expect(got.body.data.field_mappings).toEqual(view.body.data.field_mappings);
    }

    // PATCH changes one value
    const patched = await s.server.call('PATCH', `/crm/deals/${deal.body.data.id}`, { body: { field_mappings: { region: 'AMER' } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.field_mappings).toMatchObject({ region: 'AMER', signed_on: '2025-02-01', budget: 5000.5 });
    expect(s.sim.getEntity('deals', remote.id)!.custom[region.key]).toBe(option(region, 'AMER'));
    expectNoSpecViolations(s.sim);
  });

  it('lists values changed in Pipedrive after a sync', async () => {
    const deal = s.sim.entities('deals').find((d) => d.title === 'Mapped deal')!;
    const person = s.sim.entities('persons').find((p) => p.name === 'Mapped Person')!;
    s.sim.updateEntity('deals', deal.id, { custom: { ...deal.custom, [region.key]: option(region, 'EMEA'), [signedOn.key]: '2025-03-15' } });
    s.sim.updateEntity('persons', person.id, { custom: { ...person.custom, [leadScore.key]: 42 } });
    const status = await syncAndWait(s.server, s.token);
    expect(status.streams.find((x) => x.stream === 'crm.deal')!.mode).toBe('incremental');

    const deals = await listAll(s, '/crm/deals');
    expect(deals.find((d) => d.name === 'Mapped deal')!.field_mappings).toEqual({ region: 'EMEA', signed_on: '2025-03-15', budget: 5000.5 });
    const contacts = await listAll(s, '/crm/contacts');
    expect(contacts.find((c) => c.first_name === 'Mapped')!.field_mappings).toEqual({ lead_score: 42 });
    // objects without a value answer null
    expect(contacts.find((c) => c.first_name !== 'Mapped')!.field_mappings).toEqual({ lead_score: null });
  });

  it('refuses values Pipedrive cannot take, unmapped names and objects without custom fields', async () => {
    const badOption = await s.server.call('POST', '/crm/deals', { headers: s.headers(), body: { name: 'x', field_mappings: { region: 'Mars' } } });
    expect(badOption.status).toBe(422);
    expect(badOption.body.details).toMatchObject({ field: 'field_mappings', remote_field_id: region.key, allowed: ['EMEA', 'APAC', 'AMER'] });
    expect(badOption.body.message).toContain('Region');

    const badType = await s.server.call('POST', '/crm/contacts', { headers: s.headers(), body: { first_name: 'x', field_mappings: { lead_score: 'high' } } });
    expect(badType.status).toBe(400);
    const unmapped = await s.server.call('POST', '/crm/contacts', { headers: s.headers(), body: { first_name: 'x', field_mappings: { nope: 1 } } });
    expect(unmapped.status).toBe(422);

    const def = await s.server.call('POST', '/field-mapping/define', { body: { object_type_owner: 'crm.note', name: 'topic', data_type: 'string' } });
    await s.server.call('POST', '/field-mapping/map', { body: { attributeId: def.body.data.id_attribute, source_custom_field_id: 'x'.repeat(40), source_provider: 'pipedrive', linked_user_id: 'acme' } });
    const note = await s.server.call('POST', '/crm/notes', {
      headers: s.headers(),
      body: { content: 'x', contact_id: (await listAll(s, '/crm/contacts'))[0]!.id, field_mappings: { topic: 'a' } },
    });
    expect(note.status).toBe(422);
    expect(note.body.details.code).toBe('unsupported_by_provider');

    // a field created in Pipedrive after the definitions were cached is found (read again on a miss)
    const later = s.sim.addCustomField('person', { name: 'Nickname', field_type: 'varchar' });
    await defineAndMap('crm.contact', 'nickname', 'string', later);
    const withLater = await s.server.call('POST', '/crm/contacts', { headers: s.headers(), body: { first_name: 'Late', field_mappings: { nickname: 'Lat' } } });
    expect(withLater.status, JSON.stringify(withLater.body)).toBe(201);
    expect(withLater.body.data.field_mappings).toMatchObject({ nickname: 'Lat' });
    expectNoSpecViolations(s.sim);
  });
});
