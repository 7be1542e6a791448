/**
 * Jira syncers, in dependency order: collections (projects), teams and users (groups, memberships,
 * users), tags (labels), tickets (JQL search), then comments with the issues' attachments. Each yields
 * one batch per provider page.
 */
import { existsAt } from '../deletion-check';
import type { AdapterContext, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { API, arrayPages, ISSUE_FIELDS, isStatus, jqlDate, myself, pageBean, searchPages, type ResolvedOptions } from './api';
import { unifyAttachment, unifyComment } from './comment.mapper';
import { unifyGroup, unifyLabel, unifyProject, unifyUser } from './directory.mapper';
import { unifyTicket } from './ticket.mapper';
import type { JiraComment, JiraGroup, JiraIssue, JiraProject, JiraUser } from './types';

/** A full listing with offset pagination; `resume` is the next `startAt`. */
function pageBeanSyncer<T>(
  o: ResolvedOptions,
  key: string,
  path: string,
  unify: (item: T) => UnifiedRecord | undefined,
  query: Record<string, string> = {},
  stillExists?: ObjectSyncer['stillExists'],
): ObjectSyncer {
  return {
    stillExists,
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const startAt = opts.resume ? Number(opts.resume) || 0 : 0;
      for await (const page of pageBean<T>(ctx, path, { pageSize: o.listPageSize, startAt, query })) {
        const records = page.items.map(unify).filter((r): r is UnifiedRecord => r !== undefined);
        yield { records, resume: page.next === null ? null : String(page.next) };
      }
    },
  };
}

/** Every member (account id) of a group, inactive users included. */
async function groupMembers(ctx: AdapterContext, o: ResolvedOptions, groupId: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const page of pageBean<JiraUser>(ctx, `${API}/group/member`, { pageSize: Math.min(50, o.listPageSize), query: { groupId, includeInactiveUsers: 'true' } })) {
      for (const u of page.items) if (u?.accountId) out.push(u.accountId);
    }
  } catch (err) {
    // Removed meanwhile, or its members are hidden from this user: no members.
    if (isStatus(err, 403, 404)) return [];
    throw err;
  }
  return out;
}

/**
 * Groups (→ teams) and users, one stream: the groups and their memberships first (so each user gets its
 * teams), then `/users/search` page by page. Without the "Browse users and groups" permission there are
 * no teams. `resume` is the `startAt` of the next users page.
 */
function directorySyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.team', 'ticketing.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const groups: JiraGroup[] = [];
      try {
        for await (const page of pageBean<JiraGroup>(ctx, `${API}/group/bulk`, { pageSize: o.listPageSize })) groups.push(...page.items.filter((g) => g?.groupId));
      } catch (err) {
        if (!isStatus(err, 403)) throw err;
      }
      const teamsOf = new Map<string, string[]>();
      if (o.teamMembership) {
        const members = await Promise.all(groups.map((g) => groupMembers(ctx, o, g.groupId)));
        groups.forEach((g, i) => {
          for (const accountId of members[i]!) teamsOf.set(accountId, [...(teamsOf.get(accountId) ?? []), g.groupId]);
        });
      }
      const startAt = opts.resume ? Number(opts.resume) || 0 : 0;
      // Teams are yielded again on a resumed run: the run must see them to keep them.
      yield { records: groups.map(unifyGroup), resume: String(startAt) };
      for await (const page of arrayPages<JiraUser>(ctx, `${API}/users/search`, { pageSize: Math.max(o.listPageSize, 100), startAt })) {
        const records = page.items.map((u) => unifyUser(u, ctx.ids, teamsOf.get(u.accountId) ?? [])).filter((r): r is UnifiedRecord => r !== undefined);
        yield { records, resume: page.next === null ? null : String(page.next) };
      }
    },
    // Listed by offset (`startAt`): a user or group the run did not list is asked for alone.
    stillExists: (ctx, object) =>
      object.objectType === 'ticketing.user'
        ? existsAt(ctx, `${API}/user`, { accountId: object.remoteId })
        : existsAt(ctx, `${API}/group/member`, { groupId: object.remoteId, maxResults: '1' }),
  };
}

/**
 * The JQL of a run. Full: every issue (`created >=` the epoch: Jira refuses unbounded queries).
 * Incremental: `updated >=` since, written in the connection user's time zone at minute precision
 * (the sync service already moved `since` back by its overlap window; records seen twice are
 * deduplicated by remote id). Ordered by creation, which does not change while paging.
 */
export async function issueJql(ctx: AdapterContext, o: ResolvedOptions, since: Date | undefined): Promise<string> {
  if (!since) return 'created >= "1970/01/01 00:00" ORDER BY created ASC, key ASC';
  const me = await myself(ctx, o);
  return `updated >= "${jqlDate(since, me.timeZone)}" ORDER BY created ASC, key ASC`;
}

interface SearchResume {
  jql: string;
  token: string;
}

