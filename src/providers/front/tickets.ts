/**
 * Front ticket writes: create (a discussion or task with `POST /conversations`, or a message to a contact
 * with `POST /channels/{id}/messages`), update (`PATCH /conversations/{id}`), and comments — internal
 * comments (`POST /conversations/{id}/comments`) or message replies (`POST /conversations/{id}/messages`),
 * with attachments as multipart/form-data.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CommentWrite, FileUpload, TicketWrite, TicketingOperations, WriteResult } from '../types';
import { channelOfInbox, recipientHandle, tagIdsFor, ticketStatuses, waitForMessage, type ResolvedOptions } from './api';
import { planComment, unifyComment, unifyMessage } from './comment.mapper';
import { loadConversation } from './conversations';
import { conversationCustomFieldValues } from './custom-fields';
import { planCreate, planUpdate, statusUpdate, type CreatePlan } from './ticket.mapper';
import type { FrAcceptedMessage, FrComment, FrConversation } from './types';
import { formFields, frId, idFromLink, multipartBody, PROVIDER, seg, textToHtml, unsupported } from './util';

/** Front takes at most 25 MB of attachments on one comment or message. */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

/** A JSON body, or the same fields as multipart/form-data with the files under `fileField[i]`. */
function bodyWithFiles(fields: Record<string, unknown>, files: FileUpload[], fileField: string) {
  if (files.length === 0) return { json: fields };
  const total = files.reduce((n, f) => n + f.content.length, 0);
  if (total > MAX_ATTACHMENT_BYTES) throw unsupported('attachments', `Front takes at most 25 MB of attachments on one comment or message (got ${total} bytes)`);
  const { body, contentType } = multipartBody([...formFields(fields), ...files.map((f, i) => [`${fileField}[${i}]`, f] as [string, FileUpload])]);
  return { body, headers: { 'content-type': contentType } };
}

/** A step after the conversation exists: its failure says so (the conversation is not rolled back). */
async function afterCreate<T>(conversationId: string, step: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new AppError(
      err instanceof AppError ? err.code : 'provider_error',
      `Front conversation ${conversationId} was created, but ${step} failed: ${why}`,
      { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: conversationId },
      err instanceof AppError ? err.headers : {},
    );
  }
}

async function addComment(ctx: AdapterContext, conversationId: string, fields: Record<string, unknown>, files: FileUpload[] = []): Promise<FrComment> {
  const res = await ctx.http.post<FrComment>(`/conversations/${seg(conversationId)}/comments`, bodyWithFiles(fields, files, 'attachments'));
  return res.data;
}

/** The conversation a message was created in (`_links.related.conversation`). */
function conversationOfMessage(m: { _links?: { related?: Record<string, string | null | undefined> } }): string {
  const id = idFromLink(m._links?.related?.conversation, 'conversations');
  if (!id) throw new AppError('provider_error', 'Front created the message but did not say in which conversation', { provider: PROVIDER });
  return id;
}

async function createConversation(ctx: AdapterContext, plan: CreatePlan, tagIds: string[], customFields: Record<string, unknown>, o: ResolvedOptions): Promise<string> {
  if (plan.type === 'conversation') {
    const channel = await channelOfInbox(ctx, plan.inboxId!);
    const to = await recipientHandle(ctx, plan.contactId!, channel);
    const accepted = await ctx.http.post<FrAcceptedMessage>(`/channels/${seg(channel.id)}/messages`, {
      json: {
        to: [to],
        ...(plan.subject !== undefined ? { subject: plan.subject } : {}),
        body: textToHtml(plan.messageText!),
        text: plan.messageText,
        // Front archives the conversation on send unless told otherwise.
        options: { archive: false, ...(tagIds.length ? { tag_ids: tagIds } : {}) },
      },
    });
    const message = await waitForMessage(ctx, accepted.data, o);
    return conversationOfMessage(message);
  }
  const body: Record<string, unknown> = {
    type: plan.type,
    subject: plan.subject,
    ...(plan.inboxId ? { inbox_id: plan.inboxId } : { teammate_ids: plan.teammateIds }),
    ...(plan.starter !== undefined ? { comment: { body: plan.starter } } : {}),
    ...(plan.taskDescription !== undefined ? { description: plan.taskDescription } : {}),
    ...(plan.dueAt !== undefined ? { due_at: plan.dueAt } : {}),
    ...(Object.keys(customFields).length ? { custom_fields: customFields } : {}),
  };
  const created = (await ctx.http.post<FrConversation>('/conversations', { json: body })).data;
  if (!created?.id) throw new AppError('provider_error', 'Front did not return the conversation it created', { provider: PROVIDER });
  return created.id;
}

