/**
 * Jira issue writes: create (issue type resolved from the project, then status transition and
 * comments), bulk create through `POST /rest/api/3/issue/bulk` + `bulkfetch`, partial update (edit,
 * then transition), and comments with attachments (uploaded to the issue, linked from the comment).
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors';
import { OutcomeUnknownError, ProviderError, beforeTheWrite } from '../http-client';
import type { AdapterContext, BulkItemResult, CommentWrite, FileUpload, TicketWrite, TicketingOperations, UnifiedRecord, WriteResult } from '../types';
import { textToAdf } from './adf';
import { API, ISSUE_FIELDS, myself, projectIssueTypes, type ResolvedOptions } from './api';
import { desunifyComment, unifyAttachment, unifyComment, withAttachmentLinks } from './comment.mapper';
import { customFieldEntries } from './custom-fields';
import { jiraErrorMessage } from './http';
import { desunifyTicket, type DesunifiedTicket } from './ticket.mapper';
import { unifyTicket } from './ticket.mapper';
import { transitionTo } from './transitions';
import type { JiraAttachment, JiraComment, JiraErrorCollection, JiraIssue, JiraStatus } from './types';
import { jiraId, unsupported } from './util';

const PROVIDER = 'jira';

/** Issue types preferred when a ticket gives no `type`. */
const DEFAULT_TYPES = /^(task|story|bug)$/i;

/** The issue type of a new issue: the named one of the project (any case), else its default. */
async function issueTypeOf(ctx: AdapterContext, o: ResolvedOptions, projectId: string, name: string | undefined): Promise<{ id: string }> {
  const types = await projectIssueTypes(ctx, o, projectId);
  if (name !== undefined) {
    const hit = types.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (!hit) {
      throw unsupported('type', `the Jira project has no issue type ${JSON.stringify(name)}; its types are ${types.map((t) => t.name).join(', ') || 'none'}`, {
        allowed: types.map((t) => t.name),
      });
    }
    return { id: hit.id };
  }
  const standard = types.filter((t) => !t.subtask && (t.hierarchyLevel ?? 0) === 0);
  const pick = standard.find((t) => DEFAULT_TYPES.test(t.name)) ?? standard[0] ?? types.find((t) => !t.subtask);
  if (!pick) throw unsupported('type', 'the Jira project has no issue type this connection may create');
  return { id: pick.id };
}

async function getIssue(ctx: AdapterContext, id: string, fields: string[] = ISSUE_FIELDS): Promise<JiraIssue> {
  return (await ctx.http.get<JiraIssue>(`${API}/issue/${id}`, { query: { fields: fields.join(',') } })).data;
}

async function addComment(ctx: AdapterContext, issueId: string, body: unknown): Promise<JiraComment> {
  return (await ctx.http.post<JiraComment>(`${API}/issue/${issueId}/comment`, { json: { body } })).data;
}

/** A failure after the issue exists says so (with its remote id), keeping the original code and status. */
function afterCreate(err: unknown, issue: { id: string; key?: string }, what: string, verb = 'created'): AppError {
  const why = err instanceof Error ? err.message : String(err);
  const base = err instanceof AppError ? err : undefined;
  return new AppError(
    base?.code ?? 'provider_error',
    `Jira issue ${issue.key ?? issue.id} was ${verb}, but ${what} failed: ${why}`,
    { ...(base?.details ?? {}), provider: PROVIDER, remote_id: issue.id },
    base?.headers ?? {},
  );
}

/** Status transition and comments after the issue exists; returns whether anything changed. */
async function followUps(ctx: AdapterContext, issue: { id: string; key?: string }, d: DesunifiedTicket, current: JiraStatus | undefined, verb: string): Promise<{ changed: boolean; comments: JiraComment[] }> {
  let changed = false;
  if (d.status) {
    try {
      changed = await transitionTo(ctx, issue.id, d.status, current);
    } catch (err) {
      throw afterCreate(err, issue, `changing its status to ${d.status}`, verb);
    }
  }
  const comments: JiraComment[] = [];
  for (const [i, body] of d.comments.entries()) {
    try {
      comments.push(await addComment(ctx, issue.id, textToAdf(body)));
      changed = true;
    } catch (err) {
      throw afterCreate(err, issue, `adding comment ${i + 1} of ${d.comments.length}`, verb);
    }
  }
  return { changed, comments };
}

function result(ctx: AdapterContext, issue: JiraIssue, comments: JiraComment[]): WriteResult {
  const related: UnifiedRecord[] = comments.map((c) => unifyComment(c, issue.id, ctx.ids).comment);
  return { record: unifyTicket(issue, ctx.ids), related };
}

