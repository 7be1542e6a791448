/**
 * GitHub ticket writes: create an issue (then its comments, then close it when asked CLOSED), update
 * an issue, comment on an issue. GitHub has no bulk API: a batch is created one issue at a time, in
 * order (GitHub asks integrators to send content-creating requests serially).
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, BulkItemResult, CommentWrite, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { canPush, viewerLogin, type ResolvedOptions } from './api';
import { desunifyComment, unifyComment } from './comment.mapper';
import { MEDIA_TYPE_FULL } from './http';
import { desunifyTicket, droppedFields, issueRefOf, unifyIssue } from './ticket.mapper';
import type { GhComment, GhIssue, GhIssueWrite } from './types';
import { issuePath, issueRemoteId, parseIssue, PROVIDER, repoPath, type IssueRef, type RepoRef } from './util';

/** Labels and assignees need push access; GitHub drops them silently without it, so they are refused first. */
async function checkPush(ctx: AdapterContext, o: ResolvedOptions, repo: RepoRef, body: GhIssueWrite): Promise<void> {
  const field = body.labels !== undefined ? 'tags' : body.assignees !== undefined ? 'assigned_to' : undefined;
  if (!field) return;
  if ((await canPush(ctx, o, repo)) === false) {
    throw new AppError(
      'unsupported_by_provider',
      `${field}: the token's user has no push access to ${repo.owner}/${repo.repo}, and GitHub silently drops labels and assignees without it`,
      { field, provider: PROVIDER },
    );
  }
}

/** GitHub dropped labels or assignees after all (permissions changed): said, never swallowed. */
function checkDropped(asked: GhIssueWrite, issue: GhIssue, ref: IssueRef, after: string): void {
  const dropped = droppedFields(asked, issue);
  if (dropped.length === 0) return;
  throw new AppError(
    'provider_error',
    `GitHub ${after} issue ${issueRemoteId(ref)} but dropped ${dropped.join(' and ')} (the token's user needs push access to the repository)`,
    { provider: PROVIDER, field: dropped[0], remote_id: issueRemoteId(ref) },
  );
}

async function postComment(ctx: AdapterContext, o: ResolvedOptions, ref: IssueRef, body: string): Promise<GhComment> {
  const res = await ctx.http.request<GhComment>('POST', `${issuePath(ref)}/comments`, { json: { body }, headers: { accept: MEDIA_TYPE_FULL } });
  return res.data;
}

/** Adds comments in order; a failure says which comment, and that the issue itself was written. */
async function addComments(ctx: AdapterContext, o: ResolvedOptions, ref: IssueRef, bodies: string[], after: string): Promise<UnifiedRecord[]> {
  const out: UnifiedRecord[] = [];
  for (const [i, body] of bodies.entries()) {
    try {
      out.push(unifyComment(await postComment(ctx, o, ref, body), ctx.ids, ref));
    } catch (err) {
      throw afterWrite(err, `GitHub issue ${issueRemoteId(ref)} was ${after}, but adding comment ${i + 1} of ${bodies.length} failed`, ref);
    }
  }
  return out;
}

function afterWrite(err: unknown, what: string, ref: IssueRef): AppError {
  const why = err instanceof Error ? err.message : String(err);
  return new AppError(
    err instanceof AppError ? err.code : 'provider_error',
    `${what}: ${why}`,
    { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: issueRemoteId(ref) },
    err instanceof AppError ? err.headers : {},
  );
}

function refOf(issue: GhIssue, fallback: IssueRef): IssueRef {
  return issueRefOf(issue) ?? fallback;
}

export function githubTicketOperations(o: ResolvedOptions): TicketingOperations {
  async function createTicket(ctx: AdapterContext, input: TicketWrite): Promise<WriteResult> {
    const { repo, body, closeAfterCreate, comments } = desunifyTicket(input, 'create');
    await checkPush(ctx, o, repo!, body);
    const res = await ctx.http.request<GhIssue>('POST', `${repoPath(repo!)}/issues`, { json: body });
    let issue = res.data;
    if (!issue || typeof issue.number !== 'number') throw new AppError('provider_error', 'GitHub did not return the created issue', { provider: PROVIDER });
    const ref = refOf(issue, { ...repo!, number: issue.number });
    checkDropped(body, issue, ref, 'created');
    const related = await addComments(ctx, o, ref, comments, 'created');
    if (closeAfterCreate) {
      try {
        issue = (await ctx.http.request<GhIssue>('PATCH', issuePath(ref), { json: { state: 'closed', state_reason: 'completed' } })).data;
      } catch (err) {
        throw afterWrite(err, `GitHub issue ${issueRemoteId(ref)} was created, but closing it failed`, ref);
      }
    } else if (related.length > 0) {
      // The comments changed updated_at and the comment count: answer the issue as it is now.
      issue = (await ctx.http.request<GhIssue>('GET', issuePath(ref))).data;
    }
    return { record: unifyIssue(issue, ctx.ids), related };
  }

  return {
    createTicket,

    /** One issue at a time, in input order; each element succeeds or fails on its own. */
    async createTickets(ctx, inputs: TicketWrite[]): Promise<BulkItemResult[]> {
      const out: BulkItemResult[] = [];
      for (const input of inputs) {
        try {
          out.push({ ok: true, result: await createTicket(ctx, input) });
        } catch (err) {
          out.push({ ok: false, error: err as Error });
        }
      }
      return out;
    },

    async updateTicket(ctx, remoteId: string, patch: TicketWrite): Promise<WriteResult> {
      const ref = parseIssue(remoteId, 'id');
      const { body, comments } = desunifyTicket(patch, 'update', ref);
      let issue: GhIssue;
      if (Object.keys(body).length > 0) {
        await checkPush(ctx, o, ref, body);
        issue = (await ctx.http.request<GhIssue>('PATCH', issuePath(ref), { json: body })).data;
        checkDropped(body, issue, refOf(issue, ref), 'updated');
      } else {
        issue = (await ctx.http.request<GhIssue>('GET', issuePath(ref))).data;
      }
      const current = refOf(issue, ref);
      const related = await addComments(ctx, o, current, comments, 'updated');
      if (related.length > 0) issue = (await ctx.http.request<GhIssue>('GET', issuePath(current))).data;
      return { record: unifyIssue(issue, ctx.ids), related };
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const ref = parseIssue(input.ticket_id, 'ticket_id');
      // Checked before anything is sent; the token's user is needed only to check an explicit author.
      desunifyComment(input, input.user_id ?? '');
      const viewer = input.user_id !== undefined ? await viewerLogin(ctx, o) : '';
      const { body } = desunifyComment(input, viewer);
      const comment = await postComment(ctx, o, ref, body);
      return { record: unifyComment(comment, ctx.ids, ref) };
    },
  };
}
