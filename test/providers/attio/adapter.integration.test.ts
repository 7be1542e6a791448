/**
 * The Attio adapter against its simulator, without Omniport's server: notes and tasks written and synced
 * with their links, a full run over offset pages, an unlisted record confirmed gone by id (`stillExists`),
 * and the 422s for what Attio cannot hold, before any call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderHttpClient } from '../../../src/providers/http-client';
import { attioHttpProfile, attioManifest, createAttioAdapter } from '../../../src/providers/attio';
import type { AdapterContext, UnifiedRecord } from '../../../src/providers/types';
import { expectNoAttioSpecViolations } from '../../conformance/drivers/attio';
import { startAttioSimulator, type AttioSimulator } from '../../simulators/attio';

const TOKEN = 'attio-adapter-token';
const adapter = createAttioAdapter({ pageSize: 2 });
let sim: AttioSimulator;
let ctx: AdapterContext;

async function sync(key: string): Promise<UnifiedRecord[]> {
  const out: UnifiedRecord[] = [];
  for await (const batch of adapter.syncers.find((s) => s.key === key)!.run(ctx, {})) out.push(...batch.records);
  return out;
}

beforeAll(async () => {
  sim = await startAttioSimulator({ tokens: [TOKEN] });
  const http = new ProviderHttpClient({
    manifest: attioManifest,
    connectionId: 'attio-adapter',
    baseUrl: sim.url,
    authHeaders: () => attioHttpProfile.authHeaders({ access_token: TOKEN }),
    errorMessage: attioHttpProfile.errorMessage,
    allowPrivateAddresses: true,
    retryBaseMs: 10,
    maxRetries: 2,
  });
  ctx = { connectionId: 'attio-adapter', baseUrl: sim.url, credentials: { access_token: TOKEN }, http, ids: idFactory('attio-adapter') };
});
afterAll(async () => {
  if (sim) expectNoAttioSpecViolations(sim);
  await sim?.close();
});

describe('attio', () => {
  it('writes notes and tasks linked to records, and syncs them back over several pages', async () => {
    const member = (sim.members[0]!.id as { workspace_member_id: string }).workspace_member_id;
    const company = (await adapter.crm!.create(ctx, 'crm.company', { name: 'Initech' })).record;
    const person = (await adapter.crm!.create(ctx, 'crm.contact', { first_name: 'Ada', last_name: 'Lovelace', company_id: company.remoteId })).record;
    const note = (await adapter.crm!.create(ctx, 'crm.note', { content: 'Called\nShe is keen', contact_id: person.remoteId })).record;
    expect(note.data).toMatchObject({ content: 'Called\nShe is keen', contact_id: ctx.ids('crm.contact', person.remoteId), company_id: null });
    const task = (await adapter.crm!.create(ctx, 'crm.task', { subject: 'Send the offer', due_date: '2026-12-01T09:00:00.000Z', user_id: member, company_id: company.remoteId })).record;
    expect(task.data).toMatchObject({ subject: 'Send the offer', status: 'PENDING', user_id: ctx.ids('crm.user', member), company_id: ctx.ids('crm.company', company.remoteId) });
    const done = (await adapter.crm!.update(ctx, 'crm.task', task.remoteId, { status: 'COMPLETED' })).record;
    expect(done.data.status).toBe('COMPLETED');
    for (let i = 0; i < 4; i++) await adapter.crm!.create(ctx, 'crm.note', { content: `Note ${i}`, company_id: company.remoteId });
    expect((await sync('crm.note')).map((n) => n.data.content)).toEqual(['Called\nShe is keen', 'Note 0', 'Note 1', 'Note 2', 'Note 3']);
    expect((await sync('crm.task')).map((t) => [t.data.subject, t.data.status, t.data.company_id])).toEqual([['Send the offer', 'COMPLETED', ctx.ids('crm.company', company.remoteId)]]);
  });

  it('confirms by id whether a record a full run did not list is gone', async () => {
    const people = await sync('crm.contact');
    const syncer = adapter.syncers.find((s) => s.key === 'crm.contact')!;
    const one = people[0]!;
    expect(await syncer.stillExists!(ctx, { objectType: 'crm.contact', remoteId: one.remoteId, remoteData: one.remoteData })).toBe(true);
    sim.remove('people', one.remoteId);
    expect(await syncer.stillExists!(ctx, { objectType: 'crm.contact', remoteId: one.remoteId, remoteData: one.remoteData })).toBe(false);
  });

  it('refuses what Attio cannot hold with 422 naming the field, before any write', async () => {
    const before = sim.requests.filter((r) => r.method !== 'GET').length;
    for (const [type, input, field] of [
      ['crm.deal', { name: 'x', amount: '1.00001' }, 'amount'],
      ['crm.deal', { name: 'x', description: 'words' }, 'description'],
      ['crm.contact', { first_name: 'x', user_id: '00000000-0000-4000-8000-000000000000' }, 'user_id'],
      ['crm.task', { subject: 'x', content: 'more' }, 'content'],
      ['crm.note', { content: 'x' }, 'company_id'],
    ] as const) {
      const err = (await adapter.crm!.create(ctx, type, input as Record<string, unknown>).catch((e: unknown) => e)) as { details?: { field?: string } };
      expect(err.details?.field, JSON.stringify(input)).toBe(field);
    }
    const update = (await adapter.crm!.update(ctx, 'crm.note', '00000000-0000-4000-8000-000000000000', { content: 'x' }).catch((e: unknown) => e)) as { status?: number };
    expect(update.status).toBe(422);
    expect(sim.requests.filter((r) => r.method !== 'GET').length).toBe(before);
  });
});
