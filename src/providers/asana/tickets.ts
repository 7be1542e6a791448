/**
 * Asana task writes: create (`POST /tasks`, then comment stories; batches through the Batch API), update (`PUT /tasks/{gid}`, tags through
 * `addTag`/`removeTag`), and comments (`POST /tasks/{gid}/stories`, files first uploaded to the task with
 * `POST /attachments`).
 */
import { AppError } from '../../core/errors';
import { formDataBody } from '../form-data';
import { ProviderError } from '../http-client';
import type { AdapterContext, BulkItemResult, CommentWrite, CustomFieldValue, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { asanaErrorMessage } from './http';
import { customFields, getData, listAll, me, remembered, STORY_FIELDS, TASK_FIELDS, workspace, type ResolvedOptions } from './api';
import { unifyAttachment, unifyStory, unifyTask } from './mappers';
import type { AsAttachment, AsStory, AsTag, AsTask } from './types';
import { PROVIDER, seg, unsupported } from './util';

/** Fields an Asana task cannot hold, refused before any call. */
function refuseUnsupported(input: TicketWrite) {
  const refused: Array<[keyof TicketWrite, string]> = [
    ['priority', 'Asana tasks have no priority'],
    ['contact_id', 'Asana has no contacts'],
    ['account_id', 'Asana has no accounts'],
    ['completed_at', 'Asana records completion itself; set status CLOSED instead'],
    ['parent_ticket', 'subtasks are not written through Omniport (project listings hold top-level tasks only)'],
  ];
  for (const [field, why] of refused) if (input[field] !== undefined) throw unsupported(field, why);
  if ((input.assigned_to?.length ?? 0) > 1) throw unsupported('assigned_to', 'an Asana task has one assignee; give at most one user');
}

/** OPEN ↔ not completed, CLOSED ↔ completed; Asana has no other task states. */
function completedOf(status: string | undefined): boolean | undefined {
  if (status === undefined) return undefined;
  const s = status.toUpperCase();
  if (s === 'OPEN') return false;
  if (s === 'CLOSED') return true;
  if (s === 'IN_PROGRESS' || s === 'ON_HOLD') throw unsupported('status', `Asana tasks are completed or not: ${s} cannot be written (OPEN or CLOSED)`);
  throw new AppError('validation_failed', 'status must be one of OPEN, IN_PROGRESS, ON_HOLD, CLOSED', { field: 'status' });
}

/** Field mapping values in the shape each custom field type takes (enum options by name, dates as YYYY-MM-DD). */
async function customFieldData(ctx: AdapterContext, o: ResolvedOptions, values: CustomFieldValue[]): Promise<Record<string, unknown> | undefined> {
  if (!values.length) return undefined;
  const defs = await customFields(ctx, o);
  const out: Record<string, unknown> = {};
  for (const { remoteFieldId, value } of values) {
    const def = defs.find((d) => d.gid === remoteFieldId);
    if (!def) throw unsupported('field_mappings', `the workspace has no custom field ${JSON.stringify(remoteFieldId)}`);
    if (value === null || value === undefined) {
      out[def.gid] = null;
      continue;
    }
    switch (def.resource_subtype ?? def.type) {
      case 'text':
        out[def.gid] = String(value);
        break;
      case 'number':
        if (typeof value !== 'number') throw unsupported('field_mappings', `the custom field ${JSON.stringify(def.name)} takes a number`);
        out[def.gid] = value;
        break;
      case 'enum': {
        const option = def.enum_options?.find((e) => e.name === value);
        if (!option) throw unsupported('field_mappings', `the custom field ${JSON.stringify(def.name)} has no option ${JSON.stringify(value)}`, { allowed: (def.enum_options ?? []).map((e) => e.name) });
        out[def.gid] = option.gid;
        break;
      }
      case 'date':
        out[def.gid] = { date: String(value).slice(0, 10) };
        break;
      default:
        throw unsupported('field_mappings', `custom fields of type ${JSON.stringify(def.resource_subtype ?? def.type)} are not written through Omniport`);
    }
  }
  return out;
}

/** Tag names → tag gids of the workspace, creating the missing ones (`POST /workspaces/{gid}/tags`). */
async function tagGids(ctx: AdapterContext, o: ResolvedOptions, names: string[]): Promise<string[]> {
  if (!names.length) return [];
  const ws = await workspace(ctx, o);
  const known = await remembered(ctx, o, 'tags', () => listAll<AsTag>(ctx, `/workspaces/${seg(ws.gid)}/tags`, o, { opt_fields: 'name' }));
  const out: string[] = [];
  for (const name of names) {
    let tag = known.find((t) => t.name === name);
    if (!tag) {
      tag = (await ctx.http.post<{ data: AsTag }>(`/workspaces/${seg(ws.gid)}/tags`, { json: { data: { name } } })).data.data;
      known.push(tag);
    }
    out.push(tag.gid);
  }
  return out;
}

function taskData(input: TicketWrite): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.description !== undefined) data.notes = input.description.filter((p) => p.trim() !== '').join('\n\n');
  const completed = completedOf(input.status);
  if (completed !== undefined) data.completed = completed;
  if (input.assigned_to !== undefined) data.assignee = input.assigned_to[0] ?? null;
  if (input.due_date !== undefined) data.due_at = new Date(input.due_date).toISOString();
  return data;
}

