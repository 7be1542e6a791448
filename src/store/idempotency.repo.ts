import { and, eq, lt, sql } from 'drizzle-orm';
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
  async claim(scope: IdempotencyScope, requestHash: string, expiresAt: Date): Promise<{ claimed: boolean; row: IdempotencyRow }> {
    const [claimed] = await this.db
      .insert(idempotencyKeys)
      .values({ ...scope, requestHash, state: 'in_progress', expiresAt })
      .onConflictDoUpdate({
        target: [idempotencyKeys.projectId, idempotencyKeys.method, idempotencyKeys.path, idempotencyKeys.key],
        set: {
          requestHash,
          state: 'in_progress',
          responseStatus: null,
          responseBody: null,
          responseContentType: null,
          createdAt: sql`date_trunc('milliseconds', now())`,
          expiresAt,
        },
        setWhere: lt(idempotencyKeys.expiresAt, sql`now()`),
      })
      .returning();
    if (claimed) return { claimed: true, row: claimed };
    const [row] = await this.db.select().from(idempotencyKeys).where(inScope(scope));
    return { claimed: false, row: row! };
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

  async purgeExpired(): Promise<number> {
    const rows = await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`)).returning({ key: idempotencyKeys.key });
    return rows.length;
  }
}
