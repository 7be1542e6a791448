import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, SelectedFields } from 'drizzle-orm/pg-core';
import { badRequest } from '../core/errors';
import { recordFault, type Database } from './database';
import { deletionCheckIds, syncStates, unifiedObjects, uploads, type ChangeCounts, type SkippedRecord } from './schema';
import { deliveriesOf, insertEvents, type NewEvent } from './events.repo';
import { dateKey, keysetPage, parseDateKey, whereAll, type Keyset, type Page, type PageRequest } from './pagination';

export type UnifiedRow = typeof unifiedObjects.$inferSelect;
export type UnifiedInsert = Omit<typeof unifiedObjects.$inferInsert, 'seq' | 'createdAt' | 'modifiedAt' | 'writtenAt' | 'viewJson'> & {
  /** Fields of `data` the read did not cover: a stored object keeps its values of them (`UnifiedRecord.unread`). */
  keepData?: string[] | null;
};
export type SyncStateRow = typeof syncStates.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;

/**
 * The times a list filters on: Omniport's own (`created_at`: the object entered the store; `modified_at`: it
 * last changed there) and the provider's (`remote_created_at`, `remote_updated_at`; objects without one never
 * match a filter on it).
 */
export type TimeField = 'created_at' | 'modified_at' | 'remote_created_at' | 'remote_updated_at';
/** At or after `after`, before `before`. */
export interface TimeRange {
  after?: Date;
  before?: Date;
}

/**
 * A list filtered on a time is ordered by the first of these it filters on, then by id, and walks that time's
 * index (schema.ts) from the bound: a page costs the same however many objects are stored.
 */
const TIME_ORDERS: { field: TimeField; column: PgColumn }[] = [
  { field: 'modified_at', column: unifiedObjects.modifiedAt },
  { field: 'created_at', column: unifiedObjects.createdAt },
  { field: 'remote_updated_at', column: unifiedObjects.remoteUpdatedAt },
  { field: 'remote_created_at', column: unifiedObjects.remoteCreatedAt },
];

export interface UnifiedListFilter {
  times?: Partial<Record<TimeField, TimeRange>>;
  includeDeleted?: boolean;
  parentId?: string;
  /** Exact matches on fields of the unified view, each backed by a partial index (schema.ts). */
  fields?: FieldFilter[];
}

/** A match on one field of the stored unified view (`data`). */
export interface FieldFilter {
  field: string;
  match: 'equals' | 'contains' | 'email';
  value: string;
}

/** What a page of views needs; remote_data is large and only read when the answer uses it. */
export type ListedRow = Omit<UnifiedRow, 'projectId' | 'lastSeenRun' | 'writtenAt' | 'viewJson'>;
/** Omniport's times of a stored object, as a write's answer carries them. */
export type StoreTimes = Pick<UnifiedRow, 'createdAt' | 'modifiedAt'>;

const OBJECT_TYPE = /^[a-z]+\.[a-z_]+$/;
const FIELD = /^[a-z_]+$/;

/**
 * The condition of a field filter, written as the partial indexes are: the field name and the object type
 * are literals (constants of the unified model, checked here), so the planner matches the index expression
 * and its predicate; the value is a parameter.
 */
function fieldCondition(f: FieldFilter): SQL {
  if (!FIELD.test(f.field)) throw new Error(`not a field name: ${f.field}`);
  const field = sql.raw(`'${f.field}'`);
  if (f.match === 'equals') return sql`(${unifiedObjects.data} ->> ${field}) = ${f.value}`;
  const wanted = f.match === 'contains' ? [f.value] : [{ email_address: f.value }];
  return sql`(${unifiedObjects.data} -> ${field}) @> ${JSON.stringify(wanted)}::jsonb`;
}

/** Rows per statement: a few MB of JSON at most. */
const UPSERT_CHUNK = 1000;

export class UnifiedRepo {
  constructor(private readonly db: Database) {}