function decodeResume(resume: string | undefined): SearchResume | undefined {
  if (!resume) return undefined;
  try {
    const r = JSON.parse(Buffer.from(resume, 'base64url').toString('utf8')) as SearchResume;
    return typeof r.jql === 'string' && typeof r.token === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

const encodeResume = (r: SearchResume) => Buffer.from(JSON.stringify(r), 'utf8').toString('base64url');

/** Issues of a run, page by page, each issue once (the query and next-page token are the resume position). */
async function* issuePages(ctx: AdapterContext, o: ResolvedOptions, opts: { since?: Date; resume?: string }, fields: string[], pageSize: number) {
  const saved = decodeResume(opts.resume);
  const jql = saved?.jql ?? (await issueJql(ctx, o, opts.since));
  const seen = new Set<string>();
  for await (const page of searchPages(ctx, { jql, fields, pageSize, token: saved?.token })) {
    const issues = page.issues.filter((i) => i?.id !== undefined && !seen.has(String(i.id)) && (seen.add(String(i.id)), true));
    yield { issues, resume: page.next === null ? null : encodeResume({ jql, token: page.next }) };
  }
}

function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    // Jira's search has no deleted issues: a full run that completes marks the unseen ones deleted.
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of issuePages(ctx, o, opts, ISSUE_FIELDS, o.searchPageSize)) {
        yield { records: page.issues.map((i) => unifyTicket(i, ctx.ids)), resume: page.resume };
      }
    },
    // The same search asking for ids only, which Jira answers in pages of up to 5,000.
    deletionCheck: {
      objectTypes: ['ticketing.ticket'],
      async *listIds(ctx, opts) {
        for await (const page of issuePages(ctx, o, { resume: opts.resume }, ['id'], 5000)) yield { remoteIds: page.issues.map((i) => String(i.id)), resume: page.resume };
      },
    },
  };
}

/** Every comment of one issue (`startAt` pagination, oldest first); empty when the issue is gone. */
export async function issueComments(ctx: AdapterContext, issueId: string, pageSize: number): Promise<JiraComment[]> {
  const comments: JiraComment[] = [];
  let startAt = 0;
  try {
    for (;;) {
      const res = await ctx.http.get<{ comments?: JiraComment[]; total?: number }>(`${API}/issue/${issueId}/comment`, {
        query: { startAt, maxResults: pageSize, orderBy: 'created' },
      });
      const page = Array.isArray(res.data?.comments) ? res.data.comments : [];
      comments.push(...page);
      startAt += page.length;
      if (page.length === 0 || (typeof res.data?.total === 'number' && startAt >= res.data.total)) return comments;
    }
  } catch (err) {
    // Deleted (or moved out of reach) between the search and this call: its comments go with it.
    if (isStatus(err, 404)) return [];
    throw err;
  }
}

/**
 * The comments an issue carries in its `comment` field, when they are all there (`total` reached):
 * then no per-issue call is needed. Undefined when Jira embedded only some (or none were asked).
 */
export function embeddedComments(issue: JiraIssue): JiraComment[] | undefined {
  const page = issue.fields?.comment as { comments?: JiraComment[]; total?: number; startAt?: number } | undefined;
  if (!page || !Array.isArray(page.comments) || typeof page.total !== 'number') return undefined;
  return (page.startAt ?? 0) === 0 && page.comments.length >= page.total ? page.comments : undefined;
}

/** Comments and attachments of one issue: an attachment belongs to the first comment linking it, else to the issue. */
export function commentRecords(ctx: AdapterContext, issue: JiraIssue, comments: JiraComment[]): UnifiedRecord[] {
  const attachments = Array.isArray(issue.fields?.attachment) ? issue.fields.attachment : [];
  const known = new Set(attachments.map((a) => String(a.id)));
  const owner = new Map<string, string>();
  const records: UnifiedRecord[] = [];
  for (const c of comments) {
    const u = unifyComment(c, issue.id, ctx.ids, known);
    for (const id of u.attachmentIds) if (!owner.has(id)) owner.set(id, String(c.id));
    records.push(u.comment);
  }
  for (const a of attachments) records.push(unifyAttachment(a, String(issue.id), owner.get(String(a.id)) ?? null, ctx.ids));
  return records;
}

/**
 * Comments and attachments of the issues changed since `since` (all issues on a full run): the search
 * gives the changed issues with their attachments and embedded comments page by page; an issue whose
 * comments Jira did not embed in full has them listed on their own — concurrently, bounded by the
 * connection's client. Adding a comment changes the issue's `updated`.
 */
function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of issuePages(ctx, o, opts, ['attachment', 'comment', 'updated'], o.commentIssuesPerBatch)) {
        const perIssue = await Promise.all(page.issues.map((i) => embeddedComments(i) ?? issueComments(ctx, String(i.id), o.commentPageSize)));
        const records = page.issues.flatMap((issue, i) => commentRecords(ctx, issue, perIssue[i]!));
        // Each changed issue's comments are read in full: its stored comments not among them were deleted. (Jira
        // does not document whether deleting a comment changes the issue's `updated`; if not, such a deletion
        // is seen when the issue next changes, or at a full run.)
        const parents = page.issues.map((i) => ({ objectType: 'ticketing.ticket', remoteId: String(i.id) }));
        yield { records, resume: page.resume, completeChildren: { objectType: 'ticketing.comment', parents } };
      }
    },
  };
}

export function jiraSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    // Listed by offset (`startAt`): a project the run did not list is asked for alone.
    pageBeanSyncer<JiraProject>(o, 'ticketing.collection', `${API}/project/search`, unifyProject, { expand: 'description' }, (ctx, p) =>
      existsAt(ctx, `${API}/project/${encodeURIComponent(p.remoteId)}`),
    ),
    directorySyncer(o),
    pageBeanSyncer<string>(o, 'ticketing.tag', `${API}/label`, (l) => (typeof l === 'string' && l !== '' ? unifyLabel(l) : undefined)),
    ticketsSyncer(o),
    commentsSyncer(o),
  ];
}