interface Prepared {
  d: DesunifiedTicket;
  fields: Record<string, unknown>;
}

async function prepareCreate(ctx: AdapterContext, o: ResolvedOptions, input: TicketWrite): Promise<Prepared> {
  const d = desunifyTicket(input, 'create');
  const [issuetype, custom] = await Promise.all([issueTypeOf(ctx, o, d.projectId!, d.type), customFieldEntries(ctx, o, input.customFields)]);
  return { d, fields: { ...d.fields, issuetype, ...custom } };
}

/** The element error of a bulk create, as the provider's refusal of that element. */
function elementError(e: { status?: number; elementErrors?: JiraErrorCollection } | undefined): Error {
  return new ProviderError(PROVIDER, e?.status ?? 400, jiraErrorMessage(e?.elementErrors) ?? 'the issue was not created', e ?? null);
}

export function jiraTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input): Promise<WriteResult> {
      const p = await prepareCreate(ctx, o, input);
      const created = (await ctx.http.post<{ id: string; key?: string }>(`${API}/issue`, { json: { fields: p.fields } })).data;
      if (!created?.id) throw new AppError('provider_error', 'Jira accepted the issue but returned no id', { provider: PROVIDER });
      let current: JiraStatus | undefined;
      if (p.d.status) {
        try {
          current = (await getIssue(ctx, created.id, ['status'])).fields?.status;
        } catch (err) {
          throw afterCreate(err, created, 'reading its status');
        }
      }
      const { comments } = await followUps(ctx, created, p.d, current, 'created');
      try {
        return result(ctx, await getIssue(ctx, created.id), comments);
      } catch (err) {
        throw afterCreate(err, created, 'reading it back');
      }
    },

    async createTickets(ctx, inputs): Promise<BulkItemResult[]> {
      const out: BulkItemResult[] = new Array(inputs.length);
      const prepared: Array<{ index: number } & Prepared> = [];
      await Promise.all(
        inputs.map(async (input, index) => {
          try {
            prepared.push({ index, ...(await prepareCreate(ctx, o, input)) });
          } catch (err) {
            out[index] = { ok: false, error: err as Error };
          }
        }),
      );
      prepared.sort((a, b) => a.index - b.index);
      // Jira creates at most 50 issues a call.
      for (let start = 0; start < prepared.length; start += 50) {
        const chunk = prepared.slice(start, start + 50);
        let body: { issues?: Array<{ id: string; key?: string }>; errors?: Array<{ status?: number; failedElementNumber?: number; elementErrors?: JiraErrorCollection }> };
        try {
          body = (await ctx.http.post<typeof body>(`${API}/issue/bulk`, { json: { issueUpdates: chunk.map((p) => ({ fields: p.fields })) } })).data ?? {};
        } catch (err) {
          // All elements refused: Jira answers 400 with the same body (one error per element).
          const b = err instanceof ProviderError ? (err.providerBody as typeof body | undefined) : undefined;
          if (err instanceof ProviderError && err.providerStatus === 400 && Array.isArray(b?.errors) && b.errors.length > 0) body = b;
          else {
            for (const p of chunk) out[p.index] = { ok: false, error: err as Error };
            continue;
          }
        }
        const failed = new Map((body.errors ?? []).map((e) => [e.failedElementNumber ?? -1, e]));
        const created = [...(body.issues ?? [])];
        const createdAt = new Map<number, { id: string; key?: string }>();
        chunk.forEach((p, pos) => {
          if (failed.has(pos)) out[p.index] = { ok: false, error: elementError(failed.get(pos)) };
          else {
            const c = created.shift();
            if (c?.id) createdAt.set(pos, c);
            else out[p.index] = { ok: false, error: elementError(undefined) };
          }
        });
        if (createdAt.size === 0) continue;

        // One strongly consistent read of the created issues.
        const issues = new Map<string, JiraIssue>();
        try {
          const res = await ctx.http.post<{ issues?: JiraIssue[] }>(`${API}/issue/bulkfetch`, {
            json: { issueIdsOrKeys: [...createdAt.values()].map((c) => c.id), fields: ISSUE_FIELDS },
            read: true,
          });
          for (const i of res.data?.issues ?? []) issues.set(String(i.id), i);
        } catch (err) {
          for (const [pos, c] of createdAt) out[chunk[pos]!.index] = { ok: false, error: afterCreate(err, c, 'reading it back') };
          continue;
        }
        await Promise.all(
          [...createdAt].map(async ([pos, c]) => {
            const p = chunk[pos]!;
            try {
              const fetched = issues.get(c.id);
              if (!fetched) throw new AppError('provider_error', `Jira reported issue ${c.key ?? c.id} created but does not return it`, { provider: PROVIDER, remote_id: c.id });
              let issue: JiraIssue = fetched;
              const { changed, comments } = await followUps(ctx, c, p.d, issue.fields?.status, 'created');
              if (changed) issue = await getIssue(ctx, c.id).catch((err: unknown) => Promise.reject(afterCreate(err, c, 'reading it back')));
              out[p.index] = { ok: true, result: result(ctx, issue, comments) };
            } catch (err) {
              out[p.index] = { ok: false, error: err as Error };
            }
          }),
        );
      }
      return out;
    },

    async updateTicket(ctx, remoteId, patch): Promise<WriteResult> {
      const id = jiraId(remoteId, 'id');
      const d = desunifyTicket(patch, 'update');
      let current: JiraIssue | undefined;
      if (d.projectId !== undefined || d.status !== undefined || d.type !== undefined) current = await getIssue(ctx, id, ['status', 'project', 'issuetype']);
      const f = current?.fields ?? {};
      if (d.projectId !== undefined && d.projectId !== String(f.project?.id)) {
        throw unsupported('project_id', 'moving an issue to another Jira project is not possible through an update');
      }
      const fields: Record<string, unknown> = { ...d.fields, ...(await customFieldEntries(ctx, o, patch.customFields)) };
      if (d.type !== undefined && d.type.toLowerCase() !== (f.issuetype?.name ?? '').toLowerCase()) {
        fields.issuetype = await issueTypeOf(ctx, o, String(f.project?.id), d.type);
      }
      if (Object.keys(fields).length > 0) await ctx.http.put(`${API}/issue/${id}`, { json: { fields } });
      if (d.status !== undefined) {
        try {
          await transitionTo(ctx, id, d.status, f.status);
        } catch (err) {
          if (Object.keys(fields).length === 0) throw err;
          throw afterCreate(err, { id }, `changing its status to ${d.status}`, 'updated');
        }
      }
      return result(ctx, await getIssue(ctx, id), []);
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const issueId = jiraId(input.ticket_id, 'ticket_id');
      const own = input.user_id !== undefined ? (await myself(ctx, o)).accountId : undefined;
      const body = desunifyComment(input, own);
      const attachments = await beforeTheWrite(uploadFiles(ctx, issueId, input.files ?? []), 'uploading the files');
      let comment: JiraComment;
      try {
        comment = await addComment(ctx, issueId, withAttachmentLinks(body, attachments));
      } catch (err) {
        // Do not leave orphan uploads behind a comment that does not exist (it may, when the outcome is unknown).
        if (!(err instanceof OutcomeUnknownError)) await Promise.all(attachments.map((a) => ctx.http.delete(`${API}/attachment/${a.id}`).catch(() => undefined)));
        throw err;
      }
      const u = unifyComment(comment, issueId, ctx.ids, new Set(attachments.map((a) => String(a.id))));
      return { record: u.comment, related: attachments.map((a) => unifyAttachment(a, issueId, String(comment.id), ctx.ids)) };
    },
  };
}

