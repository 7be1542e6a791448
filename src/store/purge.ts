import { inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database';

/** Rows housekeeping deletes in one statement: a request waits behind one such slice at most (issue 32). */
export const PURGE_SLICE = 1000;

/**
 * Deletes at most `limit` rows of `table` matching `where`, chosen by `key` (its primary key's columns), and
 * says how many went: callers repeat it, yielding between slices, until fewer than `limit` go.
 */
export async function deleteSlice(db: Database, table: PgTable, key: PgColumn[], where: SQL | undefined, limit = PURGE_SLICE): Promise<number> {
  const chosen = db.select(Object.fromEntries(key.map((c, i) => [`k${i}`, c]))).from(table).where(where).limit(limit);
  const condition = key.length === 1 ? inArray(key[0]!, chosen) : sql`(${sql.join(key, sql`, `)}) in ${chosen}`;
  const gone = await db.delete(table).where(condition).returning({ k: key[0]! });
  return gone.length;
}
