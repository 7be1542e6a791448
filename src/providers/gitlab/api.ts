/**
 * GitLab request helpers shared by sync and writes: the API root, offset pagination that follows the
 * `Link` / `X-Next-Page` headers to the last page, keyset listing of the member projects (`id_after`),
 * a (created_at, id) keyset over a project's issues, and the token's own user. Everything goes through
 * the connection's client (`ctx.http`).
 */
import { ConnectionCache, nextLink } from '../kit';
import { createHash } from 'node:crypto';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { GlCurrentUser, GlIssue, GlProject } from './types';

export interface GitlabAdapterOptions {
  /** `per_page` of every list (GitLab allows at most 100). */
  pageSize?: number;
  /** How long the token's own user id is remembered (checked when a comment names its author). */
  currentUserTtlMs?: number;
}

export type ResolvedOptions = Required<GitlabAdapterOptions>;

export function resolveOptions(o: GitlabAdapterOptions = {}): ResolvedOptions {
  return {
    pageSize: Math.min(100, Math.max(1, Math.floor(o.pageSize ?? 100))),
    currentUserTtlMs: Math.max(0, o.currentUserTtlMs ?? 10 * 60_000),
  };
}

const API_SUFFIX = /\/api\/v4\/?$/;

/**
 * The API root relative to the connection's base URL: `/api/v4`, or nothing when the base URL already
 * ends with `/api/v4` (a common way to type a self-managed instance's address).
 */
export function apiRoot(ctx: Pick<AdapterContext, 'baseUrl'>): string {
  return API_SUFFIX.test(ctx.baseUrl) ? '' : '/api/v4';
}

/** The instance's web address (for attachment links): the base URL without `/api/v4`. */
export function webBase(ctx: Pick<AdapterContext, 'baseUrl'>): string {
  return ctx.baseUrl.replace(API_SUFFIX, '').replace(/\/+$/, '');
}

type Query = Record<string, string | number | boolean | undefined>;

export interface Page<T> {
  items: T[];
  /** Query of the next page (same path), or null on the last page. */
  next: Query | null;
}

/**
 * The next page of a GitLab offset-paginated list: the `rel="next"` link (its query only, so that a
 * misconfigured external URL cannot send us elsewhere), else `X-Next-Page`; without either header
 * (a proxy dropped them) a full page means "try the next one". GitLab omits `X-Total(-Pages)` and the
 * `last` link above 10,000 records but always gives `next`.
 */
export function nextPageQuery(headers: Record<string, string>, current: Query, itemCount: number, perPage: number): Query | null {
  if (headers.link) {
    const next = nextLink(headers.link);
    if (!next) return null;
    try {
      const q: Query = {};
      for (const [k, v] of new URL(next, 'http://placeholder').searchParams) q[k] = v;
      return q;
    } catch {
      return null;
    }
  }
  if ('x-next-page' in headers) {
    const n = headers['x-next-page']?.trim();
    return n ? { ...current, page: n } : null;
  }
  return itemCount >= perPage && itemCount > 0 ? { ...current, page: Number(current.page ?? 1) + 1 } : null;
}

/** Walks an offset-paginated list to the last page. */
export async function* offsetPages<T>(ctx: AdapterContext, path: string, query: Query, perPage: number, start?: Query): AsyncGenerator<Page<T>> {
  let q: Query | null = start ?? { ...query, per_page: perPage };
  let guard = 0;
  while (q) {
    const res = await ctx.http.get<T[]>(path, { query: q });
    const items = Array.isArray(res.data) ? res.data : [];
    const next = nextPageQuery(res.headers, q, items.length, perPage);
    yield { items, next };
    if (!next || items.length === 0 || ++guard > 100_000) return;
    q = next;
  }
}

/**
 * The projects the token's user is a member of, with issues enabled (archived ones included: their
 * issues stay readable), in id order with keyset pagination (`id_after`), one page at a time; with
 * `minAccessLevel` (40: Maintainer) only those where the user has at least that role.
 */
