/**
 * Zendesk request helpers shared by sync and writes: cursor pagination, cursor-based incremental
 * exports, and user roles. Everything goes through the connection's client (`ctx.http`).
 */
import type { AdapterContext } from '../types';
import type { ZdCursorPage, ZdDeletedTicket, ZdExportPage, ZdRole, ZdTicketEvent, ZdTimeExportPage, ZdUser } from './types';
export { isNotFound } from '../kit';

export interface ZendeskAdapterOptions {
  /** `page[size]` of cursor-paginated lists (Zendesk allows at most 100). */
  listPageSize?: number;
  /**
   * `per_page` of the cursor-based ticket and user exports (Zendesk allows at most 1000). The ticket
   * event export (comments) always pages by 1000 events.
   */
  exportPageSize?: number;
  /**
   * Zendesk refuses a `start_time` within the last minute; `since` is kept at least this far in the
   * past (default 65 s: Zendesk's minute plus a margin for clock skew).
   */
  exportLagSeconds?: number;
  /** First wait before polling a bulk job; doubles up to 2 s. */
  jobPollIntervalMs?: number;
  /** Longest total wait for a bulk job before its items are answered as timed out. */
  jobTimeoutMs?: number;
}

export type ResolvedOptions = Required<ZendeskAdapterOptions>;

export function resolveOptions(o: ZendeskAdapterOptions = {}): ResolvedOptions {
  return {
    listPageSize: Math.min(100, Math.max(1, o.listPageSize ?? 100)),
    exportPageSize: Math.min(1000, Math.max(1, o.exportPageSize ?? 1000)),
    exportLagSeconds: Math.max(0, o.exportLagSeconds ?? 65),
    jobPollIntervalMs: Math.max(1, o.jobPollIntervalMs ?? 200),
    jobTimeoutMs: Math.max(1, o.jobTimeoutMs ?? 60_000),
  };
}

type Query = Record<string, string | number | boolean | undefined>;

export interface ListPage<T> {
  items: T[];
  body: Record<string, unknown>;
  /** `page[after]` of the next page (null when none). */
  after: string | null;
  last: boolean;
}

/** Walks a cursor-paginated list (`page[size]`, `page[after]` → `meta.has_more`, `meta.after_cursor`) to the last page. */
export async function* cursorPages<T>(
  ctx: AdapterContext,
  path: string,
  key: string,
  opts: { pageSize: number; query?: Query; after?: string | null },
): AsyncGenerator<ListPage<T>> {
  let after = opts.after ?? undefined;
  for (;;) {
    const res = await ctx.http.get<Record<string, unknown> & ZdCursorPage>(path, {
      query: { ...opts.query, 'page[size]': opts.pageSize, 'page[after]': after },
    });
    const body = res.data ?? {};
    const items = (Array.isArray(body[key]) ? body[key] : []) as T[];
    const next = body.meta?.has_more === true ? (body.meta.after_cursor ?? null) : null;
    yield { items, body, after: body.meta?.after_cursor ?? null, last: next === null };
    if (next === null || next === after) return;
    after = next;
  }
}

export interface ExportPage<T> {
  items: T[];
  body: Record<string, unknown>;
  /** Cursor to continue after this page. */
  after: string | null;
  last: boolean;
}

/** The `start_time` for an incremental export: 0 for a full run, else `since`, at least `lag` seconds in the past. */
export function exportStartTime(since: Date | undefined, lagSeconds: number, now = Date.now()): number {
  if (!since) return 0;
  const latest = Math.floor(now / 1000) - lagSeconds;
  return Math.max(0, Math.min(Math.floor(since.getTime() / 1000), latest));
}

/**
 * Walks a cursor-based incremental export (`/api/v2/incremental/{resource}/cursor`) from `start_time`
 * or from a saved cursor, page by page, until `end_of_stream`.
 */
export async function* exportPages<T>(
  ctx: AdapterContext,
  resource: 'tickets' | 'users',
  opts: { startTime: number; cursor?: string; perPage: number; query?: Query },
): AsyncGenerator<ExportPage<T>> {
  let cursor = opts.cursor;
  for (;;) {
    const query: Query = { ...opts.query, per_page: opts.perPage, ...(cursor ? { cursor } : { start_time: opts.startTime }) };
    const res = await ctx.http.get<Record<string, unknown> & ZdExportPage>(`/api/v2/incremental/${resource}/cursor`, { query });
    const body = res.data ?? {};
    const items = (Array.isArray(body[resource]) ? body[resource] : []) as T[];
    const after = body.after_cursor ?? null;
    const last = body.end_of_stream !== false || !after || after === cursor;
    yield { items, body, after, last };
    if (last) return;
    cursor = after;
  }
}

