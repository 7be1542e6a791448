/**
 * Intercom ticket writes: create (`POST /tickets`, then the state and replies where asked), update
 * (`PUT /tickets/{id}`), and replies (`POST /tickets/{id}/reply`). No bulk creation: `createTickets` is
 * left to the core (one create per element).
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CommentWrite, TicketingOperations, TicketWrite, UnifiedRecord, WriteResult } from '../types';
import { me, ticketTypes, type ResolvedOptions } from './api';
import { DESCRIPTION, desunifyComment, TITLE, UNIFIED_TO_STATE, unifyPart, unifyTicket } from './mappers';
import type { IcTicket, IcTicketPart, IcTicketType } from './types';
import { PROVIDER, textToHtml, unsupported } from './util';
import type { TicketStatus } from '../../core/unified/ticketing';

/** Fields a 2.14 ticket cannot hold (or report back), refused before any call. */
function refuseUnsupported(input: TicketWrite) {
  const refused: Array<[keyof TicketWrite, string]> = [
    ['priority', 'Intercom tickets have no priority'],
    ['due_date', 'Intercom tickets have no due date'],
    ['tags', 'Intercom tickets do not report their tags (API 2.14); tag conversations or contacts in Intercom instead'],
    ['account_id', 'Intercom tickets do not report a company (API 2.14)'],
    ['project_id', 'Intercom has no collections'],
    ['parent_ticket', 'Intercom tickets have no parent ticket'],
    ['completed_at', 'Intercom records resolution itself; set status CLOSED instead'],
  ];
  for (const [field, why] of refused) if (input[field] !== undefined) throw unsupported(field, why);
  if ((input.assigned_to?.length ?? 0) > 1) throw unsupported('assigned_to', 'an Intercom ticket has one admin assignee; give at most one user');
}

function stateOf(type: IcTicketType | null | undefined, status: string): string {
  const category = UNIFIED_TO_STATE[status.toUpperCase() as TicketStatus];
  if (!category) throw new AppError('validation_failed', 'status must be one of OPEN, IN_PROGRESS, ON_HOLD, CLOSED', { field: 'status' });
  const state = (type?.ticket_states?.data ?? []).find((s) => s.category === category);
  if (!state) throw unsupported('status', `the ticket type ${JSON.stringify(type?.name ?? '?')} has no ${category} state`);
  return state.id;
}

function attributes(input: TicketWrite, type: IcTicketType): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (input.name !== undefined) out[TITLE] = input.name;
  if (input.description !== undefined) out[DESCRIPTION] = input.description.filter((p) => p.trim() !== '').join('\n\n');
  const known = new Set((type.ticket_type_attributes?.ticket_type_attributes ?? []).filter((a) => !a.default && !a.archived).map((a) => a.name));
  for (const f of input.customFields ?? []) {
    if (!known.has(f.remoteFieldId)) throw unsupported('field_mappings', `the ticket type ${JSON.stringify(type.name)} has no attribute ${JSON.stringify(f.remoteFieldId)}`);
    out[f.remoteFieldId] = f.value ?? null;
  }
  return out;
}

async function reply(ctx: AdapterContext, ticketId: string, body: Record<string, unknown>): Promise<IcTicketPart> {
  const part = (await ctx.http.post<IcTicketPart>(`/tickets/${encodeURIComponent(ticketId)}/reply`, { json: body })).data;
  if (!part || typeof part.id !== 'string') throw new AppError('provider_error', `Intercom accepted the reply on ticket ${ticketId} but did not return it`, { provider: PROVIDER, remote_id: ticketId });
  return part;
}

async function addComments(ctx: AdapterContext, ticketId: string, comments: string[], adminId: string, after: string): Promise<UnifiedRecord[]> {
  const out: UnifiedRecord[] = [];
  for (const [i, text] of comments.entries()) {
    try {
      const u = unifyPart(await reply(ctx, ticketId, { message_type: 'comment', type: 'admin', admin_id: adminId, body: textToHtml(text) }), ctx.ids, ticketId);
      out.push(u.comment, ...u.attachments);
    } catch (err) {
      throw new AppError(
        err instanceof AppError ? err.code : 'provider_error',
        `Intercom ticket ${ticketId} was ${after}, but adding comment ${i + 1} of ${comments.length} failed: ${err instanceof Error ? err.message : String(err)}`,
        { ...(err instanceof AppError ? err.details : {}), provider: PROVIDER, remote_id: ticketId },
        err instanceof AppError ? err.headers : {},
      );
    }
  }
  return out;
}

