/**
 * Linear ticket writes: create (issueCreate, then the comments), bulk create (issueBatchCreate, one
 * transaction per chunk; a chunk Linear refuses is retried issue by issue so each element gets its own
 * answer), partial update (issueUpdate), and comments with files (fileUpload + commentCreate).
 * Statuses become workflow states of the issue's team and tags become labels (created when missing).
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../core/errors';
import { beforeTheWrite, OutcomeUnknownError } from '../http-client';
import { stableWriteKey } from '../../core/lost-attempt';
import type { AdapterContext, BulkItemResult, CommentWrite, TicketWrite, TicketingOperations, UnifiedRecord, WriteResult } from '../types';
import { assetMarkdown, desunifyComment, unifyComment } from './comment.mapper';
import { gql, LinearApiError, pages, type ResolvedOptions } from './graphql';
import {
  COMMENT_CREATE,
  ISSUE,
  ISSUE_BATCH_CREATE,
  ISSUE_CONTEXT,
  ISSUE_CREATE,
  ISSUE_UPDATE,
  LABEL_CREATE,
  TEAM_LABELS,
  TEAM_STATES,
  VIEWER,
} from './queries';
import { completeIssue } from './sync';
import { desunifyIssue, STATE_TYPES_OF_STATUS, statusOfStateType, unifyIssue, type DesunifiedIssue } from './ticket.mapper';
import type { LnComment, LnConnection, LnIssue, LnIssueInput, LnWorkflowState } from './types';
import { uploadFile } from './uploads';
import { linearId, unsupported } from './util';
import type { TicketStatus } from '../../core/unified/ticketing';

const PROVIDER = 'linear';

interface TeamLabel {
  id: string;
  name: string;
  isGroup?: boolean;
  team?: { id: string } | null;
}

/** Per-call lookups of a team's workflow states and labels (a bulk create asks once per team). */
class TeamLookups {
  // One lookup object per call, dropped with it: these Maps never outlive a request.
  // eslint-disable-next-line no-restricted-syntax
  private readonly states = new Map<string, Promise<LnWorkflowState[]>>();
  // eslint-disable-next-line no-restricted-syntax
  private readonly labels = new Map<string, Promise<TeamLabel[]>>();

  constructor(
    private readonly ctx: AdapterContext,
    private readonly o: ResolvedOptions,
  ) {}

  statesOf(teamId: string): Promise<LnWorkflowState[]> {
    let p = this.states.get(teamId);
    if (!p) {
      p = collect<LnWorkflowState>(this.ctx, this.o, TEAM_STATES, { filter: { team: { id: { eq: teamId } } } }, (d: { workflowStates?: LnConnection<LnWorkflowState> }) => d.workflowStates);
      this.states.set(teamId, p);
    }
    return p;
  }

  labelsOf(teamId: string): Promise<TeamLabel[]> {
    let p = this.labels.get(teamId);
    if (!p) {
      const filter = { or: [{ team: { id: { eq: teamId } } }, { team: { null: true } }] };
      p = collect<TeamLabel>(this.ctx, this.o, TEAM_LABELS, { filter }, (d: { issueLabels?: LnConnection<TeamLabel> }) => d.issueLabels);
      this.labels.set(teamId, p);
    }
    return p;
  }

  /** The state for a unified status: the current one when it already means that status, else the team's first of the best type. */
  async stateFor(teamId: string, status: TicketStatus, current?: { id: string; type?: string } | null): Promise<string> {
    if (current && statusOfStateType(current.type) === status) return current.id;
    const states = (await this.statesOf(teamId)).filter((s) => !s.archivedAt);
    for (const type of STATE_TYPES_OF_STATUS[status]) {
      const best = states.filter((s) => s.type === type).sort((a, b) => a.position - b.position)[0];
      if (best) return best.id;
    }
    throw unsupported('status', `the Linear team has no workflow state for ${status}`);
  }

