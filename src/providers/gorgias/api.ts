/**
 * Gorgias request helpers shared by sync and writes: cursor pagination to the last page, pacing against
 * the account's leaky bucket, and the connection's own user. All calls go through `ctx.http`.
 */
import { ConnectionCache } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import { CALL_LIMIT_HEADER, parseCallLimit } from './http';
import type { GgList, GgUser } from './types';
export { isNotFound } from '../kit';

export interface GorgiasAdapterOptions {
  /** `limit` of list calls (Gorgias allows 1–100, default 30). */
  pageSize?: number;
  /**
   * Syncs slow down when the `X-Gorgias-Account-Api-Call-Limit` header leaves this many calls or fewer
   * (0 disables pacing; 429s are still retried by the HTTP client).
   */
  paceWhenRemaining?: number;
  /** Longest pause taken for pacing, in ms. */
  maxPaceMs?: number;
  /** How long the connection's own user (the sender of agent messages) is remembered, in ms. */
  selfCacheMs?: number;
}

export type ResolvedOptions = Required<GorgiasAdapterOptions>;

export function resolveOptions(o: GorgiasAdapterOptions = {}): ResolvedOptions {
  return {
    pageSize: Math.min(100, Math.max(1, o.pageSize ?? 100)),
    paceWhenRemaining: Math.max(0, o.paceWhenRemaining ?? 3),
    maxPaceMs: Math.max(0, o.maxPaceMs ?? 10_000),
    selfCacheMs: Math.max(0, o.selfCacheMs ?? 10 * 60_000),
  };
}

type Query = Record<string, string | number | boolean | undefined>;

export interface Page<T> {
  items: T[];
  /** `meta.next_cursor` (null on the last page). */
  next: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits when the account's bucket is nearly full. The bucket leaks `limit` calls per 20 s window
 * (documented for API keys and OAuth apps; Enterprise windows are shorter, so this errs on the slow side).
 */
export async function pace(headers: Record<string, string>, o: ResolvedOptions): Promise<void> {
  if (o.paceWhenRemaining === 0) return;
  const cl = parseCallLimit(headers[CALL_LIMIT_HEADER]);
  if (!cl || cl.remaining > o.paceWhenRemaining || cl.limit === 0) return;
  const leakPerSecond = cl.limit / 20;
  const waitMs = Math.ceil(((o.paceWhenRemaining + 1 - cl.remaining) / leakPerSecond) * 1000);
  await sleep(Math.min(o.maxPaceMs, waitMs));
}

/**
 * Walks a cursor-paginated list (`cursor`, `limit` → `meta.next_cursor`) from `cursor` (or the start) to
 * the last page. Gorgias replaced offset pagination with cursors on every list endpoint in 2022; cursors
 * are short-lived, so a saved one may be refused (see `isStaleCursor`). A bare array answer is one page.
 */
export async function* listPages<T>(
  ctx: AdapterContext,
  path: string,
  o: ResolvedOptions,
  opts: { query?: Query; cursor?: string | null } = {},
): AsyncGenerator<Page<T>> {
  let cursor = opts.cursor ?? undefined;
  for (;;) {
    const res = await ctx.http.get<GgList<T> | T[]>(path, { query: { ...opts.query, limit: o.pageSize, cursor } });
    const body = res.data;
    const items = (Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : []) as T[];
    const next = Array.isArray(body) ? null : (body?.meta?.next_cursor ?? null);
    yield { items, next };
    if (!next || next === cursor) return;
    await pace(res.headers, o);
    cursor = next;
  }
}

/** A saved cursor Gorgias no longer accepts (they expire): the run starts over instead of failing. */
export const isStaleCursor = (e: unknown) => e instanceof ProviderError && (e.providerStatus === 400 || e.providerStatus === 404);

const selfCache = new ConnectionCache(10 * 60_000);

/**
 * The user the connection acts as (`GET /api/users/0` answers the authenticated user), remembered per
 * connection for `selfCacheMs`. Agent messages name it as their sender when no user_id is given.
 */
export function currentUserId(ctx: AdapterContext, o: ResolvedOptions): Promise<number> {
  return selfCache.get(ctx, `me\u0000${ctx.credentials.email ?? ''}`, async () => {
    const res = await ctx.http.get<GgUser>('/api/users/0');
    const id = res.data?.id;
    if (typeof id !== 'number') throw new ProviderError('gorgias', 502, 'GET /api/users/0 did not name the current user', res.data);
    return id;
  }, false, o.selfCacheMs);
}