export interface TicketEventPage {
  /** The page's events, less those the previous page already gave (time-based pages repeat their boundary second). */
  events: ZdTicketEvent[];
  /** `start_time` of the next page (Zendesk's `end_time`). */
  next: number;
  last: boolean;
}

/** Seconds of a ticket event: its `timestamp`, else its `created_at`. */
function eventSecond(e: ZdTicketEvent): number | undefined {
  if (typeof e.timestamp === 'number') return e.timestamp;
  const ms = typeof e.created_at === 'string' ? Date.parse(e.created_at) : NaN;
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * Walks the Incremental Ticket Event Export (`/api/v2/incremental/ticket_events`, time-based, 1000
 * events a page) from `start_time`, with the comments themselves (`include=comment_events`), until
 * `end_of_stream`. Each page's `end_time` is the next `start_time`; the events of that boundary second
 * come again on the next page and are left out of it.
 */
export async function* ticketEventPages(ctx: AdapterContext, opts: { startTime: number }): AsyncGenerator<TicketEventPage> {
  let start = opts.startTime;
  let boundary = new Set<number>();
  for (;;) {
    const res = await ctx.http.get<{ ticket_events?: ZdTicketEvent[] } & ZdTimeExportPage>('/api/v2/incremental/ticket_events', {
      query: { start_time: start, include: 'comment_events' },
    });
    const body = res.data ?? {};
    const all = (Array.isArray(body.ticket_events) ? body.ticket_events : []).filter((e): e is ZdTicketEvent => !!e && typeof e === 'object');
    const events = all.filter((e) => !(typeof e.id === 'number' && boundary.has(e.id)));
    const endTime = typeof body.end_time === 'number' && Number.isFinite(body.end_time) ? Math.floor(body.end_time) : start;
    const last = body.end_of_stream !== false || all.length === 0;
    // A page made only of `start`'s second that is not the end must still move on.
    const next = last ? Math.max(start, endTime) : endTime > start ? endTime : start + 1;
    boundary = new Set(all.filter((e) => typeof e.id === 'number' && eventSecond(e) === next).map((e) => e.id));
    yield { events, next, last };
    if (last) return;
    start = next;
  }
}

/** Ids of the soft-deleted tickets (`/api/v2/deleted_tickets`, cursor pagination, 100 a call). */
export async function deletedTicketIds(ctx: AdapterContext, pageSize: number): Promise<Set<number>> {
  const ids = new Set<number>();
  for await (const page of cursorPages<ZdDeletedTicket>(ctx, '/api/v2/deleted_tickets', 'deleted_tickets', { pageSize })) {
    for (const t of page.items) if (t && typeof t.id === 'number') ids.add(t.id);
  }
  return ids;
}

/** Roles of sideloaded users (`include=users`). */
export function rolesFromSideload(body: Record<string, unknown>, into = new Map<number, ZdRole>()): Map<number, ZdRole> {
  const users = Array.isArray(body.users) ? (body.users as ZdUser[]) : [];
  for (const u of users) if (u && typeof u.id === 'number' && u.role) into.set(u.id, u.role);
  return into;
}

/** Fills in the roles of the given users that `known` lacks (`/api/v2/users/show_many`, 100 ids a call). */
export async function lookupRoles(ctx: AdapterContext, userIds: Array<number | null | undefined>, known = new Map<number, ZdRole>()): Promise<Map<number, ZdRole>> {
  const missing = [...new Set(userIds.filter((id): id is number => typeof id === 'number' && !known.has(id)))];
  for (let i = 0; i < missing.length; i += 100) {
    const chunk = missing.slice(i, i + 100);
    const res = await ctx.http.get<{ users?: ZdUser[] }>('/api/v2/users/show_many', { query: { ids: chunk.join(',') } });
    rolesFromSideload(res.data ?? {}, known);
  }
  return known;
}

