import { and, eq, lt, or, sql } from 'drizzle-orm';
import { deleteSlice, PURGE_SLICE } from './purge';
import type { Database } from './database';
import { idempotencyKeys } from './schema';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
export type IdempotencyScope = Pick<IdempotencyRow, 'projectId' | 'method' | 'path' | 'key'>;

const inScope = (s: IdempotencyScope) =>
  and(eq(idempotencyKeys.projectId, s.projectId), eq(idempotencyKeys.method, s.method), eq(idempotencyKeys.path, s.path), eq(idempotencyKeys.key, s.key));

export class IdempotencyRepo {
  constructor(private readonly db: Database) {}

  /**
   * Claims the key for a request (one statement: of two concurrent requests exactly one gets `claimed`),
   * or returns the row already there. An expired row is replaced as if it were not there.
   */
  async claim(scope: IdempotencyScope, requestHash: string, expiresAt: Date, owner: string): Promise<{ claimed: boolean; row: IdempotencyRow }> {
    const [claimed] = await this.db
      .insert(idempotencyKeys)
      .values({ ...scope, requestHash, state: 'in_progress', expiresAt, owner })
      .onConflictDoUpdate({
        target: [idempotencyKeys.projectId, idempotencyKeys.method, idempotencyKeys.path, idempotencyKeys.key],
        set: {
          requestHash,
          state: 'in_progress',
          responseStatus: null,
          responseBody: null,
          responseContentType: null,
          createdAt: sql`date_trunc('milliseconds', now())`,
          heartbeatAt: sql`date_trunc('milliseconds', now())`,
          owner,
          expiresAt,
        },
        setWhere: lt(idempotencyKeys.expiresAt, sql`now()`),
      })
      .returning();
    if (claimed) return { claimed: true, row: claimed };
    const [row] = await this.db.select().from(idempotencyKeys).where(inScope(scope));
    return { claimed: false, row: row! };
  }

  /**
   * Takes over a claim whose owner stopped: its heartbeat is older than `staleMs` (or, with `foreignIsDead`,
   * it belongs to another process at all: the embedded database has one). A claim of this process that no
   * request runs any more (its answer could not be kept) stops beating too. Of two retries exactly one gets it.
   */
  async takeOver(scope: IdempotencyScope, owner: string, staleMs: number, foreignIsDead: boolean): Promise<IdempotencyRow | undefined> {
    const silent = lt(idempotencyKeys.heartbeatAt, sql`now() - make_interval(secs => ${staleMs / 1000})`);
    const stale = foreignIsDead ? or(sql`${idempotencyKeys.owner} is distinct from ${owner}`, silent) : silent;
    const [row] = await this.db
      .update(idempotencyKeys)
      .set({ owner, heartbeatAt: sql`date_trunc('milliseconds', now())` })
      .where(and(inScope(scope), eq(idempotencyKeys.state, 'in_progress'), stale))
      .returning();
    return row;
  }

  /** The owner's claims still running are alive. */
  async heartbeat(owner: string, scopes: IdempotencyScope[]): Promise<void> {
    if (scopes.length === 0) return;
    await this.db
      .update(idempotencyKeys)
      .set({ heartbeatAt: sql`date_trunc('milliseconds', now())` })
      .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.state, 'in_progress'), or(...scopes.map(inScope))));
  }

  async complete(scope: IdempotencyScope, response: { status: number; body: string; contentType: string | null }): Promise<void> {
    await this.db
      .update(idempotencyKeys)
      .set({ state: 'done', responseStatus: response.status, responseBody: response.body, responseContentType: response.contentType })
      .where(inScope(scope));
  }

  /** Forgets a claim, so that the key can be used again (the request provably did nothing). */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.db.delete(idempotencyKeys).where(and(inScope(scope), eq(idempotencyKeys.state, 'in_progress')));
  }

  /** Deletes up to `limit` expired keys; says how many went. */
  purgeExpired(limit = PURGE_SLICE): Promise<number> {
    return deleteSlice(this.db, idempotencyKeys, [idempotencyKeys.id], lt(idempotencyKeys.expiresAt, sql`now()`), limit);
  }
}
