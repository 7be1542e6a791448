/**
 * Freshdesk ticket writes: create (then one reply per `comment`), update (ticket fields and custom fields
 * in one PUT, then replies), and comments as replies or notes, with attachments sent as multipart.
 * Freshdesk has no bulk ticket creation, so `createTickets` is left to the core (one create per element).
 */
import { AppError } from '../../core/errors';
import { beforeTheWrite } from '../http-client';
import type { AdapterContext, CommentWrite, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { currentAgentId, type ResolvedOptions } from './api';
import { desunifyComment, unifyConversation } from './comment.mapper';
import { desunifyTicket, unifyTicket } from './ticket.mapper';
import type { FdConversation, FdTicket } from './types';
import { multipartBody } from './uploads';
import { fdId, freshdeskHtml, PROVIDER } from './util';

/** Adds replies one by one; a failure says which one, and that the ticket itself was written. */
async function addReplies(ctx: AdapterContext, ticketId: number, bodies: string[], after: string): Promise<UnifiedRecord[]> {
  const out: UnifiedRecord[] = [];
  for (const [i, text] of bodies.entries()) {
    try {
      const c = (await ctx.http.post<FdConversation>(`/api/v2/tickets/${ticketId}/reply`, { json: { body: freshdeskHtml([text]) } })).data;
      const u = unifyConversation(c, ctx.ids, ticketId);
      out.push(u.comment, ...u.attachments);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new AppError(
        err instanceof AppError ? err.code : 'provider_error',
        `Freshdesk ticket ${ticketId} was ${after}, but adding comment ${i + 1} of ${bodies.length} failed: ${why}`,
        { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: String(ticketId) },
        err instanceof AppError ? err.headers : {},
      );
    }
  }
  return out;
}

export function freshdeskTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input: TicketWrite): Promise<WriteResult> {
      desunifyTicket(input, 'create', 0); // refuse what Freshdesk cannot take before any call
      const self = input.contact_id === undefined ? await currentAgentId(ctx, o) : undefined;
      const { body, comments } = desunifyTicket(input, 'create', self);
      const ticket = (await ctx.http.post<FdTicket>('/api/v2/tickets', { json: body })).data;
      const related = await addReplies(ctx, ticket.id, comments, 'created');
      return { record: unifyTicket(ticket, ctx.ids), related };
    },

    async updateTicket(ctx, remoteId: string, patch: TicketWrite): Promise<WriteResult> {
      const id = fdId(remoteId, 'id');
      const { body, comments } = desunifyTicket(patch, 'update');
      let ticket: FdTicket | undefined;
      if (Object.keys(body).length > 0) ticket = (await ctx.http.put<FdTicket>(`/api/v2/tickets/${id}`, { json: body })).data;
      const related = await addReplies(ctx, id, comments, 'updated');
      if (!ticket || comments.length) ticket = (await ctx.http.get<FdTicket>(`/api/v2/tickets/${id}`)).data;
      return { record: unifyTicket(ticket, ctx.ids), related };
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      const ticketId = fdId(input.ticket_id, 'ticket_id');
      const { endpoint, fields } = desunifyComment(input);
      const path = `/api/v2/tickets/${ticketId}/${endpoint}`;
      const files = input.files ?? [];
      const multipart = files.length ? await beforeTheWrite(multipartBody(fields, files), 'preparing the files') : undefined;
      const res = multipart
        ? await ctx.http.post<FdConversation>(path, { body: multipart.body, headers: { 'content-type': multipart.contentType } })
        : await ctx.http.post<FdConversation>(path, { json: fields });
      const created = res.data;
      if (!created || typeof created.id !== 'number') {
        throw new AppError('provider_error', `Freshdesk accepted the ${endpoint === 'reply' ? 'reply' : 'note'} on ticket ${ticketId} but did not return it`, { provider: PROVIDER, remote_id: String(ticketId) });
      }
      const u = unifyConversation(created, ctx.ids, ticketId);
      return { record: u.comment, related: u.attachments };
    },
  };
}
