import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../../src/store/database';
import { ControlPlaneRepo } from '../../src/store/control-plane.repo';
import { UnifiedRepo, type UnifiedInsert } from '../../src/store/unified.repo';
import { freshDatabase } from '../support/harness';

let handle: DatabaseHandle;
let drop: () => Promise<void>;
let repo: UnifiedRepo;
let connection: { id: string; projectId: string };

beforeAll(async () => {
  const db = await freshDatabase();
  drop = db.drop;
  handle = await openDatabase(db.target);
  await migrateDatabase(db.target, handle);
  const cp = new ControlPlaneRepo(handle.db);
  const project = await cp.insertProject({ name: 'p' });
  const lu = (await cp.insertLinkedUserIfNew({ projectId: project.id, originId: 'x' }))!;
  const c = await cp.insertConnection({
    projectId: project.id,
    linkedUserId: lu.id,
    provider: 'zendesk',
    vertical: 'ticketing',
    tokenHash: randomUUID(),
    tokenEncrypted: 'x',
    credentialsEncrypted: 'x',
  });
  connection = { id: c.id, projectId: project.id };
  repo = new UnifiedRepo(handle.db);
});
afterAll(async () => {
  await handle.close();
  await drop();
});

const row = (remoteId: string, runId: string | null, data: Record<string, unknown> = {}): UnifiedInsert => ({
  id: randomUUID(),
  projectId: connection.projectId,
  connectionId: connection.id,
  objectType: 'ticketing.ticket',
  remoteId,
  parentId: null,
  data,
  remoteData: { id: remoteId },
  remoteCreatedAt: new Date('2026-01-01T00:00:00Z'),
  remoteUpdatedAt: null,
  remoteWasDeleted: false,
  lastSeenRun: runId,
});

describe('unified store', () => {
  it('updates in place: same row, new data, remote times kept when the update has none', async () => {
    await repo.upsert([row('1', null, { name: 'a' })]);
    const [before] = await repo.findMany(connection.id, (await handle.executeSql('select id from unified_objects')).rows.map((r) => r.id as string));
    await repo.upsert([{ ...row('1', null, { name: 'b' }), id: before!.id, remoteCreatedAt: null }]);
    const [after] = await repo.findMany(connection.id, [before!.id]);
    expect(after).toMatchObject({ id: before!.id, seq: before!.seq, data: { name: 'b' } });
    expect(after!.remoteCreatedAt?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('keeps the last copy when a page lists an object twice', async () => {
    await repo.upsert([row('2', null, { v: 1 }), row('2', null, { v: 2 })]);
    const rows = (await handle.executeSql(`select data from unified_objects where remote_id = '2'`)).rows;
    expect(rows).toEqual([{ data: { v: 2 } }]);
  });

  it('marks unseen objects deleted after a full run, but not those written after the run started', async () => {
    const runId = randomUUID();
    const runStartedAt = new Date();
    await new Promise((r) => setTimeout(r, 20));
    await repo.upsert([row('seen', runId), row('created-during-the-run', null)]);
    const marked = await repo.markUnseenDeleted(connection.id, ['ticketing.ticket'], runId, runStartedAt);
    // '1' and '2' were written before the run and not seen by it: gone from the provider.
    expect(marked).toBe(2);
    const deleted = (await handle.executeSql(`select remote_id from unified_objects where remote_was_deleted order by remote_id`)).rows;
    expect(deleted.map((r) => r.remote_id)).toEqual(['1', '2']);
  });
});
