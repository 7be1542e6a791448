/**
 * GitHub syncers, in dependency order: collections (repositories), users (assignable users of the
 * repositories and the token's user), tags (labels), tickets (issues, pull requests left out), then
 * comments (issue comments, pull-request comments left out). Each yields one batch per GitHub page.
 *
 * Per-repository streams walk the repositories in full-name order; their resume position is
 * `{"repo": "<full name>", "next": <position in that repository's list> | null}` (null: that repository
 * is done). Issues and comments are walked by update time, so deletions during a run skip nothing.
 * GitHub reports no deletions: every stream has `reportsDeletions: false`, so a full run that
 * completes marks what it did not see as deleted.
 */
import { existsAt, idsOfFullRun } from '../deletion-check';
import type { AdapterContext, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { compareNames, isStatus, listRepos, pages, updatedSincePages, type Page, type ResolvedOptions } from './api';
import { isPullRequestComment, unifyComment } from './comment.mapper';
import { MEDIA_TYPE_FULL } from './http';
import { unifyRepository } from './repository.mapper';
import { unifyLabel } from './tag.mapper';
import { isPullRequest, unifyIssue } from './ticket.mapper';
import type { GhComment, GhIssue, GhLabel, GhRepository, GhUser } from './types';
import { unifyUser } from './user.mapper';
import { parseRepo, repoPath, sinceParam, type RepoRef } from './util';

interface RepoPosition {
  repo: string;
  next: string | null;
}

export function parseResume(resume: string | undefined): RepoPosition | undefined {
  if (!resume) return undefined;
  try {
    const v = JSON.parse(resume) as Partial<RepoPosition>;
    if (typeof v.repo === 'string' && (v.next === null || typeof v.next === 'string')) return { repo: v.repo, next: v.next };
  } catch {
    // an unreadable position starts the run over
  }
  return undefined;
}

const position = (repo: string, next: string | null) => JSON.stringify({ repo, next } satisfies RepoPosition);

/**
 * Walks `list(repo)` over every repository with issues, from the saved position on. A repository that
 * disappeared (404) or whose issues were disabled (410) since it was listed has nothing to sync.
 */
async function* perRepository<T>(
  ctx: AdapterContext,
  o: ResolvedOptions,
  resume: string | undefined,
  walk: (repo: RepoRef, from: string | null) => AsyncGenerator<Page<T>>,
  toRecords: (items: T[], repo: RepoRef) => UnifiedRecord[],
): AsyncGenerator<SyncBatch> {
  const from = parseResume(resume);
  const repos = (await listRepos(ctx, o)).filter((r) => r.has_issues !== false);
  for (const r of repos) {
    let start: string | null = null;
    if (from) {
      const cmp = compareNames(r.full_name, from.repo);
      if (cmp < 0) continue;
      if (cmp === 0) {
        if (from.next === null) continue;
        start = from.next;
      }
    }
    const repo = parseRepo(r.full_name, 'repository');
    try {
      for await (const page of walk(repo, start)) {
        yield { records: toRecords(page.items, repo), resume: position(r.full_name, page.next) };
      }
    } catch (err) {
      if (!isStatus(err, 404, 410)) throw err;
      yield { records: [], resume: position(r.full_name, null) };
    }
  }
}

/** Repositories (`GET /user/repos`), every run full; resume is the next page's URL. */
function collectionsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.collection',
    objectTypes: ['ticketing.collection'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const list = pages<GhRepository>(ctx, o, '/user/repos', { query: { sort: 'full_name', direction: 'asc' }, from: opts.resume ?? null });
      for await (const page of list) {
        yield { records: page.items.filter((r) => r && typeof r.full_name === 'string').map(unifyRepository), resume: page.next };
      }
    },
    // Listed by page number: a repository the run did not list is asked for by name (renamed or moved: 301, gone here).
    stillExists: (ctx, repo) => existsAt(ctx, `/repos/${repo.remoteId}`),
  };
}

/** The token's user, then the assignable users of every repository with issues (each once per batch). */
function usersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const seen = new Set<string>();
      const fresh = (u: GhUser) => {
        const k = u.login.toLowerCase();
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      };
      const me = (await ctx.http.request<GhUser>('GET', '/user')).data;
      if (me && typeof me.login === 'string') {
        fresh(me);
        yield { records: [unifyUser(me)], resume: opts.resume ?? null };
      }
      yield* perRepository<GhUser>(ctx, o, opts.resume, (r, from) => pages(ctx, o, `${repoPath(r)}/assignees`, { from }), (items) =>
        items.filter((u) => u && typeof u.login === 'string' && fresh(u)).map(unifyUser),
      );
    },
  };
}

/** Labels of every repository with issues. */
function tagsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.tag',
    objectTypes: ['ticketing.tag'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      yield* perRepository<GhLabel>(ctx, o, opts.resume, (r, from) => pages(ctx, o, `${repoPath(r)}/labels`, { from }), (items) =>
        items.filter((l): l is GhLabel & { id: number; name: string } => typeof l?.id === 'number' && typeof l.name === 'string').map(unifyLabel),
      );
    },
    // Listed by page number: a label the run did not list is asked for at its own address (GitHub's `url`).
    stillExists: (ctx, label) => (typeof label.remoteData.url === 'string' ? existsAt(ctx, label.remoteData.url) : Promise.resolve(false)),
  };
}

/**
 * Issues of every repository with issues (`state=all`, from `since` on incremental runs), walked by update
 * time (`updatedSincePages`): an issue deleted or changed during the run never makes it skip another one.
 */
function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  const syncer: ObjectSyncer = {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const since = sinceParam(opts.since);
      yield* perRepository<GhIssue>(
        ctx,
        o,
        opts.resume,
        (r, from) => updatedSincePages<GhIssue>(ctx, o, `${repoPath(r)}/issues`, { query: { state: 'all' }, since, from }),
        (items, repo) => items.filter((i) => i && typeof i.number === 'number' && !isPullRequest(i)).map((i) => unifyIssue(i, ctx.ids, repo)),
      );
    },
  };
  // GitHub's REST lists have no field selection: the same walk, ids kept.
  return { ...syncer, deletionCheck: idsOfFullRun(syncer.run, syncer.objectTypes) };
}

/**
 * Issue comments of every repository with issues, one repository-wide list each (from `since` on
 * incremental runs, walked by update time like issues), with the `full` media type for `body_html`;
 * comments on pull requests are left out.
 */
function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  const syncer: ObjectSyncer = {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const since = sinceParam(opts.since);
      yield* perRepository<GhComment>(
        ctx,
        o,
        opts.resume,
        (r, from) => updatedSincePages<GhComment>(ctx, o, `${repoPath(r)}/issues/comments`, { since, from, headers: { accept: MEDIA_TYPE_FULL } }),
        (items) => items.filter((c) => c && typeof c.id === 'number' && !isPullRequestComment(c)).map((c) => unifyComment(c, ctx.ids)),
      );
    },
  };
  return { ...syncer, deletionCheck: idsOfFullRun(syncer.run, syncer.objectTypes) };
}

export function githubSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [collectionsSyncer(o), usersSyncer(o), tagsSyncer(o), ticketsSyncer(o), commentsSyncer(o)];
}
