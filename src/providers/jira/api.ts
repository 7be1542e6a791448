/**
 * Jira request helpers shared by sync and writes: offset pagination (`startAt`/`maxResults`), JQL
 * search with `nextPageToken`, the connection's own user (time zone for JQL dates), field and
 * issue-type metadata with a short per-connection cache. Everything goes through `ctx.http`.
 */
import { ConnectionCache } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { JiraCreateMetaIssueType, JiraFieldDefinition, JiraIssue, JiraPageBean, JiraSearchPage, JiraUser } from './types';
export { isNotFound } from '../kit';

export const API = '/rest/api/3';

export interface JiraAdapterOptions {
  /** `maxResults` of JQL searches (Jira returns at most 100 issues a page when many fields are asked). */
  searchPageSize?: number;
  /** `maxResults` of offset-paginated lists: projects (≤ 100), labels, users, groups, group members (≤ 50). */
  listPageSize?: number;
  /** `maxResults` of comment pages (≤ 100 per page in practice). */
  commentPageSize?: number;
  /** Issues per comment-sync batch (their comments are fetched together, so this bounds memory). */
  commentIssuesPerBatch?: number;
  /** Read group memberships so users get their teams (one listing per group). Default true. */
  teamMembership?: boolean;
  /** How long metadata (own user, fields, issue types) is reused for a connection. Default 5 minutes. */
  metadataTtlMs?: number;
}

export type ResolvedOptions = Required<JiraAdapterOptions>;

export function resolveOptions(o: JiraAdapterOptions = {}): ResolvedOptions {
  return {
    searchPageSize: Math.min(100, Math.max(1, o.searchPageSize ?? 100)),
    listPageSize: Math.min(100, Math.max(1, o.listPageSize ?? 50)),
    commentPageSize: Math.min(100, Math.max(1, o.commentPageSize ?? 100)),
    commentIssuesPerBatch: Math.min(100, Math.max(1, o.commentIssuesPerBatch ?? 50)),
    teamMembership: o.teamMembership ?? true,
    metadataTtlMs: Math.max(0, o.metadataTtlMs ?? 5 * 60_000),
  };
}

type Query = Record<string, string | number | boolean | undefined>;

export const isStatus = (e: unknown, ...statuses: number[]) => e instanceof ProviderError && statuses.includes(e.providerStatus);

export interface OffsetPage<T> {
  items: T[];
  /** `startAt` of the next page (null after the last one). */
  next: number | null;
}

/**
 * Walks a `PageBean` list (`startAt`, `maxResults` → `values`, `isLast`) to the last page. Jira may
 * return fewer items than asked before the end, so only `isLast` (or an empty page) ends the walk.
 */
export async function* pageBean<T>(ctx: AdapterContext, path: string, opts: { pageSize: number; startAt?: number; query?: Query }): AsyncGenerator<OffsetPage<T>> {
  let startAt = opts.startAt ?? 0;
  for (;;) {
    const res = await ctx.http.get<JiraPageBean<T>>(path, { query: { ...opts.query, startAt, maxResults: opts.pageSize } });
    const items = Array.isArray(res.data?.values) ? res.data.values : [];
    const last = res.data?.isLast === true || items.length === 0;
    const next = last ? null : startAt + items.length;
    yield { items, next };
    if (next === null) return;
    startAt = next;
  }
}

/**
 * Walks a list answered as a bare array (`/users/search`): Jira filters users after paging, so a short
 * page does not mean the end; only an empty page does.
 */
export async function* arrayPages<T>(ctx: AdapterContext, path: string, opts: { pageSize: number; startAt?: number; query?: Query }): AsyncGenerator<OffsetPage<T>> {
  let startAt = opts.startAt ?? 0;
  for (;;) {
    const res = await ctx.http.get<T[]>(path, { query: { ...opts.query, startAt, maxResults: opts.pageSize } });
    const items = Array.isArray(res.data) ? res.data : [];
    const next = items.length === 0 ? null : startAt + opts.pageSize;
    yield { items, next };
    if (next === null) return;
    startAt = next;
  }
}

export interface SearchPage {
  issues: JiraIssue[];
  /** Token of the next page (null after the last one). */
  next: string | null;
}

/**
 * JQL search (`POST /rest/api/3/search/jql`) page by page with `nextPageToken`, to the last page.
 * A saved token Jira no longer accepts (400) restarts the query from its first page.
 */
