import { and, count, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { deleteSlice, PURGE_SLICE } from './purge';
import type { Database } from './database';
import { apiKeys, connections, dashboardSessions, linkedUsers, providerCalls, syncStates } from './schema';
import type { LinkedUserRow } from './control-plane.repo';
import type { SyncStateRow } from './unified.repo';
import { storable } from './storable';

export type ProviderCallRow = typeof providerCalls.$inferSelect;

/** One attempt of a provider call, as the recorder hands it over (the project comes from the connection). */
export interface ProviderCallInsert {
  connectionId: string;
  method: string;
  path: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  rateLimit: ProviderCallRow['rateLimit'];
  startedAt: Date;
}

export interface DashboardSessionRow {
  projectId: string;
  apiKeyId: string;
  data: Record<string, unknown>;
}

/** Queries of the operator dashboard: provider call logs and signed-in sessions. */
export class DashboardRepo {
  constructor(private readonly db: Database) {}

  /**
   * Stores a batch of calls in one statement. Calls of a connection that does not exist (credentials
   * checked before the connection is created, or a connection deleted meanwhile) are left out.
   */
  async insertCalls(calls: ProviderCallInsert[]): Promise<void> {
    if (calls.length === 0) return;
    // Text a provider or a URL carried (a path holding U+0000) made storable, so one call never fails the batch.
    const rows = calls.map((c) => ({
      connection_id: c.connectionId,
      method: storable(c.method),
      path: storable(c.path),
      status: c.status,
      error: storable(c.error),
      duration_ms: c.durationMs,
      rate_limit: c.rateLimit,
      started_at: c.startedAt.toISOString(),
    }));
    await this.db.execute(sql`
      insert into provider_calls (project_id, connection_id, method, path, status, error, duration_ms, rate_limit, started_at)
      select c.project_id, r.connection_id, r.method, r.path, r.status, r.error, r.duration_ms, r.rate_limit, r.started_at
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(connection_id uuid, method text, path text, status int, error text, duration_ms int, rate_limit jsonb, started_at timestamptz)
      join connections c on c.id = r.connection_id`);
  }

  /** The newest calls of one connection of the project. */
  listCalls(projectId: string, connectionId: string, limit: number): Promise<ProviderCallRow[]> {
    return this.db
      .select()
      .from(providerCalls)
      .where(and(eq(providerCalls.projectId, projectId), eq(providerCalls.connectionId, connectionId)))
      .orderBy(desc(providerCalls.startedAt), desc(providerCalls.id))
      .limit(limit);
  }

  /** The sync states of a page of the project's connections, in one query. */
  syncStatesOf(projectId: string, connectionIds: string[]): Promise<SyncStateRow[]> {
    if (connectionIds.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(syncStates)
      .where(and(eq(syncStates.projectId, projectId), inArray(syncStates.connectionId, connectionIds)))
      .orderBy(syncStates.stream);
  }

  /** The project's linked users with these ids, in one query. */
  linkedUsersOf(projectId: string, ids: string[]): Promise<LinkedUserRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(linkedUsers)
      .where(and(eq(linkedUsers.projectId, projectId), inArray(linkedUsers.id, [...new Set(ids)])));
  }

  /** How many connections each of these linked users of the project has, in one query. */
  async connectionCountsOf(projectId: string, linkedUserIds: string[]): Promise<Map<string, number>> {
    if (linkedUserIds.length === 0) return new Map();
    const rows = await this.db
      .select({ linkedUserId: connections.linkedUserId, n: count() })
      .from(connections)
      .where(and(eq(connections.projectId, projectId), inArray(connections.linkedUserId, linkedUserIds)))
      .groupBy(connections.linkedUserId);
    return new Map(rows.map((r) => [r.linkedUserId, r.n]));
  }

  /** Deletes up to `limit` calls older than `cutoff`; says how many went. */
  purgeCallsBefore(cutoff: Date, limit = PURGE_SLICE): Promise<number> {
    return deleteSlice(this.db, providerCalls, [providerCalls.id], lt(providerCalls.startedAt, cutoff), limit);
  }

  async saveSession(idHash: string, session: DashboardSessionRow, expiresAt: Date): Promise<void> {
    await this.db
      .insert(dashboardSessions)
      .values({ idHash, ...session, expiresAt })
      .onConflictDoUpdate({ target: dashboardSessions.idHash, set: { data: session.data, expiresAt } });
  }

  /** A session that has not expired and whose API key is not revoked. */
  async findLiveSession(idHash: string, now: Date): Promise<DashboardSessionRow | undefined> {
    const [row] = await this.db
      .select({ projectId: dashboardSessions.projectId, apiKeyId: dashboardSessions.apiKeyId, data: dashboardSessions.data })
      .from(dashboardSessions)
      .innerJoin(apiKeys, and(eq(apiKeys.id, dashboardSessions.apiKeyId), isNull(apiKeys.revokedAt)))
      .where(and(eq(dashboardSessions.idHash, idHash), gt(dashboardSessions.expiresAt, now)));
    return row;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.delete(dashboardSessions).where(eq(dashboardSessions.idHash, idHash));
  }

  /** Deletes up to `limit` sessions that expired before `cutoff`; says how many went. */
  purgeSessionsBefore(cutoff: Date, limit = PURGE_SLICE): Promise<number> {
    return deleteSlice(this.db, dashboardSessions, [dashboardSessions.idHash], lt(dashboardSessions.expiresAt, cutoff), limit);
  }
}
