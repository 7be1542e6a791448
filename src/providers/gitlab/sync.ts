/**
 * GitLab syncers, in dependency order: teams (groups), users (members), collections (projects), tags
 * (labels), tickets (issues), then comments (notes) with their attachments. Every list is read to its
 * last page. Only tickets and comments are incremental (`updated_after`); the others are small and
 * re-read in full, so deletions are found by the sync's full-run sweep.
 */
import { existsAt, idsOfFullRun } from '../deletion-check';
import type { AdapterContext, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { apiRoot, isGone, memberProjects, offsetPages, projectIssuePages, webBase, type IssueCursor, type ResolvedOptions } from './api';
import { unifyNote } from './comment.mapper';
import { unifyGroup } from './group.mapper';
import { unifyLabel } from './label.mapper';
import { unifyProject } from './project.mapper';
import { unifyTicket } from './ticket.mapper';
import type { GlCurrentUser, GlGroup, GlIssue, GlLabel, GlMember, GlNote, GlProject } from './types';
import { unifyUser } from './user.mapper';
import { issueRemoteId } from './util';

/** One record per object in a batch (the store upserts a batch in one statement). */
export function uniqueRecords(records: UnifiedRecord[]): UnifiedRecord[] {
  const byKey = new Map<string, UnifiedRecord>();
  for (const r of records) byKey.set(`${r.objectType}\u0000${r.remoteId}`, r);
  return [...byKey.values()];
}

/** Resume position of the per-project streams: projects after `after` are left; `cur` is a project in progress. */
interface ProjectResume {
  after?: number;
  cur?: { pid: number; c: IssueCursor };
}

function parseResume(resume: string | undefined): ProjectResume {
  if (!resume) return {};
  try {
    const r = JSON.parse(resume) as ProjectResume;
    return r && typeof r === 'object' ? r : {};
  } catch {
    return {};
  }
}

/** A saved next-page query (teams), or undefined to start over. */
function parseQuery(resume: string | undefined): Record<string, string> | undefined {
  if (!resume) return undefined;
  try {
    const q = JSON.parse(resume) as unknown;
    return q && typeof q === 'object' && !Array.isArray(q) ? (q as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
}

async function* eachProject(ctx: AdapterContext, o: ResolvedOptions, after?: number): AsyncGenerator<GlProject> {
  for await (const page of memberProjects(ctx, o, after)) yield* page;
}

/** Groups the token's user belongs to → teams. */
function teamsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.team',
    objectTypes: ['ticketing.team'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const start = parseQuery(opts.resume);
      const query = { min_access_level: 10, order_by: 'id', sort: 'asc' };
      for await (const page of offsetPages<GlGroup>(ctx, `${apiRoot(ctx)}/groups`, query, o.pageSize, start)) {
        yield { records: uniqueRecords(page.items.filter((g) => typeof g?.id === 'number').map(unifyGroup)), resume: page.next ? JSON.stringify(page.next) : null };
      }
    },
    // Listed by offset: a group the run did not list is asked for alone.
    stillExists: (ctx, group) => existsAt(ctx, `${apiRoot(ctx)}/groups/${encodeURIComponent(group.remoteId)}`),
  };
}

/**
 * Users: the direct members of those groups (which gives each user's teams), every member of the
 * synced projects (inherited members included), and the token's own user. Read in full every run
 * (GitLab has no updated-since filter on members); one pass, yielded at the end.
 */
function usersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx): AsyncIterable<SyncBatch> {
      const api = apiRoot(ctx);
      const users = new Map<number, GlMember>();
      const teams = new Map<number, Set<number>>();
      const add = (m: GlMember) => {
        if (!m || typeof m.id !== 'number') return;
        const prev = users.get(m.id);
        users.set(m.id, prev ? { ...prev, ...m, email: m.email ?? prev.email, public_email: m.public_email ?? prev.public_email } : m);
      };
      for await (const groups of offsetPages<GlGroup>(ctx, `${api}/groups`, { min_access_level: 10, order_by: 'id', sort: 'asc' }, o.pageSize)) {
        for (const g of groups.items) {
          if (typeof g?.id !== 'number') continue;
          try {
            for await (const members of offsetPages<GlMember>(ctx, `${api}/groups/${g.id}/members`, {}, o.pageSize)) {
              for (const m of members.items) {
                add(m);
                if (typeof m?.id === 'number') (teams.get(m.id) ?? teams.set(m.id, new Set()).get(m.id)!).add(g.id);
              }
            }
          } catch (err) {
            if (!isGone(err)) throw err;
          }
        }
      }
      for await (const project of eachProject(ctx, o)) {
        try {
          for await (const members of offsetPages<GlMember>(ctx, `${api}/projects/${project.id}/members/all`, {}, o.pageSize)) members.items.forEach(add);
        } catch (err) {
          if (!isGone(err)) throw err;
        }
      }
      const me = (await ctx.http.get<GlCurrentUser>(`${api}/user`)).data;
      if (me && typeof me.id === 'number') add(me);
      const records = [...users.values()].map((u) => unifyUser(u, ctx.ids, teams.get(u.id) ?? []));
      for (let i = 0; i < records.length; i += 500) yield { records: records.slice(i, i + 500), resume: null };
    },
  };
}

/** Member projects with issues enabled → collections; resumes after the last project id. */
function collectionsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.collection',
    objectTypes: ['ticketing.collection'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const r = parseResume(opts.resume);
      for await (const page of memberProjects(ctx, o, r.after)) {
        yield { records: page.map(unifyProject), resume: JSON.stringify({ after: page[page.length - 1]!.id }) };
      }
    },
  };
}