export async function* searchPages(
  ctx: AdapterContext,
  opts: { jql: string; fields: string[]; pageSize: number; token?: string | null },
): AsyncGenerator<SearchPage> {
  let token = opts.token ?? undefined;
  for (;;) {
    let res;
    try {
      res = await ctx.http.post<JiraSearchPage>(`${API}/search/jql`, {
        json: { jql: opts.jql, fields: opts.fields, maxResults: opts.pageSize, ...(token ? { nextPageToken: token } : {}) },
        // A search changes nothing: safe to retry.
        read: true,
      });
    } catch (err) {
      if (token && token === opts.token && isStatus(err, 400)) {
        token = undefined;
        continue;
      }
      throw err;
    }
    const issues = Array.isArray(res.data?.issues) ? res.data.issues : [];
    const nextToken = res.data?.nextPageToken ?? null;
    const next = res.data?.isLast === true || !nextToken || nextToken === token ? null : nextToken;
    yield { issues, next };
    if (next === null) return;
    token = next;
  }
}

// ---------------------------------------------------------------------------------------------------
// JQL dates

/**
 * `since` as a JQL date (`"yyyy/MM/dd HH:mm"`). Jira reads JQL dates in the time zone of the user
 * running the search, at minute precision: the time is written in that zone and rounded down to the
 * minute. Without a known zone the date is moved back 14 hours (the largest UTC offset) and written
 * in UTC, so nothing is skipped.
 */
export function jqlDate(since: Date, timeZone: string | undefined): string {
  let zone = timeZone;
  let at = since;
  if (zone) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      zone = undefined;
    }
  }
  if (!zone) {
    zone = 'UTC';
    at = new Date(since.getTime() - 14 * 3600_000);
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}/${parts.month}/${parts.day} ${parts.hour}:${parts.minute}`;
}

// ---------------------------------------------------------------------------------------------------
// Per-connection metadata cache

const cache = new ConnectionCache(5 * 60_000);

/** Site metadata for `ttlMs`, per connection and site (a connection's site can move). */
const cached = <T>(ctx: AdapterContext, what: string, ttlMs: number, load: () => Promise<T>): Promise<T> =>
  cache.get(ctx, `${ctx.baseUrl}\u0000${what}`, load, false, ttlMs);

/** The connection's own user (`GET /rest/api/3/myself`): its account id and time zone. */
export function myself(ctx: AdapterContext, o: ResolvedOptions): Promise<JiraUser> {
  return cached(ctx, 'myself', o.metadataTtlMs, async () => (await ctx.http.get<JiraUser>(`${API}/myself`)).data);
}

/** Every field of the site (`GET /rest/api/3/field`): system and custom, with their schema. */
export function fieldDefinitions(ctx: AdapterContext, o: ResolvedOptions): Promise<JiraFieldDefinition[]> {
  return cached(ctx, 'fields', o.metadataTtlMs, async () => {
    const res = await ctx.http.get<JiraFieldDefinition[]>(`${API}/field`);
    return Array.isArray(res.data) ? res.data : [];
  });
}

/** The issue types a project can create (`GET /rest/api/3/issue/createmeta/{project}/issuetypes`), every page. */
export function projectIssueTypes(ctx: AdapterContext, o: ResolvedOptions, projectId: string): Promise<JiraCreateMetaIssueType[]> {
  return cached(ctx, `issuetypes:${projectId}`, o.metadataTtlMs, async () => {
    const out: JiraCreateMetaIssueType[] = [];
    let startAt = 0;
    for (;;) {
      const res = await ctx.http.get<{ issueTypes?: JiraCreateMetaIssueType[]; total?: number }>(
        `${API}/issue/createmeta/${encodeURIComponent(projectId)}/issuetypes`,
        { query: { startAt, maxResults: 200 } },
      );
      const page = Array.isArray(res.data?.issueTypes) ? res.data.issueTypes : [];
      out.push(...page);
      startAt += page.length;
      if (page.length === 0 || typeof res.data?.total !== 'number' || startAt >= res.data.total) return out;
    }
  });
}

/** Forgets the cached metadata of a connection (tests). */
export function clearMetadataCache(): void {
  cache.clear();
}

/** The fields asked for on issue reads: everything but comments and work logs (read on their own). */
export const ISSUE_FIELDS = ['*all', '-comment', '-worklog'];
