/**
 * GitHub request helpers shared by sync and writes: Link-header pagination to the last page, the repositories of
 * the connection, the token's user and its push access per repository. Everything goes through the
 * connection's client (`ctx.http`).
 */
import { ConnectionCache, nextLink } from '../kit';
import { AppError } from '../../core/errors';
import { ProviderError, type RequestOptions } from '../http-client';
import type { AdapterContext } from '../types';
import type { GhRepository, GhUser } from './types';
import { PROVIDER, repoPath, sinceParam, type RepoRef } from './util';

export interface GithubAdapterOptions {
  /** `per_page` of lists (GitHub allows at most 100). */
  pageSize?: number;
  /** How long the token's user (GET /user) is remembered per connection. Default 5 min. */
  viewerCacheMs?: number;
  /** How long a repository's permissions (GET /repos/{owner}/{repo}) are remembered per connection. Default 60 s. */
  permissionCacheMs?: number;
}

export type ResolvedOptions = Required<GithubAdapterOptions>;

export function resolveOptions(o: GithubAdapterOptions = {}): ResolvedOptions {
  return {
    pageSize: Math.min(100, Math.max(1, o.pageSize ?? 100)),
    viewerCacheMs: Math.max(0, o.viewerCacheMs ?? 5 * 60_000),
    permissionCacheMs: Math.max(0, o.permissionCacheMs ?? 60_000),
  };
}

export const isStatus = (err: unknown, ...statuses: number[]) => err instanceof ProviderError && statuses.includes(err.providerStatus);


export interface Page<T> {
  items: T[];
  /** Absolute URL of the next page (from the Link header), null on the last page. */
  next: string | null;
}

/**
 * Walks a page-based list to the last page: the first request is `path` with `query` (and
 * `per_page`), then each `rel="next"` link as GitHub gives it. `from` continues at a saved next link.
 */
export async function* pages<T>(
  ctx: AdapterContext,
  o: ResolvedOptions,
  path: string,
  opts: { query?: RequestOptions['query']; from?: string | null; headers?: Record<string, string> } = {},
): AsyncGenerator<Page<T>> {
  let url: string | null = opts.from ?? null;
  let first = !url;
  const seen = new Set<string>();
  for (;;) {
    const res = first
      ? await ctx.http.request<T[]>('GET', path, { query: { ...opts.query, per_page: o.pageSize }, headers: opts.headers })
      : await ctx.http.request<T[]>('GET', url!, { headers: opts.headers });
    first = false;
    if (!Array.isArray(res.data)) {
      throw new AppError('provider_error', `GitHub answered ${path} with something other than a list`, { provider: PROVIDER, provider_status: res.status });
    }
    const next = nextLink(res.headers.link);
    yield { items: res.data, next };
    if (!next || seen.has(next)) return;
    seen.add(next);
    url = next;
  }
}

/** Where a walk by update time goes on: the second it has reached, and the page within that second. */
interface UpdatedPosition {
  since: string | null;
  page: number;
}

function parseUpdatedPosition(from: string | null | undefined): UpdatedPosition | undefined {
  if (!from) return undefined;
  try {
    const p = JSON.parse(from) as UpdatedPosition;
    if ((p.since === null || typeof p.since === 'string') && Number.isSafeInteger(p.page) && p.page >= 1) return p;
  } catch {
    // a next-page URL saved by an older version: that list starts over
  }
  return undefined;
}


/**
 * Walks a list that can be sorted by `updated` ascending and filtered by `since` (issues, comments), by
 * time rather than by page number: each request asks for the first page of what changed since the last
 * item read (GitHub's `since` includes that second). With page numbers, an item deleted from a page already
 * read moves every later one back, so the first item of the next page would never be read; here a
 * deletion or change moves nothing onto pages already read (a changed item comes again at the end, saved
 * once by its remote id; unchanged ones of the second read again are left out). Only when a whole page shares one second does it go on with the next page of
 * that second. `next` is the position to resume at (JSON), null after the last page.
 */
