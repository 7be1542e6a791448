/**
 * The Zendesk Sell adapter against its simulator, without Omniport's server: notes, tasks and calls
 * attached to persons, organizations and deals (told apart by one lookup), deals whose company follows the
 * primary contact, decimal deal values kept exact, incremental runs newest change first, and the refusals
 * (422 naming the field) for what Sell cannot hold. Every request must match the transcribed contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRequestsDocumented } from '../../contracts/contract';
import { contract } from '../../contracts/zendesk-sell.contract';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderHttpClient } from '../../../src/providers/http-client';
import { createZendeskSellAdapter, zendeskSellHttpProfile, zendeskSellManifest } from '../../../src/providers/zendesk-sell';
import type { AdapterContext } from '../../../src/providers/types';
import { startZendeskSellSimulator, type SellObj, type ZendeskSellSimulator } from '../../simulators/zendesk-sell';

const TOKEN = 'sell-adapter-token';
const adapter = createZendeskSellAdapter({ pageSize: 3 });
let sim: ZendeskSellSimulator;
let ctx: AdapterContext;
let org: SellObj;
let person: SellObj;

beforeAll(async () => {
  sim = await startZendeskSellSimulator({ tokens: [TOKEN] });
  const http = new ProviderHttpClient({
    manifest: zendeskSellManifest,
    connectionId: 'sell-adapter',
    baseUrl: sim.url,
    authHeaders: () => zendeskSellHttpProfile.authHeaders({ access_token: TOKEN }),
    errorMessage: zendeskSellHttpProfile.errorMessage,
    allowPrivateAddresses: true,
    retryBaseMs: 10,
    maxRetries: 2,
  });
  ctx = { connectionId: 'sell-adapter', baseUrl: sim.url, credentials: { access_token: TOKEN }, http, ids: idFactory('sell-adapter') };
  sim.clock.advance(-3_600_000);
  org = sim.create('contacts', { is_organization: true, name: 'Initech' });
  person = sim.create('contacts', { last_name: 'Lovelace', first_name: 'Ada', contact_id: org.id, phone: '+15555550101' });
  sim.clock.advance(3_600_000);
});
afterAll(async () => {
  expect(sim?.contractViolations ?? []).toEqual([]);
  expectRequestsDocumented(contract, sim?.requests ?? []);
  await sim?.close();
});

describe('zendesk sell', () => {
  it('attaches notes and tasks to a person, an organization or a deal, and reads them back as contact, company or deal', async () => {
    const crm = adapter.crm!;
    const onCompany = (await crm.create(ctx, 'crm.note', { content: 'Org note', company_id: String(org.id) })).record;
    expect(onCompany.data).toMatchObject({ company_id: ctx.ids('crm.company', String(org.id)), contact_id: null });
    const onPerson = (await crm.create(ctx, 'crm.task', { subject: 'Call back', contact_id: String(person.id), due_date: '2026-12-01T09:00:00Z' })).record;
    expect(onPerson.data).toMatchObject({ subject: 'Call back', content: 'Call back', contact_id: ctx.ids('crm.contact', String(person.id)), company_id: null, status: 'PENDING' });
    const done = (await crm.update(ctx, 'crm.task', onPerson.remoteId, { status: 'COMPLETED' })).record;
    expect(done.data.status).toBe('COMPLETED');
    expect(done.data.finished_date).not.toBeNull();
  });

  it('keeps a deal value exact, follows the primary contact for the company, and refuses a company of another organization', async () => {
    const crm = adapter.crm!;
    const deal = (await crm.create(ctx, 'crm.deal', { name: 'Big', amount: '1234.50', stage_id: String(sim.stages[1]!.id), contact_ids: [String(person.id)] })).record;
    expect(deal.data).toMatchObject({ amount: '1234.5', company_id: ctx.ids('crm.company', String(org.id)), contact_ids: [ctx.ids('crm.contact', String(person.id))] });
    expect(sim.get('deals', deal.remoteId)?.value).toBe('1234.50');
    const other = sim.create('contacts', { is_organization: true, name: 'Globex' });
    await expect(crm.create(ctx, 'crm.deal', { name: 'Wrong', contact_ids: [String(person.id)], company_id: String(other.id) })).rejects.toMatchObject({ details: { field: 'company_id' } });
    const orgDeal = (await crm.create(ctx, 'crm.deal', { name: 'Org deal', company_id: String(other.id) })).record;
    expect(orgDeal.data).toMatchObject({ company_id: ctx.ids('crm.company', String(other.id)), contact_ids: [] });
  });

  it('logs a call to the contact’s number, changes only its contact on update, and refuses meetings', async () => {
    const crm = adapter.crm!;
    const call = (await crm.create(ctx, 'crm.engagement', { type: 'CALL', content: 'Intro', direction: 'INBOUND', start_at: '2026-11-20T10:00:00Z', end_time: '2026-11-20T10:02:00Z', contact_ids: [String(person.id)] })).record;
    expect(call.data).toMatchObject({ type: 'CALL', content: 'Intro', direction: 'INBOUND', end_time: '2026-11-20T10:02:00.000Z' });
    expect(sim.get('calls', call.remoteId)).toMatchObject({ phone_number: '+15555550101', duration: 120 });
    await expect(crm.update(ctx, 'crm.engagement', call.remoteId, { content: 'x' })).rejects.toMatchObject({ details: { field: 'content' } });
    await expect(crm.create(ctx, 'crm.engagement', { type: 'MEETING', start_at: '2026-11-20T10:00:00Z' })).rejects.toMatchObject({ details: { field: 'type' } });
  });

  it('reads changes newest first down to the last run, across pages', async () => {
    const since = new Date(sim.clock.now() - 1_000);
    const people = [person, ...Array.from({ length: 4 }, (_, i) => sim.create('contacts', { last_name: `New ${i}` }))];
    sim.update('contacts', person.id, { first_name: 'Augusta' });
    const ids: string[] = [];
    for await (const batch of adapter.syncers.find((s) => s.key === 'crm.contact')!.run(ctx, { since })) ids.push(...batch.records.map((r) => r.remoteId));
    expect(new Set(ids)).toEqual(new Set(people.map((p) => String(p.id))));
  });

  it('refuses what Sell cannot hold with 422 naming the field', async () => {
    const crm = adapter.crm!;
    for (const [type, input, field] of [
      ['crm.contact', { last_name: 'x', email_addresses: [{ email_address: 'a@example.com' }, { email_address: 'b@example.com' }] }, 'email_addresses'],
      ['crm.company', { name: 'x', number_of_employees: 10 }, 'number_of_employees'],
      ['crm.deal', { name: 'x', company_id: String(org.id), amount: '1.005' }, 'amount'],
      ['crm.deal', { name: 'x', company_id: String(org.id), description: 'd' }, 'description'],
      ['crm.task', { subject: 'a', content: 'b' }, 'subject'],
      ['crm.note', { content: 'x', contact_id: String(person.id), deal_id: String(person.id) }, 'contact_id'],
    ] as const) {
      await expect(crm.create(ctx, type, input as never)).rejects.toMatchObject({ details: { field } });
    }
  });
});
