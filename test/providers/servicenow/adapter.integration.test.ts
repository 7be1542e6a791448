/**
 * The ServiceNow adapter driven directly (no Omniport server, no database) against the ServiceNow simulator: the
 * incident walk that an update made while it pages cannot make skip a record, resume positions, deletions from
 * sys_audit_delete (and without read access to it), and the writes' mappings and refusals. Every request must stay
 * within what the transcribed REST API contract documents.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectRequestsDocumented } from '../../contracts/contract';
import { contract } from '../../contracts/servicenow.contract';
import { AppError } from '../../../src/core/errors';
import { createServiceNowAdapter } from '../../../src/providers/servicenow';
import type { SyncBatch } from '../../../src/providers/types';
import { collect, simulatorContext, syncerOf } from '../../support/adapter-context';
import { startServiceNowSimulator, type ServiceNowSimulator, type ServiceNowSimulatorOptions } from '../../simulators/servicenow';

let sim: ServiceNowSimulator | undefined;
let n = 0;

afterEach(async () => {
  if (!sim) return;
  const violations = sim.contractViolations;
  const requests = [...sim.requests];
  await sim.close();
  sim = undefined;
  expect(violations, 'requests outside the ServiceNow contract').toEqual([]);
  expectRequestsDocumented(contract, requests);
});

async function setup(o: ServiceNowSimulatorOptions = {}) {
  sim = await startServiceNowSimulator(o);
  const adapter = createServiceNowAdapter({ pageSize: 2 });
  const ctx = simulatorContext(adapter, { connectionId: `conn-sn-${++n}`, baseUrl: sim.url, credentials: sim.credentials });
  return { sim, adapter, ctx, seed: sim.seed! };
}

const idsOf = (batches: SyncBatch[], type: string) => batches.flatMap((b) => b.records).filter((r) => r.objectType === type).map((r) => r.remoteId);
async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('servicenow adapter: sync', () => {
  it('reads every incident when one is updated while the walk pages (it moves to the end, nothing shifts)', async () => {
    const { sim, adapter, ctx } = await setup();
    const bulk = sim.seedIncidents(7);
    // When the second page is asked for, the first incident changes (in a plain offset walk, the next one would be skipped).
    sim.faults.add({ path: '/api/now/table/incident', times: 1, when: (req) => !String(req.query.get('sysparm_query')).includes('1970-01-01'), before: () => void sim.updateIncidentRemotely(bulk[0]!, { short_description: 'changed mid-walk' }) });
    const batches = await collect(syncerOf(adapter, 'ticketing.ticket'), ctx);
    const seen = idsOf(batches, 'ticketing.ticket');
    expect(new Set(seen)).toEqual(new Set([...sim.state.table('incident').keys()]));
    expect(batches.flatMap((b) => b.records).find((r) => r.remoteId === bulk[0] && r.data.name === 'changed mid-walk')).toBeDefined();
  });

  it('resumes a walk from a batch\'s position, and reads only changes in an incremental run', async () => {
    const { sim, adapter, ctx } = await setup();
    sim.seedIncidents(5);
    const all = await collect(syncerOf(adapter, 'ticketing.ticket'), ctx);
    const resumed = await collect(syncerOf(adapter, 'ticketing.ticket'), ctx, { resume: all[1]!.resume! });
    expect(idsOf(resumed, 'ticketing.ticket')).toEqual(idsOf(all.slice(2), 'ticketing.ticket'));
    const since = new Date(sim.clock.now() - 1000);
    const changed = [...sim.state.table('incident').keys()][2]!;
    sim.clock.advance(5_000);
    sim.updateIncidentRemotely(changed, { short_description: 'later' });
    const inc = await collect(syncerOf(adapter, 'ticketing.ticket'), ctx, { since: new Date(since.getTime() + 2_000) });
    expect(idsOf(inc, 'ticketing.ticket')).toEqual([changed]);
  });

  it('reports incidents deleted since the run\'s start from sys_audit_delete', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const since = new Date(sim.clock.now() - 1000);
    sim.deleteIncidentRemotely(seed.incident);
    const batches = await collect(syncerOf(adapter, 'ticketing.ticket'), ctx, { since });
    expect(batches.flatMap((b) => b.deleted ?? [])).toEqual([{ objectType: 'ticketing.ticket', remoteId: seed.incident }]);
  });

  it('goes on without deletions where sys_audit_delete is not readable; the deletion check lists the ids', async () => {
    const { sim, adapter, ctx, seed } = await setup({ denyAuditDelete: true });
    const other = sim.seedIncidents(3);
    sim.deleteIncidentRemotely(seed.incident);
    const s = syncerOf(adapter, 'ticketing.ticket');
    const batches = await collect(s, ctx);
    expect(batches.flatMap((b) => b.deleted ?? [])).toEqual([]);
    const listed: string[] = [];
    for await (const b of s.deletionCheck!.listIds(ctx, {})) listed.push(...b.remoteIds);
    expect(listed.sort()).toEqual([...other].sort());
  });

  it('syncs users as users and contacts with their groups, and journal entries with their authors', async () => {
    const { adapter, ctx, seed } = await setup();
    const users = await collect(syncerOf(adapter, 'ticketing.user'), ctx);
    const beth = users.flatMap((b) => b.records).filter((r) => r.remoteId === seed.beth);
    expect(beth.map((r) => r.objectType).sort()).toEqual(['ticketing.contact', 'ticketing.user']);
    expect(beth.find((r) => r.objectType === 'ticketing.user')!.data.teams).toEqual([ctx.ids('ticketing.team', seed.group)]);
    const comments = (await collect(syncerOf(adapter, 'ticketing.comment'), ctx)).flatMap((b) => b.records);
    expect(comments.filter((r) => r.objectType === 'ticketing.comment').map((r) => [r.data.body, r.data.is_private, r.data.user_id])).toEqual([
      ['We are looking into it.', false, ctx.ids('ticketing.user', seed.beth)],
      ['Restarting the exchange node.', true, ctx.ids('ticketing.user', seed.beth)],
    ]);
    expect(comments.filter((r) => r.objectType === 'ticketing.attachment').map((r) => r.data.file_name)).toEqual(['trace.log']);
  });
});

describe('servicenow adapter: writes', () => {
  it('writes priority as impact and urgency, CLOSED with the resolution fields, ON_HOLD with its reason', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const { record } = await adapter.ticketing!.createTicket(ctx, { name: 'VPN down', description: ['One', 'Two'], priority: 'HIGH', contact_id: seed.fred });
    expect(sim.incident(record.remoteId)).toMatchObject({ impact: '1', urgency: '2', priority: '2', caller_id: seed.fred, description: 'One\n\nTwo' });
    expect(record.data).toMatchObject({ priority: 'HIGH', status: 'OPEN', description: ['One', 'Two'] });
    const held = await adapter.ticketing!.updateTicket(ctx, record.remoteId, { status: 'ON_HOLD' });
    expect(held.record.data.status).toBe('ON_HOLD');
    expect(sim.incident(record.remoteId)).toMatchObject({ state: '3', hold_reason: '1' });
    const closed = await adapter.ticketing!.updateTicket(ctx, record.remoteId, { status: 'CLOSED' });
    expect(closed.record.data).toMatchObject({ status: 'CLOSED', completed_at: expect.any(String) });
    expect(sim.incident(record.remoteId)).toMatchObject({ state: '6', close_code: 'Solved (Permanently)' });
  });

  it('writes a private comment as a work note, with files uploaded to the incident', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const files = [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('A') }];
    const note = await adapter.ticketing!.createComment(ctx, { ticket_id: seed.incident, body: 'internal', is_private: true, files });
    expect(note.record.data).toMatchObject({ body: 'internal', is_private: true, user_id: ctx.ids('ticketing.user', seed.admin) });
    expect(note.related!.map((a) => [a.data.file_name, a.data.comment_id])).toEqual([['a.txt', ctx.ids('ticketing.comment', note.record.remoteId)]]);
    expect(sim.state.table('sys_journal_field').get(note.record.remoteId)).toMatchObject({ element: 'work_notes', value: 'internal', element_id: seed.incident });
  });

  it('refuses what ServiceNow cannot take with 422 naming the field, before any write', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const before = sim.requests.length;
    for (const [input, field] of [
      [{ name: 'x', tags: ['a'] }, 'tags'],
      [{ name: 'x', project_id: seed.group }, 'project_id'],
      [{ name: 'x', assigned_to: [seed.beth, seed.admin] }, 'assigned_to'],
    ] as const) {
      const err = await failure(adapter.ticketing!.createTicket(ctx, input as never));
      expect(err.code).toBe('unsupported_by_provider');
      expect(err.details).toMatchObject({ field, provider: 'servicenow' });
    }
    expect((await failure(adapter.ticketing!.createComment(ctx, { ticket_id: seed.incident, body: 'x', user_id: seed.beth, files: [] }))).details.field).toBe('user_id');
    expect((await failure(adapter.ticketing!.createComment(ctx, { ticket_id: seed.incident, body: 'x', contact_id: seed.fred, files: [] }))).details.field).toBe('contact_id');
    // Only the connection's own user may have been read; nothing was written.
    expect(sim.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
