/**
 * Zendesk list pagination: cursor pagination (`page[size]`, `page[after]`, `page[before]`
 * → `meta.{has_more,after_cursor,before_cursor}` + `links.{next,prev}`) and the legacy
 * offset pagination (`page`, `per_page` → `next_page`, `previous_page`, `count`) used when
 * no `page[...]` parameter is given.
 */
export type Query = Record<string, string | string[]>;

/** A response other than 2xx raised by a handler. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export function q1(query: Query, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function invalidPagination(description: string): HttpError {
  return new HttpError(400, { error: 'InvalidPaginationParameter', description });
}

type Key = [number | string, number];

function cmpKey(a: Key, b: Key): number {
  if (a[0] < b[0]) return -1;
  if (a[0] > b[0]) return 1;
  return a[1] - b[1];
}

function encodeCursor(sort: string, key: Key): string {
  return Buffer.from(JSON.stringify({ o: sort, v: key })).toString('base64');
}

function decodeCursor(sort: string, cursor: string): Key {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { o?: unknown; v?: unknown };
    if (parsed.o !== sort) throw new Error('sort mismatch');
    const v = parsed.v;
    if (!Array.isArray(v) || v.length !== 2 || typeof v[1] !== 'number') throw new Error('bad key');
    return v as Key;
  } catch {
    throw invalidPagination(`page[after]/page[before] cursor is invalid for sort "${sort}"`);
  }
}

export function withQuery(base: string, query: Query, overrides: Record<string, string | undefined>, drop: string[] = []): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (k in overrides || drop.includes(k)) continue;
    for (const x of Array.isArray(v) ? v : [v]) sp.append(k, x);
  }
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) sp.set(k, v);
  const s = sp.toString();
  return s ? `${base}?${s}` : base;
}

export interface PaginateOptions<T> {
  /** Items in list order (already sorted by `sort`, ties by id). */
  items: T[];
  /** Sort value and id of an item, consistent with the list order (for descending sorts, negate or invert). */
  key: (item: T) => Key;
  /** `true` when `items` are in descending key order. */
  descending?: boolean;
  /** Sort name embedded in cursors (a cursor is only valid for the same sort). */
  sort: string;
  query: Query;
  /** Absolute URL of the endpoint, e.g. `http://127.0.0.1:1234/api/v2/tickets.json`. */
  baseUrl: string;
  maxPageSize?: number;
}

function parsePositiveInt(raw: string | undefined, name: string, max: number, dflt: number): number {
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d+$/.test(raw)) throw invalidPagination(`${name} must be a positive integer`);
  const n = Number(raw);
  if (n < 1) throw invalidPagination(`${name} must be greater than 0`);
  if (n > max) throw invalidPagination(`${name} must be less than or equal to ${max}`);
  return n;
}

/** Returns the page of items plus the pagination members to merge into the response object. */
export function paginate<T>(o: PaginateOptions<T>): { page: T[]; members: Record<string, unknown> } {
  const { items, query } = o;
  const max = o.maxPageSize ?? 100;
  const sizeRaw = q1(query, 'page[size]');
  const after = q1(query, 'page[after]');
  const before = q1(query, 'page[before]');

  if (sizeRaw === undefined && after === undefined && before === undefined) {
    // Offset pagination.
    const perPage = parsePositiveInt(q1(query, 'per_page'), 'per_page', max, max);
    const pageNo = parsePositiveInt(q1(query, 'page'), 'page', Number.MAX_SAFE_INTEGER, 1);
    const start = (pageNo - 1) * perPage;
    const page = items.slice(start, start + perPage);
    const next = start + perPage < items.length ? withQuery(o.baseUrl, query, { page: String(pageNo + 1), per_page: String(perPage) }) : null;
    const prev = pageNo > 1 ? withQuery(o.baseUrl, query, { page: String(pageNo - 1), per_page: String(perPage) }) : null;
    return { page, members: { next_page: next, previous_page: prev, count: items.length } };
  }

  const size = parsePositiveInt(sizeRaw, 'page[size]', max, max);
  const dir = o.descending ? -1 : 1;
  const ordered = (a: Key, b: Key) => dir * cmpKey(a, b);
  // first index whose key is ordered after `k`
  const upper = (k: Key) => {
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ordered(o.key(items[mid] as T), k) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // first index whose key is ordered at or after `k`
  const lower = (k: Key) => {
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ordered(o.key(items[mid] as T), k) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  let start: number;
  let end: number;
  let hasMore: boolean;
  if (before !== undefined && after === undefined) {
    end = lower(decodeCursor(o.sort, before));
    start = Math.max(0, end - size);
    hasMore = start > 0;
  } else {
    start = after !== undefined ? upper(decodeCursor(o.sort, after)) : 0;
    end = Math.min(items.length, start + size);
    hasMore = end < items.length;
  }
  const page = items.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  const afterCursor = last === undefined ? null : encodeCursor(o.sort, o.key(last));
  const beforeCursor = first === undefined ? null : encodeCursor(o.sort, o.key(first));
  const drop = ['page[after]', 'page[before]'];
  return {
    page,
    members: {
      meta: { has_more: hasMore, after_cursor: afterCursor, before_cursor: beforeCursor },
      links: {
        next: afterCursor ? withQuery(o.baseUrl, query, { 'page[size]': String(size), 'page[after]': afterCursor }, drop) : null,
        prev: beforeCursor ? withQuery(o.baseUrl, query, { 'page[size]': String(size), 'page[before]': beforeCursor }, drop) : null,
      },
    },
  };
}
