/**
 * The Asana adapter driven directly against the Asana simulator (no server, no database): a full run takes
 * each project's sync token, incremental runs read the events from the saved tokens (more than one page of
 * events, deletions by id, a token Asana calls too old, a new project), comments with files, tags by name,
 * custom fields by type, and refusals before any call. Requests and answers are checked against Asana's own
 * description where it is present.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { asanaErrorMessage, createAsanaAdapter } from '../../../src/providers/asana';
import { digest } from '../../../src/providers/asana/sync';
import type { AdapterContext, ObjectSyncer, SyncOptions } from '../../../src/providers/types';
import { startAsanaSimulator, type AsanaSimulator } from '../../simulators/asana';
import { closeCheckingTraffic, collect, simulatorContext, syncerOf } from '../../support/adapter-context';

const ids = idFactory('conn-1');
let sim: AsanaSimulator | undefined;
let n = 0;

afterEach(async () => {
  if (!sim) return;
  const closing = sim;
  sim = undefined;
  await closeCheckingTraffic(closing, "Asana's description");
});

async function setup() {
  sim = await startAsanaSimulator({ rateLimit: { perMinute: 100_000 } });
  const adapter = createAsanaAdapter({ pageSize: 2 });
  const credentials = { access_token: sim.tokens[0]! };
  const connectionId = `conn-asana-${++n}`;
  const ctx = simulatorContext(adapter, { connectionId, baseUrl: sim.url, credentials });
  return { sim, adapter, ctx, seed: sim.seed! };
}
const syncer = syncerOf;
/** A run's records, deletions and the cursor the engine would save (the last one given). */
async function run(s: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}) {
  const batches = await collect(s, ctx, opts);
  return {
    records: batches.flatMap((b) => b.records),
    deleted: batches.flatMap((b) => b.deleted ?? []).map((d) => d.remoteId),
    cursor: batches.map((b) => b.cursor).filter((c) => c !== undefined).pop(),
  };
}

