/**
 * Freshdesk request helpers shared by sync and writes: page-numbered lists (`page`, `per_page` ≤ 100,
 * `Link: <…>; rel="next"` while more pages follow) and the connection's own agent. All calls go through
 * `ctx.http`.
 */
import { ConnectionCache, hasNextLink } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { FdAgent } from './types';
import { PROVIDER } from './util';
export { isNotFound } from '../kit';

export interface FreshdeskAdapterOptions {
  /** `per_page` of list calls (Freshdesk allows 1–100, default 30). */
  pageSize?: number;
  /** Pages of one ticket listing Freshdesk serves (it refuses `page` above 300); the walk restarts beyond. */
  maxTicketPages?: number;
  /** How long the connection's own agent is remembered, in ms. */
  selfCacheMs?: number;
}

export type ResolvedOptions = Required<FreshdeskAdapterOptions>;

export function resolveOptions(o: FreshdeskAdapterOptions = {}): ResolvedOptions {
  return {
    pageSize: Math.min(100, Math.max(1, o.pageSize ?? 100)),
    maxTicketPages: Math.min(300, Math.max(1, o.maxTicketPages ?? 300)),
    selfCacheMs: Math.max(0, o.selfCacheMs ?? 10 * 60_000),
  };
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface Page<T> {
  items: T[];
  page: number;
  /** The `Link` header names a next page. */
  more: boolean;
}

/** Freshdesk answers `Link: <https://…?page=3>; rel="next"` when another page follows. */
export const hasNext = (headers: Record<string, string>) => hasNextLink(headers.link);

/** One page of a list. */
export async function getPage<T>(ctx: AdapterContext, path: string, o: ResolvedOptions, page: number, query: Query = {}): Promise<Page<T>> {
  const res = await ctx.http.get<T[]>(path, { query: { ...query, page, per_page: o.pageSize } });
  const items = Array.isArray(res.data) ? res.data.filter((x) => x && typeof (x as { id?: unknown }).id === 'number') : [];
  return { items, page, more: hasNext(res.headers) && items.length > 0 };
}

/** Walks a list from `page` to the last page. */
export async function* listPages<T>(ctx: AdapterContext, path: string, o: ResolvedOptions, opts: { query?: Query; page?: number } = {}): AsyncGenerator<Page<T>> {
  for (let page = Math.max(1, opts.page ?? 1); ; page++) {
    const p = await getPage<T>(ctx, path, o, page, opts.query);
    yield p;
    if (!p.more) return;
  }
}

const selfCache = new ConnectionCache(10 * 60_000);

/** The agent the API key belongs to (`GET /api/v2/agents/me`), remembered per connection. */
export function currentAgentId(ctx: AdapterContext, o: ResolvedOptions): Promise<number> {
  return selfCache.get(ctx, 'me', async () => {
    const res = await ctx.http.get<FdAgent>('/api/v2/agents/me');
    const id = res.data?.id;
    if (typeof id !== 'number') throw new ProviderError(PROVIDER, 502, 'GET /api/v2/agents/me did not name the current agent', res.data);
    return id;
  }, false, o.selfCacheMs);
}
