/**
 * Intercom request helpers: the connection's own admin (`GET /me`), the workspace's ticket types (with
 * their states and attributes), and the two list forms — cursor pages (`pages.next.starting_after`) and
 * ticket search. All calls go through `ctx.http`.
 */
import { ConnectionCache } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { IcAdmin, IcPages, IcTicket, IcTicketType } from './types';
import { PROVIDER } from './util';

export interface IntercomAdapterOptions {
  /** `per_page` of lists and searches (Intercom allows up to 150). */
  pageSize?: number;
  /** How long the connection's admin and ticket types are remembered, in ms. */
  cacheMs?: number;
}
export type ResolvedOptions = Required<IntercomAdapterOptions>;
export const resolveOptions = (o: IntercomAdapterOptions = {}): ResolvedOptions => ({
  pageSize: Math.min(150, Math.max(1, o.pageSize ?? 150)),
  cacheMs: Math.max(0, o.cacheMs ?? 5 * 60_000),
});

const cache = new ConnectionCache(5 * 60_000);
const remembered = <T>(ctx: AdapterContext, o: ResolvedOptions, what: string, load: () => Promise<T>): Promise<T> => cache.get(ctx, what, load, false, o.cacheMs);

/** The admin the token acts for (`GET /me`). */
export function me(ctx: AdapterContext, o: ResolvedOptions): Promise<IcAdmin> {
  return remembered(ctx, o, 'me', async () => {
    const res = await ctx.http.get<IcAdmin>('/me');
    if (!res.data || typeof res.data.id !== 'string') throw new ProviderError(PROVIDER, 401, 'the token was not accepted (Intercom did not name its admin)', res.data);
    return res.data;
  });
}

export function ticketTypes(ctx: AdapterContext, o: ResolvedOptions): Promise<IcTicketType[]> {
  return remembered(ctx, o, 'ticket_types', async () => {
    const res = await ctx.http.get<{ data?: IcTicketType[] }>('/ticket_types');
    return (res.data?.data ?? []).filter((t) => t && typeof t.id === 'string');
  });
}

/** Walks a cursor-paginated list (`per_page`, `starting_after` → `pages.next.starting_after`). */
export async function* cursorPages<T>(ctx: AdapterContext, path: string, o: ResolvedOptions, key: string, from?: string): AsyncGenerator<{ items: T[]; next: string | null }> {
  let after = from;
  for (;;) {
    const res = await ctx.http.get<Record<string, unknown> & { pages?: IcPages | null }>(path, { query: { per_page: o.pageSize, starting_after: after } });
    const items = (Array.isArray(res.data?.[key]) ? res.data[key] : []) as T[];
    const next = res.data?.pages?.next?.starting_after ?? null;
    yield { items, next };
    if (!next || next === after) return;
    after = next;
  }
}

/**
 * A search value whose `>` covers every second from `sinceUnix` on. Intercom matches a timestamp in a search
 * by calendar day of the workspace's zone, `>` from the start of the next day (Search contacts, "Searching
 * for Timestamp Fields"): `updated_at > since` would leave out the rest of since's day. Two days earlier
 * covers any zone and a 25-hour day; the caller drops what changed before `sinceUnix`.
 */
const daySafeSince = (sinceUnix: number) => (sinceUnix > 0 ? sinceUnix - 2 * 86_400 : 0);

/** One page of `POST /tickets/search` for tickets updated at or after `sinceUnix` (and some before it: `daySafeSince`). */
export async function searchTickets(ctx: AdapterContext, o: ResolvedOptions, sinceUnix: number, after?: string): Promise<{ tickets: IcTicket[]; next: string | null }> {
  const res = await ctx.http.post<{ tickets?: IcTicket[]; pages?: IcPages | null }>('/tickets/search', {
    read: true,
    json: { query: { field: 'updated_at', operator: '>', value: daySafeSince(sinceUnix) }, pagination: { per_page: o.pageSize, ...(after ? { starting_after: after } : {}) } },
  });
  return { tickets: (res.data?.tickets ?? []).filter((t) => t && typeof t.id === 'string'), next: res.data?.pages?.next?.starting_after ?? null };
}
