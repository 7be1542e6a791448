/**
 * The Dynamics adapter against its simulator, without Omniport's server: change tracking (a full read over
 * several pages ending in a delta link, then the delta link's changes and deleted entities, a run resumed
 * from a next link, an expired delta link read again whole), writes of every object type with what
 * Dataverse cannot take refused by field, and batches through `$batch` with one refused change set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRequestsDocumented } from '../../contracts/contract';
import { contract } from '../../contracts/dynamics.contract';
import { AppError } from '../../../src/core/errors';
import { ProviderError } from '../../../src/providers/http-client';
import { createDynamicsAdapter } from '../../../src/providers/dynamics';
import type { AdapterContext, SyncBatch } from '../../../src/providers/types';
import { startDynamicsSimulator, type DynamicsSimulator, type Row } from '../../simulators/dynamics';
import { collect, simulatorContext, syncerOf } from '../../support/adapter-context';

const TOKEN = 'dv-adapter-token';
const adapter = createDynamicsAdapter({ pageSize: 2 });
let sim: DynamicsSimulator;
let ctx: AdapterContext;
let account: Row;
const contacts: Row[] = [];
const crm = adapter.crm!;

const ids = (batches: SyncBatch[]) => batches.flatMap((b) => b.records.map((r) => r.remoteId));
const lastCursor = (batches: SyncBatch[]) => batches.map((b) => b.cursor).filter(Boolean).at(-1);

beforeAll(async () => {
  sim = await startDynamicsSimulator({ accessTokens: [TOKEN] });
  ctx = simulatorContext(adapter, { connectionId: 'dv-adapter', baseUrl: sim.url, credentials: { access_token: TOKEN } });
  // Custom columns of accounts: a lookup (selected as _new_referrerid_value) and a virtual one ($select cannot name it).
  sim.addColumn('account', { LogicalName: 'new_referrerid', AttributeType: 'Lookup', DisplayName: 'Referrer' });
  sim.addColumn('account', { LogicalName: 'new_tags', AttributeType: 'Virtual', DisplayName: 'Tags' });
  sim.addColumn('account', { LogicalName: 'new_tier', AttributeType: 'Integer', DisplayName: 'Tier' });
  account = sim.create('account', { name: 'Initech', new_tier: 2 });
  for (let i = 0; i < 5; i++) contacts.push(sim.create('contact', { lastname: `Person ${i}`, 'parentcustomerid_account@odata.bind': `/accounts(${String(account.accountid)})` }));
});
afterAll(async () => {
  await sim?.close();
  expectRequestsDocumented(contract, [...(sim?.requests ?? []), ...(sim?.batchParts ?? [])]);
});

describe('dynamics sync', () => {
  it('reads a table over pages to a delta link, then only the changes and deletions through it', async () => {
    const full = await collect(syncerOf(adapter, 'crm.contact'), ctx);
    expect(ids(full)).toEqual(contacts.map((c) => c.contactid));
    expect(full.length).toBe(3);
    expect(full[0]!.records[0]!.data.company_id).toBe(ctx.ids('crm.company', String(account.accountid)));
    const cursor = lastCursor(full);
    expect(cursor).toContain('$deltatoken=');

    sim.update('contact', String(contacts[1]!.contactid), { firstname: 'Changed' });
    sim.remove('contact', String(contacts[2]!.contactid));
    const delta = await collect(syncerOf(adapter, 'crm.contact'), ctx, { since: new Date(0), cursor });
    expect(delta.flatMap((b) => b.records.map((r) => [r.remoteId, r.data.first_name]))).toEqual([[contacts[1]!.contactid, 'Changed']]);
    expect(delta.flatMap((b) => b.deleted ?? [])).toEqual([{ objectType: 'crm.contact', remoteId: contacts[2]!.contactid }]);
    expect(sim.requests.at(-1)!.query.$deltatoken).toBeTypeOf('string');
    // Nothing changed since: the new delta link answers nothing.
    const again = await collect(syncerOf(adapter, 'crm.contact'), ctx, { since: new Date(0), cursor: lastCursor(delta) });
    expect(ids(again)).toEqual([]);
  });

  it('resumes a run from its next link, and reads the table whole when the delta link is refused', async () => {
    const first: SyncBatch[] = [];
    for await (const b of syncerOf(adapter, 'crm.contact').run(ctx, {})) {
      first.push(b);
      break;
    }
    const rest = await collect(syncerOf(adapter, 'crm.contact'), ctx, { resume: first[0]!.resume! });
    expect([...ids(first), ...ids(rest)]).toEqual(sim.all('contact').map((c) => c.contactid));
    expect(sim.requests.some((r) => typeof r.query.$skiptoken === 'string')).toBe(true);

    const stale = JSON.stringify({ links: { contact: { link: `${sim.url}/api/data/v9.2/contacts?$select=x&$deltatoken=999999999!x`, select: JSON.parse(lastCursor(rest)!).links.contact.select } } });
    const whole = await collect(syncerOf(adapter, 'crm.contact'), ctx, { since: new Date(0), cursor: stale });
    expect(ids(whole)).toEqual(sim.all('contact').map((c) => c.contactid));
    expect(lastCursor(whole)).not.toContain('999999999');
  });

  it('selects the readable custom columns by the names $select takes, and lists them for field mapping', async () => {
    const companies = (await collect(syncerOf(adapter, 'crm.company'), ctx)).flatMap((b) => b.records);
    expect(companies[0]!.remoteData).toMatchObject({ new_tier: 2, _new_referrerid_value: null });
    expect(companies[0]!.remoteData).not.toHaveProperty('new_tags');
    const select = String(sim.requests.filter((r) => r.path.endsWith('/accounts')).at(-1)!.query.$select);
    expect(select.split(',')).toEqual(expect.arrayContaining(['name', 'new_tier', '_new_referrerid_value']));
    const fields = await adapter.customFields!.list(ctx, 'crm.company');
    expect(fields.map((f) => [f.id, f.type])).toEqual([
      ['new_referrerid', 'Lookup'],
      ['new_tier', 'Integer'],
    ]);
    expect(adapter.customFields!.read('crm.company', companies[0]!.remoteData, 'new_tier')).toBe(2);
  });

  it('syncs users and the sales stages', async () => {
    expect(ids(await collect(syncerOf(adapter, 'crm.user'), ctx))).toEqual(sim.users.map((u) => u.systemuserid));
    const stages = (await collect(syncerOf(adapter, 'crm.stage'), ctx)).flatMap((b) => b.records);
    expect(stages.map((s) => [s.remoteId, s.data.name])).toEqual(sim.salesStages.map((s) => [String(s.value), s.label]));
  });
});

describe('dynamics writes', () => {
  const accountId = () => String(account.accountid);
  const refused = async (p: Promise<unknown>, field: string) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).details?.field).toBe(field);
  };

  it('writes a company with its industry by label and a deal with an exact amount, its currency, stage and contact', async () => {
    const company = (await crm.create(ctx, 'crm.company', { name: 'Globex', industry: 'Consulting', phone_numbers: [{ phone_number: '+1555', phone_type: 'FAX' }] })).record;
    expect(company.data).toMatchObject({ name: 'Globex', industry: 'Consulting', phone_numbers: [{ phone_number: '+1555', phone_type: 'FAX' }] });
    expect(sim.get('account', company.remoteId)!.industrycode).toBe(7);
    await refused(crm.create(ctx, 'crm.company', { name: 'X', industry: 'Space mining' }), 'industry');

    const contact = String(contacts[0]!.contactid);
    const deal = (await crm.create(ctx, 'crm.deal', { name: 'Big', amount: '1234.56', currency: 'GBP', stage_id: '2', company_id: company.remoteId, contact_ids: [contact], close_date: '2026-12-31' })).record;
    expect(deal.data).toMatchObject({ amount: '1234.56', currency: 'GBP', stage_id: ctx.ids('crm.stage', '2'), company_id: ctx.ids('crm.company', company.remoteId), contact_ids: [ctx.ids('crm.contact', contact)], close_date: '2026-12-31' });
    expect(sim.get('opportunity', deal.remoteId)!.estimatedvalue).toBe(1234.56);
    await refused(crm.create(ctx, 'crm.deal', { name: 'Two', contact_ids: [contact, String(contacts[1]!.contactid)] }), 'contact_ids');
    await refused(crm.create(ctx, 'crm.deal', { name: 'Yen', currency: 'JPY' }), 'currency');
    await refused(crm.update(ctx, 'crm.deal', deal.remoteId, { amount: '1.005' }), 'amount');
  });

  it('creates a completed task (then closed in a second call), notes on one record, and calls and meetings', async () => {
    const before = sim.requests.length;
    const task = (await crm.create(ctx, 'crm.task', { subject: 'Call back', status: 'COMPLETED', due_date: '2026-12-01T09:00:00.000Z', company_id: accountId() })).record;
    expect(task.data).toMatchObject({ subject: 'Call back', status: 'COMPLETED', company_id: ctx.ids('crm.company', accountId()) });
    expect(sim.requests.slice(before).map((r) => r.method)).toEqual(['POST', 'PATCH']);
    expect(sim.get('task', task.remoteId)).toMatchObject({ statecode: 1, statuscode: 5 });
    const reopened = (await crm.update(ctx, 'crm.task', task.remoteId, { status: 'PENDING' })).record;
    expect(reopened.data.status).toBe('PENDING');
    await refused(crm.create(ctx, 'crm.task', { subject: 'x', company_id: accountId(), contact_id: String(contacts[0]!.contactid) }), 'company_id');

    const note = (await crm.create(ctx, 'crm.note', { content: 'Met at the fair', contact_id: String(contacts[0]!.contactid) })).record;
    expect(note.data).toMatchObject({ content: 'Met at the fair', contact_id: ctx.ids('crm.contact', String(contacts[0]!.contactid)), company_id: null });
    await refused(crm.create(ctx, 'crm.note', { content: 'x', contact_id: String(contacts[0]!.contactid), company_id: accountId() }), 'company_id');

    const call = (await crm.create(ctx, 'crm.engagement', { type: 'CALL', direction: 'INBOUND', start_at: '2026-05-01T10:00:00.000Z', end_time: '2026-05-01T10:15:00.000Z', contact_ids: [String(contacts[0]!.contactid)] })).record;
    expect(call.data).toMatchObject({ type: 'CALL', direction: 'INBOUND', subject: 'Call', contact_ids: [ctx.ids('crm.contact', String(contacts[0]!.contactid))] });
    const meeting = (await crm.create(ctx, 'crm.engagement', { type: 'MEETING', subject: 'Demo', start_at: '2026-05-02T10:00:00.000Z', end_time: '2026-05-02T11:00:00.000Z', company_id: accountId() })).record;
    expect(meeting.data).toMatchObject({ type: 'MEETING', subject: 'Demo', company_id: ctx.ids('crm.company', accountId()), end_time: '2026-05-02T11:00:00.000Z' });
    expect((await crm.update(ctx, 'crm.engagement', meeting.remoteId, { subject: 'Demo 2' })).record.data.subject).toBe('Demo 2');
    await refused(crm.update(ctx, 'crm.engagement', meeting.remoteId, { type: 'CALL' }), 'type');
    await refused(crm.create(ctx, 'crm.engagement', { type: 'EMAIL' }), 'type');
    await refused(crm.create(ctx, 'crm.engagement', { type: 'MEETING', direction: 'OUTBOUND' }), 'direction');
    const engagements = (await collect(syncerOf(adapter, 'crm.engagement'), ctx)).flatMap((b) => b.records);
    expect(engagements.map((e) => [e.remoteId, e.data.type])).toEqual([
      [call.remoteId, 'CALL'],
      [meeting.remoteId, 'MEETING'],
    ]);
    const cursor = (await collect(syncerOf(adapter, 'crm.engagement'), ctx)).map((b) => b.cursor).filter(Boolean).at(-1);

    // Deleting the contact takes the call regarding it along (Dataverse cascades activities): both delta links see it.
    sim.remove('contact', String(contacts[0]!.contactid));
    const delta = await collect(syncerOf(adapter, 'crm.engagement'), ctx, { since: new Date(0), cursor });
    expect(delta.flatMap((b) => b.deleted ?? [])).toEqual([{ objectType: 'crm.engagement', remoteId: call.remoteId }]);
    expect(delta.flatMap((b) => b.records)).toEqual([]);
  });

  it('creates contacts in one $batch, a change set each: a refused one fails alone, the others answer their rows in order', async () => {
    const gone = sim.create('systemuser', { fullname: 'Gone User' });
    sim.remove('systemuser', String(gone.systemuserid));
    const before = sim.requests.length;
    const results = await crm.createMany!(ctx, 'crm.contact', [
      { first_name: 'One', last_name: 'A' },
      { first_name: 'Two', last_name: 'B', user_id: String(gone.systemuserid) },
      { first_name: 'Three', last_name: 'C', company_id: accountId() },
      { first_name: 'Four', last_name: 'D', email_addresses: [1, 2, 3, 4].map((i) => ({ email_address: `p${i}@x.example` })) },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, false]);
    expect(results[0]!.ok && results[0]!.result.record.data.first_name).toBe('One');
    expect(results[2]!.ok && results[2]!.result.record.data.company_id).toBe(ctx.ids('crm.company', accountId()));
    const refusedByDataverse = !results[1]!.ok && results[1]!.error;
    expect(refusedByDataverse).toBeInstanceOf(ProviderError);
    expect((refusedByDataverse as ProviderError).providerStatus).toBe(404);
    expect(!results[3]!.ok && (results[3]!.error as AppError).details?.field).toBe('email_addresses');
    expect(sim.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/data/v9.2/$batch']);
    expect(sim.all('contact').map((c) => c.firstname)).toEqual(expect.arrayContaining(['One', 'Three']));
    expect(sim.all('contact').map((c) => c.firstname)).not.toContain('Two');
  });
});
