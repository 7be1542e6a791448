import { and, eq, gte, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { badRequest } from '../core/errors';
import { recordFault, type Database } from './database';
import { syncStates, unifiedObjects, uploads, type SkippedRecord } from './schema';
import { keysetPage, whereAll, type PageRequest } from './pagination';

export type UnifiedRow = typeof unifiedObjects.$inferSelect;
export type UnifiedInsert = Omit<typeof unifiedObjects.$inferInsert, 'seq' | 'createdAt' | 'modifiedAt'>;
export type SyncStateRow = typeof syncStates.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;

export interface UnifiedListFilter {
  createdAfter?: Date;
  modifiedAfter?: Date;
  includeDeleted?: boolean;
  parentId?: string;
}

/** Rows per statement: a few MB of JSON at most. */
const UPSERT_CHUNK = 1000;

export class UnifiedRepo {
  constructor(private readonly db: Database) {}

  /**
   * Inserts or updates in place (the id never changes), one statement per chunk. The rows travel as one
   * JSON parameter expanded by jsonb_to_recordset: building a statement with thousands of parameters
   * costs far more than the write itself.
   */
  async upsert(rows: UnifiedInsert[]): Promise<void> {
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
      const chunk = dedupeLast(rows.slice(i, i + UPSERT_CHUNK)).map((r) => ({
        id: r.id,
        project_id: r.projectId,
        connection_id: r.connectionId,
        object_type: r.objectType,
        remote_id: r.remoteId,
        parent_id: r.parentId ?? null,
        data: r.data,
        remote_data: r.remoteData,
        remote_created_at: r.remoteCreatedAt ?? null,
        remote_updated_at: r.remoteUpdatedAt ?? null,
        remote_was_deleted: r.remoteWasDeleted ?? false,
        last_seen_run: r.lastSeenRun ?? null,
      }));
      await this.db.execute(sql`
        insert into unified_objects (id, project_id, connection_id, object_type, remote_id, parent_id, data, remote_data,
                                     remote_created_at, remote_updated_at, remote_was_deleted, last_seen_run)
        select id, project_id, connection_id, object_type, remote_id, parent_id, data, remote_data,
               remote_created_at, remote_updated_at, remote_was_deleted, last_seen_run
        from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as x(
          id uuid, project_id uuid, connection_id uuid, object_type text, remote_id text, parent_id uuid, data jsonb,
          remote_data jsonb, remote_created_at timestamptz, remote_updated_at timestamptz, remote_was_deleted boolean, last_seen_run uuid)
        on conflict (connection_id, object_type, remote_id) do update set
          parent_id = excluded.parent_id,
          data = excluded.data,
          remote_data = excluded.remote_data,
          remote_created_at = coalesce(excluded.remote_created_at, unified_objects.remote_created_at),
          remote_updated_at = coalesce(excluded.remote_updated_at, unified_objects.remote_updated_at),
          remote_was_deleted = excluded.remote_was_deleted,
          last_seen_run = coalesce(excluded.last_seen_run, unified_objects.last_seen_run),
          updated_at = date_trunc('milliseconds', now())`);
    }
  }

  /**
   * After a complete full run: objects of these types that the run did not see are gone from the
   * provider — except objects written after the run started (created through the API meanwhile).
   */
  async markUnseenDeleted(connectionId: string, objectTypes: string[], runId: string, runStartedAt: Date): Promise<number> {
    const rows = await this.db
      .update(unifiedObjects)
      .set({ remoteWasDeleted: true, modifiedAt: sql`date_trunc('milliseconds', now())` })
      .where(
        and(
          eq(unifiedObjects.connectionId, connectionId),
          inArray(unifiedObjects.objectType, objectTypes),
          eq(unifiedObjects.remoteWasDeleted, false),
          or(isNull(unifiedObjects.lastSeenRun), ne(unifiedObjects.lastSeenRun, runId)),
          lt(unifiedObjects.modifiedAt, runStartedAt),
        ),
      )
      .returning({ id: unifiedObjects.id });
    return rows.length;
  }

  list(connectionId: string, objectType: string, page: PageRequest, filter: UnifiedListFilter) {
    return keysetPage<UnifiedRow>({
      sortColumn: unifiedObjects.seq,
      idColumn: unifiedObjects.id,
      keyOf: (r) => [String(r.seq), r.id],
      parseSortValue: (v) => {
        const n = Number(v);
        if (!Number.isSafeInteger(n)) throw badRequest('cursor is not a cursor returned by this API', 'cursor');
        return n;
      },
      page,
      fetch: (cond, order, limit) =>
        this.db
          .select()
          .from(unifiedObjects)
          .where(
            whereAll(
              eq(unifiedObjects.connectionId, connectionId),
              eq(unifiedObjects.objectType, objectType),
              filter.includeDeleted ? undefined : eq(unifiedObjects.remoteWasDeleted, false),
              filter.parentId ? eq(unifiedObjects.parentId, filter.parentId) : undefined,
              filter.createdAfter ? gte(unifiedObjects.remoteCreatedAt, filter.createdAfter) : undefined,
              filter.modifiedAfter ? gte(unifiedObjects.remoteUpdatedAt, filter.modifiedAfter) : undefined,
              cond,
            ),
          )
          .orderBy(...order)
          .limit(limit),
    });
  }

  /** An object by id inside a project (calls by id need no connection token). */
  async findInProject(projectId: string, objectType: string, id: string): Promise<UnifiedRow | undefined> {
    const [row] = await this.db
      .select()
      .from(unifiedObjects)
      .where(and(eq(unifiedObjects.projectId, projectId), eq(unifiedObjects.objectType, objectType), eq(unifiedObjects.id, id)));
    return row;
  }

  /** Objects by id within one connection, in one query (reference translation, child expansion). */
  async findMany(connectionId: string, ids: string[]): Promise<UnifiedRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(unifiedObjects)
      .where(and(eq(unifiedObjects.connectionId, connectionId), inArray(unifiedObjects.id, ids)));
  }

  async getSyncState(connectionId: string, stream: string): Promise<SyncStateRow | undefined> {
    const [row] = await this.db
      .select()
      .from(syncStates)
      .where(and(eq(syncStates.connectionId, connectionId), eq(syncStates.stream, stream)));
    return row;
  }

  async listSyncStates(connectionId: string): Promise<SyncStateRow[]> {
    return this.db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId)).orderBy(syncStates.stream);
  }

  async saveSyncState(values: typeof syncStates.$inferInsert): Promise<void> {
    const { connectionId: _c, stream: _s, ...rest } = values;
    await this.db
      .insert(syncStates)
      .values(values)
      .onConflictDoUpdate({ target: [syncStates.connectionId, syncStates.stream], set: { ...rest, updatedAt: sql`date_trunc('milliseconds', now())` } });
  }

  /** Marks a running stream alive (its worker's heartbeat). */
  async heartbeat(connectionId: string, stream: string, runId: string): Promise<void> {
    await this.db
      .update(syncStates)
      .set({ updatedAt: sql`date_trunc('milliseconds', now())` })
      .where(and(eq(syncStates.connectionId, connectionId), eq(syncStates.stream, stream), eq(syncStates.runId, runId), eq(syncStates.status, 'running')));
  }

  /** Streams said to be running whose heartbeat is older than `staleAfterMs` (all running ones with 0). */
  async stalledStreams(staleAfterMs: number): Promise<{ connectionId: string; stream: string }[]> {
    return this.db
      .select({ connectionId: syncStates.connectionId, stream: syncStates.stream })
      .from(syncStates)
      .where(and(eq(syncStates.status, 'running'), lt(syncStates.updatedAt, sql`now() - make_interval(secs => ${staleAfterMs / 1000})`)));
  }

  /**
   * Saves a batch and the position after it in one transaction, so a crash never skips or loses a batch.
   * A batch the database refuses for its data is saved again record by record (a savepoint each): the
   * records it still refuses are returned, and `stateAfter` gets them so the position moves past them.
   */
  async saveBatch(rows: UnifiedInsert[], stateAfter: (skipped: SkippedRecord[]) => typeof syncStates.$inferInsert): Promise<SkippedRecord[]> {
    try {
      await this.db.transaction(async (tx) => {
        const repo = new UnifiedRepo(tx as unknown as Database);
        await repo.upsert(rows);
        await repo.saveSyncState(stateAfter([]));
      });
      return [];
    } catch (err) {
      if (!recordFault(err)) throw err;
    }
    const skipped: SkippedRecord[] = [];
    await this.db.transaction(async (tx) => {
      const repo = new UnifiedRepo(tx as unknown as Database);
      for (const row of dedupeLast(rows)) {
        try {
          await tx.transaction(async (savepoint) => new UnifiedRepo(savepoint as unknown as Database).upsert([row]));
        } catch (err) {
          const sqlstate = recordFault(err);
          if (!sqlstate) throw err;
          skipped.push({ object_type: row.objectType, remote_id: row.remoteId.slice(0, 200), sqlstate });
        }
      }
      await repo.saveSyncState(stateAfter(skipped));
    });
    return skipped;
  }

  async insertUpload(values: typeof uploads.$inferInsert): Promise<UploadRow> {
    const [row] = await this.db.insert(uploads).values(values).returning();
    return row!;
  }

  async findUploads(connectionId: string, ids: string[]): Promise<UploadRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(uploads).where(and(eq(uploads.connectionId, connectionId), inArray(uploads.id, ids)));
  }
}

/** A provider page can list an object twice (it changed while we paged); keep the last copy. */
function dedupeLast(rows: UnifiedInsert[]): UnifiedInsert[] {
  const byKey = new Map<string, UnifiedInsert>();
  for (const r of rows) byKey.set(`${r.objectType}\u0000${r.remoteId}`, r);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}