  /** Label ids for tag names: the team's label first, then the workspace's, matched without case; missing ones are created in the team. */
  async labelIdsFor(teamId: string, names: string[]): Promise<string[]> {
    // The cached list itself: labels created here are found by the next issue of a bulk create.
    const all = await this.labelsOf(teamId);
    const ids: string[] = [];
    for (const name of names) {
      const lower = name.toLowerCase();
      const matches = all.filter((l) => l.isGroup !== true && l.name.toLowerCase() === lower);
      const rank = (l: TeamLabel) => (l.team?.id === teamId ? 0 : 2) + (l.name === name ? 0 : 1);
      let label = matches.sort((a, b) => rank(a) - rank(b))[0];
      if (!label && all.some((l) => l.isGroup === true && l.name.toLowerCase() === lower)) {
        throw unsupported('tags', `${JSON.stringify(name)} is a label group in Linear; put one of its labels on the issue instead`);
      }
      if (!label) {
        const data = await gql<{ issueLabelCreate?: { success?: boolean; issueLabel?: TeamLabel } }>(this.ctx, this.o, LABEL_CREATE, { input: { name, teamId } }, { mutation: true });
        label = data.issueLabelCreate?.issueLabel;
        if (!data.issueLabelCreate?.success || !label) throw new AppError('provider_error', `Linear did not create the label ${JSON.stringify(name)}`, { provider: PROVIDER, field: 'tags' });
        all.push(label);
      }
      if (!ids.includes(label.id)) ids.push(label.id);
    }
    return ids;
  }
}

async function collect<T>(ctx: AdapterContext, o: ResolvedOptions, query: string, variables: Record<string, unknown>, pick: (data: never) => LnConnection<T> | null | undefined): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages<T>(ctx, { ...o, pageSize: Math.max(o.pageSize, 100) }, query, variables, pick)) out.push(...page.nodes);
  return out;
}

/** The full issue input of a write: the desunified fields plus the state and labels of its team. */
async function issueInput(lookups: TeamLookups, d: DesunifiedIssue, teamId: string, current?: { id: string; type?: string } | null): Promise<LnIssueInput> {
  const input: LnIssueInput = { ...d.input };
  if (d.status) input.stateId = await lookups.stateFor(teamId, d.status, current);
  if (d.tags) input.labelIds = await lookups.labelIdsFor(teamId, d.tags);
  return input;
}

async function createComment(ctx: AdapterContext, o: ResolvedOptions, issueId: string, body: string): Promise<LnComment> {
  const data = await gql<{ commentCreate?: { success?: boolean; comment?: LnComment } }>(ctx, o, COMMENT_CREATE, { input: { issueId, body } }, { mutation: true });
  const comment = data.commentCreate?.comment;
  if (!data.commentCreate?.success || !comment) throw new AppError('provider_error', `Linear did not create the comment on issue ${issueId}`, { provider: PROVIDER, remote_id: issueId });
  return comment;
}

/** Adds the comments of a new issue in order; a failure says which comment, and that the issue exists. */
async function addComments(ctx: AdapterContext, o: ResolvedOptions, issue: LnIssue, bodies: string[]): Promise<UnifiedRecord[]> {
  const out: UnifiedRecord[] = [];
  for (const [i, body] of bodies.entries()) {
    try {
      const c = await createComment(ctx, o, issue.id, body);
      const u = unifyComment(c, ctx.ids, o.uploadHosts);
      out.push(u.comment, ...u.attachments);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new AppError(
        err instanceof AppError ? err.code : 'provider_error',
        `Linear issue ${issue.identifier ?? issue.id} was created, but adding comment ${i + 1} of ${bodies.length} failed: ${why}`,
        { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: issue.id },
        err instanceof AppError ? err.headers : {},
      );
    }
  }
  return out;
}

async function result(ctx: AdapterContext, o: ResolvedOptions, issue: LnIssue, comments: string[]): Promise<WriteResult> {
  const full = await completeIssue(ctx, o, issue);
  const related = comments.length ? await addComments(ctx, o, full, comments) : [];
  return { record: unifyIssue(full, ctx.ids), related };
}

