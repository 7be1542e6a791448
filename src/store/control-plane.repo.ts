import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { retryOnConflict, type Database } from './database';
import { insertEvents } from './events.repo';
import { apiKeys, connections, DELETION_CHECK_SUFFIX, linkedUsers, projects, users } from './schema';
import { pageByCreation, type PageRequest } from './pagination';

export type ProjectRow = typeof projects.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type LinkedUserRow = typeof linkedUsers.$inferSelect;
export type ConnectionRow = typeof connections.$inferSelect;

/** Queries of the control plane. Every read that a tenant can trigger is scoped by project id. */
export class ControlPlaneRepo {
  constructor(private readonly db: Database) {}

  transaction<T>(fn: (repo: ControlPlaneRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new ControlPlaneRepo(tx as unknown as Database)));
  }

  /** Serialises bootstrap across processes; held until the surrounding transaction ends. */
  async lockBootstrap(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext('omniport:bootstrap'))`);
  }

  async countProjects(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(projects);
    return row?.n ?? 0;
  }

  async insertProject(values: typeof projects.$inferInsert): Promise<ProjectRow> {
    const [row] = await this.db.insert(projects).values(values).returning();
    return row!;
  }

  async findProject(id: string): Promise<ProjectRow | undefined> {
    const [row] = await this.db.select().from(projects).where(eq(projects.id, id));
    return row;
  }

  async findProjectByName(name: string): Promise<ProjectRow[]> {
    return this.db.select().from(projects).where(eq(projects.name, name));
  }

  /** Every project, oldest first (the operator's CLI; no tenant asks for this). */
  listProjects(): Promise<ProjectRow[]> {
    return this.db.select().from(projects).orderBy(projects.createdAt, projects.id);
  }

  /** Deletes a project and everything in it (the foreign keys cascade; the cache triggers see every row). */
  async deleteProject(id: string): Promise<boolean> {
    return (await this.db.delete(projects).where(eq(projects.id, id)).returning({ id: projects.id })).length > 0;
  }

  /** Deletes a user of a project with its API keys (they cascade). */
  async deleteUser(projectId: string, id: string): Promise<boolean> {
    return (await this.db.delete(users).where(and(eq(users.projectId, projectId), eq(users.id, id))).returning({ id: users.id })).length > 0;
  }

  /** Deletes a linked user (its connections, if any are left, cascade). */
  async deleteLinkedUser(projectId: string, id: string): Promise<boolean> {
    return (await this.db.delete(linkedUsers).where(and(eq(linkedUsers.projectId, projectId), eq(linkedUsers.id, id))).returning({ id: linkedUsers.id })).length > 0;
  }

  listUsers(projectId: string): Promise<UserRow[]> {
    return this.db.select().from(users).where(eq(users.projectId, projectId)).orderBy(users.createdAt, users.id);
  }

  async insertUser(values: typeof users.$inferInsert): Promise<UserRow> {
    const [row] = await this.db.insert(users).values(values).returning();
    return row!;
  }

  async findUser(projectId: string, id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(and(eq(users.projectId, projectId), eq(users.id, id)));
    return row;
  }

  async findUserByName(projectId: string, name: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(and(eq(users.projectId, projectId), eq(users.name, name)));
    return row;
  }

  async insertApiKey(values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
    const [row] = await this.db.insert(apiKeys).values(values).returning();
    return row!;
  }

  async findActiveApiKeyByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
    return row;
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    await this.db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
  }

  listApiKeys(projectId: string, page: PageRequest) {
    return pageByCreation<ApiKeyRow>(this.db, apiKeys, page, eq(apiKeys.projectId, projectId));
  }

  async revokeApiKey(projectId: string, id: string, at: Date): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning();
    return row;
  }

  async findApiKey(projectId: string, id: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db.select().from(apiKeys).where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id)));
    return row;
  }

  /** Inserts a linked user, or nothing when one with that origin id exists. */
  async insertLinkedUserIfNew(values: typeof linkedUsers.$inferInsert): Promise<LinkedUserRow | undefined> {
    const [inserted] = await this.db.insert(linkedUsers).values(values).onConflictDoNothing().returning();
    return inserted;
  }

  /** Inserts or returns the existing linked user with that origin id (race-free). */
  async upsertLinkedUser(values: typeof linkedUsers.$inferInsert): Promise<LinkedUserRow> {
    const inserted = await this.insertLinkedUserIfNew(values);
    if (inserted) return inserted;
    return (await this.findLinkedUserByOrigin(values.projectId, values.originId))!;
  }

  async findLinkedUser(projectId: string, id: string): Promise<LinkedUserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(linkedUsers)
      .where(and(eq(linkedUsers.projectId, projectId), eq(linkedUsers.id, id)));
    return row;
  }

  async findLinkedUserByOrigin(projectId: string, originId: string): Promise<LinkedUserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(linkedUsers)
      .where(and(eq(linkedUsers.projectId, projectId), eq(linkedUsers.originId, originId)));
    return row;
  }

  listLinkedUsers(projectId: string, page: PageRequest, filter: { originId?: string }) {
    return pageByCreation<LinkedUserRow>(
      this.db,
      linkedUsers,
      page,
      eq(linkedUsers.projectId, projectId),
      filter.originId !== undefined ? eq(linkedUsers.originId, filter.originId) : undefined,
    );
  }

  async insertConnection(values: typeof connections.$inferInsert): Promise<ConnectionRow> {
    const [row] = await this.db.insert(connections).values(values).returning();
    return row!;
  }

  async findConnection(projectId: string, id: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(connections)
      .where(and(eq(connections.projectId, projectId), eq(connections.id, id)));
    return row;
  }

  /** For jobs, which act on behalf of the connection's own project. */
  async findConnectionById(id: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db.select().from(connections).where(eq(connections.id, id));
    return row;
  }

  /** Every connection to one of these providers, of every project (the built-in sandbox's, at its start). */
  async connectionsToProviders(providers: string[]): Promise<ConnectionRow[]> {
    if (!providers.length) return [];
    return this.db.select().from(connections).where(inArray(connections.provider, providers));
  }

  /**
   * Connections whose oldest stream last succeeded longer ago than their project's sync interval. Asked once
   * a minute, with half a tick of slack: else a sync that ended a second after a tick would wait a whole
   * extra interval.
   */
  async connectionsDueForSync(): Promise<{ id: string }[]> {
    const result = await this.db.execute(sql`
      select c.id from connections c join projects p on p.id = c.project_id
      where c.status = 'valid'
        and coalesce((select min(s.last_success_at) from sync_states s where s.connection_id = c.id and s.stream not like ${`%${DELETION_CHECK_SUFFIX}`}), 'epoch'::timestamptz)
            < now() - p.sync_interval_minutes * interval '1 minute' + interval '30 seconds'`);
    return (result as unknown as { rows: { id: string }[] }).rows;
  }

  /**
   * Connections with a deletion check older than their project's interval (the oldest check of the
   * connection, or its creation when none has run yet), with that interval; which of their streams are due
   * is decided per stream by the caller.
   */
  async connectionsDueForDeletionCheck(): Promise<{ id: string; interval_minutes: number }[]> {
    const result = await this.db.execute(sql`
      select c.id, p.deletion_check_interval_minutes as interval_minutes from connections c join projects p on p.id = c.project_id
      where c.status = 'valid' and p.deletion_check_interval_minutes is not null
        and coalesce((select min(s.last_success_at) from sync_states s where s.connection_id = c.id and s.stream like ${`%${DELETION_CHECK_SUFFIX}`}), c.created_at)
            < now() - p.deletion_check_interval_minutes * interval '1 minute' + interval '30 seconds'`);
    return (result as unknown as { rows: { id: string; interval_minutes: number }[] }).rows;
  }

  async setSyncInterval(projectId: string, minutes: number): Promise<ProjectRow | undefined> {
    return this.setProjectSettings(projectId, { syncIntervalMinutes: minutes });
  }

  async setProjectSettings(projectId: string, values: { syncIntervalMinutes?: number; deletionCheckIntervalMinutes?: number | null; mcpReadOnly?: boolean }): Promise<ProjectRow | undefined> {
    const [row] = await this.db.update(projects).set(values).where(eq(projects.id, projectId)).returning();
    return row;
  }


  async findConnectionByTokenHash(projectId: string, tokenHash: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(connections)
      .where(and(eq(connections.projectId, projectId), eq(connections.tokenHash, tokenHash)));
    return row;
  }

  listConnections(projectId: string, page: PageRequest, filter: { linkedUserId?: string; provider?: string }) {
    return pageByCreation<ConnectionRow>(
      this.db,
      connections,
      page,
      eq(connections.projectId, projectId),
      filter.linkedUserId ? eq(connections.linkedUserId, filter.linkedUserId) : undefined,
      filter.provider ? eq(connections.provider, filter.provider) : undefined,
    );
  }

  /** Deletes a connection (its objects and sync states go with it) and writes connection.deleted, together. */
  async deleteConnection(projectId: string, id: string): Promise<boolean> {
    return retryOnConflict(() => this.db.transaction(async (tx) => {
      const [row] = await tx.delete(connections).where(and(eq(connections.projectId, projectId), eq(connections.id, id))).returning();
      if (!row) return false;
      await insertEvents(tx as unknown as Database, [
        {
          projectId,
          connectionId: row.id,
          type: 'connection.deleted',
          payload: { id_connection: row.id, provider: row.provider, vertical: row.vertical, id_linked_user: row.linkedUserId, base_url: row.baseUrl },
        },
      ]);
      return true;
    }));
  }
}
