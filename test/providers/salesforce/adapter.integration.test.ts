/**
 * The Salesforce adapter against its simulator, without Omniport's server: SOQL batches walked with the
 * (SystemModstamp, Id) cursor when every record shares one timestamp (and a run resumed from the middle),
 * incremental runs through queryAll (changes, deletions, deals whose contact roles changed), engagements
 * split between Events and call Tasks, and batches through sObject Collections with one refused record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderHttpClient } from '../../../src/providers/http-client';
import { createSalesforceAdapter, salesforceManifest, salesforceHttpProfile } from '../../../src/providers/salesforce';
import type { AdapterContext, ObjectSyncer, SyncOptions, UnifiedRecord } from '../../../src/providers/types';
import { expectNoSalesforceSpecViolations } from '../../conformance/drivers/salesforce';
import { startSalesforceSimulator, type Rec, type SalesforceSimulator } from '../../simulators/salesforce';
import { simulatorContext } from './support';

const TOKEN = 'sf-adapter-token';
const adapter = createSalesforceAdapter();
let sim: SalesforceSimulator;
let ctx: AdapterContext;
let account: Rec;
const contacts: Rec[] = [];

const syncer = (key: string): ObjectSyncer => adapter.syncers.find((s) => s.key === key)!;
async function run(key: string, opts: SyncOptions = {}, stopAfter = Infinity): Promise<{ records: UnifiedRecord[]; resume: string | null }> {
  const records: UnifiedRecord[] = [];
  let resume: string | null = null;
  let n = 0;
  for await (const batch of syncer(key).run(ctx, opts)) {
    records.push(...batch.records);
    resume = batch.resume;
    if (++n >= stopAfter) break;
  }
  return { records, resume };
}

beforeAll(async () => {
  sim = await startSalesforceSimulator({ accessTokens: [TOKEN], maxBatchSize: 2 });
  ctx = simulatorContext(sim, 'sf-adapter', TOKEN);
  // Every record of the org in the same second: SystemModstamp ties everywhere.
  sim.clock.freeze();
  account = sim.create('Account', { Name: 'Initech' });
  for (let i = 0; i < 7; i++) contacts.push(sim.create('Contact', { LastName: `Person ${i}`, AccountId: account.Id }));
});
afterAll(async () => {
  if (sim) expectNoSalesforceSpecViolations(sim);
  await sim?.close();
});

describe('salesforce sync', () => {
  it('reads every record once across batches whose records share a SystemModstamp, also when resumed in the middle', async () => {
    const all = await run('crm.contact');
    expect(all.records.map((r) => r.remoteId)).toEqual(contacts.map((c) => c.Id));
    const firstTwo = await run('crm.contact', {}, 2);
    expect(firstTwo.records).toHaveLength(4);
    const rest = await run('crm.contact', { resume: firstTwo.resume! });
    expect([...firstTwo.records, ...rest.records].map((r) => r.remoteId)).toEqual(contacts.map((c) => c.Id));
  });

  it('reads changes and deletions since a time through queryAll', async () => {
    sim.clock.unfreeze();
    sim.clock.advance(5_000);
    const since = new Date(sim.clock.now());
    sim.clock.advance(2_000);
    sim.update('Contact', contacts[1]!.Id, { FirstName: 'Changed' });
    sim.remove('Contact', contacts[2]!.Id);
    const { records } = await run('crm.contact', { since });
    expect(records.map((r) => [r.remoteId, r.data.first_name, r.deleted === true])).toEqual([
      [contacts[1]!.Id, 'Changed', false],
      [contacts[2]!.Id, null, true],
    ]);
    const queries = sim.requests.filter((r) => r.path.endsWith('/queryAll')).map((r) => String(r.query.q));
    expect(queries.at(-1)).toMatch(/^SELECT Id, .* FROM Contact WHERE SystemModstamp >= \S+Z ORDER BY SystemModstamp ASC, Id ASC$/);
  });

  it('reads a deal again when only its contact roles changed', async () => {
    const deal = sim.create('Opportunity', { Name: 'Big deal', StageName: 'Prospecting', CloseDate: '2026-12-31', AccountId: account.Id, Amount: 1234.56 });
    sim.clock.advance(2_000);
    const since = new Date(sim.clock.now());
    sim.clock.advance(2_000);
    sim.create('OpportunityContactRole', { OpportunityId: deal.Id, ContactId: contacts[0]!.Id });
    const { records } = await run('crm.deal', { since });
    expect(records).toHaveLength(1);
    expect(records[0]!.data).toMatchObject({ amount: '1234.56', contact_ids: [ctx.ids('crm.contact', contacts[0]!.Id)], stage_id: ctx.ids('crm.stage', 'Prospecting') });
  });

  it('syncs Events and call Tasks as engagements, other Tasks as tasks', async () => {
    sim.create('Event', { Subject: 'Demo', StartDateTime: '2026-11-30T10:00:00.000+0000', EndDateTime: '2026-11-30T11:00:00.000+0000', WhoId: contacts[0]!.Id });
    sim.create('Task', { Subject: 'Call back', TaskSubtype: 'Call', CallType: 'Inbound', ActivityDate: '2026-11-30', CallDurationInSeconds: 90, WhatId: account.Id });
    sim.create('Task', { Subject: 'Send the contract', ActivityDate: '2026-12-01', WhoId: contacts[0]!.Id });
    const engagements = (await run('crm.engagement')).records.map((r) => r.data);
    expect(engagements).toEqual([
      expect.objectContaining({ type: 'MEETING', subject: 'Demo', start_at: '2026-11-30T10:00:00.000Z', end_time: '2026-11-30T11:00:00.000Z', contact_ids: [ctx.ids('crm.contact', contacts[0]!.Id)] }),
      expect.objectContaining({ type: 'CALL', direction: 'INBOUND', start_at: '2026-11-30T00:00:00.000Z', end_time: '2026-11-30T00:01:30.000Z', company_id: ctx.ids('crm.company', account.Id) }),
    ]);
    const tasks = (await run('crm.task')).records.map((r) => r.data);
    expect(tasks).toEqual([expect.objectContaining({ subject: 'Send the contract', status: 'PENDING', due_date: '2026-12-01T00:00:00.000Z', company_id: ctx.ids('crm.company', account.Id) })]);
  });
});

describe('salesforce writes', () => {
  it('creates a batch through sObject Collections: one result per record, a record Salesforce refuses answered as its error', async () => {
    const before = sim.requests.length;
    const results = await adapter.crm!.createMany!(ctx, 'crm.contact', [
      { first_name: 'One', last_name: 'Batch', company_id: account.Id },
      { last_name: 'Orphan', company_id: '001000000000000AAA' },
      { last_name: 'Three', email_addresses: [{ email_address: 'three@batch.example', email_address_type: 'WORK' }] },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(results[1]!.ok ? '' : results[1]!.error.message).toContain('FIELD_INTEGRITY_EXCEPTION');
    expect(results[2]!.ok && results[2]!.result.record.data.email_addresses).toEqual([{ email_address: 'three@batch.example', email_address_type: 'WORK', owner_type: 'CONTACT' }]);
    const calls = sim.requests.slice(before).map((r) => `${r.method} ${r.path.replace('/services/data/v59.0', '')}`);
    expect(calls.filter((c) => c === 'POST /composite/sobjects')).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith('POST /sobjects'))).toHaveLength(0);
  });

  it('writes one object and reads it back in one Composite request; a refusal is Salesforce\'s error', async () => {
    await adapter.crm!.create(ctx, 'crm.contact', { last_name: 'Warmup' }); // the describe is cached
    let before = sim.requests.length;
    const made = await adapter.crm!.create(ctx, 'crm.contact', { first_name: 'Solo', last_name: 'Write', company_id: account.Id });
    expect(made.record.data).toMatchObject({ first_name: 'Solo', last_name: 'Write', company_id: ctx.ids('crm.company', account.Id) });
    expect(sim.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /services/data/v59.0/composite']);
    before = sim.requests.length;
    const changed = await adapter.crm!.update(ctx, 'crm.contact', made.record.remoteId, { first_name: 'Duo' });
    expect(changed.record.data).toMatchObject({ first_name: 'Duo', last_name: 'Write' });
    expect(sim.requests.slice(before)).toHaveLength(1);
    const refused = (await adapter.crm!.create(ctx, 'crm.contact', { last_name: 'Orphan', company_id: '001000000000000AAA' }).catch((e: unknown) => e)) as Error;
    expect(refused.message).toContain('FIELD_INTEGRITY_EXCEPTION');
  });

  it('refuses what Salesforce cannot hold with 422 naming the field, before any call', async () => {
    const before = sim.requests.length;
    for (const [type, input, field] of [
      ['crm.deal', { name: 'x', stage_id: 'Prospecting', close_date: '2026-12-31', amount: '1.005' }, 'amount'],
      ['crm.deal', { name: 'x', stage_id: 'Prospecting', close_date: '2026-12-31', currency: 'EUR' }, 'currency'],
      ['crm.contact', { last_name: 'x', email_addresses: [{ email_address: 'a@x.example' }, { email_address: 'b@x.example' }] }, 'email_addresses'],
      ['crm.note', { content: 'x', company_id: account.Id, contact_id: contacts[0]!.Id }, 'company_id'],
    ] as const) {
      const err = (await adapter.crm!.create(ctx, type, input as Record<string, unknown>).catch((e: unknown) => e)) as { status?: number; details?: { field?: string } };
      expect(err.details?.field, JSON.stringify(input)).toBe(field);
    }
    // The single-currency org's describe is the only call (to know that it has no CurrencyIsoCode).
    expect(sim.requests.slice(before).every((r) => r.path.endsWith('/describe'))).toBe(true);
  });
});

describe('salesforce request limit', () => {
  it('stops at a spent daily request limit (403 REQUEST_LIMIT_EXCEEDED, Sforce-Limit-Info at its max) without retrying it', async () => {
    const small = await startSalesforceSimulator({ accessTokens: [TOKEN], dailyApiRequests: 2, validateSpec: false });
    try {
      const http = new ProviderHttpClient({
        manifest: salesforceManifest,
        connectionId: 'sf-limit',
        baseUrl: small.url,
        authHeaders: () => salesforceHttpProfile.authHeaders({ access_token: TOKEN }),
        errorMessage: salesforceHttpProfile.errorMessage,
        isRateLimited: salesforceHttpProfile.isRateLimited,
        allowPrivateAddresses: true,
        retryBaseMs: 10,
        maxRetryAfterMs: 5_000,
      });
      const limited = { ...ctx, connectionId: 'sf-limit', baseUrl: small.url, http };
      await adapter.verifyCredentials(limited);
      await adapter.verifyCredentials(limited);
      const err = (await adapter.verifyCredentials(limited).catch((e: unknown) => e)) as { code?: string; headers?: Record<string, string> };
      expect(err.code).toBe('provider_rate_limited');
      // The org's window rolls: the connection is held for the manifest's 15 minutes, not hammered.
      expect(err.headers?.['retry-after']).toBe('900');
      expect(small.requests.map((r) => r.status)).toEqual([200, 200, 403]);
    } finally {
      await small.close();
    }
  });
});
