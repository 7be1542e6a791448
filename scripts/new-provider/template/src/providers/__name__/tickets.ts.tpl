/** __Display__ writes: tickets and comments. What it cannot take is refused (422 naming the field), never dropped. */
import { AppError } from '../../core/errors';
import type { TicketingOperations, TicketWrite } from '../types';
import { numericIdOf, textToHtml, unsupportedBy } from '../kit';
import { STATUS_FROM_UNIFIED, unifyComment, unifyTicket } from './mappers';
import type { __Pascal__Comment, __Pascal__Ticket } from './types';

const unsupported = unsupportedBy('__name__');
const remoteId = numericIdOf('__Display__');

/** The request body of a ticket write (TODO(new-provider): the fields the reference documents). */
function ticketBody(input: TicketWrite): Record<string, unknown> {
  const refused: [keyof TicketWrite, string][] = [
    ['priority', '__Display__ tickets have no priority'],
    ['tags', '__Display__ tickets have no tags'],
    ['project_id', '__Display__ has no collections'],
    ['contact_id', '__Display__ tickets have no contact'],
    ['account_id', '__Display__ tickets have no account'],
    ['due_date', '__Display__ tickets have no due date'],
    ['parent_ticket', '__Display__ tickets have no parent'],
    ['completed_at', '__Display__ does not record when a ticket was completed'],
    ['type', '__Display__ tickets have no type'],
  ];
  for (const [field, why] of refused) if (input[field] !== undefined) throw unsupported(field, why);
  if (input.customFields?.length) throw unsupported('field_mappings', '__Display__ tickets have no custom fields');
  const body: Record<string, unknown> = {};
  if (input.name !== undefined) body.subject = input.name;
  if (input.description !== undefined) body.description = input.description.join('\n\n');
  if (input.status !== undefined) {
    const status = STATUS_FROM_UNIFIED[input.status as keyof typeof STATUS_FROM_UNIFIED];
    if (!status) throw unsupported('status', `${input.status} cannot be written: use OPEN, ON_HOLD or CLOSED`);
    body.status = status;
  }
  if (input.assigned_to !== undefined) {
    if (input.assigned_to.length > 1) throw unsupported('assigned_to', 'a __Display__ ticket has one assignee');
    body.assignee_id = input.assigned_to[0] === undefined ? null : remoteId(input.assigned_to[0], 'assigned_to');
  }
  return body;
}

export function __camel__TicketOperations(): TicketingOperations {
  return {
    async createTicket(ctx, input) {
      const res = await ctx.http.post<__Pascal__Ticket>('/api/v1/tickets', { json: ticketBody(input) });
      return { record: unifyTicket(res.data, ctx.ids) };
    },
    async updateTicket(ctx, id, patch) {
      const res = await ctx.http.patch<__Pascal__Ticket>(`/api/v1/tickets/${remoteId(id, 'id')}`, { json: ticketBody(patch) });
      return { record: unifyTicket(res.data, ctx.ids) };
    },
    async createComment(ctx, input) {
      if (input.files.length) throw unsupported('attachments', '__Display__ comments cannot carry files here');
      if (input.contact_id) throw unsupported('contact_id', '__Display__ comments are written by users');
      if (input.customFields?.length) throw unsupported('field_mappings', '__Display__ comments have no custom fields');
      const ticketId = remoteId(input.ticket_id, 'ticket_id');
      const body = { html_body: input.html_body ?? textToHtml(input.body ?? ''), private: input.is_private ?? false, author_id: input.user_id ? remoteId(input.user_id, 'user_id') : undefined };
      const res = await ctx.http.post<__Pascal__Comment>(`/api/v1/tickets/${ticketId}/comments`, { json: body });
      if (!res.data || typeof res.data.id !== 'number') throw new AppError('provider_error', `__Display__ accepted the comment on ticket ${ticketId} but did not return it`, { provider: '__name__' });
      return { record: unifyComment(res.data, ctx.ids, String(ticketId)) };
    },
  };
}
