/**
 * The Help Scout adapter driven directly (no Omniport server, no database) against the Help Scout simulator: the
 * conversation walk that a change made while it pages cannot make skip a conversation, threads as comments
 * (notes private, customer threads from contacts, line items left out), multi-call updates and the refusals. Every
 * request must stay within what the transcribed Mailbox API 2.0 contract documents.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectRequestsDocumented } from '../../contracts/contract';
import { contract } from '../../contracts/helpscout.contract';
import { AppError } from '../../../src/core/errors';
import { createHelpScoutAdapter } from '../../../src/providers/helpscout';
import type { SyncBatch } from '../../../src/providers/types';
import { collect, simulatorContext, syncerOf } from '../../support/adapter-context';
import { startHelpScoutSimulator, type HelpScoutSimulator } from '../../simulators/helpscout';

let sim: HelpScoutSimulator | undefined;
let n = 0;

afterEach(async () => {
  if (!sim) return;
  const violations = sim.contractViolations;
  const requests = [...sim.requests];
  await sim.close();
  sim = undefined;
  expect(violations, 'requests outside the Help Scout contract').toEqual([]);
  expectRequestsDocumented(contract, requests);
});

async function setup() {
  sim = await startHelpScoutSimulator({ rateLimit: { perMinute: 100_000 }, pageSize: { conversations: 2, other: 2 } });
  const adapter = createHelpScoutAdapter();
  const ctx = simulatorContext(adapter, { connectionId: `conn-hs-${++n}`, baseUrl: sim.url, credentials: { access_token: sim.token } });
  return { sim, adapter, ctx, seed: sim.seed! };
}

const of = (batches: SyncBatch[], type: string) => batches.flatMap((b) => b.records).filter((r) => r.objectType === type);
async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('helpscout adapter: sync', () => {
  it('reads every conversation when one changes while the walk pages (creation order does not move)', async () => {
    const { sim, adapter, ctx } = await setup();
    const bulk = sim.seedConversations(7);
    sim.faults.add({ path: '/v2/conversations', times: 1, when: (req) => req.query.get('page') === '2', before: () => void sim.updateConversationRemotely(bulk[0]!, { subject: 'changed mid-walk' }) });
    const batches = await collect(syncerOf(adapter, 'ticketing.ticket'), ctx);
    expect(new Set(of(batches, 'ticketing.ticket').map((r) => r.remoteId))).toEqual(new Set([...sim.conversations.keys()].map(String)));
  });

  it('confirms an unlisted thread through its conversation: kept while the conversation exists, asked once a run', async () => {
    const { sim, adapter, ctx } = await setup();
    const [kept, gone] = sim.seedConversations(2, { threadsPerConversation: 1 });
    sim.deleteConversationRemotely(gone!);
    const stillExists = syncerOf(adapter, 'ticketing.ticket').stillExists!;
    const thread = (conversation: number) => ({ objectType: 'ticketing.comment', remoteId: `t-${conversation}`, remoteData: {}, parents: [{ objectType: 'ticketing.ticket', remoteId: String(conversation) }] });
    const before = sim.requests.length;
    expect(await stillExists(ctx, thread(kept!))).toBe(true);
    expect(await stillExists(ctx, { ...thread(kept!), remoteId: 'another thread' })).toBe(true);
    expect(await stillExists(ctx, { objectType: 'ticketing.ticket', remoteId: String(kept), remoteData: {} })).toBe(true);
    expect(await stillExists(ctx, thread(gone!))).toBe(false);
    // A thread stored without its conversation: the listing decides.
    expect(await stillExists(ctx, { objectType: 'ticketing.comment', remoteId: 'orphan', remoteData: {} })).toBe(false);
    expect(sim.requests.slice(before).map((r) => r.path)).toEqual([`/v2/conversations/${kept}`, `/v2/conversations/${gone}`]);
  });

  it('turns threads into comments: notes private, customer threads from contacts, line items left out; each page lists its conversations\' threads in full', async () => {
    const { adapter, ctx, seed } = await setup();
    const batches = await collect(syncerOf(adapter, 'ticketing.ticket'), ctx);
    const comments = of(batches, 'ticketing.comment');
    expect(comments.map((c) => [c.data.body, c.data.is_private, c.data.creator_type])).toEqual([
      ['It has been two weeks.', false, 'CONTACT'],
      ['Checking with the warehouse.', false, 'USER'],
      ['Carrier lost it.', true, 'USER'],
    ]);
    expect(of(batches, 'ticketing.attachment').map((a) => a.data.file_name)).toEqual(['label.txt']);
    const ticket = of(batches, 'ticketing.ticket')[0]!;
    expect(ticket.data).toMatchObject({ description: ['It has been two weeks.'], tags: ['billing'], status: 'OPEN', project_id: ctx.ids('ticketing.collection', seed.mailbox) });
    expect(batches[0]!.completeChildren).toEqual({ objectType: 'ticketing.comment', parents: [{ objectType: 'ticketing.ticket', remoteId: String(seed.conversation) }] });
  });

  it('lists spam conversations too (status=all leaves them out), in the sync and in the deletion check', async () => {
    const { sim, adapter, ctx } = await setup();
    const bulk = sim.seedConversations(3);
    sim.updateConversationRemotely(bulk[1]!, { status: 'spam' });
    const s = syncerOf(adapter, 'ticketing.ticket');
    const batches = await collect(s, ctx);
    expect(of(batches, 'ticketing.ticket').find((r) => r.remoteId === String(bulk[1]))?.data.status).toBe('CLOSED');
    const listed: string[] = [];
    for await (const b of s.deletionCheck!.listIds(ctx, {})) listed.push(...b.remoteIds);
    expect(listed.sort()).toEqual([...sim.conversations.keys()].map(String).sort());
  });

  it('reads only conversations modified since an incremental run\'s start', async () => {
    const { sim, adapter, ctx } = await setup();
    const bulk = sim.seedConversations(4);
    sim.clock.advance(10_000);
    const since = new Date(sim.clock.now());
    sim.clock.advance(2_000);
    sim.updateConversationRemotely(bulk[2]!, { status: 'pending' });
    const batches = await collect(syncerOf(adapter, 'ticketing.ticket'), ctx, { since });
    expect(of(batches, 'ticketing.ticket').map((r) => [r.remoteId, r.data.status])).toEqual([[String(bulk[2]), 'ON_HOLD']]);
  });
});

describe('helpscout adapter: writes', () => {
  it('updates subject, status, assignee and tags in one call each, then answers the conversation', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const before = sim.requests.length;
    const { record } = await adapter.ticketing!.updateTicket(ctx, String(seed.conversation), { name: 'Renamed', status: 'CLOSED', assigned_to: [], tags: ['vip'] });
    expect(record.data).toMatchObject({ name: 'Renamed', status: 'CLOSED', assigned_to: [], tags: ['vip'], completed_at: expect.any(String) });
    const writes = sim.requests.slice(before).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    expect(writes).toEqual([
      `PATCH /v2/conversations/${seed.conversation}`,
      `PATCH /v2/conversations/${seed.conversation}`,
      `PATCH /v2/conversations/${seed.conversation}`,
      `PUT /v2/conversations/${seed.conversation}/tags`,
    ]);
  });

  it('writes a customer thread for a contact and a note with files; refuses a private comment from a contact', async () => {
    const { adapter, ctx, seed } = await setup();
    const fromCustomer = await adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.conversation), body: 'Any news?', contact_id: String(seed.casey), files: [] });
    expect(fromCustomer.record.data).toMatchObject({ creator_type: 'CONTACT', contact_id: ctx.ids('ticketing.contact', seed.casey), is_private: false });
    const files = [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('A') }];
    const note = await adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.conversation), body: 'internal', is_private: true, user_id: String(seed.sam), files });
    expect(note.record.data).toMatchObject({ is_private: true, creator_type: 'USER', user_id: ctx.ids('ticketing.user', seed.sam) });
    expect(note.related!.map((a) => a.data.file_name)).toEqual(['a.txt']);
    const err = await failure(adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.conversation), body: 'x', contact_id: String(seed.casey), is_private: true, files: [] }));
    expect(err.details.field).toBe('is_private');
  });

  it('refuses what Help Scout cannot take with 422 naming the field, before any write', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const before = sim.requests.length;
    const base = { name: 'x', project_id: String(seed.mailbox) };
    for (const [input, field] of [
      [{ ...base, priority: 'HIGH' }, 'priority'],
      [{ ...base, due_date: '2030-01-01T00:00:00Z' }, 'due_date'],
      [{ ...base, account_id: '5' }, 'account_id'],
      [{ ...base, status: 'IN_PROGRESS' }, 'status'],
      [{ ...base, type: 'sms' }, 'type'],
      [{ name: 'no mailbox' }, 'project_id'],
    ] as const) {
      const err = await failure(adapter.ticketing!.createTicket(ctx, input as never));
      expect(err.code, field).toBe('unsupported_by_provider');
      expect(err.details.field).toBe(field);
    }
    expect((await failure(adapter.ticketing!.updateTicket(ctx, String(seed.conversation), { description: ['new'] }))).details.field).toBe('description');
    expect(sim.requests.slice(before)).toEqual([]);
  });
});
