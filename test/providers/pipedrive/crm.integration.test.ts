/**
 * Pipedrive through Omniport's HTTP API against the simulator: the contacts batch (endpoint 8), the deal
 * PATCH (endpoint 7), associations, the other CRM objects, rate limits and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unifiedId } from '../../../src/core/unified/ids';
import { syncAndWait } from '../../support/sync-wait';
import { expectNoSpecViolations, listAll, setUp, type PipedriveSetup } from './support';

let s: PipedriveSetup;
const ids = (type: string, remoteId: number | string) => unifiedId(s.connectionId, type, String(remoteId));

beforeAll(async () => {
  s = await setUp({
    seed: (sim) => {
      sim.seedOrganizations(3);
      sim.seedPersons(5, { linkOrganizations: true });
      sim.seedDeals(3, { linkPersons: true });
      sim.seedActivities(4, { linkDeals: true });
      sim.seedNotes(2, { linkTo: 'deals' });
    },
  });
}, 180_000);
afterAll(async () => {
  await s?.close();
});

const post = (path: string, body: unknown, query = '') => s.server.call('POST', `${path}${query}`, { headers: s.headers(), body });

describe('pipedrive: first sync', () => {
  it('synced users, stages, companies, contacts, deals, tasks/engagements and notes', async () => {
    const counts = Object.fromEntries(
      (await s.server.sql('select object_type, count(*)::int as n from unified_objects where connection_id = $1 group by object_type', [s.connectionId])).map((r) => [r.object_type, r.n]),
    );
    expect(counts).toMatchObject({ 'crm.user': 3, 'crm.stage': 5, 'crm.company': 3, 'crm.contact': 5, 'crm.deal': 3, 'crm.note': 2 });
    expect((counts['crm.task'] ?? 0) + (counts['crm.engagement'] ?? 0)).toBe(4);

    const stages = await listAll(s, '/crm/stages');
    expect(stages.map((x) => x.name)).toEqual(['Lead In', 'Contact Made', 'Demo Scheduled', 'Proposal Made', 'Negotiations Started']);
    expect(stages[0]).toMatchObject({ pipeline_id: '1', pipeline_name: 'Sales pipeline' });
    const users = await listAll(s, '/crm/users');
    expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(['ada@example.com', 'grace@example.com']));
  });
});

describe('pipedrive: POST /crm/contacts/batch (endpoint 8)', () => {
  it('creates 100 contacts with nested emails, phones and addresses: one invalid element → 207, the others created in order', async () => {
    const company = s.sim.entities('organizations')[0]!;
    const contacts = Array.from({ length: 100 }, (_, i) => ({
      first_name: `First${i}`,
      last_name: `Last${i}`,
      email_addresses:
        i === 37
          ? [{ email_address: 'not-an-email', email_address_type: 'WORK' }]
          : [
              { email_address: `person${i}@work.example`, email_address_type: 'WORK', owner_type: 'CONTACT' },
              { email_address: `person${i}@home.example`, email_address_type: 'PERSONAL' },
            ],
      phone_numbers: [
        { phone_number: `+372 5000 ${String(i).padStart(4, '0')}`, phone_type: 'MOBILE' },
        { phone_number: `+372 6000 ${String(i).padStart(4, '0')}`, phone_type: 'WORK' },
      ],
      addresses: [{ street_1: `${i} Main St`, street_2: 'Floor 2', city: 'Tallinn', state: 'Harju', postal_code: '10111', country: 'EE', address_type: 'PERSONAL' }],
      user_id: ids('crm.user', 2),
      company_id: ids('crm.company', company.id),
    }));
    const before = s.sim.entities('persons').length;
    s.sim.resetRequests();
    const res = await post('/crm/contacts/batch', contacts, '?remote_data=true');
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(207);
    expect(res.body).toMatchObject({ statusCode: 207, message: '99 of 100 created' });
    expect(res.body.data).toHaveLength(100);

    const bad = res.body.data[37];
    expect(bad).toMatchObject({ statusCode: 400, error: 'validation_failed' });
    expect(bad.message).toContain('[37].email_addresses.0.email_address');

    // One Pipedrive request per element (Pipedrive has no batch create), the invalid one never sent.
    const creates = s.sim.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/persons');
    expect(creates).toHaveLength(99);
    expect(s.sim.entities('persons')).toHaveLength(before + 99);

    for (const [i, c] of res.body.data.entries()) {
      if (i === 37) continue;
      expect(c).toMatchObject({
        first_name: `First${i}`,
        last_name: `Last${i}`,
        email_addresses: [
          { email_address: `person${i}@work.example`, email_address_type: 'WORK', owner_type: 'CONTACT' },
          { email_address: `person${i}@home.example`, email_address_type: 'PERSONAL', owner_type: 'CONTACT' },
        ],
        phone_numbers: [
          { phone_number: `+372 5000 ${String(i).padStart(4, '0')}`, phone_type: 'MOBILE', owner_type: 'CONTACT' },
          { phone_number: `+372 6000 ${String(i).padStart(4, '0')}`, phone_type: 'WORK', owner_type: 'CONTACT' },
        ],
        addresses: [{ street_1: `${i} Main St`, street_2: 'Floor 2', city: 'Tallinn', state: 'Harju', postal_code: '10111', country: 'EE', address_type: 'PERSONAL', owner_type: 'CONTACT' }],
        user_id: ids('crm.user', 2),
        company_id: ids('crm.company', company.id),
        remote_was_deleted: false,
      });
      expect(c.id).toBe(ids('crm.contact', c.remote_id));
      // remote_data is Pipedrive's person as it answered
      const remote = s.sim.getEntity('persons', Number(c.remote_id))!;
      expect(c.remote_data).toMatchObject({ id: remote.id, name: `First${i} Last${i}`, org_id: company.id, owner_id: 2 });
      expect(remote.emails).toEqual([
        { value: `person${i}@work.example`, primary: true, label: 'work' },
        { value: `person${i}@home.example`, primary: false, label: 'home' },
      ]);
      expect(remote.phones.map((p) => p.label)).toEqual(['mobile', 'work']);
    }
    // every element answered at its own index (checked above by its names), each a distinct person
    expect(new Set(res.body.data.filter((_: unknown, i: number) => i !== 37).map((c: { remote_id: string }) => c.remote_id)).size).toBe(99);

    // stored: the list answers them without calling Pipedrive
    const one = await s.server.call('GET', `/crm/contacts/${res.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ first_name: 'First0', company_id: ids('crm.company', company.id) });
    expectNoSpecViolations(s.sim);
  });

  it('answers each element on its own: refused by Omniport (422), by Pipedrive (502), created (201 items)', async () => {
    s.sim.faults.add({ method: 'POST', path: '/api/v2/persons', status: 400, body: { success: false, error: 'Validation failed: name: too long', error_info: 'x', data: null, additional_data: null }, when: (r) => (r.body as { name?: string })?.name === 'Pipedrive Refuses' });
    const res = await post('/crm/contacts/batch', [
      { first_name: 'Fine', phone_numbers: [{ phone_number: '1', phone_type: 'HOME' }] },
      { first_name: 'Faxed', phone_numbers: [{ phone_number: '2', phone_type: 'FAX' }] },
      { first_name: 'Pipedrive', last_name: 'Refuses' },
      { email_addresses: [{ email_address: 'nameless@example.com' }] },
      { first_name: 'Unknown owner', user_id: '00000000-0000-4000-8000-000000000000' },
    ]);
    expect(res.status).toBe(207);
    const [fine, fax, refused, nameless, owner] = res.body.data;
    expect(fine).toMatchObject({ first_name: 'Fine', phone_numbers: [{ phone_type: 'HOME' }] });
    expect(fax).toMatchObject({ statusCode: 422, error: 'unsupported_by_provider', details: { field: 'phone_numbers[0].phone_type' } });
    expect(refused).toMatchObject({ statusCode: 502, error: 'provider_error', details: { provider: 'pipedrive', provider_status: 400, provider_message: 'Validation failed: name: too long' } });
    expect(nameless).toMatchObject({ statusCode: 400, details: { field: 'first_name' } });
    expect(owner).toMatchObject({ statusCode: 422, error: 'unknown_reference' });
  });
});

describe('pipedrive: deals, PATCH /crm/deals/{id} (endpoint 7) and associations', () => {
  let dealId: string;
  let contactId: string;
  let companyId: string;

  it('creates a company and a contact linked to it (contact → company)', async () => {
    const company = await post('/crm/companies', {
      name: 'Globex',
      industry: 'Software',
      number_of_employees: 250,
      addresses: [{ street_1: '5 Market St', city: 'Springfield', state: 'OR', postal_code: '97403', country: 'US' }],
      user_id: ids('crm.user', 1),
    });
    expect(company.status, JSON.stringify(company.body)).toBe(201);
    expect(company.body.data).toMatchObject({
      name: 'Globex',
      industry: 'Software',
      number_of_employees: 250,
      email_addresses: [],
      phone_numbers: [],
      addresses: [{ street_1: '5 Market St', city: 'Springfield', state: 'OR', postal_code: '97403', country: 'US', address_type: 'WORK', owner_type: 'COMPANY' }],
    });
    companyId = company.body.data.id;
    const org = s.sim.getEntity('organizations', Number(company.body.data.remote_id))!;
    expect(org).toMatchObject({ name: 'Globex', employee_count: 250, address: { route: '5 Market St', locality: 'Springfield', country: 'US' } });
    expect(org.industry).toBe(s.sim.state.fields.organization.find((f) => f.key === 'industry')!.options!.find((o) => o.label === 'Software')!.id);

    const refused = await post('/crm/companies', { name: 'X', email_addresses: [{ email_address: 'x@example.com' }] });
    expect(refused.status).toBe(422);
    expect(refused.body.details).toMatchObject({ code: 'unsupported_by_provider', field: 'email_addresses' });

    const contact = await post('/crm/contacts', { first_name: 'Homer', last_name: 'Simpson', company_id: companyId });
    expect(contact.status).toBe(201);
    expect(contact.body.data.company_id).toBe(companyId);
    contactId = contact.body.data.id;
    expect(s.sim.getEntity('persons', Number(contact.body.data.remote_id))!.org_id).toBe(org.id);
  });

  it('creates a deal linked to the company and the contact (deal → company/contacts)', async () => {
    const stage = ids('crm.stage', 2);
    const res = await post('/crm/deals', { name: 'Power plant', amount: '1000', currency: 'USD', stage_id: stage, company_id: companyId, contact_ids: [contactId], close_date: '2025-12-31' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Power plant', amount: '1000', currency: 'USD', stage_id: stage, company_id: companyId, contact_ids: [contactId], close_date: '2025-12-31', description: null });
    dealId = res.body.data.id;
    expect(s.sim.getEntity('deals', Number(res.body.data.remote_id))).toMatchObject({ title: 'Power plant', value: 1000, stage_id: 2, org_id: Number(companyId && s.sim.entities('organizations').find((o) => o.name === 'Globex')!.id) });

    const two = await post('/crm/deals', { name: 'Two contacts', contact_ids: [contactId, contactId] });
    expect(two.status).toBe(422);
    expect(two.body.details).toMatchObject({ code: 'unsupported_by_provider', field: 'contact_ids' });
  });

  it('PATCHes the deal with the API key alone: amount 1234.56 round-trips exactly, remote_data included', async () => {
    s.sim.resetRequests();
    const res = await s.server.call('PATCH', `/crm/deals/${dealId}?remote_data=true`, { body: { amount: '1234.56', currency: 'EUR', stage_id: ids('crm.stage', 3), name: 'Power plant (renewed)' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ statusCode: 200, message: 'deal updated' });
    expect(res.body.error).toBeUndefined();
    expect(res.body.data).toMatchObject({
      id: dealId,
      name: 'Power plant (renewed)',
      amount: '1234.56',
      currency: 'EUR',
      stage_id: ids('crm.stage', 3),
      company_id: companyId,
      contact_ids: [contactId],
      field_mappings: {},
    });
    expect(res.body.data.remote_id).toMatch(/^\d+$/);
    expect(res.body.data.remote_data).toMatchObject({ id: Number(res.body.data.remote_id), value: 1234.56, currency: 'EUR', stage_id: 3, title: 'Power plant (renewed)' });
    const patch = s.sim.requests.find((r) => r.method === 'PATCH' && r.path.startsWith('/api/v2/deals/'))!;
    expect(patch.body).toEqual({ title: 'Power plant (renewed)', value: 1234.56, currency: 'EUR', stage_id: 3 });
    expect(s.sim.getEntity('deals', Number(res.body.data.remote_id))!.value).toBe(1234.56);

    // read back from the store, still exact
    const got = await s.server.call('GET', `/crm/deals/${dealId}`);
    expect(got.body.data.amount).toBe('1234.56');

    // the other limits of a Pipedrive deal, each a 422 naming the field
    const desc = await s.server.call('PATCH', `/crm/deals/${dealId}`, { body: { description: 'x' } });
    expect(desc.status).toBe(422);
    expect(desc.body.details).toMatchObject({ code: 'unsupported_by_provider', field: 'description' });
    const huge = await s.server.call('PATCH', `/crm/deals/${dealId}`, { body: { amount: '12345678901234567.89' } });
    expect(huge.status).toBe(422);
    expect(huge.body.details).toMatchObject({ code: 'unsupported_by_provider', field: 'amount' });
    const mismatch = await s.server.call('PATCH', `/crm/deals/${dealId}`, { body: { id: contactId, amount: '1' } });
    expect(mismatch.status).toBe(400);
    expectNoSpecViolations(s.sim);
  });

  it('reads associations changed in Pipedrive after a sync (company ↔ contact, deal ↔ company/contacts)', async () => {
    const deal = s.sim.entities('deals').find((d) => d.title === 'Power plant (renewed)')!;
    const person = s.sim.entities('persons').find((p) => p.name === 'Homer Simpson')!;
    const otherOrg = s.sim.entities('organizations')[0]!;
    const otherPerson = s.sim.entities('persons')[0]!;
    s.sim.updateEntity('persons', person.id, { org_id: otherOrg.id });
    s.sim.updateEntity('deals', deal.id, { person_id: otherPerson.id, org_id: otherOrg.id });
    await syncAndWait(s.server, s.token);
    const contact = (await s.server.call('GET', `/crm/contacts/${contactId}`)).body;
    expect(contact.data.company_id).toBe(ids('crm.company', otherOrg.id));
    const d = (await s.server.call('GET', `/crm/deals/${dealId}`)).body;
    expect(d.data).toMatchObject({ company_id: ids('crm.company', otherOrg.id), contact_ids: [ids('crm.contact', otherPerson.id)], amount: '1234.56' });

    // and back through Omniport
    const res = await s.server.call('PATCH', `/crm/contacts/${contactId}`, { body: { company_id: companyId, last_name: 'J. Simpson' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ company_id: companyId, first_name: 'Homer', last_name: 'J. Simpson' });
    expect(s.sim.getEntity('persons', person.id)).toMatchObject({ name: 'Homer J. Simpson', org_id: s.sim.entities('organizations').find((o) => o.name === 'Globex')!.id });

    // lists and the address are replaced whole; an empty list clears them
    const cleared = await s.server.call('PATCH', `/crm/contacts/${contactId}`, {
      body: { email_addresses: [{ email_address: 'homer@plant.example' }], phone_numbers: [], addresses: [] },
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.data).toMatchObject({ email_addresses: [{ email_address: 'homer@plant.example', email_address_type: 'WORK' }], phone_numbers: [], addresses: [] });
    const globex = (await listAll(s, '/crm/companies')).find((c) => c.name === 'Globex')!;
    const noAddress = await s.server.call('PATCH', `/crm/companies/${globex.id}`, { body: { addresses: [], industry: 'Retail' } });
    expect(noAddress.body.data).toMatchObject({ addresses: [], industry: 'Retail' });
    expect(s.sim.getEntity('organizations', Number(globex.remote_id))!.address).toBeNull();
    expectNoSpecViolations(s.sim);
  });
});

describe('pipedrive: notes, tasks and engagements', () => {
  it('creates and updates them', async () => {
    const deal = s.sim.entities('deals')[0]!;
    const person = s.sim.entities('persons')[0]!;
    const note = await post('/crm/notes', { content: '<p>Met at the fair</p>', deal_id: ids('crm.deal', deal.id), contact_id: ids('crm.contact', person.id) });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect(note.body.data).toMatchObject({ content: '<p>Met at the fair</p>', deal_id: ids('crm.deal', deal.id), contact_id: ids('crm.contact', person.id), user_id: ids('crm.user', 1) });
    const byOther = await post('/crm/notes', { content: 'by user 2', company_id: ids('crm.company', s.sim.entities('organizations')[0]!.id), user_id: ids('crm.user', 2) });
    expect(byOther.status, JSON.stringify(byOther.body)).toBe(201);
    expect(byOther.body.data).toMatchObject({ user_id: ids('crm.user', 2), company_id: ids('crm.company', s.sim.entities('organizations')[0]!.id), deal_id: null });
    const orphan = await post('/crm/notes', { content: 'x' });
    expect(orphan.status).toBe(400);
    const edited = await s.server.call('PATCH', `/crm/notes/${note.body.data.id}`, { body: { content: 'edited' } });
    expect(edited.body.data.content).toBe('edited');

    // a task's contact is its primary participant: Pipedrive v2 refuses `person_id` on activity writes
    const task = await post('/crm/tasks', { subject: 'Send the offer', content: 'PDF', due_date: '2025-05-01T14:30:00Z', deal_id: ids('crm.deal', deal.id), user_id: ids('crm.user', 2), contact_id: ids('crm.contact', person.id) });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    expect(task.body.data).toMatchObject({ subject: 'Send the offer', content: 'PDF', status: 'PENDING', due_date: '2025-05-01T14:30:00.000Z', deal_id: ids('crm.deal', deal.id), user_id: ids('crm.user', 2), contact_id: ids('crm.contact', person.id), finished_date: null });
    expect(s.sim.getEntity('activities', Number(task.body.data.remote_id))).toMatchObject({ person_id: person.id, participants: [{ person_id: person.id, primary: true }] });
    const other = s.sim.entities('persons')[1]!;
    const moved = await s.server.call('PATCH', `/crm/tasks/${task.body.data.id}`, { body: { contact_id: ids('crm.contact', other.id) } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.contact_id).toBe(ids('crm.contact', other.id));
    expect(s.sim.getEntity('activities', Number(task.body.data.remote_id))).toMatchObject({ person_id: other.id, participants: [{ person_id: other.id, primary: true }] });
    const done = await s.server.call('PATCH', `/crm/tasks/${task.body.data.id}`, { body: { status: 'COMPLETED' } });
    expect(done.body.data).toMatchObject({ status: 'COMPLETED', finished_date: expect.any(String) });
    expect(s.sim.getEntity('activities', Number(task.body.data.remote_id))).toMatchObject({ type: 'task', done: true });

    const call = await post('/crm/engagements', {
      type: 'CALL',
      subject: 'Discovery call',
      start_at: '2025-05-02T09:00:00Z',
      end_time: '2025-05-02T09:45:00Z',
      contact_ids: [ids('crm.contact', person.id)],
    });
    expect(call.status, JSON.stringify(call.body)).toBe(201);
    expect(call.body.data).toMatchObject({ type: 'CALL', subject: 'Discovery call', start_at: '2025-05-02T09:00:00.000Z', end_time: '2025-05-02T09:45:00.000Z', contact_ids: [ids('crm.contact', person.id)], direction: null });
    expect(s.sim.getEntity('activities', Number(call.body.data.remote_id))).toMatchObject({ type: 'call', due_date: '2025-05-02', due_time: '09:00', duration: '00:45', person_id: person.id });
    const longer = await s.server.call('PATCH', `/crm/engagements/${call.body.data.id}`, { body: { end_time: '2025-05-02T10:00:00Z' } });
    expect(longer.body.data.end_time).toBe('2025-05-02T10:00:00.000Z');
    const alone = await s.server.call('PATCH', `/crm/engagements/${call.body.data.id}`, { body: { contact_ids: [], type: 'MEETING' } });
    expect(alone.body.data).toMatchObject({ type: 'MEETING', contact_ids: [] });
    expect(s.sim.getEntity('activities', Number(call.body.data.remote_id))).toMatchObject({ type: 'meeting', person_id: null, participants: [] });
    const direction = await post('/crm/engagements', { type: 'EMAIL', direction: 'OUTBOUND' });
    expect(direction.status).toBe(422);
    expect(direction.body.details).toMatchObject({ code: 'unsupported_by_provider', field: 'direction' });
    expectNoSpecViolations(s.sim);
  });
});

describe('pipedrive: rate limits and tenant isolation', () => {
  it('retries a 429 (x-ratelimit-reset) and succeeds', async () => {
    s.sim.resetRequests();
    s.sim.faults.add({ method: 'POST', path: '/api/v2/organizations', status: 429, times: 1 });
    const res = await post('/crm/companies', { name: 'After a 429' });
    expect(res.status).toBe(201);
    const calls = s.sim.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/organizations');
    expect(calls.map((r) => r.status)).toEqual([429, 200]);
  });

  it('answers 503 with Retry-After when Pipedrive keeps answering 429', async () => {
    const fault = s.sim.faults.add({ path: '/api/v2/organizations', status: 429, times: Infinity, retryAfterSeconds: 2 });
    try {
      const res = await post('/crm/companies', { name: 'Never' });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.body).toMatchObject({ statusCode: 503, details: { code: 'provider_rate_limited', provider: 'pipedrive', provider_status: 429 } });
    } finally {
      s.sim.faults.remove(fault);
    }
  });

  it('refuses the connection token of another project (401) and its objects (404)', async () => {
    const other = await s.server.createTenant('other-project');
    const list = await s.server.call('GET', '/crm/contacts', { apiKey: other.apiKey, headers: s.headers() });
    expect(list.status).toBe(401);
    const batch = await s.server.call('POST', '/crm/contacts/batch', { apiKey: other.apiKey, headers: s.headers(), body: [{ first_name: 'Intruder' }] });
    expect(batch.status).toBe(401);
    const [deal] = await listAll(s, '/crm/deals');
    const patch = await s.server.call('PATCH', `/crm/deals/${deal!.id}`, { apiKey: other.apiKey, body: { amount: '1' } });
    expect(patch.status).toBe(404);
    expect(s.sim.entities('persons').some((p) => p.name === 'Intruder')).toBe(false);
  });
});