export async function* memberProjects(ctx: AdapterContext, o: ResolvedOptions, idAfter?: number, minAccessLevel?: number): AsyncGenerator<GlProject[]> {
  let after = idAfter;
  for (;;) {
    const res = await ctx.http.get<GlProject[]>(`${apiRoot(ctx)}/projects`, {
      query: { membership: true, with_issues_enabled: true, min_access_level: minAccessLevel, order_by: 'id', sort: 'asc', per_page: o.pageSize, id_after: after },
    });
    const items = (Array.isArray(res.data) ? res.data : []).filter((p) => p && typeof p.id === 'number');
    if (items.length > 0) yield items;
    if (items.length < o.pageSize) return;
    const last = items[items.length - 1]!.id;
    if (after !== undefined && last <= after) return;
    after = last;
  }
}

/**
 * Position inside one project's issue listing: issues are read in (created_at, id) order with
 * `created_after=<after>` (inclusive), skipping the ids already read at exactly `after`. Unlike
 * offset pages, this neither skips nor repeats issues when others are created, updated or deleted
 * during the run (which matters: a full run marks unseen issues deleted). `page` only moves past a
 * page whose issues all share one creation time.
 */
export interface IssueCursor {
  after: string | null;
  skip: number[];
  page: number;
}

export interface IssuePage {
  items: GlIssue[];
  /** Where to continue in this project; null when the project is done. */
  cursor: IssueCursor | null;
}

export async function* projectIssuePages(
  ctx: AdapterContext,
  projectId: number,
  o: ResolvedOptions,
  opts: { since?: Date; start?: IssueCursor },
): AsyncGenerator<IssuePage> {
  let cursor: IssueCursor = opts.start ?? { after: null, skip: [], page: 1 };
  for (;;) {
    const res = await ctx.http.get<GlIssue[]>(`${apiRoot(ctx)}/projects/${projectId}/issues`, {
      query: {
        state: 'all',
        order_by: 'created_at',
        sort: 'asc',
        per_page: o.pageSize,
        page: cursor.page > 1 ? cursor.page : undefined,
        created_after: cursor.after ?? undefined,
        updated_after: opts.since?.toISOString(),
      },
    });
    const raw = (Array.isArray(res.data) ? res.data : []).filter((i) => i && typeof i.iid === 'number');
    const skip = new Set(cursor.skip);
    const items = raw.filter((i) => !skip.has(i.id));
    const done = raw.length < o.pageSize;
    let next: IssueCursor | null = null;
    if (!done) {
      const lastAt = raw[raw.length - 1]!.created_at ?? null;
      if (lastAt === null || lastAt === cursor.after) {
        // Every issue of this page shares the boundary time: move on by page number.
        next = { after: cursor.after, skip: [...cursor.skip, ...raw.map((i) => i.id)], page: cursor.page + 1 };
      } else {
        next = { after: lastAt, skip: raw.filter((i) => i.created_at === lastAt).map((i) => i.id), page: 1 };
      }
    }
    yield { items, cursor: next };
    if (!next) return;
    cursor = next;
  }
}

const currentUsers = new ConnectionCache(10 * 60_000);

/** The id of the token's own user (`GET /user`), remembered per connection and token for a while. */
export function currentUserId(ctx: AdapterContext, o: ResolvedOptions): Promise<number> {
  const token = createHash('sha256').update(ctx.credentials.access_token ?? '').digest('hex').slice(0, 16);
  return currentUsers.get(ctx, `user:${token}`, async () => {
    const res = await ctx.http.get<GlCurrentUser>(`${apiRoot(ctx)}/user`);
    const id = res.data?.id;
    if (typeof id !== 'number') throw new ProviderError('gitlab', 401, 'GitLab did not name the token’s user', res.data);
    return id;
  }, false, o.currentUserTtlMs);
}

/** The project or issue is gone, or no longer readable by the token's user. */
export const isGone = (e: unknown) => e instanceof ProviderError && (e.providerStatus === 404 || e.providerStatus === 403);
