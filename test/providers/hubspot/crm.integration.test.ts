/**
 * The CRM endpoints on a HubSpot connection, through the real HTTP server against the HubSpot simulator:
 * batch create (endpoint 8), deal PATCH (endpoint 7), associations both ways, remote_data, rate limits,
 * tenant isolation and every writable object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubSpotRecord } from '../../simulators/hubspot';
import { hubspotSetup, type HubSpotSetup } from './setup';

let t: HubSpotSetup;
let companyA: HubSpotRecord;
let companyB: HubSpotRecord;
let existing: HubSpotRecord;

const owner = () => t.sim.state.owners[0]!;
/** The Omniport id of a synced object, by its HubSpot id. */
async function idOf(objectType: string, remoteId: string): Promise<string> {
  const rows = await t.server.sql(`select id from unified_objects where connection_id = $1 and object_type = $2 and remote_id = $3`, [t.connectionId, objectType, remoteId]);
  expect(rows, `${objectType} ${remoteId}`).toHaveLength(1);
  return rows[0]!.id as string;
}
const assocIds = (from: Parameters<HubSpotSetup['sim']['state']['associationsOf']>[0], id: string, to: Parameters<HubSpotSetup['sim']['state']['associationsOf']>[2]) =>
  t.sim.state.associationsOf(from, id, to).map(([toId, types]) => ({ id: toId, types: [...types].sort((a, b) => a - b) }));

beforeAll(async () => {
  t = await hubspotSetup({
    seed(sim) {
      const companies = sim.seedCompanies(2);
      companyA = companies[0]!;
      companyB = companies[1]!;
      existing = sim.seedContacts(1)[0]!;
    },
  });
  await t.syncAll();
}, 240_000);
afterAll(() => t?.close());