export function frontTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input: TicketWrite): Promise<WriteResult> {
      const plan = planCreate(input);
      // Everything that can refuse the input is checked before the conversation exists.
      const [tagIds, customFields, statuses] = await Promise.all([
        plan.tags !== undefined ? tagIdsFor(ctx, plan.tags, o) : Promise.resolve([] as string[]),
        conversationCustomFieldValues(ctx, plan.customFields),
        plan.status !== undefined && plan.status !== 'OPEN' ? ticketStatuses(ctx) : Promise.resolve(null),
      ]);
      const status = plan.status !== undefined && plan.status !== 'OPEN' ? statusUpdate(plan.status, statuses) : {};
      const id = await createConversation(ctx, plan, tagIds, customFields, o);

      for (const [i, body] of plan.laterComments.entries()) {
        await afterCreate(id, `adding comment ${i + 1} of ${plan.laterComments.length}`, () => addComment(ctx, id, { body }));
      }
      const patch: Record<string, unknown> = { ...status };
      if (plan.assigneeId) patch.assignee_id = plan.assigneeId;
      // Discussions take no tags on creation; messages got them in their options.
      if (plan.type !== 'conversation' && tagIds.length) patch.tag_ids = tagIds;
      if (plan.type === 'conversation' && Object.keys(customFields).length) patch.custom_fields = customFields;
      if (Object.keys(patch).length) {
        await afterCreate(id, 'setting its assignee, tags, status or custom fields', () => ctx.http.patch(`/conversations/${seg(id)}`, { json: patch }));
      }
      return afterCreate(id, 'reading it back', () => loadConversation(ctx, id, o, plan.inboxId ? { inboxIds: [plan.inboxId] } : {}));
    },

    async updateTicket(ctx, remoteId: string, input: TicketWrite): Promise<WriteResult> {
      const id = frId(remoteId, 'id');
      const current = (await ctx.http.get<FrConversation>(`/conversations/${seg(id)}`)).data;
      const plan = planUpdate(input, current);
      const [tagIds, customFields, statuses] = await Promise.all([
        plan.tags !== undefined ? tagIdsFor(ctx, plan.tags, o) : Promise.resolve(undefined),
        conversationCustomFieldValues(ctx, plan.customFields),
        plan.status !== undefined ? ticketStatuses(ctx) : Promise.resolve(null),
      ]);
      const patch: Record<string, unknown> = {};
      if (plan.assigneeId !== undefined) patch.assignee_id = plan.assigneeId;
      if (plan.inboxId !== undefined) patch.inbox_id = plan.inboxId;
      if (tagIds !== undefined) patch.tag_ids = tagIds;
      if (plan.status !== undefined) Object.assign(patch, statusUpdate(plan.status, statuses));
      if (plan.taskDescription !== undefined) patch.description = plan.taskDescription;
      if (plan.dueAt !== undefined) patch.due_at = plan.dueAt;
      // Front erases the custom fields an update leaves out: send the current ones with the changes.
      if (Object.keys(customFields).length) patch.custom_fields = { ...(current.custom_fields ?? {}), ...customFields };
      if (Object.keys(patch).length) await ctx.http.patch(`/conversations/${seg(id)}`, { json: patch });
      return loadConversation(ctx, id, o, plan.inboxId ? { inboxIds: [plan.inboxId] } : {});
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const conversationId = frId(input.ticket_id, 'ticket_id');
      const plan = planComment(input);
      const files = input.files ?? [];
      if (plan.kind === 'comment') {
        const comment = await addComment(ctx, conversationId, { body: plan.text, ...(plan.authorId ? { author_id: plan.authorId } : {}) }, files);
        const u = unifyComment(comment, conversationId, ctx.ids);
        return { record: u.comment, related: u.attachments };
      }
      const conversation = (await ctx.http.get<FrConversation>(`/conversations/${seg(conversationId)}`)).data;
      if (conversation.type && conversation.type !== 'conversation') {
        throw unsupported('is_private', `a Front ${conversation.type} has internal comments only (is_private true); messages need a conversation with a channel`);
      }
      const fields = {
        body: plan.html,
        text: plan.text,
        ...(plan.authorId ? { author_id: plan.authorId } : {}),
        // Front archives the conversation on reply unless told otherwise.
        options: { archive: false },
      };
      const accepted = await ctx.http.post<FrAcceptedMessage>(`/conversations/${seg(conversationId)}/messages`, bodyWithFiles(fields, files, 'attachments'));
      const message = await waitForMessage(ctx, accepted.data, o);
      const u = unifyMessage(message, idFromLink(message._links?.related?.conversation, 'conversations') ?? conversationId, ctx.ids);
      return { record: u.comment, related: u.attachments };
    },
  };
}
