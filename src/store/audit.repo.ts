import { eq, gte, like, lt, sql } from 'drizzle-orm';
import { deleteSlice, PURGE_SLICE } from './purge';
import type { Database } from './database';
import { auditLog } from './schema';
import { dateKey, keysetPage, parseDateKey, whereAll, type Page, type PageRequest } from './pagination';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditInsert = typeof auditLog.$inferInsert;

export interface AuditFilter {
  /** An exact action (`connection.created`) or every action of an object (`connection.`). */
  action?: string;
  actorId?: string;
  targetId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

export class AuditRepo {
  constructor(private readonly db: Database) {}

  async insert(entry: AuditInsert): Promise<void> {
    await this.db.insert(auditLog).values(entry);
  }

  /** A project's entries, newest first. */
  list(projectId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditRow>> {
    const action = filter.action?.endsWith('.') ? like(auditLog.action, `${filter.action.replace(/[%_\\]/g, '\\$&')}%`) : filter.action ? eq(auditLog.action, filter.action) : undefined;
    const conditions = whereAll(
      eq(auditLog.projectId, projectId),
      action,
      filter.actorId ? eq(auditLog.actorId, filter.actorId) : undefined,
      filter.targetId ? eq(auditLog.targetId, filter.targetId) : undefined,
      filter.createdAfter ? gte(auditLog.createdAt, filter.createdAfter) : undefined,
      filter.createdBefore ? lt(auditLog.createdAt, filter.createdBefore) : undefined,
    );
    return keysetPage<AuditRow>({
      sortColumn: auditLog.createdAt,
      idColumn: auditLog.id,
      keyOf: (r) => [dateKey(r.createdAt), r.id],
      parseSortValue: parseDateKey,
      newestFirst: true,
      page,
      fetch: (cursor, order, limit) =>
        this.db
          .select()
          .from(auditLog)
          .where(whereAll(conditions, cursor))
          .orderBy(...order)
          .limit(limit),
    });
  }

  /** Deletes up to `limit` entries older than `cutoff`; says how many went. */
  purgeBefore(cutoff: Date, limit = PURGE_SLICE): Promise<number> {
    return deleteSlice(this.db, auditLog, [auditLog.id], lt(auditLog.createdAt, sql`${cutoff.toISOString()}::timestamptz`), limit);
  }
}