describe('POST /crm/contacts/batch (endpoint 8)', () => {
  it('creates 100 contacts with emails, phones and addresses in one HubSpot call; invalid elements fail in place (207)', async () => {
    const companyId = await idOf('crm.company', companyA.id);
    const userId = await idOf('crm.user', owner().id);
    const body = Array.from({ length: 100 }, (_, i) => ({
      first_name: `First${i}`,
      last_name: `Last${i}`,
      email_addresses: [{ email_address: i === 42 ? existing.properties.email : `person${i}@batch.example`, email_address_type: 'WORK', owner_type: 'CONTACT' }],
      phone_numbers: [
        { phone_number: `+1-555-01${String(i).padStart(2, '0')}`, phone_type: 'WORK' },
        { phone_number: `+1-555-02${String(i).padStart(2, '0')}`, phone_type: 'MOBILE' },
      ],
      addresses: [{ street_1: `${i} Main St`, city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US', address_type: 'WORK' }],
      ...(i % 10 === 0 ? { company_id: companyId, user_id: userId } : {}),
    }));
    // Element 17 is invalid for Omniport (bad email); element 42 for HubSpot (that email exists already).
    (body[17]!.email_addresses[0] as { email_address: string }).email_address = 'not-an-email';
    t.sim.resetRequests();

    const res = await t.server.call('POST', '/crm/contacts/batch', { headers: t.headers(), body });
    expect(res.status).toBe(207);
    expect(res.body).toMatchObject({ statusCode: 207, message: '98 of 100 created' });
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data[17]).toMatchObject({ statusCode: 400, error: 'validation_failed', details: { code: 'validation_failed' } });
    expect(res.body.data[17].message).toContain('[17].email_addresses.0.email_address');
    expect(res.body.data[42]).toMatchObject({ statusCode: 502, error: 'provider_error', details: { provider: 'hubspot', provider_status: 409 } });
    expect(res.body.data[42].message).toContain('Contact already exists');

    // One batch call with the 99 valid elements, each with its own trace id.
    const calls = t.sim.requests.filter((r) => r.path === '/crm/v3/objects/contacts/batch/create');
    expect(calls).toHaveLength(1);
    const inputs = (calls[0]!.body as { inputs: { objectWriteTraceId: string; properties: Record<string, string> }[] }).inputs;
    expect(inputs).toHaveLength(99);
    expect(new Set(inputs.map((x) => x.objectWriteTraceId)).size).toBe(99);

    for (const [i, item] of (res.body.data as Record<string, unknown>[]).entries()) {
      if (i === 17 || i === 42) continue;
      expect(item, `element ${i}`).toMatchObject({
        first_name: `First${i}`,
        last_name: `Last${i}`,
        email_addresses: [{ email_address: `person${i}@batch.example`, email_address_type: null, owner_type: 'CONTACT' }],
        phone_numbers: [
          { phone_number: `+1-555-01${String(i).padStart(2, '0')}`, phone_type: 'WORK' },
          { phone_number: `+1-555-02${String(i).padStart(2, '0')}`, phone_type: 'MOBILE' },
        ],
        addresses: [{ street_1: `${i} Main St`, street_2: null, city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' }],
        company_id: i % 10 === 0 ? companyId : null,
        user_id: i % 10 === 0 ? userId : null,
        remote_was_deleted: false,
      });
      const remote = t.sim.getRecord('contacts', item.remote_id as string)!;
      expect(remote.properties).toMatchObject({ firstname: `First${i}`, email: `person${i}@batch.example`, mobilephone: `+1-555-02${String(i).padStart(2, '0')}`, address: `${i} Main St`, zip: '62701' });
      if (i % 10 === 0) {
        expect(remote.properties.hubspot_owner_id).toBe(owner().id);
        expect(assocIds('contacts', remote.id, 'companies')).toEqual([{ id: companyA.id, types: [1, 279] }]);
      }
    }
    // Stored: readable by id with the API key alone.
    const one = await t.server.call('GET', `/crm/contacts/${res.body.data[0].id}?remote_data=true`);
    expect(one.status).toBe(200);
    expect(one.body.data.remote_data).toMatchObject({ id: res.body.data[0].remote_id, properties: { email: 'person0@batch.example' } });
  });

  it('201 when every element is created; refusals of fields HubSpot cannot hold fail only their element', async () => {
    const ok = await t.server.call('POST', '/crm/contacts/batch', {
      headers: t.headers(),
      body: [{ first_name: 'Solo', email_addresses: [{ email_address: 'solo@batch.example' }] }],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.message).toBe('1 created');
    const mixed = await t.server.call('POST', '/crm/contacts/batch', {
      headers: t.headers(),
      body: [
        { first_name: 'Home', phone_numbers: [{ phone_number: '1', phone_type: 'HOME' }] },
        { first_name: 'Fine' },
      ],
    });
    expect(mixed.status).toBe(207);
    expect(mixed.body.data[0]).toMatchObject({ statusCode: 422, error: 'unsupported_by_provider', details: { field: 'phone_numbers[0].phone_type' } });
    expect(mixed.body.data[1]).toMatchObject({ first_name: 'Fine' });
  });

  it('a batch HubSpot refuses as a whole fails every element (no silent success)', async () => {
    t.sim.faults.add({ path: '/crm/v3/objects/contacts/batch/create', status: 500, times: 1 });
    const res = await t.server.call('POST', '/crm/contacts/batch', { headers: t.headers(), body: [{ first_name: 'A' }, { first_name: 'B' }] });
    expect(res.status).toBe(207);
    expect(res.body.data.map((d: { statusCode: number }) => d.statusCode)).toEqual([502, 502]);
  });
});

describe('PATCH /crm/deals/{id} (endpoint 7)', () => {
  let dealId: string;
  let remoteId: string;

  beforeAll(async () => {
    const res = await t.server.call('POST', '/crm/deals', {
      headers: t.headers(),
      body: { name: 'Expansion', amount: '1000.00', stage_id: await idOf('crm.stage', 'appointmentscheduled'), company_id: await idOf('crm.company', companyA.id) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Expansion', amount: '1000.00', contact_ids: [] });
    dealId = res.body.data.id;
    remoteId = res.body.data.remote_id;
    expect(t.sim.getRecord('deals', remoteId)!.properties).toMatchObject({ dealstage: 'appointmentscheduled', pipeline: 'default', amount: '1000.00' });
  });

  it('updates with the API key alone; the amount 1234.56 round-trips exactly; remote_data is HubSpot’s object', async () => {
    const contactIds = [await idOf('crm.contact', existing.id)];
    const res = await t.server.call('PATCH', `/crm/deals/${dealId}?remote_data=true`, {
      body: {
        name: 'Expansion (signed)',
        description: 'Three more seats',
        amount: '1234.56',
        currency: 'EUR',
        stage_id: await idOf('crm.stage', 'closedwon'),
        user_id: await idOf('crm.user', owner().id),
        close_date: '2025-06-30',
        contact_ids: contactIds,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ statusCode: 200, message: 'deal updated' });
    expect(res.body.error).toBeUndefined();
    const d = res.body.data;
    expect(d).toMatchObject({
      id: dealId,
      remote_id: remoteId,
      name: 'Expansion (signed)',
      description: 'Three more seats',
      amount: '1234.56',
      currency: 'EUR',
      stage_id: await idOf('crm.stage', 'closedwon'),
      user_id: await idOf('crm.user', owner().id),
      company_id: await idOf('crm.company', companyA.id),
      contact_ids: contactIds,
      close_date: '2025-06-30T00:00:00.000Z',
      field_mappings: {},
    });
    expect(d.remote_data).toMatchObject({ id: remoteId, properties: { amount: '1234.56', dealname: 'Expansion (signed)', dealstage: 'closedwon' } });
    expect(d.remote_data.associations.contacts.results).toEqual([{ id: existing.id, type: 'deal_to_contact' }]);
    expect(t.sim.getRecord('deals', remoteId)!.properties.amount).toBe('1234.56');

    // The PATCH request carried the amount as the exact string.
    const patch = t.sim.requests.filter((r) => r.method === 'PATCH' && r.path === `/crm/v3/objects/deals/${remoteId}`).at(-1)!;
    expect((patch.body as { properties: Record<string, string> }).properties.amount).toBe('1234.56');
    // Stored: the GET answers the same amount.
    expect((await t.server.call('GET', `/crm/deals/${dealId}`)).body.data.amount).toBe('1234.56');
  });

  it('a JSON number amount, a body id that matches, and only the changed field', async () => {
    const res = await t.server.call('PATCH', `/crm/deals/${dealId}`, { body: { id: dealId, amount: 99.9 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ amount: '99.9', name: 'Expansion (signed)', stage_id: await idOf('crm.stage', 'closedwon') });
    // Endpoint 7 answers with remote_data without a query option, as the interface shows it.
    expect(res.body.data.remote_data).toMatchObject({ id: remoteId });
    const back = await t.server.call('PATCH', `/crm/deals/${dealId}`, { body: { amount: '1234.56' } });
    expect(back.body.data.amount).toBe('1234.56');
  });

  it('refuses unknown stages, references and ids of another project', async () => {
    const badRef = await t.server.call('PATCH', `/crm/deals/${dealId}`, { body: { stage_id: '00000000-0000-4000-8000-000000000000' } });
    expect(badRef.status).toBe(422);
    expect(badRef.body.details).toMatchObject({ code: 'unknown_reference', field: 'stage_id' });
    const other = await t.server.createTenant('other-deals');
    const cross = await t.server.call('PATCH', `/crm/deals/${dealId}`, { apiKey: other.apiKey, body: { amount: '1' } });
    expect(cross.status).toBe(404);
    expect(t.sim.getRecord('deals', remoteId)!.properties.amount).toBe('1234.56');
  });
});

describe('associations both ways', () => {
  it('Omniport → HubSpot: a new primary company keeps the old one unlabeled; contact_ids replace the set', async () => {
    const a = await idOf('crm.company', companyA.id);
    const b = await idOf('crm.company', companyB.id);
    const created = await t.server.call('POST', '/crm/contacts', { headers: t.headers(), body: { first_name: 'Linked', company_id: a } });
    expect(created.status).toBe(201);
    const remote = created.body.data.remote_id as string;
    expect(assocIds('contacts', remote, 'companies')).toEqual([{ id: companyA.id, types: [1, 279] }]);

    const moved = await t.server.call('PATCH', `/crm/contacts/${created.body.data.id}`, { body: { company_id: b } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.company_id).toBe(b);
    expect(assocIds('contacts', remote, 'companies')).toEqual([
      { id: companyA.id, types: [279] },
      { id: companyB.id, types: [1, 279] },
    ]);

    const c1 = created.body.data.id as string;
    const c2 = await idOf('crm.contact', existing.id);
    const deal = await t.server.call('POST', '/crm/deals', { headers: t.headers(), body: { name: 'Assoc', company_id: b, contact_ids: [c1, c2] } });
    expect(deal.body.data).toMatchObject({ company_id: b, contact_ids: [c1, c2] });
    expect(assocIds('deals', deal.body.data.remote_id, 'contacts').map((x) => x.id)).toEqual([remote, existing.id].sort((x, y) => Number(x) - Number(y)));
    expect(assocIds('deals', deal.body.data.remote_id, 'companies')).toEqual([{ id: companyB.id, types: [5, 341] }]);
    const replaced = await t.server.call('PATCH', `/crm/deals/${deal.body.data.id}`, { body: { contact_ids: [c2], company_id: a } });
    expect(replaced.body.data).toMatchObject({ contact_ids: [c2], company_id: a });
    expect(assocIds('deals', deal.body.data.remote_id, 'contacts')).toEqual([{ id: existing.id, types: [3] }]);
  });

  it('HubSpot → Omniport: associations made in HubSpot arrive with incremental and full syncs', async () => {
    const company = t.sim.createRecord('companies', { name: 'Made in HubSpot' });
    const contact = t.sim.createRecord('contacts', { firstname: 'Remote', email: 'remote@hs.example' });
    const deal = t.sim.createRecord('deals', { dealname: 'Remote deal', amount: '77.70', dealstage: 'qualifiedtobuy', pipeline: 'default' });
    t.sim.associate('contacts', contact.id, 'companies', company.id, [1, 279]);
    t.sim.associate('deals', deal.id, 'companies', company.id, [341]);
    t.sim.associate('deals', deal.id, 'contacts', contact.id, [3]);
    t.sim.associate('deals', deal.id, 'contacts', existing.id, [3]);

    for (const full of [false, true]) {
      const runs = await t.syncAll({ full });
      expect(runs['crm.contact']!.mode).toBe(full ? 'full' : 'incremental');
      const c = await t.server.call('GET', `/crm/contacts/${await idOf('crm.contact', contact.id)}`);
      expect(c.body.data).toMatchObject({ first_name: 'Remote', company_id: await idOf('crm.company', company.id) });
      const d = await t.server.call('GET', `/crm/deals/${await idOf('crm.deal', deal.id)}`);
      expect(d.body.data).toMatchObject({
        name: 'Remote deal',
        amount: '77.70',
        stage_id: await idOf('crm.stage', 'qualifiedtobuy'),
        company_id: await idOf('crm.company', company.id),
        contact_ids: [await idOf('crm.contact', existing.id), await idOf('crm.contact', contact.id)],
      });
    }
  });
});

describe('every writable object', () => {
  it('companies, notes, tasks and engagements: create, update, read back', async () => {
    const contact = await idOf('crm.contact', existing.id);
    const company = await t.server.call('POST', '/crm/companies', {
      headers: t.headers(),
      body: { name: 'Acme', industry: 'RETAIL', number_of_employees: 40, phone_numbers: [{ phone_number: '+1 800' }], addresses: [{ street_1: '1 Road', city: 'Town' }] },
    });
    expect(company.status, JSON.stringify(company.body)).toBe(201);
    expect(company.body.data).toMatchObject({ name: 'Acme', industry: 'RETAIL', number_of_employees: 40, phone_numbers: [{ phone_number: '+1 800', phone_type: 'WORK' }] });
    const noEmail = await t.server.call('POST', '/crm/companies', { headers: t.headers(), body: { name: 'E', email_addresses: [{ email_address: 'a@b.io' }] } });
    expect(noEmail.status).toBe(422);
    expect(noEmail.body.details).toMatchObject({ code: 'unsupported_by_provider', field: 'email_addresses' });

    const note = await t.server.call('POST', '/crm/notes', { headers: t.headers(), body: { content: 'Met at the fair', contact_id: contact, company_id: company.body.data.id } });
    expect(note.status).toBe(201);
    expect(note.body.data).toMatchObject({ content: 'Met at the fair', contact_id: contact, company_id: company.body.data.id, deal_id: null });
    expect(assocIds('notes', note.body.data.remote_id, 'contacts')).toEqual([{ id: existing.id, types: [202] }]);

    const task = await t.server.call('POST', '/crm/tasks', { headers: t.headers(), body: { subject: 'Follow up', status: 'PENDING', due_date: '2030-01-01T09:00:00Z', contact_id: contact } });
    expect(task.body.data).toMatchObject({ subject: 'Follow up', status: 'PENDING', due_date: '2030-01-01T09:00:00.000Z', contact_id: contact });
    expect(t.sim.getRecord('tasks', task.body.data.remote_id)!.properties.hs_task_status).toBe('NOT_STARTED');
    const done = await t.server.call('PATCH', `/crm/tasks/${task.body.data.id}`, { body: { status: 'COMPLETED' } });
    expect(done.body.data).toMatchObject({ status: 'COMPLETED', subject: 'Follow up' });
    const finished = await t.server.call('PATCH', `/crm/tasks/${task.body.data.id}`, { body: { finished_date: '2030-01-01T09:00:00Z' } });
    expect(finished.status).toBe(422);

    const call = await t.server.call('POST', '/crm/engagements', {
      headers: t.headers(),
      body: { type: 'CALL', subject: 'Discovery', direction: 'OUTBOUND', start_at: '2025-01-01T10:00:00Z', end_time: '2025-01-01T10:30:00Z', contact_ids: [contact] },
    });
    expect(call.status, JSON.stringify(call.body)).toBe(201);
    expect(call.body.data).toMatchObject({ type: 'CALL', subject: 'Discovery', direction: 'OUTBOUND', start_at: '2025-01-01T10:00:00.000Z', end_time: '2025-01-01T10:30:00.000Z', contact_ids: [contact] });
    expect(t.sim.getRecord('calls', call.body.data.remote_id)!.properties.hs_call_duration).toBe('1800000');
    const longer = await t.server.call('PATCH', `/crm/engagements/${call.body.data.id}`, { body: { end_time: '2025-01-01T11:00:00Z', contact_ids: [] } });
    expect(longer.status, JSON.stringify(longer.body)).toBe(200);
    expect(longer.body.data).toMatchObject({ type: 'CALL', end_time: '2025-01-01T11:00:00.000Z', contact_ids: [] });
    const retype = await t.server.call('PATCH', `/crm/engagements/${call.body.data.id}`, { body: { type: 'MEETING' } });
    expect(retype.status).toBe(422);

    const batch = await t.server.call('POST', '/crm/engagements/batch', {
      headers: t.headers(),
      body: [
        { type: 'MEETING', subject: 'Demo', start_at: '2025-02-01T10:00:00Z', end_time: '2025-02-01T11:00:00Z' },
        { type: 'EMAIL', subject: 'Hello', direction: 'INBOUND', content: 'Hi there', contact_ids: [contact] },
        { type: 'EMAIL', subject: 'Bad', end_time: '2025-02-01T11:00:00Z' },
        { type: 'CALL', subject: 'Ring' },
      ],
    });
    expect(batch.status).toBe(207);
    expect(batch.body.data.map((x: { type?: string; statusCode?: number }) => x.type ?? x.statusCode)).toEqual(['MEETING', 'EMAIL', 422, 'CALL']);
    expect(t.sim.getRecord('emails', batch.body.data[1].remote_id)!.properties.hs_email_direction).toBe('INCOMING_EMAIL');
  });
});

describe('rate limits, failures and tenant isolation', () => {
  it('429 then success: retried transparently', async () => {
    t.sim.resetRequests();
    t.sim.faults.add({ method: 'POST', path: '/crm/v3/objects/contacts', status: 429, times: 1 });
    const res = await t.server.call('POST', '/crm/contacts', { headers: t.headers(), body: { first_name: 'Patient' } });
    expect(res.status).toBe(201);
    expect(t.sim.requests.filter((r) => r.path === '/crm/v3/objects/contacts' && r.method === 'POST').map((r) => r.status)).toEqual([429, 201]);
  });

  it('429 for ever: 503 with Retry-After, nothing stored', async () => {
    const fault = t.sim.faults.add({ method: 'POST', path: '/crm/v3/objects/contacts', status: 429, times: Infinity });
    try {
      const res = await t.server.call('POST', '/crm/contacts', { headers: t.headers(), body: { first_name: 'Never' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.body.details).toMatchObject({ code: 'provider_rate_limited', provider: 'hubspot', provider_status: 429 });
      expect(res.body.message).not.toContain('hs-test-token');
    } finally {
      t.sim.faults.remove(fault);
    }
  });

  it('HubSpot refusals are 502 with its status and message', async () => {
    const res = await t.server.call('POST', '/crm/companies', { headers: t.headers(), body: { name: 'X', industry: 'Alchemy' } });
    expect(res.status).toBe(502);
    expect(res.body.details).toMatchObject({ code: 'provider_error', provider_status: 400 });
    expect(res.body.message).toContain('industry: Alchemy was not one of the allowed options');
  });

  it('a refused HubSpot token is refused when connecting', async () => {
    const res = await t.server.call('POST', '/connections', {
      body: { provider: 'hubspot', linked_user_origin_id: 'wrong', credentials: { access_token: 'nope' }, base_url: t.sim.url },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).not.toContain('nope');
  });

  it('stages and users are listed from the store', async () => {
    const stages = await t.server.call('GET', '/crm/stages', { headers: t.headers() });
    expect(stages.body.data).toHaveLength(7);
    expect(stages.body.data.find((s: { remote_id: string }) => s.remote_id === 'closedwon')).toMatchObject({ name: 'Closed Won', pipeline_id: 'default', pipeline_name: 'Sales Pipeline' });
    const users = await t.server.call('GET', '/crm/users?remote_data=true', { headers: t.headers() });
    expect(users.body.data.map((u: { name: string }) => u.name)).toEqual(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']);
    expect(users.body.data[0].remote_data).toMatchObject({ id: owner().id, email: 'ada@example.com', type: 'PERSON' });
  });

  it('a connection token of another project is 401; so is an unknown one', async () => {
    const other = await t.server.createTenant('other');
    for (const [apiKey, token] of [
      [other.apiKey, t.token],
      [t.server.tenant.apiKey, 'ct_nope'],
    ] as const) {
      const res = await t.server.call('POST', '/crm/contacts/batch', { apiKey, headers: { 'x-connection-token': token }, body: [{ first_name: 'x' }] });
      expect(res.status).toBe(401);
      expect(res.body.details.code).toBe('invalid_connection_token');
      const list = await t.server.call('GET', '/crm/contacts', { apiKey, headers: { 'x-connection-token': token } });
      expect(list.status).toBe(401);
    }
  });
});
