/**
 * Linear syncers, in dependency order: teams (teams and collections), users, tags (labels), tickets
 * (issues), then comments with their attachments. Each yields one batch per page (`first`/`after`,
 * to the last page); `resume` is the page's end cursor.
 *
 * Teams, users and labels are few and read in full on every run, so membership changes and
 * deletions are always seen. Issues and comments are incremental with `filter: {updatedAt: {gte}}`
 * and `includeArchived: true`: a trashed issue comes back with `trashed: true` and is reported
 * deleted; issues deleted for good (after Linear's trash period, or by an admin) are detected by
 * the next full run.
 */
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { pages, type ResolvedOptions } from './graphql';
import { unifyComment } from './comment.mapper';
import { unifyLabel } from './label.mapper';
import { COMMENT_IDS, COMMENTS, ISSUE_IDS, ISSUE_LABELS, ISSUES, LABELS, NESTED_PAGE, TEAMS, USER_TEAMS, USERS } from './queries';
import { unifyTeam } from './team.mapper';
import { unifyIssue } from './ticket.mapper';
import type { LnComment, LnConnection, LnIssue, LnLabel, LnLabelRef, LnRef, LnTeam, LnUser } from './types';
import { unifyUser } from './user.mapper';

/** Linear's `updatedAt` filter for an incremental run. */
export const updatedSince = (since: Date | undefined) => (since ? { updatedAt: { gte: since.toISOString() } } : undefined);

/** Every node of a nested connection: the first page from the parent query, the rest by follow-up queries. */
export async function restOf<T>(
  ctx: AdapterContext,
  o: ResolvedOptions,
  first: LnConnection<T> | null | undefined,
  query: string,
  id: string,
  pick: (data: never) => LnConnection<T> | null | undefined,
): Promise<T[]> {
  const nodes = [...(first?.nodes ?? [])];
  if (first?.pageInfo?.hasNextPage !== true) return nodes;
  for await (const page of pages<T>(ctx, { ...o, pageSize: Math.max(o.pageSize, NESTED_PAGE) }, query, { id }, pick, first.pageInfo.endCursor)) {
    nodes.push(...page.nodes);
  }
  return nodes;
}

/** An issue with all its labels (issues with more than one nested page of labels get a follow-up query). */
export async function completeIssue(ctx: AdapterContext, o: ResolvedOptions, issue: LnIssue): Promise<LnIssue> {
  if (issue.labels?.pageInfo?.hasNextPage !== true) return issue;
  const nodes = await restOf<LnLabelRef>(ctx, o, issue.labels, ISSUE_LABELS, issue.id, (d: { issue?: { labels?: LnConnection<LnLabelRef> } }) => d.issue?.labels);
  return { ...issue, labels: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } };
}

function teamsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.team',
    objectTypes: ['ticketing.team', 'ticketing.collection'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of pages<LnTeam>(ctx, o, TEAMS, {}, (d: { teams?: LnConnection<LnTeam> }) => d.teams, opts.resume)) {
        yield { records: page.nodes.flatMap((t) => unifyTeam(t, ctx.ids)), resume: page.endCursor };
      }
    },
  };
}

function usersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of pages<LnUser>(ctx, o, USERS, {}, (d: { users?: LnConnection<LnUser> }) => d.users, opts.resume)) {
        const records: UnifiedRecord[] = [];
        for (const u of page.nodes) {
          const teams = await restOf<LnRef>(ctx, o, u.teams, USER_TEAMS, u.id, (d: { user?: { teams?: LnConnection<LnRef> } }) => d.user?.teams);
          records.push(unifyUser(u, ctx.ids, teams.map((t) => t.id)));
        }
        yield { records, resume: page.endCursor };
      }
    },
  };
}

function tagsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.tag',
    objectTypes: ['ticketing.tag'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const filter = { isGroup: { eq: false } };
      for await (const page of pages<LnLabel>(ctx, o, LABELS, { filter }, (d: { issueLabels?: LnConnection<LnLabel> }) => d.issueLabels, opts.resume)) {
        yield { records: page.nodes.filter((l) => l.isGroup !== true).map(unifyLabel), resume: page.endCursor };
      }
    },
  };
}

function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const variables = { filter: updatedSince(opts.since) };
      for await (const page of pages<LnIssue>(ctx, o, ISSUES, variables, (d: { issues?: LnConnection<LnIssue> }) => d.issues, opts.resume)) {
        const issues = await Promise.all(page.nodes.map((i) => completeIssue(ctx, o, i)));
        yield { records: issues.map((i) => unifyIssue(i, ctx.ids)), resume: page.endCursor };
      }
    },
    // Issues deleted for good (out of the trash): ids only, in Linear's largest pages.
    deletionCheck: idsOf(o, ISSUE_IDS, {}, (d: { issues?: LnConnection<{ id?: unknown }> }) => d.issues, ['ticketing.ticket']),
  };
}

function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      // Issue comments only (Linear also has comments on project updates, documents, initiatives).
      const filter = { issue: { null: false }, ...updatedSince(opts.since) };
      for await (const page of pages<LnComment>(ctx, o, COMMENTS, { filter }, (d: { comments?: LnConnection<LnComment> }) => d.comments, opts.resume)) {
        const records: UnifiedRecord[] = [];
        for (const c of page.nodes) {
          if (!c.issueId) continue;
          const u = unifyComment(c, ctx.ids, o.uploadHosts);
          records.push(u.comment, ...u.attachments);
        }
        yield { records, resume: page.endCursor };
      }
    },
    deletionCheck: idsOf(o, COMMENT_IDS, { filter: { issue: { null: false } } }, (d: { comments?: LnConnection<{ id?: unknown }> }) => d.comments, ['ticketing.comment']),
  };
}

/** A GraphQL connection asked for `id` alone, 250 a page (Linear's largest). */
function idsOf(o: ResolvedOptions, query: string, variables: Record<string, unknown>, pick: (data: never) => LnConnection<{ id?: unknown }> | null | undefined, objectTypes: string[]): DeletionCheck {
  return {
    objectTypes,
    async *listIds(ctx, opts) {
      for await (const page of pages<{ id?: unknown }>(ctx, { ...o, pageSize: 250 }, query, variables, pick, opts.resume)) {
        yield { remoteIds: page.nodes.filter((n) => n && typeof n.id === 'string').map((n) => n.id as string), resume: page.endCursor };
      }
    },
  };
}

export function linearSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [teamsSyncer(o), usersSyncer(o), tagsSyncer(o), ticketsSyncer(o), commentsSyncer(o)];
}