/** `filename="…"` of a multipart part: quotes and line breaks cannot appear in it. */
function dispositionName(name: string): string {
  return name.replace(/[\r\n]/g, ' ').replace(/"/g, '%22');
}

/** One multipart/form-data body with every file as a `file` part. */
export function multipartBody(files: FileUpload[]): { body: Buffer; contentType: string } {
  const boundary = `----omniport${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${dispositionName(f.fileName)}"\r\nContent-Type: ${f.contentType || 'application/octet-stream'}\r\n\r\n`,
        'utf8',
      ),
      f.content,
      Buffer.from('\r\n', 'utf8'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Uploads files to the issue in one multipart request (`X-Atlassian-Token: no-check`, Jira's XSRF
 * opt-out); returns the attachments in upload order.
 */
async function uploadFiles(ctx: AdapterContext, issueId: string, files: FileUpload[]): Promise<JiraAttachment[]> {
  if (files.length === 0) return [];
  const { body, contentType } = multipartBody(files);
  const res = await ctx.http.post<JiraAttachment[]>(`${API}/issue/${issueId}/attachments`, {
    body,
    headers: { 'content-type': contentType, 'x-atlassian-token': 'no-check' },
  });
  const attachments = Array.isArray(res.data) ? res.data : [];
  if (attachments.length !== files.length) {
    await Promise.all(attachments.map((a) => ctx.http.delete(`${API}/attachment/${a.id}`).catch(() => undefined)));
    throw new AppError('provider_error', `Jira stored ${attachments.length} of ${files.length} attachments`, { provider: PROVIDER });
  }
  return attachments;
}