/** Labels of every synced project (group labels included, once each) → tags. */
function tagsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.tag',
    objectTypes: ['ticketing.tag'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const seen = new Set<number>();
      const r = parseResume(opts.resume);
      for await (const project of eachProject(ctx, o, r.after)) {
        const labels: GlLabel[] = [];
        try {
          const path = `${apiRoot(ctx)}/projects/${project.id}/labels`;
          for await (const page of offsetPages<GlLabel>(ctx, path, { include_ancestor_groups: true }, o.pageSize)) labels.push(...page.items);
        } catch (err) {
          if (!isGone(err)) throw err;
        }
        const fresh = labels.filter((l) => typeof l?.id === 'number' && typeof l.name === 'string' && !seen.has(l.id));
        fresh.forEach((l) => seen.add(l.id));
        yield { records: uniqueRecords(fresh.map(unifyLabel)), resume: JSON.stringify({ after: project.id }) };
      }
    },
  };
}

/**
 * Walks the issues of every member project (changed since `since` on incremental runs), one batch per
 * page of issues, with the position saved after each batch.
 */
async function* issueBatches(
  ctx: AdapterContext,
  o: ResolvedOptions,
  opts: { since?: Date; resume?: string },
  toRecords: (project: GlProject, issues: GlIssue[]) => Promise<UnifiedRecord[]>,
  /** Children these issues' records list in full (their notes), for `SyncBatch.completeChildren`. */
  completeChildren?: (project: GlProject, issues: GlIssue[]) => SyncBatch['completeChildren'],
): AsyncGenerator<SyncBatch> {
  const r = parseResume(opts.resume);
  let cur = r.cur;
  for await (const project of eachProject(ctx, o, cur ? cur.pid - 1 : r.after)) {
    const start = cur?.pid === project.id ? cur.c : undefined;
    cur = undefined;
    try {
      for await (const page of projectIssuePages(ctx, project.id, o, { since: opts.since, start })) {
        const resume: ProjectResume = page.cursor ? { cur: { pid: project.id, c: page.cursor } } : { after: project.id };
        yield { records: uniqueRecords(await toRecords(project, page.items)), resume: JSON.stringify(resume), completeChildren: completeChildren?.(project, page.items) };
      }
    } catch (err) {
      // The project went away (or out of reach) between the listing and this call: its issues go with it.
      if (!isGone(err)) throw err;
      yield { records: [], resume: JSON.stringify({ after: project.id }) };
    }
  }
}

function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  const run: ObjectSyncer['run'] = (ctx, opts) => issueBatches(ctx, o, opts, async (_p, issues) => issues.map((i) => unifyTicket(i, ctx.ids)));
  // GitLab's issue lists have no field selection: the same keyset walk, ids kept.
  return { key: 'ticketing.ticket', objectTypes: ['ticketing.ticket'], incremental: true, reportsDeletions: false, run, deletionCheck: idsOfFullRun(run, ['ticketing.ticket']) };
}

/** Every user note (system notes left out) of one issue, oldest first; none when the issue is gone. */
export async function issueNotes(ctx: AdapterContext, o: ResolvedOptions, issue: Pick<GlIssue, 'project_id' | 'iid'>): Promise<GlNote[]> {
  const notes: GlNote[] = [];
  try {
    const path = `${apiRoot(ctx)}/projects/${issue.project_id}/issues/${issue.iid}/notes`;
    for await (const page of offsetPages<GlNote>(ctx, path, { sort: 'asc', order_by: 'created_at' }, o.pageSize)) notes.push(...page.items);
  } catch (err) {
    if (isGone(err)) return [];
    throw err;
  }
  return notes.filter((n) => n && typeof n.id === 'number' && n.system !== true);
}

/**
 * Notes and their attachments of the issues changed since `since` (all issues on a full run): a note
 * touches its issue's `updated_at`, so the changed issues lead to the changed notes. Issues whose
 * `user_notes_count` is 0 are not asked for notes.
 */
function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    run: (ctx, opts) =>
      issueBatches(
        ctx,
        o,
        opts,
        async (project, issues) => {
          const web = webBase(ctx);
          const withNotes = issues.filter((i) => i.user_notes_count === undefined || i.user_notes_count === null || i.user_notes_count > 0);
          const perIssue = await Promise.all(withNotes.map((i) => issueNotes(ctx, o, i)));
          const records: UnifiedRecord[] = [];
          perIssue.forEach((notes, k) => {
            const issue = withNotes[k]!;
            const noteCtx = { ticketRemoteId: issueRemoteId(issue.project_id ?? project.id, issue.iid), projectId: issue.project_id ?? project.id, web };
            for (const n of notes) {
              const u = unifyNote(n, noteCtx, ctx.ids);
              records.push(u.comment, ...u.attachments);
            }
          });
          return records;
        },
        // Every user note of each changed issue is read (a deleted note touches its issue's `updated_at`, like
        // a new one): its stored notes not among them were deleted. Issues without notes have none left.
        (project, issues) => ({
          objectType: 'ticketing.comment',
          parents: issues.map((i) => ({ objectType: 'ticketing.ticket', remoteId: issueRemoteId(i.project_id ?? project.id, i.iid) })),
        }),
      ),
  };
}

export function gitlabSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [teamsSyncer(o), usersSyncer(o), collectionsSyncer(o), tagsSyncer(o), ticketsSyncer(o), commentsSyncer(o)];
}
