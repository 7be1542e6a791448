/**
 * The Zoho CRM adapter against its simulator, without Omniport's server: the Modified_Time keyset walk when
 * more records share one second than Zoho answers by `page` (here lowered to 10 records, pages of 5): the
 * walk goes on with `page_token` and reads every record once, also when resumed in the middle; incremental
 * runs read changes (If-Modified-Since) and deletions (Deleted Records API); Notes newest first past the
 * `page` ceiling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderHttpClient } from '../../../src/providers/http-client';
import { createZohoAdapter, zohoHttpProfile, zohoManifest } from '../../../src/providers/zoho';
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions } from '../../../src/providers/types';
import { expectNoZohoSpecViolations } from '../../conformance/drivers/zoho';
import { startZohoSimulator, type ZohoSimulator, type ZRec } from '../../simulators/zoho';

const TOKEN = 'zoho-adapter-token';
const adapter = createZohoAdapter({ pageSize: 5, maxRecordsByPage: 10 });
let sim: ZohoSimulator;
let ctx: AdapterContext;
const contacts: ZRec[] = [];

const syncer = (key: string): ObjectSyncer => adapter.syncers.find((s) => s.key === key)!;
async function run(key: string, opts: SyncOptions = {}, stopAfter = Infinity) {
  const batches: SyncBatch[] = [];
  for await (const batch of syncer(key).run(ctx, opts)) {
    batches.push(batch);
    if (batches.length >= stopAfter) break;
  }
  return { ids: batches.flatMap((b) => b.records.map((r) => r.remoteId)), deleted: batches.flatMap((b) => (b.deleted ?? []).map((d) => d.remoteId)), resume: batches.at(-1)?.resume ?? null };
}

beforeAll(async () => {
  sim = await startZohoSimulator({ accessTokens: [TOKEN], maxPageSize: 5, maxRecordsByPage: 10 });
  const http = new ProviderHttpClient({
    manifest: zohoManifest,
    connectionId: 'zoho-adapter',
    baseUrl: sim.url,
    authHeaders: () => zohoHttpProfile.authHeaders({ access_token: TOKEN }),
    errorMessage: zohoHttpProfile.errorMessage,
    allowPrivateAddresses: true,
    retryBaseMs: 10,
    maxRetries: 2,
  });
  ctx = { connectionId: 'zoho-adapter', baseUrl: sim.url, credentials: { access_token: TOKEN }, http, ids: idFactory('zoho-adapter') };
  // 23 contacts in one second (more than the 10 answered by page), then 4 in the next seconds.
  sim.clock.freeze(Date.parse('2026-11-25T09:00:00Z'));
  for (let i = 0; i < 23; i++) contacts.push(sim.create('Contacts', { Last_Name: `Tied ${i}` }));
  for (let i = 0; i < 4; i++) {
    sim.clock.advance(1_000);
    contacts.push(sim.create('Contacts', { Last_Name: `Later ${i}` }));
  }
});
afterAll(async () => {
  if (sim) expectNoZohoSpecViolations(sim);
  await sim?.close();
});

describe('zoho sync', () => {
  it('reads every record once when more records share a second than Zoho answers by page, going on with page_token', async () => {
    const all = await run('crm.contact');
    expect(all.ids).toEqual(contacts.map((c) => c.id));
    expect(sim.requests.some((r) => r.path === '/crm/v8/Contacts' && 'page_token' in (r.query ?? {}))).toBe(true);
  });

  it('resumes a walk from its saved position (inside the tied second) without skipping or repeating', async () => {
    const first = await run('crm.contact', {}, 3);
    const rest = await run('crm.contact', { resume: first.resume! });
    expect([...first.ids, ...rest.ids]).toEqual(contacts.map((c) => c.id));
  });

  it('reads changes since a time, and deletions from the Deleted Records API', async () => {
    sim.clock.advance(60_000);
    const since = new Date(sim.clock.now() - 1_000);
    sim.update('Contacts', contacts[3]!.id, { First_Name: 'Changed' });
    sim.remove('Contacts', contacts[5]!.id);
    const inc = await run('crm.contact', { since });
    expect(inc.ids).toEqual([contacts[3]!.id]);
    expect(inc.deleted).toEqual([contacts[5]!.id]);
  });

  it('reads notes newest first past the page ceiling, and only those changed since a time on incremental runs', async () => {
    const notes: ZRec[] = [];
    for (let i = 0; i < 13; i++) {
      sim.clock.advance(1_000);
      notes.push(sim.create('Notes', { Note_Content: `Note ${i}`, Parent_Id: { module: { api_name: 'Contacts' }, id: contacts[0]!.id } }));
    }
    const all = await run('crm.note');
    expect(all.ids).toEqual([...notes].reverse().map((n) => n.id));
    const since = new Date(Date.parse(String(notes[10]!.Modified_Time)));
    const inc = await run('crm.note', { since });
    expect(inc.ids).toEqual([notes[12]!.id, notes[11]!.id, notes[10]!.id]);
  });

  it('writes notes, tasks, calls and meetings with their links, and refuses what Zoho cannot hold with 422 naming the field', async () => {
    const crm = adapter.crm!;
    const contactId = contacts[0]!.id;
    const note = (await crm.create(ctx, 'crm.note', { content: 'Met at the fair', contact_id: contactId })).record;
    expect(note.data).toMatchObject({ content: 'Met at the fair', contact_id: ctx.ids('crm.contact', contactId) });
    expect(sim.get('Notes', note.remoteId)?.Parent_Id).toMatchObject({ id: contactId, module: { api_name: 'Contacts' } });

    const task = (await crm.create(ctx, 'crm.task', { subject: 'Call back', due_date: '2026-12-01T00:00:00Z', contact_id: contactId })).record;
    expect(task.data).toMatchObject({ subject: 'Call back', status: 'PENDING', due_date: '2026-12-01T00:00:00.000Z' });
    const done = (await crm.update(ctx, 'crm.task', task.remoteId, { status: 'COMPLETED' })).record;
    expect(done.data.status).toBe('COMPLETED');
    expect(done.data.finished_date).not.toBeNull();

    const call = (await crm.create(ctx, 'crm.engagement', { type: 'CALL', direction: 'INBOUND', start_at: '2026-11-20T10:00:00Z', end_time: '2026-11-20T10:05:30Z', contact_ids: [contactId] })).record;
    expect(call.data).toMatchObject({ type: 'CALL', direction: 'INBOUND', start_at: '2026-11-20T10:00:00.000Z', end_time: '2026-11-20T10:05:30.000Z', contact_ids: [ctx.ids('crm.contact', contactId)] });
    expect(sim.get('Calls', call.remoteId)?.Call_Duration).toBe('05:30');
    const meeting = (await crm.create(ctx, 'crm.engagement', { type: 'MEETING', subject: 'Demo', start_at: '2026-11-21T10:00:00Z', end_time: '2026-11-21T11:00:00Z', contact_ids: [contactId, contacts[1]!.id] })).record;
    expect(meeting.data).toMatchObject({ type: 'MEETING', subject: 'Demo', end_time: '2026-11-21T11:00:00.000Z' });
    expect(meeting.data.contact_ids).toEqual([ctx.ids('crm.contact', contactId), ctx.ids('crm.contact', contacts[1]!.id)]);
    // The module of an engagement is found on update (Zoho ids do not tell it).
    expect((await crm.update(ctx, 'crm.engagement', meeting.remoteId, { subject: 'Demo, again' })).record.data.subject).toBe('Demo, again');

    for (const [type, input, field] of [
      ['crm.engagement', { type: 'EMAIL', start_at: '2026-11-21T10:00:00Z' }, 'type'],
      ['crm.engagement', { type: 'CALL', start_at: '2026-11-21T10:00:00Z', contact_ids: [contactId, contacts[1]!.id] }, 'contact_ids'],
      ['crm.note', { content: 'x', contact_id: contactId, deal_id: contactId }, 'contact_id'],
      ['crm.deal', { name: 'D', stage_id: sim.stages[0], close_date: '2026-12-31', amount: '1.005' }, 'amount'],
      ['crm.company', { name: 'C', email_addresses: [{ email_address: 'c@example.com' }] }, 'email_addresses'],
    ] as const) {
      await expect(crm.create(ctx, type, input as never)).rejects.toMatchObject({ details: { field } });
    }
  });
});