export async function* updatedSincePages<T extends { id?: number; updated_at?: string | null }>(
  ctx: AdapterContext,
  o: ResolvedOptions,
  path: string,
  opts: { query?: RequestOptions['query']; since?: string; from?: string | null; headers?: Record<string, string> },
): AsyncGenerator<Page<T>> {
  let at: UpdatedPosition = parseUpdatedPosition(opts.from) ?? { since: opts.since ?? null, page: 1 };
  // Items of the last second read, unchanged since: the next page starts with them again, skip them there.
  let alreadyRead = new Set<string>();
  const versionOf = (x: T) => `${x?.id}@${x?.updated_at}`;
  for (;;) {
    const res = await ctx.http.request<T[]>('GET', path, {
      query: { ...opts.query, sort: 'updated', direction: 'asc', since: at.since ?? undefined, per_page: o.pageSize, page: at.page },
      headers: opts.headers,
    });
    if (!Array.isArray(res.data)) {
      throw new AppError('provider_error', `GitHub answered ${path} with something other than a list`, { provider: PROVIDER, provider_status: res.status });
    }
    const lastUpdated = res.data.map((x) => x?.updated_at).filter((t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t))).pop();
    let next: UpdatedPosition | null = null;
    if (nextLink(res.headers.link) && res.data.length > 0) {
      const second = lastUpdated ? (sinceParam(new Date(lastUpdated)) ?? null) : at.since;
      next = second === at.since ? { since: at.since, page: at.page + 1 } : { since: second, page: 1 };
    }
    yield { items: res.data.filter((x) => !alreadyRead.has(versionOf(x))), next: next && JSON.stringify(next) };
    if (!next) return;
    alreadyRead = new Set(res.data.filter((x) => typeof x?.updated_at === 'string' && sinceParam(new Date(x.updated_at)) === next!.since).map(versionOf));
    at = next;
  }
}

/**
 * Every repository the token's user can work with (`GET /user/repos`: owned, collaborator and
 * organisation-member repositories), sorted by full name (case-insensitive) so runs resume in order.
 */
export async function listRepos(ctx: AdapterContext, o: ResolvedOptions): Promise<GhRepository[]> {
  const out: GhRepository[] = [];
  for await (const page of pages<GhRepository>(ctx, o, '/user/repos', { query: { sort: 'full_name', direction: 'asc' } })) out.push(...page.items);
  return out.filter((r) => r && typeof r.full_name === 'string').sort((a, b) => compareNames(a.full_name, b.full_name));
}

export const compareNames = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

const remembered = new ConnectionCache(10 * 60_000);

/** The login of the token's user (`GET /user`), remembered per connection for `viewerCacheMs`. */
export function viewerLogin(ctx: AdapterContext, o: ResolvedOptions): Promise<string> {
  return remembered.get(ctx, 'viewer', async () => {
    const res = await ctx.http.request<GhUser>('GET', '/user');
    const login = res.data?.login;
    if (typeof login !== 'string' || login === '') throw new AppError('provider_error', 'GitHub did not name the token\'s user', { provider: PROVIDER });
    return login;
  }, false, o.viewerCacheMs);
}

/**
 * Whether the token's user may set labels and assignees in the repository (push, maintain or admin):
 * GitHub silently drops them otherwise. Undefined when GitHub does not say (no `permissions`).
 */
export function canPush(ctx: AdapterContext, o: ResolvedOptions, repo: RepoRef): Promise<boolean | undefined> {
  return remembered.get(ctx, `push\u0000${repo.owner.toLowerCase()}/${repo.repo.toLowerCase()}`, async () => {
    const p = (await ctx.http.request<GhRepository>('GET', repoPath(repo))).data?.permissions;
    return p ? Boolean(p.push || p.maintain || p.admin) : undefined;
  }, false, o.permissionCacheMs);
}