export function intercomTicketOperations(o: ResolvedOptions): TicketingOperations {
  return {
    async createTicket(ctx, input): Promise<WriteResult> {
      refuseUnsupported(input);
      const types = (await ticketTypes(ctx, o)).filter((t) => !t.archived);
      const type = input.type !== undefined ? types.find((t) => t.name === input.type) : (types.find((t) => t.category === 'Customer') ?? types[0]);
      if (!type) {
        throw unsupported('type', input.type !== undefined ? `no Intercom ticket type is named ${JSON.stringify(input.type)}` : 'the workspace has no ticket type', { allowed: types.map((t) => t.name) });
      }
      const stateId = input.status !== undefined ? stateOf(type, input.status) : undefined;
      const ticket_attributes = attributes(input, type);
      const self = await me(ctx, o);
      const contacts = input.contact_id !== undefined ? [{ id: input.contact_id }] : [{ email: self.email }];
      const assignee = input.assigned_to?.[0];
      let ticket = (await ctx.http.post<IcTicket>('/tickets', { json: { ticket_type_id: type.id, contacts, ticket_attributes, ...(assignee ? { assignment: { admin_assignee_id: assignee } } : {}) } })).data;
      const comments = (input.comment ?? []).filter((c) => c.trim() !== '');
      if (stateId && ticket.ticket_state?.id !== stateId) {
        ticket = (await ctx.http.put<IcTicket>(`/tickets/${encodeURIComponent(ticket.id)}`, { json: { ticket_state_id: stateId } })).data;
      }
      const related = await addComments(ctx, ticket.id, comments, self.id, 'created');
      return { record: unifyTicket(ticket, ctx.ids), related };
    },

    async updateTicket(ctx, remoteId, patch): Promise<WriteResult> {
      refuseUnsupported(patch);
      if (patch.type !== undefined) throw unsupported('type', 'the ticket type of an Intercom ticket cannot be changed');
      if (patch.contact_id !== undefined) throw unsupported('contact_id', 'the contacts of an Intercom ticket are not changed through Omniport');
      const path = `/tickets/${encodeURIComponent(remoteId)}`;
      const needsType = patch.status !== undefined || (patch.customFields?.length ?? 0) > 0;
      const current = needsType ? (await ctx.http.get<IcTicket>(path)).data : undefined;
      const type = current?.ticket_type ? ((await ticketTypes(ctx, o)).find((t) => t.id === current.ticket_type!.id) ?? current.ticket_type) : undefined;
      const body: Record<string, unknown> = {};
      const attrs = type ? attributes(patch, type) : attributes({ ...patch, customFields: [] }, { id: '', name: '' });
      if (Object.keys(attrs).length) body.ticket_attributes = attrs;
      if (patch.status !== undefined) body.ticket_state_id = stateOf(type, patch.status);
      const self = patch.assigned_to !== undefined || (patch.comment?.length ?? 0) > 0 ? await me(ctx, o) : undefined;
      if (patch.assigned_to !== undefined) {
        body.admin_id = Number(self!.id);
        body.assignee_id = patch.assigned_to[0] ?? '0';
      }
      let ticket: IcTicket | undefined;
      if (Object.keys(body).length) ticket = (await ctx.http.put<IcTicket>(path, { json: body })).data;
      const comments = (patch.comment ?? []).filter((c) => c.trim() !== '');
      const related = comments.length ? await addComments(ctx, remoteId, comments, self!.id, 'updated') : [];
      if (!ticket || comments.length) ticket = (await ctx.http.get<IcTicket>(path)).data;
      return { record: unifyTicket(ticket, ctx.ids), related };
    },

    async createComment(ctx, input: CommentWrite): Promise<WriteResult> {
      desunifyComment(input, ''); // refuse what Intercom cannot take before any call
      const self = input.user_id === undefined && input.contact_id === undefined ? await me(ctx, o) : undefined;
      const body = desunifyComment(input, self?.id ?? '');
      const u = unifyPart(await reply(ctx, input.ticket_id, body), ctx.ids, input.ticket_id);
      return { record: u.comment, related: u.attachments };
    },
  };
}