/**
 * Sends an issue creation whose issues carry ids of our own. When its answer is lost, those ids settle it:
 * Linear creates a batch in one transaction, so the first issue found means all were created, and none
 * found means none was — then the same call is sent once more (Linear refuses an id that already exists,
 * so it cannot create twice). Only a second lost answer stays `outcome_unknown`.
 */
async function createWithOwnIds(ctx: AdapterContext, o: ResolvedOptions, ids: string[], send: () => Promise<LnIssue[]>, resends = 1): Promise<LnIssue[]> {
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) throw err;
    const first = await issueById(ctx, o, ids[0]!).catch(() => undefined);
    if (first === null && resends > 0) return createWithOwnIds(ctx, o, ids, send, resends - 1);
    if (!first) throw err;
    const rest = await Promise.all(ids.slice(1).map((id) => issueById(ctx, o, id)));
    if (rest.some((i) => !i)) throw err;
    return [first, ...(rest as LnIssue[])];
  }
}

/** The issue, or null when Linear has none with that id. */
async function issueById(ctx: AdapterContext, o: ResolvedOptions, id: string): Promise<LnIssue | null> {
  try {
    return (await gql<{ issue?: LnIssue | null }>(ctx, o, ISSUE, { id })).issue ?? null;
  } catch (err) {
    if (err instanceof LinearApiError && /not found/i.test(err.providerMessage ?? '')) return null;
    throw err;
  }
}

function payloadIssue(data: { success?: boolean; issue?: LnIssue | null } | undefined, what: string): LnIssue {
  if (!data?.success || !data.issue) throw new AppError('provider_error', `Linear accepted the ${what} but returned no issue`, { provider: PROVIDER });
  return data.issue;
}

