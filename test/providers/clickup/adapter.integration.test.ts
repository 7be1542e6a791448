/**
 * The ClickUp adapter driven directly against the ClickUp simulator (no server, no database): the hierarchy
 * as collections, tasks to the last page and incrementally with date_updated_gt, comments past their first
 * page of 25, statuses by the list's status types, priorities, drop-down custom fields, and refusals before
 * any call. Requests and answers are checked against ClickUp's own reference where it is present.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { clickupErrorMessage, createClickUpAdapter } from '../../../src/providers/clickup';
import type { AdapterContext, ObjectSyncer, SyncOptions } from '../../../src/providers/types';
import { startClickUpSimulator, type ClickUpSimulator } from '../../simulators/clickup';
import { closeCheckingTraffic, collect, simulatorContext, syncerOf } from '../../support/adapter-context';

const ids = idFactory('conn-1');
let sim: ClickUpSimulator | undefined;
let n = 0;

afterEach(async () => {
  if (!sim) return;
  const closing = sim;
  sim = undefined;
  await closeCheckingTraffic(closing, "ClickUp's reference");
});

async function setup() {
  sim = await startClickUpSimulator({ rateLimit: { perMinute: 100_000 } });
  const adapter = createClickUpAdapter();
  const credentials = { access_token: sim.tokens[0]! };
  const connectionId = `conn-clickup-${++n}`;
  const ctx = simulatorContext(adapter, { connectionId, baseUrl: sim.url, credentials });
  return { sim, adapter, ctx, seed: sim.seed! };
}
const syncer = syncerOf;
async function records(s: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}) {
  return (await collect(s, ctx, opts)).flatMap((b) => b.records);
}

describe('clickup adapter', () => {
  it('reads the hierarchy as collections with parents, tasks to the last page, then only tasks updated since', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const collections = await records(syncer(adapter, 'ticketing.collection'), ctx);
    const byRemote = new Map(collections.map((c) => [c.remoteId, c]));
    expect(byRemote.get(`list:${seed.list}`)!.data).toMatchObject({ collection_type: 'LIST', parent_id: ids('ticketing.collection', `folder:${seed.folder}`) });
    expect(byRemote.get(`list:${seed.looseList}`)!.data).toMatchObject({ parent_id: ids('ticketing.collection', `space:${seed.space}`) });
    expect(byRemote.get(`folder:${seed.folder}`)!.data).toMatchObject({ collection_type: 'FOLDER', parent_id: ids('ticketing.collection', `space:${seed.space}`) });

    const bulk = sim.seedTasks(150);
    const tickets = syncer(adapter, 'ticketing.ticket');
    const full = await records(tickets, ctx);
    expect(full).toHaveLength(151);
    const seeded = full.find((r) => r.remoteId === seed.task)!;
    expect(seeded.data).toMatchObject({ priority: 'HIGH', status: 'OPEN', tags: ['bug'], assigned_to: [ids('ticketing.user', seed.robin)], project_id: ids('ticketing.collection', `list:${seed.list}`) });

    const since = new Date(sim.clock.now());
    sim.updateTaskRemotely(bulk[3]!, { name: 'renamed' });
    expect((await records(tickets, ctx, { since })).map((r) => [r.remoteId, r.data.name])).toEqual([[bulk[3], 'renamed']]);
  });

  it('reads every comment of a task past the first page of 25, and the task\'s attachments', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    for (let i = 0; i < 30; i++) await adapter.ticketing!.createComment(ctx, { ticket_id: seed.task, body: `note ${i}`, files: [] });
    await adapter.ticketing!.createComment(ctx, { ticket_id: seed.task, body: 'with a file', user_id: String(seed.me), files: [{ fileName: 'log.txt', contentType: 'text/plain', content: Buffer.from('x') }] });
    const out = await records(syncer(adapter, 'ticketing.comment'), ctx);
    expect(out.filter((r) => r.objectType === 'ticketing.comment')).toHaveLength(32);
    expect(out.filter((r) => r.objectType === 'ticketing.attachment').map((r) => r.data.file_name)).toEqual(['log.txt']);
    expect(sim.comments.size).toBe(32);
  });

  it('writes statuses by the list\'s status types, priorities and drop-down values by name; refuses before any call what a task cannot hold', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const created = await adapter.ticketing!.createTicket(ctx, { name: 'Gold', project_id: `list:${seed.list}`, status: 'IN_PROGRESS', priority: 'URGENT', customFields: [{ remoteFieldId: seed.tierField, value: 'Gold' }] });
    expect(created.record.data).toMatchObject({ status: 'IN_PROGRESS', priority: 'URGENT' });
    expect(adapter.customFields!.read('ticketing.ticket', created.record.remoteData, seed.tierField)).toBe('Gold');
    const closed = await adapter.ticketing!.updateTicket(ctx, created.record.remoteId, { status: 'CLOSED', assigned_to: [seed.robin], tags: ['vip'] });
    expect(closed.record.data).toMatchObject({ status: 'CLOSED', assigned_to: [ids('ticketing.user', seed.robin)], tags: ['vip'] });
    expect(closed.record.data.completed_at).toBeTruthy();

    const before = sim.requests.length;
    const refusals: Array<[string, Promise<unknown>]> = [
      ['project_id', adapter.ticketing!.createTicket(ctx, { name: 'x' })],
      ['project_id', adapter.ticketing!.createTicket(ctx, { name: 'x', project_id: `folder:${seed.folder}` })],
      ['contact_id', adapter.ticketing!.createTicket(ctx, { name: 'x', project_id: `list:${seed.list}`, contact_id: '1' })],
      ['is_private', adapter.ticketing!.createComment(ctx, { ticket_id: seed.task, body: 'x', is_private: true, files: [] })],
    ];
    for (const [field, p] of refusals) {
      const e = await p.then(() => undefined, (x: unknown) => x);
      expect(e, field).toBeInstanceOf(AppError);
      expect((e as AppError).details.field, field).toBe(field);
    }
    expect(sim.requests.length, 'no call for a refused write').toBe(before);
    const onHold = await adapter.ticketing!.updateTicket(ctx, seed.task, { status: 'ON_HOLD' }).then(() => undefined, (x: unknown) => x);
    expect((onHold as AppError).details.field).toBe('status');
    expect(clickupErrorMessage({ err: 'Task not found, deleted', ECODE: 'ITEM_013' })).toBe('Task not found, deleted (ITEM_013)');
  });
});
