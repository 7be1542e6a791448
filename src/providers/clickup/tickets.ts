/**
 * ClickUp task writes: create (`POST /v2/list/{id}/task`, then comments), update (`PUT /v2/task/{id}`, tags
 * through `POST`/`DELETE /v2/task/{id}/tag/{name}`, custom fields through `POST /v2/task/{id}/field/{field}`),
 * and comments (`POST /v2/task/{id}/comment`, files first uploaded to the task with
 * `POST /v2/task/{id}/attachment`). No bulk creation: `createTickets` is left to the core.
 */
import { AppError } from '../../core/errors';
import type { TicketPriority, TicketStatus } from '../../core/unified/ticketing';
import { formDataBody } from '../form-data';
import type { AdapterContext, CommentWrite, CustomFieldValue, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { customFields, remembered, type ResolvedOptions } from './api';
import { UNIFIED_TO_PRIORITY, unifyAttachment, unifyComment, unifyTask } from './mappers';
import type { CuAttachment, CuList, CuStatus, CuTask, CuUser } from './types';
import { PROVIDER, seg, unsupported } from './util';

function refuseUnsupported(input: TicketWrite) {
  const refused: Array<[keyof TicketWrite, string]> = [
    ['contact_id', 'ClickUp has no contacts'],
    ['account_id', 'ClickUp has no accounts'],
    ['completed_at', 'ClickUp records completion itself; set status CLOSED instead'],
    ['type', 'ClickUp task types (custom items) are not written through Omniport'],
  ];
  for (const [field, why] of refused) if (input[field] !== undefined) throw unsupported(field, why);
}

function priorityOf(p: string): number {
  const n = UNIFIED_TO_PRIORITY[p.toUpperCase() as TicketPriority];
  if (!n) throw new AppError('validation_failed', 'priority must be one of URGENT, HIGH, MEDIUM, LOW', { field: 'priority' });
  return n;
}

/** The list's status of the asked kind: the first open, the first custom (IN_PROGRESS), or the closed one. */
async function statusOf(ctx: AdapterContext, o: ResolvedOptions, listId: string, status: string): Promise<string> {
  const s = status.toUpperCase() as TicketStatus;
  if (s === 'ON_HOLD') throw unsupported('status', 'ClickUp statuses are open, custom (in progress) or closed: ON_HOLD cannot be written');
  const types: Record<string, string[]> = { OPEN: ['open'], IN_PROGRESS: ['custom'], CLOSED: ['closed', 'done'] };
  if (!types[s]) throw new AppError('validation_failed', 'status must be one of OPEN, IN_PROGRESS, ON_HOLD, CLOSED', { field: 'status' });
  const list = await remembered(ctx, o, `list:${listId}`, async () => (await ctx.http.get<CuList>(`/v2/list/${seg(listId)}`)).data);
  const found = [...(list.statuses ?? [])].sort((a, b) => (a.orderindex ?? 0) - (b.orderindex ?? 0)).find((x: CuStatus) => types[s]!.includes(x.type ?? ''));
  if (!found?.status) throw unsupported('status', `the list ${JSON.stringify(list.name ?? listId)} has no status for ${s}`);
  return found.status;
}

/** Field mapping values in the shape each field type takes (drop-down options by name, dates in ms). */
async function fieldValues(ctx: AdapterContext, o: ResolvedOptions, values: CustomFieldValue[]): Promise<Array<{ id: string; value: unknown }>> {
  if (!values.length) return [];
  const defs = await customFields(ctx, o);
  return values.map(({ remoteFieldId, value }) => {
    const def = defs.find((d) => d.id === remoteFieldId);
    if (!def) throw unsupported('field_mappings', `no list of the workspace has the custom field ${JSON.stringify(remoteFieldId)}`);
    if (value === null || value === undefined) return { id: def.id, value: null };
    switch (def.type) {
      case 'short_text':
      case 'text':
      case 'email':
      case 'url':
      case 'phone':
        return { id: def.id, value: String(value) };
      case 'number':
      case 'currency':
        if (typeof value !== 'number') throw unsupported('field_mappings', `the custom field ${JSON.stringify(def.name)} takes a number`);
        return { id: def.id, value };
      case 'checkbox':
        return { id: def.id, value: value === true };
      case 'date':
        return { id: def.id, value: new Date(String(value)).getTime() };
      case 'drop_down': {
        const option = def.type_config?.options?.find((x) => x.name === value);
        if (!option) throw unsupported('field_mappings', `the custom field ${JSON.stringify(def.name)} has no option ${JSON.stringify(value)}`, { allowed: (def.type_config?.options ?? []).map((x) => x.name) });
        return { id: def.id, value: option.id };
      }
      default:
        throw unsupported('field_mappings', `custom fields of type ${JSON.stringify(def.type)} are not written through Omniport`);
    }
  });
}

const listIdOf = (projectId: string): string => {
  const m = /^list:(\d+)$/.exec(projectId);
  if (!m) throw unsupported('project_id', 'a ClickUp task is created in a list: give a collection of type LIST');
  return m[1]!;
};

/** The token's user (`GET /v2/user`): comments are written as this user. */
function me(ctx: AdapterContext, o: ResolvedOptions): Promise<CuUser> {
  return remembered(ctx, o, 'me', async () => (await ctx.http.get<{ user: CuUser }>('/v2/user')).data.user);
}

async function comment(ctx: AdapterContext, o: ResolvedOptions, taskId: string, text: string, attachmentIds: string[] = []): Promise<UnifiedRecord> {
  const res = (await ctx.http.post<{ id?: string | number; date?: number | string }>(`/v2/task/${seg(taskId)}/comment`, { json: { comment_text: text, notify_all: false } })).data;
  if (res?.id === undefined) throw new AppError('provider_error', `ClickUp accepted the comment on task ${taskId} but did not return it`, { provider: PROVIDER, remote_id: taskId });
  const user = await me(ctx, o);
  return unifyComment({ id: String(res.id), comment_text: text, user, date: res.date === undefined ? null : String(res.date) }, ctx.ids, taskId, attachmentIds);
}

async function addComments(ctx: AdapterContext, o: ResolvedOptions, taskId: string, texts: string[], after: string): Promise<UnifiedRecord[]> {
  const out: UnifiedRecord[] = [];
  for (const [i, text] of texts.entries()) {
    try {
      out.push(await comment(ctx, o, taskId, text));
    } catch (err) {
      throw new AppError(
        err instanceof AppError ? err.code : 'provider_error',
        `ClickUp task ${taskId} was ${after}, but adding comment ${i + 1} of ${texts.length} failed: ${err instanceof Error ? err.message : String(err)}`,
        { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: taskId },
        err instanceof AppError ? err.headers : {},
      );
    }
  }
  return out;
}

const taskPath = (id: string) => `/v2/task/${seg(id)}`;
const description = (input: TicketWrite) => input.description?.filter((p) => p.trim() !== '').join('\n\n');

export function clickupTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input): Promise<WriteResult> {
      refuseUnsupported(input);
      if (input.project_id === undefined) throw unsupported('project_id', 'a ClickUp task is created in a list: give project_id (a collection of type LIST)');
      const listId = listIdOf(input.project_id);
      const body: Record<string, unknown> = { name: input.name ?? '' };
      if (input.description !== undefined) body.description = description(input);
      if (input.assigned_to !== undefined) body.assignees = input.assigned_to.map(Number);
      if (input.tags !== undefined) body.tags = input.tags;
      if (input.status !== undefined) body.status = await statusOf(ctx, o, listId, input.status);
      if (input.priority !== undefined) body.priority = priorityOf(input.priority);
      if (input.due_date !== undefined) Object.assign(body, { due_date: new Date(input.due_date).getTime(), due_date_time: true });
      if (input.parent_ticket !== undefined) body.parent = input.parent_ticket;
      const cf = await fieldValues(ctx, o, input.customFields ?? []);
      if (cf.length) body.custom_fields = cf;
      const task = (await ctx.http.post<CuTask>(`/v2/list/${seg(listId)}/task`, { json: body })).data;
      const related = await addComments(ctx, o, task.id, (input.comment ?? []).filter((c) => c.trim() !== ''), 'created');
      return { record: unifyTask(task, ctx.ids), related };
    },

    async updateTicket(ctx, remoteId, patch): Promise<WriteResult> {
      refuseUnsupported(patch);
      if (patch.project_id !== undefined) throw unsupported('project_id', 'moving a ClickUp task to another list is not done through Omniport');
      if (patch.parent_ticket !== undefined) throw unsupported('parent_ticket', 'the parent of a ClickUp task is not changed through Omniport');
      const needsCurrent = patch.status !== undefined || patch.assigned_to !== undefined || patch.tags !== undefined;
      const current = needsCurrent ? (await ctx.http.get<CuTask>(taskPath(remoteId))).data : undefined;
      const body: Record<string, unknown> = {};
      if (patch.name !== undefined) body.name = patch.name;
      if (patch.description !== undefined) body.description = description(patch);
      if (patch.status !== undefined) body.status = await statusOf(ctx, o, current!.list?.id ?? '', patch.status);
      if (patch.priority !== undefined) body.priority = priorityOf(patch.priority);
      if (patch.due_date !== undefined) Object.assign(body, { due_date: new Date(patch.due_date).getTime(), due_date_time: true });
      if (patch.assigned_to !== undefined) {
        const has = (current!.assignees ?? []).map((u) => String(u.id));
        body.assignees = { add: patch.assigned_to.filter((u) => !has.includes(u)).map(Number), rem: has.filter((u) => !patch.assigned_to!.includes(u)).map(Number) };
      }
      const cf = await fieldValues(ctx, o, patch.customFields ?? []);
      let task: CuTask | undefined;
      if (Object.keys(body).length) task = (await ctx.http.put<CuTask>(taskPath(remoteId), { json: body })).data;
      for (const f of cf) await ctx.http.post(`${taskPath(remoteId)}/field/${seg(f.id)}`, { json: { value: f.value }, idempotent: true });
      if (patch.tags !== undefined) {
        const has = (current!.tags ?? []).map((t) => t.name ?? '');
        for (const t of patch.tags.filter((x) => !has.includes(x))) await ctx.http.post(`${taskPath(remoteId)}/tag/${seg(t)}`, { idempotent: true });
        for (const t of has.filter((x) => !patch.tags!.includes(x))) await ctx.http.delete(`${taskPath(remoteId)}/tag/${seg(t)}`);
      }
      const texts = (patch.comment ?? []).filter((c) => c.trim() !== '');
      const related = await addComments(ctx, o, remoteId, texts, 'updated');
      if (!task || cf.length || patch.tags !== undefined || texts.length) task = (await ctx.http.get<CuTask>(taskPath(remoteId))).data;
      return { record: unifyTask(task, ctx.ids), related };
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      if (input.is_private) throw unsupported('is_private', 'ClickUp comments are visible to everyone who can see the task');
      if (input.contact_id !== undefined || input.creator_type === 'CONTACT') throw unsupported('contact_id', 'ClickUp has no contacts: comments are written by the token\'s user');
      if (input.customFields?.length) throw unsupported('field_mappings', 'ClickUp comments have no custom fields');
      if (input.html_body !== undefined && input.body === undefined) throw unsupported('html_body', 'ClickUp comments are written as plain text (comment_text): give body');
      if (!input.body?.trim()) throw new AppError('validation_failed', 'a ClickUp comment needs body', { field: 'body' });
      if (input.user_id !== undefined && input.user_id !== String((await me(ctx, o)).id)) throw unsupported('user_id', 'ClickUp comments are written as the token\'s user; give that user or none');
      const uploaded: CuAttachment[] = [];
      for (const file of input.files ?? []) {
        const { body, contentType } = await formDataBody({}, [{ part: 'attachment', file }]);
        uploaded.push((await ctx.http.post<CuAttachment>(`${taskPath(input.ticket_id)}/attachment`, { body, headers: { 'content-type': contentType } })).data);
      }
      const record = await comment(ctx, o, input.ticket_id, input.body, uploaded.map((a) => a.id));
      return { record, related: uploaded.map((a) => unifyAttachment(a, ctx.ids, input.ticket_id, record.remoteId)) };
    },
  };
}