describe('asana adapter', () => {
  it('syncs in full with a token per project, then only what the events name: changes, more than one page of events, deletions, a token too old, a new project', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const tickets = syncer(adapter, 'ticketing.ticket');
    const bulk = sim.seedTasks(3, { project: seed.backlog });
    const full = await run(tickets, ctx);
    expect(full.records.map((r) => r.remoteId).sort()).toEqual([seed.task, ...bulk].sort());
    expect(Object.keys(JSON.parse(full.cursor!)).sort()).toEqual([seed.support, seed.backlog].sort());

    const since = new Date();
    sim.updateTaskRemotely(bulk[0]!, { name: 'renamed' });
    for (let i = 0; i < 120; i++) sim.updateTaskRemotely(bulk[1]!, { name: `busy ${i}` }); // 121 events: two pages
    sim.deleteTaskRemotely(bulk[2]!);
    const inc = await run(tickets, ctx, { since, cursor: full.cursor });
    // A task named on both pages of events is read on each (the store keeps the last).
    const lastOf = new Map(inc.records.map((r) => [r.remoteId, r.data.name]));
    expect([...lastOf].sort()).toEqual([[bulk[0], 'renamed'], [bulk[1], 'busy 119']].sort());
    expect(inc.deleted).toEqual([bulk[2]]);

    // Nothing happened since: nothing is read again.
    const quiet = await run(tickets, ctx, { since, cursor: inc.cursor });
    expect(quiet.records).toEqual([]);

    // Tokens too old: each project is listed in full again, from fresh tokens.
    sim.expireSyncTokens();
    const relisted = await run(tickets, ctx, { since, cursor: quiet.cursor });
    expect(relisted.records.map((r) => r.remoteId).sort()).toEqual([seed.task, bulk[0], bulk[1]].sort());
    const after = await run(tickets, ctx, { since, cursor: relisted.cursor });
    expect(after.records).toEqual([]);

    // A project without a token yet (created since) is listed in full; the others only read their events.
    const fresh = sim.addProjectRemotely('Escalations');
    const [escalated] = sim.seedTasks(1, { project: fresh });
    const withNew = await run(tickets, ctx, { since, cursor: after.cursor });
    expect(withNew.records.map((r) => r.remoteId)).toEqual([escalated]);
    expect(Object.keys(JSON.parse(withNew.cursor!))).toContain(fresh);
  });

  it('reads comment stories (not system stories) and attachments; each changed task\'s comments come as its complete list', async () => {
    const { adapter, ctx, seed } = await setup();
    const comments = syncer(adapter, 'ticketing.comment');
    const full = await collect(comments, ctx);
    const records = full.flatMap((b) => b.records);
    expect(records.filter((r) => r.objectType === 'ticketing.comment').map((r) => r.data.body)).toEqual(['Any news?']);
    expect(full.flatMap((b) => b.completeChildren?.parents ?? []).map((p) => p.remoteId)).toContain(seed.task);
    const cursor = full.map((b) => b.cursor).filter(Boolean).pop();

    const since = new Date();
    const file = { fileName: 'notes.txt', contentType: 'text/plain', content: Buffer.from('hello') };
    const written = await adapter.ticketing!.createComment(ctx, { ticket_id: seed.task, body: 'On it', user_id: seed.me, files: [file] });
    expect(written.record.data).toMatchObject({ body: 'On it', is_private: false, attachments: [ids('ticketing.attachment', written.related![0]!.remoteId)] });
    expect(written.related!.map((a) => a.data)).toEqual([expect.objectContaining({ file_name: 'notes.txt', comment_id: ids('ticketing.comment', written.record.remoteId) })]);
    const inc = (await collect(comments, ctx, { since, cursor })).flatMap((b) => b.records);
    expect(inc.filter((r) => r.objectType === 'ticketing.comment').map((r) => r.data.body)).toEqual(['Any news?', 'On it']);
    expect(inc.filter((r) => r.objectType === 'ticketing.attachment').map((r) => r.data.file_name)).toEqual(['notes.txt']);
  });

  it('writes tags by name (creating missing ones), status as completion, custom fields by type; refuses before any call what a task cannot hold', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const created = await adapter.ticketing!.createTicket(ctx, {
      name: 'Gold customer', project_id: seed.support, tags: ['bug', 'vip'], status: 'CLOSED', due_date: '2030-01-15T10:00:00.000Z',
      customFields: [{ remoteFieldId: seed.tierField, value: 'Gold' }], comment: ['first'],
    });
    expect(created.record.data).toMatchObject({ tags: ['bug', 'vip'], status: 'CLOSED', due_date: '2030-01-15T10:00:00.000Z', project_id: ids('ticketing.collection', seed.support) });
    expect(sim.tasks.get(created.record.remoteId)!.fields[seed.tierField], 'the option\'s gid is written').toMatch(/^\d+$/);
    expect(adapter.customFields!.read('ticketing.ticket', created.record.remoteData, seed.tierField)).toBe('Gold');
    expect(created.related!.map((r) => r.data.body)).toEqual(['first']);

    const updated = await adapter.ticketing!.updateTicket(ctx, created.record.remoteId, { tags: ['vip', 'new'], status: 'OPEN' });
    expect(updated.record.data).toMatchObject({ tags: ['vip', 'new'], status: 'OPEN' });

    const before = sim.requests.length;
    const refusals: Array<[string, Promise<unknown>]> = [
      ['status', adapter.ticketing!.createTicket(ctx, { name: 'x', project_id: seed.support, status: 'ON_HOLD' })],
      ['project_id', adapter.ticketing!.createTicket(ctx, { name: 'x' })],
      ['priority', adapter.ticketing!.updateTicket(ctx, seed.task, { priority: 'HIGH' })],
      ['assigned_to', adapter.ticketing!.updateTicket(ctx, seed.task, { assigned_to: [seed.me, seed.robin] })],
      ['is_private', adapter.ticketing!.createComment(ctx, { ticket_id: seed.task, body: 'x', is_private: true, files: [] })],
    ];
    for (const [field, p] of refusals) {
      const e = await p.then(() => undefined, (x: unknown) => x);
      expect(e, field).toBeInstanceOf(AppError);
      expect((e as AppError).details.field, field).toBe(field);
    }
    expect(sim.requests.length, 'no call for a refused write').toBe(before);
    const other = await adapter.ticketing!.createComment(ctx, { ticket_id: seed.task, body: 'x', user_id: seed.robin, files: [] }).then(() => undefined, (x: unknown) => x);
    expect((other as AppError).details.field).toBe('user_id');
  });

  it('creates a batch through the Batch API, 10 tasks a request: an element refused before any call or by Asana fails alone', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const inputs = Array.from({ length: 12 }, (_, i) => ({ name: `batch ${i}`, project_id: seed.support, comment: i === 0 ? ['first!'] : [] }));
    inputs[3] = { ...inputs[3]!, status: 'ON_HOLD' } as (typeof inputs)[number];
    inputs[11] = { ...inputs[11]!, assigned_to: ['999'] } as (typeof inputs)[number];
    const results = await adapter.ticketing!.createTickets!(ctx, inputs);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false, true, true, true, true, true, true, true, false]);
    const errorOf = (i: number) => (results[i] as { ok: false; error: Error }).error as AppError;
    expect(errorOf(3).details.field).toBe('status');
    expect(errorOf(11).details).toMatchObject({ provider_status: 400 });
    const first = results[0] as { ok: true; result: { record: { data: Record<string, unknown> }; related?: Array<{ data: Record<string, unknown> }> } };
    expect(first.result.record.data.name).toBe('batch 0');
    expect(first.result.related!.map((r) => r.data.body)).toEqual(['first!']);
    expect(sim.requests.filter((r) => r.path === '/batch')).toHaveLength(2);
  });

  it('reads the events\' meaning: the last event of a task decides, stories name their task', () => {
    const task = (gid: string) => ({ gid, resource_type: 'task' });
    expect(
      digest([
        { action: 'changed', resource: task('1'), parent: null },
        { action: 'deleted', resource: task('1'), parent: null },
        { action: 'added', resource: task('2'), parent: { gid: '9', resource_type: 'project' } },
        { action: 'added', resource: { gid: '5', resource_type: 'story' }, parent: task('3') },
        { action: 'deleted', resource: task('4'), parent: null },
        { action: 'undeleted', resource: task('4'), parent: null },
      ]),
    ).toEqual({ changed: ['2', '3', '4'], deleted: ['1'] });
    expect(asanaErrorMessage({ errors: [{ message: 'project: Missing input' }, { message: 'x' }] })).toBe('project: Missing input (and 1 more)');
  });
});