async function story(ctx: AdapterContext, taskGid: string, data: Record<string, unknown>): Promise<AsStory> {
  const s = (await ctx.http.post<{ data: AsStory }>(`/tasks/${seg(taskGid)}/stories`, { query: { opt_fields: STORY_FIELDS }, json: { data } })).data.data;
  if (!s || typeof s.gid !== 'string') throw new AppError('provider_error', `Asana accepted the comment on task ${taskGid} but did not return it`, { provider: PROVIDER, remote_id: taskGid });
  return s;
}

async function addComments(ctx: AdapterContext, taskGid: string, comments: string[], after: string): Promise<UnifiedRecord[]> {
  const out: UnifiedRecord[] = [];
  for (const [i, text] of comments.entries()) {
    try {
      out.push(unifyStory(await story(ctx, taskGid, { text }), ctx.ids, taskGid));
    } catch (err) {
      throw new AppError(
        err instanceof AppError ? err.code : 'provider_error',
        `Asana task ${taskGid} was ${after}, but adding comment ${i + 1} of ${comments.length} failed: ${err instanceof Error ? err.message : String(err)}`,
        { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: taskGid },
        err instanceof AppError ? err.headers : {},
      );
    }
  }
  return out;
}

const taskPath = (gid: string) => `/tasks/${seg(gid)}`;

/** The Batch API takes at most 10 actions a request (Batch API). */
const BATCH_ACTIONS = 10;

interface AsBatchResult {
  status_code: number;
  body?: unknown;
}

interface Prepared {
  data: Record<string, unknown>;
  comments: string[];
}

/** A new task's `data`, every refusal made and every name resolved before any write. */
async function prepare(ctx: AdapterContext, o: ResolvedOptions, input: TicketWrite): Promise<Prepared> {
  refuseUnsupported(input);
  if (input.project_id === undefined) throw unsupported('project_id', 'an Asana task is created in a project: give project_id (a collection)');
  const data: Record<string, unknown> = { ...taskData(input), projects: [input.project_id] };
  if (input.type !== undefined) {
    if (!TASK_TYPES.includes(input.type)) throw unsupported('type', 'an Asana task type is default_task, milestone or approval', { allowed: TASK_TYPES });
    data.resource_subtype = input.type;
  }
  const cf = await customFieldData(ctx, o, input.customFields ?? []);
  if (cf) data.custom_fields = cf;
  if (input.tags?.length) data.tags = await tagGids(ctx, o, input.tags);
  return { data, comments: (input.comment ?? []).filter((c) => c.trim() !== '') };
}

const TASK_TYPES = ['default_task', 'milestone', 'approval'];

async function created(ctx: AdapterContext, task: AsTask, comments: string[]): Promise<WriteResult> {
  const related = await addComments(ctx, task.gid, comments, 'created');
  return { record: unifyTask(task, ctx.ids), related };
}

