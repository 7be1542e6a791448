import { and, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from './database';
import { connectSettings, connections, inviteLinks, linkedUsers, oauthApps, oauthFlows } from './schema';
import { insertEvents } from './events.repo';
import { dateKey, keysetPage, parseDateKey, whereAll, type PageRequest } from './pagination';
import type { ConnectionRow, LinkedUserRow } from './control-plane.repo';

export type ConnectSettingsRow = typeof connectSettings.$inferSelect;
export type OAuthAppRow = typeof oauthApps.$inferSelect;
export type InviteLinkRow = typeof inviteLinks.$inferSelect;
export type OAuthFlowRow = typeof oauthFlows.$inferSelect;

export interface EventInput {
  type: string;
  payload: Record<string, unknown>;
}

/** Status of a magic link at a given time. */
export type InviteLinkStatus = 'active' | 'expired' | 'revoked';

/**
 * Queries of the hosted connect page: magic links, OAuth apps and flows, connect settings, events, and the
 * connection writes of OAuth (creation with its event, locked credential refresh). Tenant reads are scoped by
 * project id; the public lookups go by secret (link token hash, flow id bound to a signed state).
 */
export class ConnectRepo {
  constructor(private readonly db: Database) {}

  transaction<T>(fn: (repo: ConnectRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new ConnectRepo(tx as unknown as Database)));
  }

  // ---- connect settings

  async getSettings(projectId: string): Promise<ConnectSettingsRow | undefined> {
    const [row] = await this.db.select().from(connectSettings).where(eq(connectSettings.projectId, projectId));
    return row;
  }

  async upsertSettings(projectId: string, values: { enabledProviders?: string[] | null; allowedRedirectUrls?: string[] }): Promise<ConnectSettingsRow> {
    const set = { ...values, updatedAt: sql`date_trunc('milliseconds', now())` };
    const [row] = await this.db
      .insert(connectSettings)
      .values({ projectId, ...values })
      .onConflictDoUpdate({ target: connectSettings.projectId, set })
      .returning();
    return row!;
  }

  // ---- OAuth apps

  async upsertOAuthApp(values: typeof oauthApps.$inferInsert): Promise<OAuthAppRow> {
    const { projectId: _p, provider: _n, ...set } = values;
    const [row] = await this.db
      .insert(oauthApps)
      .values(values)
      .onConflictDoUpdate({ target: [oauthApps.projectId, oauthApps.provider], set: { ...set, updatedAt: sql`date_trunc('milliseconds', now())` } })
      .returning();
    return row!;
  }

  async findOAuthApp(projectId: string, provider: string): Promise<OAuthAppRow | undefined> {
    const [row] = await this.db
      .select()
      .from(oauthApps)
      .where(and(eq(oauthApps.projectId, projectId), eq(oauthApps.provider, provider)));
    return row;
  }

  async listOAuthApps(projectId: string): Promise<OAuthAppRow[]> {
    return this.db.select().from(oauthApps).where(eq(oauthApps.projectId, projectId)).orderBy(oauthApps.provider);
  }

  async deleteOAuthApp(projectId: string, provider: string): Promise<boolean> {
    const rows = await this.db
      .delete(oauthApps)
      .where(and(eq(oauthApps.projectId, projectId), eq(oauthApps.provider, provider)))
      .returning({ id: oauthApps.id });
    return rows.length > 0;
  }

  // ---- magic links

  async insertInviteLink(values: typeof inviteLinks.$inferInsert): Promise<InviteLinkRow> {
    const [row] = await this.db.insert(inviteLinks).values(values).returning();
    return row!;
  }

  /** Public lookup by the secret's hash (the connect page); the caller checks expiry and revocation. */
  async findInviteLinkByTokenHash(tokenHash: string): Promise<{ link: InviteLinkRow; linkedUser: LinkedUserRow } | undefined> {
    const [row] = await this.db
      .select({ link: inviteLinks, linkedUser: linkedUsers })
      .from(inviteLinks)
      .innerJoin(linkedUsers, eq(linkedUsers.id, inviteLinks.linkedUserId))
      .where(eq(inviteLinks.tokenHash, tokenHash));
    return row;
  }

  async findInviteLink(projectId: string, id: string): Promise<{ link: InviteLinkRow; linkedUser: LinkedUserRow } | undefined> {
    const [row] = await this.db
      .select({ link: inviteLinks, linkedUser: linkedUsers })
      .from(inviteLinks)
      .innerJoin(linkedUsers, eq(linkedUsers.id, inviteLinks.linkedUserId))
      .where(and(eq(inviteLinks.projectId, projectId), eq(inviteLinks.id, id)));
    return row;
  }

  /** For the OAuth callback, which acts for the flow's own project. */
  async findInviteLinkById(id: string): Promise<{ link: InviteLinkRow; linkedUser: LinkedUserRow } | undefined> {
    const [row] = await this.db
      .select({ link: inviteLinks, linkedUser: linkedUsers })
      .from(inviteLinks)
      .innerJoin(linkedUsers, eq(linkedUsers.id, inviteLinks.linkedUserId))
      .where(eq(inviteLinks.id, id));
    return row;
  }

  /** One query per page, the linked user joined. */
  listInviteLinks(projectId: string, page: PageRequest, filter: { linkedUserId?: string; status?: InviteLinkStatus }, now: Date) {
    const statusCondition =
      filter.status === 'revoked'
        ? isNotNull(inviteLinks.revokedAt)
        : filter.status === 'expired'
          ? and(isNull(inviteLinks.revokedAt), lte(inviteLinks.expiresAt, now))
          : filter.status === 'active'
            ? and(isNull(inviteLinks.revokedAt), gt(inviteLinks.expiresAt, now))
            : undefined;
    return keysetPage<{ link: InviteLinkRow; linkedUser: LinkedUserRow }>({
      sortColumn: inviteLinks.createdAt,
      idColumn: inviteLinks.id,
      keyOf: (r) => [dateKey(r.link.createdAt), r.link.id],
      parseSortValue: parseDateKey,
      page,
      fetch: (cond, order, limit) =>
        this.db
          .select({ link: inviteLinks, linkedUser: linkedUsers })
          .from(inviteLinks)
          .innerJoin(linkedUsers, eq(linkedUsers.id, inviteLinks.linkedUserId))
          .where(
            whereAll(
              eq(inviteLinks.projectId, projectId),
              filter.linkedUserId ? eq(inviteLinks.linkedUserId, filter.linkedUserId) : undefined,
              statusCondition,
              cond,
            ),
          )
          .orderBy(...order)
          .limit(limit),
    });
  }

  /** Sets revoked_at once; a link already revoked keeps its first time. */
  async revokeInviteLink(projectId: string, id: string, at: Date): Promise<void> {
    await this.db
      .update(inviteLinks)
      .set({ revokedAt: at })
      .where(and(eq(inviteLinks.projectId, projectId), eq(inviteLinks.id, id), isNull(inviteLinks.revokedAt)));
  }

  /** Fills the alias and email of an existing linked user where they are still empty (never overwrites). */
  async fillLinkedUser(id: string, values: { alias?: string; email?: string }): Promise<LinkedUserRow | undefined> {
    const [row] = await this.db
      .update(linkedUsers)
      .set({
        alias: sql`coalesce(${linkedUsers.alias}, ${values.alias ?? null})`,
        email: sql`coalesce(${linkedUsers.email}, ${values.email ?? null})`,
      })
      .where(eq(linkedUsers.id, id))
      .returning();
    return row;
  }

  // ---- OAuth flows

  async insertFlow(values: typeof oauthFlows.$inferInsert): Promise<OAuthFlowRow> {
    const [row] = await this.db.insert(oauthFlows).values(values).returning();
    return row!;
  }

  async findFlow(id: string): Promise<OAuthFlowRow | undefined> {
    const [row] = await this.db.select().from(oauthFlows).where(eq(oauthFlows.id, id));
    return row;
  }

  /** Marks the flow used, atomically: only the first caller before its expiry gets the row. */
  async consumeFlow(id: string, now: Date): Promise<OAuthFlowRow | undefined> {
    const [row] = await this.db
      .update(oauthFlows)
      .set({ usedAt: now })
      .where(and(eq(oauthFlows.id, id), isNull(oauthFlows.usedAt), gt(oauthFlows.expiresAt, now)))
      .returning();
    return row;
  }

  /** Keeps a used flow's tokens until the linked user chooses a site. */
  async holdPending(id: string, pendingEncrypted: string): Promise<void> {
    await this.db.update(oauthFlows).set({ pendingEncrypted }).where(eq(oauthFlows.id, id));
  }

  /**
   * Clears a flow's pending tokens if they are still the ones read (compare and set): true for the one
   * caller that takes them, so a choice is made once.
   */
  async takePending(id: string, pendingEncrypted: string): Promise<boolean> {
    const rows = await this.db
      .update(oauthFlows)
      .set({ pendingEncrypted: null })
      .where(and(eq(oauthFlows.id, id), eq(oauthFlows.pendingEncrypted, pendingEncrypted)))
      .returning({ id: oauthFlows.id });
    return rows.length === 1;
  }

  /** Flows finished or expired for more than a day are of no use. */
  async deleteStaleFlows(before: Date): Promise<void> {
    await this.db.delete(oauthFlows).where(or(lte(oauthFlows.expiresAt, before), lte(oauthFlows.usedAt, before)));
  }

  /** Tokens of flows whose site choice can no longer be made (used before `before`) are dropped. */
  async dropStalePending(before: Date): Promise<void> {
    await this.db.update(oauthFlows).set({ pendingEncrypted: null }).where(and(isNotNull(oauthFlows.pendingEncrypted), lte(oauthFlows.usedAt, before)));
  }

  // ---- connections (OAuth creation and refresh) and events

  /** Inserts a connection and its event in one transaction (the event is never lost, never orphaned). */
  async insertConnectionWithEvent(values: typeof connections.$inferInsert, eventOf: (row: ConnectionRow) => EventInput): Promise<ConnectionRow> {
    return this.transaction(async (tx) => {
      const [row] = await tx.db.insert(connections).values(values).returning();
      await tx.insertEvent(row!.projectId, eventOf(row!));
      return row!;
    });
  }

  /** The connection of that linked user, provider and base URL, if one exists (re-authorisation). */
  async findConnectionOf(projectId: string, linkedUserId: string, provider: string, baseUrl: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(connections)
      .where(
        and(
          eq(connections.projectId, projectId),
          eq(connections.linkedUserId, linkedUserId),
          eq(connections.provider, provider),
          eq(connections.baseUrl, baseUrl),
        ),
      )
      .orderBy(connections.createdAt)
      .limit(1);
    return row;
  }

  /** Takes the row lock of a connection until the transaction ends (inside `transaction` only). */
  async lockConnection(id: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db.select().from(connections).where(eq(connections.id, id)).for('update');
    return row;
  }

  async updateConnection(id: string, values: { credentialsEncrypted?: string; status?: string; baseUrl?: string }): Promise<ConnectionRow | undefined> {
    const [row] = await this.db
      .update(connections)
      .set({ ...values, updatedAt: sql`date_trunc('milliseconds', now())` })
      .where(eq(connections.id, id))
      .returning();
    return row;
  }

  /** An event about a connection, with its webhook deliveries. */
  async insertEvent(projectId: string, event: EventInput): Promise<void> {
    const connectionId = typeof event.payload.id_connection === 'string' ? event.payload.id_connection : null;
    await insertEvents(this.db, [{ projectId, connectionId, type: event.type, payload: event.payload }]);
  }
}
