import { and, asc, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database';
import { z } from 'zod';
import { AppError } from '../core/errors';
import { isUuid } from '../core/access';

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  prevCursor: string | null;
}

type CursorKey = [string, string];
interface CursorPayload {
  d: 'next' | 'prev';
  k: CursorKey;
}

/**
 * The exact shape of the cursors this API hands out: a direction and a (sort value, row id) pair of
 * strings, the id a UUID. Anything else never reaches a query; the sort value is checked by the
 * list's own `parseSortValue`.
 */
const cursorPayload = z.strictObject({
  d: z.enum(['next', 'prev']),
  k: z.tuple([z.string().min(1).max(64), z.string().refine(isUuid)]),
});

const notACursor = () => new AppError('validation_failed', 'cursor is not a cursor returned by this API', { field: 'cursor' });

export function encodeCursor(direction: 'next' | 'prev', key: CursorKey): string {
  return Buffer.from(JSON.stringify({ d: direction, k: key } satisfies CursorPayload)).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPayload {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notACursor();
  }
  const parsed = cursorPayload.safeParse(json);
  if (!parsed.success) throw notACursor();
  return parsed.data;
}

/** Where a page starts: the direction towards larger (sort key, id) pairs or smaller, and after (before) which pair. */
export interface Keyset {
  towardsLarger: boolean;
  from?: [unknown, string];
}

function sortValueOf(cursor: CursorPayload, parse: ((value: string) => unknown) | undefined): unknown {
  try {
    return parse ? parse(cursor.k[0]) : cursor.k[0];
  } catch {
    throw notACursor(); // one answer for every wrong cursor, whichever list refused its sort value
  }
}

/**
 * Keyset pagination over a (sortKey, id) pair in ascending order (or descending, `newestFirst`), both ways.
 * `fetch` runs one query with the extra condition, order and limit; one query per page.
 */
export async function keysetPage<T>(opts: {
  sortColumn: PgColumn;
  idColumn: PgColumn;
  keyOf: (row: T) => CursorKey;
  page: PageRequest;
  /** Descending order (the audit log: the latest entries first). */
  newestFirst?: boolean;
  /** Turns the cursor's sort value back into a query parameter (e.g. a Date). */
  parseSortValue?: (value: string) => unknown;
  /** `keyset` says the same as `condition` and `orderBy`, as values: for a prepared statement instead of built SQL. */
  fetch: (condition: SQL | undefined, orderBy: SQL[], limit: number, keyset: Keyset) => Promise<T[]>;
}): Promise<Page<T>> {
  const { sortColumn, idColumn, page } = opts;
  const cursor = page.cursor ? decodeCursor(page.cursor) : undefined;
  const backwards = cursor?.d === 'prev';
  // Walking towards larger keys: forwards in ascending order, backwards in descending order.
  const towardsLarger = backwards === Boolean(opts.newestFirst);
  let condition: SQL | undefined;
  if (cursor) {
    const sortValue = sortValueOf(cursor, opts.parseSortValue);
    condition = towardsLarger
      ? sql`(${sortColumn}, ${idColumn}) > (${sortValue}, ${cursor.k[1]})`
      : sql`(${sortColumn}, ${idColumn}) < (${sortValue}, ${cursor.k[1]})`;
  }
  const order = towardsLarger ? [asc(sortColumn), asc(idColumn)] : [desc(sortColumn), desc(idColumn)];
  const keyset: Keyset = { towardsLarger, from: condition ? [sortValueOf(cursor!, opts.parseSortValue), cursor!.k[1]] : undefined };
  const rows = await opts.fetch(condition, order, page.limit + 1, keyset);
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  if (backwards) items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  const moreAfter = backwards ? Boolean(cursor) : hasMore;
  const moreBefore = backwards ? hasMore : Boolean(cursor);
  return {
    items,
    nextCursor: moreAfter && last ? encodeCursor('next', opts.keyOf(last)) : null,
    prevCursor: moreBefore && first ? encodeCursor('prev', opts.keyOf(first)) : null,
  };
}

export const dateKey = (d: Date) => d.toISOString();
/** A cursor's timestamp: exactly the form `dateKey` writes (ISO 8601, UTC, milliseconds), so PostgreSQL takes it. */
export const parseDateKey = (v: string) => {
  const d = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v) || Number.isNaN(d.getTime()) || d.toISOString() !== v || d.getUTCFullYear() < 1) {
    throw notACursor();
  }
  return d;
};

export function whereAll(...conditions: (SQL | undefined)[]): SQL | undefined {
  return and(...conditions.filter((c): c is SQL => c !== undefined));
}

/** A table listed in creation order: control-plane objects (keys, linked users, connections, attributes …). */
type CreatedOrderTable = PgTable & { createdAt: PgColumn; id: PgColumn };

/** One page of `table` rows matching `conditions`, oldest first, with keyset cursors on (created_at, id). */
export function pageByCreation<T extends { createdAt: Date; id: string }>(
  db: Database,
  table: CreatedOrderTable,
  page: PageRequest,
  ...conditions: (SQL | undefined)[]
): Promise<Page<T>> {
  return keysetPage<T>({
    sortColumn: table.createdAt,
    idColumn: table.id,
    keyOf: (r) => [dateKey(r.createdAt), r.id],
    parseSortValue: parseDateKey,
    page,
    fetch: (cond, order, limit) =>
      db
        .select()
        .from(table)
        .where(whereAll(...conditions, cond))
        .orderBy(...order)
        .limit(limit) as unknown as Promise<T[]>,
  });
}