  /**
   * Inserts or updates in place (the id never changes), one statement per chunk. The rows travel as one
   * JSON parameter expanded by jsonb_to_recordset: building a statement with thousands of parameters
   * costs far more than the write itself.
   *
   * The same statement tells what changed — a new object, unified fields that differ from the stored ones
   * (compared as JSON values, never by timestamps), a deletion — and writes one record event per change
   * (`<object type>.created|updated|deleted`, without remote_data) with its webhook deliveries: an object
   * read again unchanged makes no event, and events are never lost or invented apart from their change.
   */
  async upsert(rows: UnifiedInsert[], opts: { times?: Map<string, StoreTimes> } = {}): Promise<ChangeCounts> {
    const counts: ChangeCounts = { created: 0, updated: 0, deleted: 0 };
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
        ...(r.keepData?.length ? { keep_data: r.keepData } : {}),
      }));
      const recordset = sql`jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as x(
            id uuid, project_id uuid, connection_id uuid, object_type text, remote_id text, parent_id uuid, data jsonb,
            remote_data jsonb, remote_created_at timestamptz, remote_updated_at timestamptz, remote_was_deleted boolean, last_seen_run uuid, keep_data jsonb)`;
      // Rows read in part take the fields they did not read from the stored object (only then is it joined).
      const incoming = chunk.some((r) => 'keep_data' in r)
        ? sql`select x.id, x.project_id, x.connection_id, x.object_type, x.remote_id, x.parent_id,
              case when x.keep_data is null or u.data is null then x.data
                   else x.data || coalesce((select jsonb_object_agg(k, u.data -> k) from jsonb_array_elements_text(x.keep_data) as k where u.data ? k), '{}'::jsonb)
              end as data,
              x.remote_data, x.remote_created_at, x.remote_updated_at, x.remote_was_deleted, x.last_seen_run
            from ${recordset}
            left join unified_objects u on x.keep_data is not null and u.connection_id = x.connection_id and u.object_type = x.object_type and u.remote_id = x.remote_id`
        : sql`select * from ${recordset}`;
      const result = await this.db.execute(sql`
        with incoming as (${incoming}),
        previous as (
          select u.connection_id, u.object_type, u.remote_id, u.data, u.remote_was_deleted from unified_objects u
          join incoming i on u.connection_id = i.connection_id and u.object_type = i.object_type and u.remote_id = i.remote_id
        ),
        saved as (
          insert into unified_objects (id, project_id, connection_id, object_type, remote_id, parent_id, data, remote_data,
                                       remote_created_at, remote_updated_at, remote_was_deleted, last_seen_run)
          select id, project_id, connection_id, object_type, remote_id, parent_id, data, remote_data,
                 remote_created_at, remote_updated_at, remote_was_deleted, last_seen_run
          from incoming
          on conflict (connection_id, object_type, remote_id) do update set
            parent_id = excluded.parent_id,
            data = excluded.data,
            remote_data = excluded.remote_data,
            remote_created_at = coalesce(excluded.remote_created_at, unified_objects.remote_created_at),
            remote_updated_at = coalesce(excluded.remote_updated_at, unified_objects.remote_updated_at),
            remote_was_deleted = excluded.remote_was_deleted,
            last_seen_run = coalesce(excluded.last_seen_run, unified_objects.last_seen_run),
            updated_at = date_trunc('milliseconds', now()),
            -- Moves exactly when the change below writes a record event (the old row's values are compared).
            modified_at = case
              when unified_objects.remote_was_deleted is distinct from excluded.remote_was_deleted
                or (not excluded.remote_was_deleted and unified_objects.data is distinct from excluded.data)
              then date_trunc('milliseconds', now()) else unified_objects.modified_at end
          returning id, project_id, connection_id, object_type, remote_id, data, created_at, modified_at, remote_created_at, remote_updated_at, remote_was_deleted
        ),
        changes as (
          select s.*, case
              when p.remote_id is null then case when s.remote_was_deleted then null else 'created' end
              when s.remote_was_deleted then case when p.remote_was_deleted then null else 'deleted' end
              when p.remote_was_deleted or p.data is distinct from s.data then 'updated'
            end as change
          from saved s left join previous p on p.connection_id = s.connection_id and p.object_type = s.object_type and p.remote_id = s.remote_id
        ),
        ${recordEvents('changes')}
        ${opts.times
          ? sql`select change, 1 as n, id, created_at, modified_at from changes`
          : sql`select change, count(*)::int as n from changes where change is not null group by change`}`);
      for (const row of rowsOf(result)) {
        if (row.change) counts[row.change as keyof ChangeCounts] += Number(row.n);
        if (opts.times) opts.times.set(String(row.id), { createdAt: new Date(row.created_at as string), modifiedAt: new Date(row.modified_at as string) });
      }
    }
    return counts;
  }

  /**
   * Children of `objectType` of these parents (Omniport ids) that a complete listing of their children did
   * not list are gone — except those written since `since` (the run's start: saved by this run, or created
   * through the API meanwhile). Writes their `.deleted` record events.
   */
  async markChildrenNotListedDeleted(connectionId: string, objectType: string, parentIds: string[], listedRemoteIds: string[], since: Date): Promise<number> {
    if (parentIds.length === 0) return 0;
    const result = await this.db.execute(sql`
      with changes as (
        update unified_objects set remote_was_deleted = true, updated_at = date_trunc('milliseconds', now()), modified_at = date_trunc('milliseconds', now())
        where connection_id = ${connectionId} and object_type = ${objectType} and not remote_was_deleted
          and parent_id in (select x::uuid from jsonb_array_elements_text(${JSON.stringify(parentIds)}::jsonb) as x)
          and remote_id not in (select x from jsonb_array_elements_text(${JSON.stringify(listedRemoteIds)}::jsonb) as x)
          and updated_at < ${since.toISOString()}::timestamptz
        returning id, project_id, connection_id, object_type, remote_id, data, created_at, modified_at, remote_created_at, remote_updated_at, remote_was_deleted, 'deleted'::text as change
      ),
      ${recordEvents('changes')}
      select count(*)::int as n from changes`);
    return Number(rowsOf(result)[0]!.n);
  }

  /**
   * Objects of these types that a full run did not see (not deleted yet, written before the run started), at
   * most `limit`: the candidates a stream walked by offset confirms with the provider one by one.
   */
  async unseenInRun(connectionId: string, objectTypes: string[], runId: string, runStartedAt: Date, limit: number) {
    const result = await this.db.execute(sql`
      select o.object_type, o.remote_id, o.remote_data, p.object_type as p_type, p.remote_id as p_id, g.object_type as g_type, g.remote_id as g_id
      from unified_objects o
        left join unified_objects p on p.id = o.parent_id
        left join unified_objects g on g.id = p.parent_id
      where o.connection_id = ${connectionId} and o.object_type in (${sql.join(objectTypes.map((t) => sql`${t}`), sql`, `)}) and not o.remote_was_deleted
        and (o.last_seen_run is null or o.last_seen_run <> ${runId}) and o.updated_at < ${runStartedAt.toISOString()}::timestamptz
      order by o.seq limit ${limit}`);
    return rowsOf(result).map((r) => {
      // The object's parent, then the parent's own (an attachment's comment, then that comment's ticket).
      const parents = [
        r.p_id == null ? null : { objectType: String(r.p_type), remoteId: String(r.p_id) },
        r.g_id == null ? null : { objectType: String(r.g_type), remoteId: String(r.g_id) },
      ].filter((x): x is { objectType: string; remoteId: string } => x !== null);
      return { objectType: String(r.object_type), remoteId: String(r.remote_id), remoteData: (r.remote_data ?? {}) as Record<string, unknown>, parents };
    });
  }

  /**
   * After a complete full run: objects of these types that the run did not see are gone from the
   * provider — except objects written after the run started (created through the API meanwhile). With
   * `only`, just those of them (the ones the provider confirmed gone).
   */
  async markUnseenDeleted(connectionId: string, objectTypes: string[], runId: string, runStartedAt: Date, only?: { objectType: string; remoteId: string }[]): Promise<number> {
    if (only && only.length === 0) return 0;
    const onlyThese = only ? sql`and (object_type, remote_id) in (select x->>'objectType', x->>'remoteId' from jsonb_array_elements(${JSON.stringify(only)}::jsonb) as x)` : sql``;
    const result = await this.db.execute(sql`
      with changes as (
        update unified_objects set remote_was_deleted = true, updated_at = date_trunc('milliseconds', now()), modified_at = date_trunc('milliseconds', now())
        where connection_id = ${connectionId} and object_type in (${sql.join(objectTypes.map((t) => sql`${t}`), sql`, `)}) and not remote_was_deleted
          and (last_seen_run is null or last_seen_run <> ${runId}) and updated_at < ${runStartedAt.toISOString()}::timestamptz ${onlyThese}
        returning id, project_id, connection_id, object_type, remote_id, data, created_at, modified_at, remote_created_at, remote_updated_at, remote_was_deleted, 'deleted'::text as change
      ),
      ${recordEvents('changes')}
      select count(*)::int as n from changes`);
    return Number(rowsOf(result)[0]!.n);
  }

  /**
   * Objects a provider's webhook says were deleted: marked `remote_was_deleted`, with their `.deleted` record
   * events (objects already marked, or never synced, change nothing).
   */
  async markRemoteDeleted(connectionId: string, objectType: string, remoteIds: string[]): Promise<number> {
    if (!remoteIds.length) return 0;
    const result = await this.db.execute(sql`
      with changes as (
        update unified_objects set remote_was_deleted = true, updated_at = date_trunc('milliseconds', now()), modified_at = date_trunc('milliseconds', now())
        where connection_id = ${connectionId} and object_type = ${objectType} and not remote_was_deleted
          and remote_id in (select jsonb_array_elements_text(${JSON.stringify(remoteIds)}::jsonb))
        returning id, project_id, connection_id, object_type, remote_id, data, created_at, modified_at, remote_created_at, remote_updated_at, remote_was_deleted, 'deleted'::text as change
      ),
      ${recordEvents('changes')}
      select count(*)::int as n from changes`);
    return Number(rowsOf(result)[0]!.n);
  }

  /**
   * Saves remote ids a deletion check listed, with its position after them (one transaction: a resumed check
   * neither loses nor needs to list them again).
   */
  async saveListedIds(connectionId: string, runId: string, remoteIds: string[], stateAfter: typeof syncStates.$inferInsert): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < remoteIds.length; i += UPSERT_CHUNK) {
        const chunk = remoteIds.slice(i, i + UPSERT_CHUNK);
        await tx.execute(sql`
          insert into deletion_check_ids (connection_id, run_id, remote_id)
          select ${connectionId}::uuid, ${runId}::uuid, x from jsonb_array_elements_text(${JSON.stringify(chunk)}::jsonb) as x
          on conflict do nothing`);
      }
      await new UnifiedRepo(tx as unknown as Database).saveSyncState(stateAfter);
    });
  }

  /**
   * After a complete id listing: objects of these types it did not list are gone from the provider, except
   * objects written since the listing started (created meanwhile, or synced after it began). Marks up to
   * `limit` of them (the caller repeats it until fewer are marked: a slice at a time, issue 32), writes their
   * `.deleted` record events like any change, and says how many it marked. A marked object is written after
   * the listing began, so a slice never marks one twice.
   */
  async markNotListedDeleted(connectionId: string, objectTypes: string[], runId: string, runStartedAt: Date, limit: number): Promise<number> {
    const result = await this.db.execute(sql`
      with gone as (
        select u.id from unified_objects u
        where u.connection_id = ${connectionId} and u.object_type in (${sql.join(objectTypes.map((t) => sql`${t}`), sql`, `)}) and not u.remote_was_deleted
          and u.updated_at < ${runStartedAt.toISOString()}::timestamptz
          and not exists (select 1 from deletion_check_ids d where d.run_id = ${runId} and d.remote_id = u.remote_id)
        limit ${limit}
      ),
      changes as (
        update unified_objects u set remote_was_deleted = true, updated_at = date_trunc('milliseconds', now()), modified_at = date_trunc('milliseconds', now())
        from gone where u.id = gone.id
        returning u.id, u.project_id, u.connection_id, u.object_type, u.remote_id, u.data, u.created_at, u.modified_at, u.remote_created_at, u.remote_updated_at, u.remote_was_deleted, 'deleted'::text as change
      ),
      ${recordEvents('changes')}
      select count(*)::int as n from changes`);
    return Number(rowsOf(result)[0]!.n);
  }

  /** Drops the ids a deletion check listed (done, or abandoned for a new one). */
  async forgetListedIds(connectionId: string, runId: string): Promise<void> {
    await this.db.delete(deletionCheckIds).where(and(eq(deletionCheckIds.connectionId, connectionId), eq(deletionCheckIds.runId, runId)));
  }

  list(connectionId: string, objectType: string, page: PageRequest, filter: UnifiedListFilter, opts: { remoteData: boolean }) {
    return this.pageOf<ListedRow>(connectionId, objectType, page, filter, listedColumns(opts.remoteData));
  }

  /**
   * A page of views as the JSON text stored with each object (`view_json`): nothing is parsed or
   * re-encoded on the way to the client. Only for views with no `field_mappings` values and no children.
   */
  listPresented(connectionId: string, objectType: string, page: PageRequest, filter: UnifiedListFilter) {
    return this.pageOf<PresentedRow>(connectionId, objectType, page, filter, presentedColumns);
  }

  private readonly plainPages = new Map<string, ReturnType<typeof this.preparePlainPage>>();

  /**
   * Plain pages of stored views (no filter; deleted objects left out) are the reads clients repeat most. They
   * run as prepared statements: built once, and parsed and planned once per database connection, instead of
   * for every request.
   */
  private plainPage(connectionId: string, objectType: string, limit: number, keyset: Keyset): Promise<PresentedRow[]> {
    const kind = !keyset.from ? 'first' : keyset.towardsLarger ? 'after' : 'before';
    let prepared = this.plainPages.get(kind);
    if (!prepared) this.plainPages.set(kind, (prepared = this.preparePlainPage(kind)));
    const [seq, id] = keyset.from ?? [];
    return prepared.execute({ connectionId, objectType, limit, seq, id }) as Promise<PresentedRow[]>;
  }

  private preparePlainPage(kind: 'first' | 'after' | 'before') {
    const { seq, id } = unifiedObjects;
    const key = sql`(${seq}, ${id})`;
    const from = sql`(${sql.placeholder('seq')}, ${sql.placeholder('id')})`;
    return this.db
      .select(presentedColumns)
      .from(unifiedObjects)
      .where(
        whereAll(
          eq(unifiedObjects.connectionId, sql.placeholder('connectionId')),
          eq(unifiedObjects.objectType, sql.placeholder('objectType')),
          eq(unifiedObjects.remoteWasDeleted, false),
          kind === 'after' ? sql`${key} > ${from}` : kind === 'before' ? sql`${key} < ${from}` : undefined,
        ),
      )
      .orderBy(...(kind === 'before' ? [desc(seq), desc(id)] : [asc(seq), asc(id)]))
      .limit(sql.placeholder('limit'))
      .prepare(`unified_plain_page_${kind}`);
  }

  private pageOf<Row extends { id: string; seq: number }>(
    connectionId: string,
    objectType: string,
    page: PageRequest,
    filter: UnifiedListFilter,
    columns: SelectedFields,
  ): Promise<Page<Row>> {
    if (!OBJECT_TYPE.test(objectType)) throw new Error(`not an object type: ${objectType}`);
    const times = filter.times ?? {};
    const timeOrder = TIME_ORDERS.find((o) => times[o.field]);
    const timeConditions = TIME_ORDERS.flatMap(({ field, column }) => [
      times[field]?.after ? gte(column, times[field].after) : undefined,
      times[field]?.before ? lt(column, times[field].before) : undefined,
    ]);
    type Sorted = Row & { sortAt?: Date };
    return keysetPage<Sorted>({
      sortColumn: timeOrder?.column ?? unifiedObjects.seq,
      idColumn: unifiedObjects.id,
      keyOf: (r) => [timeOrder ? dateKey(r.sortAt!) : String(r.seq), r.id],
      parseSortValue: timeOrder
        ? parseDateKey
        : (v) => {
            const n = Number(v);
            if (!Number.isSafeInteger(n)) throw badRequest('cursor is not a cursor returned by this API', 'cursor');
            return n;
          },
      page,
      fetch: (cond, order, limit, keyset) =>
        columns === presentedColumns && isPlain(filter)
          ? (this.plainPage(connectionId, objectType, limit, keyset) as unknown as Promise<Sorted[]>)
          : this.db
          .select(timeOrder ? { ...columns, sortAt: timeOrder.column } : columns)
          .from(unifiedObjects)
          .where(
            whereAll(
              eq(unifiedObjects.connectionId, connectionId),
              sql`${unifiedObjects.objectType} = ${sql.raw(`'${objectType}'`)}`,
              filter.includeDeleted ? undefined : eq(unifiedObjects.remoteWasDeleted, false),
              filter.parentId ? eq(unifiedObjects.parentId, filter.parentId) : undefined,
              ...timeConditions,
              ...(filter.fields ?? []).map(fieldCondition),
              cond,
            ),
          )
          .orderBy(...order)
          .limit(limit) as unknown as Promise<Sorted[]>,
    });
  }

  /** One view by id inside a project, as its stored JSON text, with its connection. */
  async findPresentedInProject(projectId: string, objectType: string, id: string): Promise<{ connectionId: string; json: string } | undefined> {
    const [row] = await this.db
      .select({ connectionId: unifiedObjects.connectionId, json: presentedColumns.json })
      .from(unifiedObjects)
      .where(and(eq(unifiedObjects.projectId, projectId), eq(unifiedObjects.objectType, objectType), eq(unifiedObjects.id, id)));
    return row;
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
  async findMany(connectionId: string, ids: string[], opts = { remoteData: true }): Promise<ListedRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select(listedColumns(opts.remoteData))
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

  /**
   * Refreshes the planner's statistics of the store. PGlite never gathers them by itself (no autovacuum)
   * and PostgreSQL's autovacuum may not have run yet: without them, a list after a large sync scans every
   * object of the connection for each page instead of walking the list index.
   *
   * `keys` samples only the columns a sync's statements join and filter on (and the row count), for the
   * refreshes while a sync runs: the large JSON columns (data, remote_data, view_json) and the expression
   * indexes over data cost most of a whole-table ANALYZE (about 6 times as much CPU), and only lists use them.
   */
  async analyze(scope: 'all' | 'keys' = 'all'): Promise<void> {
    if (scope === 'keys') {
      await this.db.execute(sql`analyze unified_objects (connection_id, object_type, remote_id, parent_id, remote_was_deleted, last_seen_run, updated_at)`);
    } else {
      await this.db.execute(sql`analyze unified_objects`);
    }
  }

  /** Runs `fn` in one transaction, with a repository bound to it. */
  inTransaction<T>(fn: (tx: UnifiedRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new UnifiedRepo(tx as unknown as Database)));
  }

  /** Events and their webhook deliveries (sync.completed, sync.failed …). */
  insertEvents(rows: NewEvent[]): Promise<void> {
    return insertEvents(this.db, rows);
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
   * Saves a batch, its record events and the position after it in one transaction, so a crash never skips,
   * loses or repeats a batch. A batch the database refuses for its data is saved again record by record (a
   * savepoint each): the records it still refuses are returned, and `stateAfter` gets them so the position
   * moves past them.
   */
  async saveBatch(
    rows: UnifiedInsert[],
    stateAfter: (saved: SavedBatch) => typeof syncStates.$inferInsert,
  ): Promise<SavedBatch> {
    try {
      return await this.db.transaction(async (tx) => {
        const repo = new UnifiedRepo(tx as unknown as Database);
        const saved = { changes: await repo.upsert(rows), skipped: [] };
        await repo.saveSyncState(stateAfter(saved));
        return saved;
      });
    } catch (err) {
      if (!recordFault(err)) throw err;
    }
    return this.db.transaction(async (tx) => {
      const repo = new UnifiedRepo(tx as unknown as Database);
      const saved: SavedBatch = { changes: { created: 0, updated: 0, deleted: 0 }, skipped: [] };
      for (const row of dedupeLast(rows)) {
        try {
          const changes = await tx.transaction(async (savepoint) => new UnifiedRepo(savepoint as unknown as Database).upsert([row]));
          saved.changes = addChanges(saved.changes, changes);
        } catch (err) {
          const sqlstate = recordFault(err);
          if (!sqlstate) throw err;
          saved.skipped.push({ object_type: row.objectType, remote_id: row.remoteId.slice(0, 200), sqlstate });
        }
      }
      await repo.saveSyncState(stateAfter(saved));
      return saved;
    });
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

/** The columns of ListedRow; without remote_data, an empty object stands for it. */
/** A view as the API answers it (no remote_data, empty field_mappings), stored as JSON text by a trigger. */
type PresentedRow = { id: string; seq: number; json: string };

/** A list with no filter but the default one (deleted objects left out). */
function isPlain(filter: UnifiedListFilter): boolean {
  return !filter.includeDeleted && !filter.parentId && !Object.values(filter.times ?? {}).some(Boolean) && !filter.fields?.length;
}

const presentedColumns = {
  id: unifiedObjects.id,
  seq: unifiedObjects.seq,
  json: sql<string>`${unifiedObjects.viewJson}`.as('json'),
};

function listedColumns(remoteData: boolean) {
  const u = unifiedObjects;
  return {
    id: u.id,
    seq: u.seq,
    connectionId: u.connectionId,
    objectType: u.objectType,
    remoteId: u.remoteId,
    parentId: u.parentId,
    data: u.data,
    remoteData: remoteData ? u.remoteData : sql<Record<string, unknown>>`'{}'::jsonb`.as('remote_data'),
    createdAt: u.createdAt,
    modifiedAt: u.modifiedAt,
    remoteCreatedAt: u.remoteCreatedAt,
    remoteUpdatedAt: u.remoteUpdatedAt,
    remoteWasDeleted: u.remoteWasDeleted,
  };
}

export interface SavedBatch {
  changes: ChangeCounts;
  skipped: SkippedRecord[];
}

export const addChanges = (a: ChangeCounts, b: ChangeCounts): ChangeCounts => ({ created: a.created + b.created, updated: a.updated + b.updated, deleted: a.deleted + b.deleted });

/**
 * CTEs writing one record event per row of `changes` whose `change` is set (with the unified object, never
 * remote_data), oldest change first, and their webhook deliveries.
 */
function recordEvents(changes: string): SQL {
  return sql.raw(`
    record_events as (
      insert into events (project_id, connection_id, type, payload)
      select project_id, connection_id, object_type || '.' || change,
             jsonb_build_object('object_type', object_type, 'object', jsonb_build_object(
               'id', id, 'remote_id', remote_id, 'data', data, 'created_at', created_at, 'modified_at', modified_at, 'remote_created_at', remote_created_at,
               'remote_updated_at', remote_updated_at, 'remote_was_deleted', remote_was_deleted))
      from ${changes} where change is not null
      order by remote_updated_at nulls first, remote_id
      returning id, project_id, type
    ),
    record_deliveries as (${deliveriesOf('record_events')})`);
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** A provider page can list an object twice (it changed while we paged); keep the last copy. */
function dedupeLast(rows: UnifiedInsert[]): UnifiedInsert[] {
  const byKey = new Map<string, UnifiedInsert>();
  for (const r of rows) byKey.set(`${r.objectType}\u0000${r.remoteId}`, r);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}
