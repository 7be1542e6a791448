/**
 * Gorgias ticket writes: create (the description is the first message, comments follow in the same
 * call), partial update (ticket fields, custom fields, further messages) and messages with attachments.
 * Gorgias has no bulk ticket endpoint, so `createTickets` is left to the core (one create per element).
 */
import { beforeTheWrite } from '../http-client';
import { AppError } from '../../core/errors';
import type { AdapterContext, CommentWrite, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { currentUserId, listPages, type ResolvedOptions } from './api';
import { asAttachments, desunifyComment, unifyMessage } from './comment.mapper';
import { apiMessage, desunifyTicket, unifyTicket } from './ticket.mapper';
import type { GgMessage, GgMessageBody, GgTicket } from './types';
import { uploadFiles } from './uploads';
import { ggId, PROVIDER } from './util';

/**
 * The sender of agent messages when no user is named: the connection's user, by the email of its
 * credentials (Gorgias resolves a sender by id or email), else by id from `GET /api/users/0`.
 */
async function selfSender(ctx: AdapterContext, o: ResolvedOptions): Promise<{ id?: number; email?: string }> {
  const email = ctx.credentials.email;
  if (email) return { email };
  return { id: await currentUserId(ctx, o) };
}

/** The messages of a ticket, oldest first (`GET /api/messages?ticket_id=`), for answers that lack them. */
async function messagesOf(ctx: AdapterContext, ticketId: number, o: ResolvedOptions): Promise<GgMessage[]> {
  const out: GgMessage[] = [];
  for await (const page of listPages<GgMessage>(ctx, '/api/messages', o, { query: { ticket_id: ticketId, order_by: 'created_datetime:asc' } })) {
    out.push(...page.items);
  }
  return out;
}

function relatedOf(messages: GgMessage[], ctx: AdapterContext, ticketId: number): UnifiedRecord[] {
  return messages.flatMap((m) => {
    const u = unifyMessage(m, ctx.ids, ticketId);
    return [u.comment, ...u.attachments];
  });
}

async function getTicket(ctx: AdapterContext, id: number): Promise<GgTicket> {
  return (await ctx.http.get<GgTicket>(`/api/tickets/${id}`)).data;
}

/** Adds agent messages one by one; a failure says which one, and that the ticket itself exists. */
async function addMessages(ctx: AdapterContext, ticket: GgTicket, bodies: string[], sender: { id?: number; email?: string }, after: string): Promise<GgMessage[]> {
  const created: GgMessage[] = [];
  const receiver = typeof ticket.customer?.id === 'number' ? ticket.customer.id : undefined;
  for (const [i, text] of bodies.entries()) {
    try {
      const res = await ctx.http.post<GgMessage>(`/api/tickets/${ticket.id}/messages`, { json: apiMessage(text, { agent: true, sender, receiver }) });
      created.push(res.data);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new AppError(
        err instanceof AppError ? err.code : 'provider_error',
        `Gorgias ticket ${ticket.id} was ${after}, but adding comment ${i + 1} of ${bodies.length} failed: ${why}`,
        { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: String(ticket.id) },
        err instanceof AppError ? err.headers : {},
      );
    }
  }
  return created;
}

export function gorgiasTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input: TicketWrite): Promise<WriteResult> {
      // Agent messages need a sender: the description when there is no contact, and every comment.
      const needsAgent = input.contact_id === undefined || (input.comment ?? []).some((c) => c.trim() !== '');
      desunifyTicket(input, 'create'); // refuse what Gorgias cannot take before any call
      const agent = needsAgent ? await selfSender(ctx, o) : {};
      const { body } = desunifyTicket(input, 'create', { agent });
      let ticket = (await ctx.http.post<GgTicket>('/api/tickets', { json: body })).data;
      if (!Array.isArray(ticket.messages)) ticket = { ...ticket, messages: await messagesOf(ctx, ticket.id, o) };
      return { record: unifyTicket(ticket, ctx.ids), related: relatedOf(ticket.messages ?? [], ctx, ticket.id) };
    },

    async updateTicket(ctx, remoteId: string, patch: TicketWrite): Promise<WriteResult> {
      const id = ggId(remoteId, 'id');
      const { body, customFields, laterComments } = desunifyTicket(patch, 'update');
      let ticket: GgTicket | undefined;
      if (customFields.length) {
        // Only the fields sent change (a `custom_fields` array on PUT /tickets/{id} would replace them all).
        await ctx.http.put(`/api/tickets/${id}/custom-fields`, { json: customFields });
      }
      if (Object.keys(body).length > 0) ticket = (await ctx.http.put<GgTicket>(`/api/tickets/${id}`, { json: body })).data;
      let added: GgMessage[] = [];
      if (laterComments.length) {
        ticket ??= await getTicket(ctx, id);
        added = await addMessages(ctx, ticket, laterComments, await selfSender(ctx, o), 'updated');
        ticket = undefined;
      }
      ticket ??= await getTicket(ctx, id);
      return { record: unifyTicket(ticket, ctx.ids), related: relatedOf(added, ctx, id) };
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const ticketId = ggId(input.ticket_id, 'ticket_id');
      const { message, fromSelf, needsReceiver } = desunifyComment(input);
      const body: GgMessageBody = { ...message };
      if (fromSelf) body.sender = await selfSender(ctx, o);
      if (needsReceiver) {
        // Outgoing messages name the customer they answer (when the ticket has one).
        const customer = (await getTicket(ctx, ticketId)).customer?.id;
        if (typeof customer === 'number') body.receiver = { id: customer };
      }
      const files = await beforeTheWrite(uploadFiles(ctx, input.files ?? []), 'uploading the files');
      if (files.length) body.attachments = asAttachments(files);
      const created = (await ctx.http.post<GgMessage>(`/api/tickets/${ticketId}/messages`, { json: body })).data;
      if (!created || typeof created.id !== 'number') {
        throw new AppError('provider_error', `Gorgias accepted the message on ticket ${ticketId} but did not return it`, { provider: PROVIDER, remote_id: String(ticketId) });
      }
      const u = unifyMessage(created, ctx.ids, ticketId);
      return { record: u.comment, related: u.attachments };
    },
  };
}
