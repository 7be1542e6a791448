/** Paging through __Display__'s listings: `page` and `per_page`, `has_more` while more follow (TODO(new-provider): the reference's Pagination section). */
import type { AdapterContext } from '../types';
import type { __Pascal__Page } from './types';

export interface __Pascal__AdapterOptions {
  /** Items per page (the documented maximum by default). */
  pageSize?: number;
}

export type ResolvedOptions = Required<__Pascal__AdapterOptions>;

export const resolveOptions = (o: __Pascal__AdapterOptions): ResolvedOptions => ({ pageSize: o.pageSize ?? 100 });

export type Query = Record<string, string | number | undefined>;

/** One page of a listing, and whether another follows. */
export async function getPage<T>(ctx: AdapterContext, path: string, o: ResolvedOptions, page: number, query: Query = {}): Promise<{ items: T[]; more: boolean }> {
  const res = await ctx.http.get<__Pascal__Page<T>>(path, { query: { ...query, page, per_page: o.pageSize } });
  const items = Array.isArray(res.data?.data) ? res.data.data : [];
  return { items, more: res.data?.has_more === true && items.length > 0 };
}

/** Every page of a listing from `from`, with its page number. */
export async function* listPages<T>(ctx: AdapterContext, path: string, o: ResolvedOptions, from = 1, query: Query = {}): AsyncGenerator<{ items: T[]; page: number; more: boolean }> {
  for (let page = from; ; page++) {
    const p = await getPage<T>(ctx, path, o, page, query);
    yield { ...p, page };
    if (!p.more) return;
  }
}
