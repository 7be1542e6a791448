/**
 * The HubSpot syncers and credentials check driven directly (no Omniport server) against the simulator:
 * page by page to the last page, resumable from any batch, engagements across three HubSpot types.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderError, ProviderHttpClient } from '../../../src/providers/http-client';
import { createHubSpotAdapter } from '../../../src/providers/hubspot';
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions } from '../../../src/providers/types';
import { startHubSpotSimulator, type HubSpotSimulator } from '../../simulators/hubspot';
import { TOKEN } from './setup';

const adapter = createHubSpotAdapter({ listPageSize: 10, searchPageSize: 7, searchMinIntervalMs: 0, indexLagBufferMs: 0 });
let sim: HubSpotSimulator;
let ctx: AdapterContext;

function context(token: string, connectionId = 'conn-1'): AdapterContext {
  const credentials = { access_token: token };
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl: sim.url,
    authHeaders: () => adapter.http.authHeaders(credentials),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 2,
  });
  return { connectionId, baseUrl: sim.url, credentials, http, ids: idFactory(connectionId) };
}

const syncer = (key: string) => adapter.syncers.find((s) => s.key === key)!;

async function collect(s: ObjectSyncer, opts: SyncOptions = {}, stopAfter = Infinity): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of s.run(ctx, opts)) {
    out.push(b);
    if (out.length >= stopAfter) break;
  }
  return out;
}

const remoteIds = (batches: SyncBatch[]) => batches.flatMap((b) => b.records.map((r) => r.remoteId));

beforeAll(async () => {
  sim = await startHubSpotSimulator();
  sim.seedCompanies(4);
  sim.seedContacts(95, { associateCompanies: true });
  for (const c of sim.records('contacts').slice(0, 3)) sim.archiveRecord('contacts', c.id, { at: Date.now() - 86_400_000 });
  sim.seedEngagements('calls', 12, { associateWith: 'contacts' });
  sim.seedEngagements('meetings', 15);
  sim.seedEngagements('emails', 4, { associateWith: 'companies' });
  ctx = context(TOKEN);
});
afterAll(() => sim?.close());

describe('HubSpot adapter: credentials and sync', () => {
  it('checks credentials with one call; a refused token is a 401 from HubSpot', async () => {
    await expect(adapter.verifyCredentials(ctx)).resolves.toBeUndefined();
    const err = await adapter.verifyCredentials(context('wrong', 'conn-bad')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).providerStatus).toBe(401);
  });

  it('full sync: every live page, then the archived ones; one batch per page; resumable from any batch', async () => {
    const all = await collect(syncer('crm.contact'));
    // 92 live in pages of 10 (10 pages), then one page of 3 archived.
    expect(all.map((b) => b.records.length)).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 10, 2, 3]);
    expect(all.at(-1)!.resume).toBeNull();
    const ids = remoteIds(all);
    expect(new Set(ids).size).toBe(95);
    expect(all.at(-1)!.records.every((r) => r.deleted === true)).toBe(true);
    expect(all[0]!.records.every((r) => r.deleted === undefined && r.data.company_id !== null)).toBe(true);

    for (const cut of [1, 5, 9, 10]) {
      const first = await collect(syncer('crm.contact'), {}, cut);
      const rest = await collect(syncer('crm.contact'), { resume: first.at(-1)!.resume! });
      expect([...remoteIds(first), ...remoteIds(rest)], `cut after ${cut}`).toEqual(ids);
    }
  });

  it('engagements: calls, meetings and emails in turn, resumable inside any of them', async () => {
    const all = await collect(syncer('crm.engagement'));
    const types = all.flatMap((b) => b.records.map((r) => r.data.type));
    expect(types.filter((x) => x === 'CALL')).toHaveLength(12);
    expect(types.filter((x) => x === 'MEETING')).toHaveLength(15);
    expect(types.filter((x) => x === 'EMAIL')).toHaveLength(4);
    const ids = remoteIds(all);
    for (let cut = 1; cut < all.length; cut++) {
      const first = await collect(syncer('crm.engagement'), {}, cut);
      const rest = await collect(syncer('crm.engagement'), { resume: first.at(-1)!.resume! });
      expect([...remoteIds(first), ...remoteIds(rest)], `cut after ${cut}`).toEqual(ids);
    }
    const call = all.flatMap((b) => b.records).find((r) => r.data.type === 'CALL')!;
    expect(call.data.contact_ids).toHaveLength(1);
  });

  it('incremental: search pages from `since`, keyset on the id, resumable; archives since then are deletions', async () => {
    const since = new Date(Date.now() - 1000);
    const live = sim.records('contacts');
    const changed = live.filter((_, i) => i % 4 === 0); // 23 contacts
    for (const c of changed) sim.updateRecord('contacts', c.id, { jobtitle: 'Changed' });
    sim.archiveRecord('contacts', live[1]!.id);
    const all = await collect(syncer('crm.contact'), { since });
    // 23 changes in search pages of 7, then the archived listing (4 archived, 1 since `since`).
    expect(all.map((b) => b.records.length)).toEqual([7, 7, 7, 2, 1]);
    expect(remoteIds(all.slice(0, 4))).toEqual(changed.map((c) => c.id));
    expect(all.at(-1)!.records[0]).toMatchObject({ remoteId: live[1]!.id, deleted: true });
    // Associations of search results come from the v4 batch read.
    expect(all[0]!.records.every((r) => r.data.company_id !== null)).toBe(true);

    const first = await collect(syncer('crm.contact'), { since }, 2);
    // Changes made after the run began do not move the cursor of a resumed run.
    sim.updateRecord('contacts', changed[0]!.id, { jobtitle: 'Again' });
    const rest = await collect(syncer('crm.contact'), { since: new Date(), resume: first.at(-1)!.resume! });
    expect([...remoteIds(first), ...remoteIds(rest)]).toEqual(remoteIds(all));
  });

  it('users and stages', async () => {
    sim.addOwner({ firstName: 'Gone', lastName: 'Owner', archived: true });
    const users = (await collect(syncer('crm.user'))).flatMap((b) => b.records);
    expect(users.map((u) => [u.data.name, u.deleted ?? false])).toEqual([
      ['Ada Lovelace', false],
      ['Grace Hopper', false],
      ['Alan Turing', false],
      ['Gone Owner', true],
    ]);
    const stages = (await collect(syncer('crm.stage'))).flatMap((b) => b.records);
    expect(stages).toHaveLength(7);
    expect(stages[0]).toMatchObject({ remoteId: 'appointmentscheduled', data: { name: 'Appointment Scheduled', pipeline_id: 'default', pipeline_name: 'Sales Pipeline' } });
  });
});
