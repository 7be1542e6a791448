/**
 * ClickUp's Get Filtered Team Tasks (`GET /v2/team/{id}/task`) answers pages of 100 by number (`page`,
 * from 0), ordered by `order_by` (`created` by default) and `reverse` (API v2 reference,
 * GetFilteredTeamTasks). A task deleted while an incremental run pages moves every later task back a
 * place: by page number, the one moved onto the page already read would be skipped until a full run. The
 * walk goes on from the creation time of the last task read instead. Through the sync engine, on the test
 * database (PGlite or PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickUpAdapter } from '../../../src/providers/clickup';
import { ProviderRegistry } from '../../../src/providers/registry';
import { startTestServer, type TestServer } from '../../support/harness';
import { startClickUpSimulator, type ClickUpSimulator } from '../../simulators/clickup';

let server: TestServer;
let sim: ClickUpSimulator;
let connectionId: string;

beforeAll(async () => {
  sim = await startClickUpSimulator({ rateLimit: { perMinute: 100_000 } });
  server = await startTestServer({ providers: new ProviderRegistry([createClickUpAdapter()]), work: false });
  const res = await server.call('POST', '/connections', { body: { provider: 'clickup', linked_user_origin_id: 'tasks-walk', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url } });
  expect(res.status).toBe(201);
  connectionId = res.body.data.id_connection;
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const names = async () =>
  new Map(
    (await server.sql(`select remote_id, data->>'name' as name from unified_objects where connection_id = $1 and object_type = 'ticketing.ticket'`, [connectionId])).map((r) => [
      String(r.remote_id),
      String(r.name),
    ]),
  );
const listings = () => sim.requests.filter((r) => r.method === 'GET' && /^\/v2\/team\/\d+\/task$/.test(r.path));

describe('clickup tasks: a task deleted while an incremental run pages', () => {
  it('makes the run skip no changed task, at one listing call per 100 tasks', async () => {
    const made = sim.seedTasks(250);
    const { sync } = server.omniport.services;
    sim.requests.length = 0;
    expect(await sync.run(connectionId, 'ticketing.ticket')).toMatchObject({ outcome: 'done', mode: 'full', markedDeleted: 0 });
    expect(listings()).toHaveLength(3);
    expect((await names()).size).toBeGreaterThanOrEqual(250);

    // 150 tasks change (oldest first: a full page and half of the next); the oldest is deleted once the
    // first page of changes has been read.
    const changed = made.slice(0, 150);
    for (const id of changed) sim.updateTaskRemotely(id, { name: `Changed ${id}` });
    let listed = 0;
    const fault = sim.faults.add({ method: 'GET', path: /^\/v2\/team\/\d+\/task$/, when: () => ++listed === 2, before: () => sim.deleteTaskRemotely(made[0]!) });
    sim.requests.length = 0;
    const run = await sync.run(connectionId, 'ticketing.ticket');
    expect(fault.hits).toBe(1);
    expect(run).toMatchObject({ outcome: 'done', mode: 'incremental' });
    const stored = await names();
    expect(changed.slice(1).filter((id) => stored.get(id) !== `Changed ${id}`)).toEqual([]);
    expect(listings()).toHaveLength(2);
    // Each page asks for what was created after the last task read, oldest first: the deletion moves nothing.
    expect(listings()[1]!.query).toMatchObject({ page: '0', order_by: 'created', reverse: 'true' });
    expect(listings()[1]!.query.date_created_gt).toBeDefined();
    expect(sim.specViolations).toEqual([]);
  });

  it('goes on after an interruption from the saved position, still skipping nothing', async () => {
    const { sync } = server.omniport.services;
    const tasks = [...sim.tasks.values()].sort((a, b) => a.createdAt - b.createdAt).map((t) => t.id);
    for (const id of tasks.slice(0, 150)) sim.updateTaskRemotely(id, { name: `Again ${id}` });
    sim.requests.length = 0;
    // The run stops after its first page (its deadline passed), a task is deleted, then the run is continued.
    expect(await sync.run(connectionId, 'ticketing.ticket', { deadline: Date.now() - 1 })).toMatchObject({ outcome: 'continued', mode: 'incremental' });
    sim.deleteTaskRemotely(tasks[0]!);
    expect(await sync.run(connectionId, 'ticketing.ticket')).toMatchObject({ outcome: 'done', mode: 'incremental' });
    const stored = await names();
    expect(tasks.slice(1, 150).filter((id) => stored.get(id) !== `Again ${id}`)).toEqual([]);
    // The continued run asked from the saved position (the stopped run may have read its next page ahead).
    expect(listings().at(-1)!.query.date_created_gt).toBeDefined();
  });
});