export function asanaTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input): Promise<WriteResult> {
      const p = await prepare(ctx, o, input);
      const task = (await ctx.http.post<{ data: AsTask }>('/tasks', { query: { opt_fields: TASK_FIELDS }, json: { data: p.data } })).data.data;
      return created(ctx, task, p.comments);
    },

    /**
     * The Batch API (`POST /batch`): up to 10 task creations a request, each answered with its own status and
     * body; comments follow each created task. An element refused before any call, or by Asana, fails alone.
     */
    async createTickets(ctx, inputs): Promise<BulkItemResult[]> {
      const out: BulkItemResult[] = new Array(inputs.length);
      const prepared: Array<{ index: number } & Prepared> = [];
      for (const [index, input] of inputs.entries()) {
        try {
          prepared.push({ index, ...(await prepare(ctx, o, input)) });
        } catch (err) {
          out[index] = { ok: false, error: err as Error };
        }
      }
      for (let start = 0; start < prepared.length; start += BATCH_ACTIONS) {
        const chunk = prepared.slice(start, start + BATCH_ACTIONS);
        let results: AsBatchResult[];
        try {
          const actions = chunk.map((p) => ({ relative_path: '/tasks', method: 'post', data: p.data, options: { fields: TASK_FIELDS.split(',') } }));
          results = (await ctx.http.post<{ data?: AsBatchResult[] }>('/batch', { json: { data: { actions } } })).data.data ?? [];
        } catch (err) {
          for (const p of chunk) out[p.index] = { ok: false, error: err as Error };
          continue;
        }
        for (const [i, p] of chunk.entries()) {
          const r = results[i];
          const task = r && r.status_code < 300 ? (r.body as { data?: AsTask } | undefined)?.data : undefined;
          if (!task || typeof task.gid !== 'string') {
            out[p.index] = { ok: false, error: new ProviderError(PROVIDER, r?.status_code ?? 502, asanaErrorMessage(r?.body) ?? 'Asana answered no result for this element of the batch', r?.body) };
            continue;
          }
          try {
            out[p.index] = { ok: true, result: await created(ctx, task, p.comments) };
          } catch (err) {
            out[p.index] = { ok: false, error: err as Error };
          }
        }
      }
      return out;
    },

    async updateTicket(ctx, remoteId, patch): Promise<WriteResult> {
      refuseUnsupported(patch);
      if (patch.type !== undefined) throw unsupported('type', 'the type of an Asana task is not changed through Omniport');
      if (patch.project_id !== undefined) throw unsupported('project_id', 'the projects of an Asana task are not changed through Omniport');
      const data = taskData(patch);
      const cf = await customFieldData(ctx, o, patch.customFields ?? []);
      if (cf) data.custom_fields = cf;
      let task: AsTask | undefined;
      if (Object.keys(data).length) task = (await ctx.http.put<{ data: AsTask }>(taskPath(remoteId), { query: { opt_fields: TASK_FIELDS }, json: { data } })).data.data;
      let tagsChanged = false;
      if (patch.tags !== undefined) {
        const current = task ?? (await getData<AsTask>(ctx, taskPath(remoteId), { opt_fields: TASK_FIELDS }));
        const wanted = await tagGids(ctx, o, patch.tags);
        const has = (current.tags ?? []).map((t) => t.gid);
        for (const tag of wanted.filter((g) => !has.includes(g))) await ctx.http.post(`${taskPath(remoteId)}/addTag`, { json: { data: { tag } }, idempotent: true });
        for (const tag of has.filter((g) => !wanted.includes(g))) await ctx.http.post(`${taskPath(remoteId)}/removeTag`, { json: { data: { tag } }, idempotent: true });
        tagsChanged = true;
      }
      const comments = (patch.comment ?? []).filter((c) => c.trim() !== '');
      const related = await addComments(ctx, remoteId, comments, 'updated');
      if (!task || tagsChanged || comments.length) task = await getData<AsTask>(ctx, taskPath(remoteId), { opt_fields: TASK_FIELDS });
      return { record: unifyTask(task, ctx.ids), related };
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      if (input.is_private) throw unsupported('is_private', 'Asana comments are visible to everyone who can see the task');
      if (input.contact_id !== undefined || input.creator_type === 'CONTACT') throw unsupported('contact_id', 'Asana has no contacts: comments are written by the token\'s user');
      if (input.customFields?.length) throw unsupported('field_mappings', 'Asana comments have no custom fields');
      const html = input.html_body?.trim() ? input.html_body : undefined;
      if (!html && !input.body?.trim()) throw new AppError('validation_failed', 'an Asana comment needs body or html_body', { field: 'body' });
      if (input.user_id !== undefined && input.user_id !== (await me(ctx, o)).gid) throw unsupported('user_id', 'Asana comments are written as the token\'s user; give that user or none');
      const uploaded: AsAttachment[] = [];
      for (const file of input.files ?? []) {
        const { body, contentType } = await formDataBody({ parent: input.ticket_id }, [{ part: 'file', file }]);
        uploaded.push((await ctx.http.post<{ data: AsAttachment }>('/attachments', { body, headers: { 'content-type': contentType } })).data.data);
      }
      const s = await story(ctx, input.ticket_id, html ? { html_text: `<body>${html}</body>` } : { text: input.body });
      return {
        record: unifyStory(s, ctx.ids, input.ticket_id, uploaded.map((a) => a.gid)),
        related: uploaded.map((a) => unifyAttachment(a, ctx.ids, input.ticket_id, s.gid)),
      };
    },
  };
}


