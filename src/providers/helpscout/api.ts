/**
 * Mailbox API 2.0 request helpers shared by sync and writes. Lists are HAL pages (`page` from 1, 50 items a page
 * for most lists, 25 for conversations): items under `_embedded.<name>`, `_links.next` while more follow
 * (Overview → Pagination).
 */
import { ConnectionCache } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { HsPage, HsUser } from './types';
import { PROVIDER } from './util';
export { isNotFound } from '../kit';

export interface HelpScoutAdapterOptions {
  /** How long the connection's own user is remembered, in ms. */
  selfCacheMs?: number;
}

export type ResolvedOptions = Required<HelpScoutAdapterOptions>;

export const resolveOptions = (o: HelpScoutAdapterOptions = {}): ResolvedOptions => ({ selfCacheMs: Math.max(0, o.selfCacheMs ?? 10 * 60_000) });

export type Query = Record<string, string | number | boolean | undefined>;

export interface Page<T> {
  items: T[];
  page: number;
  more: boolean;
}

/** One page of a HAL list; `name` is the `_embedded` key. */
export async function getPage<T extends { id: number }>(ctx: AdapterContext, path: string, name: string, page: number, query: Query = {}): Promise<Page<T>> {
  const res = await ctx.http.get<HsPage<string, T>>(path, { query: { ...query, page } });
  const list = res.data?._embedded?.[name];
  const items = (Array.isArray(list) ? list : []).filter((x) => x && typeof x.id === 'number');
  const p = res.data?.page;
  const more = Boolean(res.data?._links?.next?.href) || (typeof p?.totalPages === 'number' && page < p.totalPages);
  return { items, page, more: more && items.length > 0 };
}

/** Walks a HAL list from `page` to its last page. */
export async function* listPages<T extends { id: number }>(ctx: AdapterContext, path: string, name: string, opts: { query?: Query; page?: number } = {}): AsyncGenerator<Page<T>> {
  for (let page = Math.max(1, opts.page ?? 1); ; page++) {
    const p = await getPage<T>(ctx, path, name, page, opts.query);
    yield p;
    if (!p.more) return;
  }
}

const selfCache = new ConnectionCache(10 * 60_000);

/** The user the token belongs to (`GET /v2/users/me`), remembered per connection. */
export function currentUser(ctx: AdapterContext, o: ResolvedOptions): Promise<HsUser> {
  return selfCache.get(ctx, 'me', async () => {
    const res = await ctx.http.get<HsUser>('/v2/users/me');
    if (typeof res.data?.id !== 'number') throw new ProviderError(PROVIDER, 502, 'GET /v2/users/me did not name the current user', res.data);
    return res.data;
  }, false, o.selfCacheMs);
}

/** The id Help Scout gives a created resource: the `Resource-ID` header (Create Conversation, Create Reply, …). */
export function resourceId(headers: Record<string, string>, what: string): number {
  const id = Number(headers['resource-id']);
  if (!Number.isInteger(id) || id < 1) throw new ProviderError(PROVIDER, 502, `Help Scout created the ${what} but did not name it (no Resource-ID)`, undefined);
  return id;
}