export function linearTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input: TicketWrite): Promise<WriteResult> {
      const d = desunifyIssue(input, 'create');
      const fields = await issueInput(new TeamLookups(ctx, o), d, d.input.teamId!);
      // The same id on a retry of an interrupted request (core/lost-attempt.ts): the lookup below then finds its issue.
      const input2 = { ...fields, id: stableWriteKey(JSON.stringify(fields)) ?? randomUUID() };
      const [issue] = await createWithOwnIds(ctx, o, [input2.id], async () => {
        const data = await gql<{ issueCreate?: { success?: boolean; issue?: LnIssue } }>(ctx, o, ISSUE_CREATE, { input: input2 }, { mutation: true });
        return [payloadIssue(data.issueCreate, 'new issue')];
      });
      return result(ctx, o, issue!, d.comments);
    },

    async createTickets(ctx, inputs: TicketWrite[]): Promise<BulkItemResult[]> {
      const out: BulkItemResult[] = new Array(inputs.length);
      const lookups = new TeamLookups(ctx, o);
      const prepared: Array<{ index: number; input: LnIssueInput; comments: string[] }> = [];
      // Sequential: label creation for a missing tag must happen once per team.
      for (const [index, item] of inputs.entries()) {
        try {
          const d = desunifyIssue(item, 'create');
          // An id of our own for each issue: results are matched by id, whatever order Linear answers in.
          const fields = await issueInput(lookups, d, d.input.teamId!);
          prepared.push({ index, input: { ...fields, id: stableWriteKey(JSON.stringify(fields)) ?? randomUUID() }, comments: d.comments });
        } catch (err) {
          out[index] = { ok: false, error: err as Error };
        }
      }
      for (let start = 0; start < prepared.length; start += o.batchSize) {
        const chunk = prepared.slice(start, start + o.batchSize);
        let created: Map<string, LnIssue>;
        try {
          const issues = await createWithOwnIds(ctx, o, chunk.map((p) => p.input.id!), async () => {
            const data = await gql<{ issueBatchCreate?: { success?: boolean; issues?: LnIssue[] } }>(
              ctx,
              o,
              ISSUE_BATCH_CREATE,
              { input: { issues: chunk.map((p) => p.input) } },
              { mutation: true },
            );
            if (!data.issueBatchCreate?.success || !Array.isArray(data.issueBatchCreate.issues)) {
              throw new AppError('provider_error', `Linear did not confirm the batch of ${chunk.length} issues`, { provider: PROVIDER });
            }
            return data.issueBatchCreate.issues;
          });
          created = new Map(issues.map((i) => [i.id, i]));
        } catch (err) {
          // One transaction: nothing was created. When Linear refused the input (400), create one by one so
          // each element gets its own answer; otherwise (rate limit, outage, timeout) all share the error.
          if (err instanceof LinearApiError && err.providerStatus === 400 && chunk.length > 1) {
            await Promise.all(
              chunk.map(async (p) => {
                try {
                  const data = await gql<{ issueCreate?: { success?: boolean; issue?: LnIssue } }>(ctx, o, ISSUE_CREATE, { input: p.input }, { mutation: true });
                  out[p.index] = { ok: true, result: await result(ctx, o, payloadIssue(data.issueCreate, 'new issue'), p.comments) };
                } catch (e) {
                  out[p.index] = { ok: false, error: e as Error };
                }
              }),
            );
          } else {
            for (const p of chunk) out[p.index] = { ok: false, error: err as Error };
          }
          continue;
        }
        await Promise.all(
          chunk.map(async (p) => {
            try {
              const issue = created.get(p.input.id!);
              if (!issue) throw new AppError('provider_error', 'Linear did not return this issue among the ones it created', { provider: PROVIDER, remote_id: p.input.id });
              out[p.index] = { ok: true, result: await result(ctx, o, issue, p.comments) };
            } catch (e) {
              out[p.index] = { ok: false, error: e as Error };
            }
          }),
        );
      }
      return out;
    },

    async updateTicket(ctx, remoteId: string, patch: TicketWrite): Promise<WriteResult> {
      const id = linearId(remoteId, 'id');
      const d = desunifyIssue(patch, 'update');
      let input: LnIssueInput = d.input;
      if (d.status || d.tags) {
        const data = await gql<{ issue?: { id: string; team?: { id: string }; state?: { id: string; type?: string } } }>(ctx, o, ISSUE_CONTEXT, { id });
        const currentTeam = data.issue?.team?.id;
        if (!currentTeam) throw new AppError('provider_error', `Linear did not return issue ${id}`, { provider: PROVIDER, remote_id: id });
        const teamId = d.input.teamId ?? currentTeam;
        input = await issueInput(new TeamLookups(ctx, o), d, teamId, teamId === currentTeam ? data.issue?.state : null);
      }
      if (Object.keys(input).length === 0) {
        const data = await gql<{ issue?: LnIssue }>(ctx, o, ISSUE, { id });
        if (!data.issue) throw new AppError('provider_error', `Linear did not return issue ${id}`, { provider: PROVIDER, remote_id: id });
        return result(ctx, o, data.issue, []);
      }
      const data = await gql<{ issueUpdate?: { success?: boolean; issue?: LnIssue } }>(ctx, o, ISSUE_UPDATE, { id, input }, { mutation: true });
      return result(ctx, o, payloadIssue(data.issueUpdate, 'update'), []);
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const issueId = linearId(input.ticket_id, 'ticket_id');
      const { body } = desunifyComment(input);
      if (input.user_id !== undefined) {
        const data = await gql<{ viewer?: { id: string } }>(ctx, o, VIEWER);
        if (data.viewer?.id !== input.user_id) {
          throw unsupported('user_id', 'Linear writes comments as the connected user; leave user_id out or give that user');
        }
      }
      const links: string[] = [];
      for (const f of input.files ?? []) links.push(assetMarkdown(await beforeTheWrite(uploadFile(ctx, o, f), `uploading ${f.fileName}`)));
      const markdown = [body.trim() === '' ? undefined : body, links.length ? links.join('\n') : undefined].filter(Boolean).join('\n\n');
      const c = await createComment(ctx, o, issueId, markdown);
      const u = unifyComment(c, ctx.ids, o.uploadHosts);
      return { record: u.comment, related: u.attachments };
    },
  };
}
