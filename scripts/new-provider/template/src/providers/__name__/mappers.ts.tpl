/** __Display__ objects → unified records. Mapping tables: docs/providers/__name__.md. */
import type { IdOf } from '../../core/unified/ids';
import type { CommentFields, TicketFields, TicketStatus, UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import { asRecord, htmlToText, nonEmpty, toDate } from '../kit';
import type { __Pascal__Comment, __Pascal__Ticket, __Pascal__User } from './types';

export const STATUS_TO_UNIFIED: Record<string, TicketStatus> = { open: 'OPEN', pending: 'ON_HOLD', closed: 'CLOSED' };
export const STATUS_FROM_UNIFIED: Partial<Record<TicketStatus, string>> = { OPEN: 'open', ON_HOLD: 'pending', CLOSED: 'closed' };

export function unifyUser(u: __Pascal__User): UnifiedRecord {
  const data = { name: nonEmpty(u.name), email_address: nonEmpty(u.email), teams: [], account_id: null } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: String(u.id), data, remoteData: asRecord(u), remoteCreatedAt: toDate(u.created_at), remoteUpdatedAt: toDate(u.updated_at) };
}

export function unifyTicket(t: __Pascal__Ticket, ids: IdOf): UnifiedRecord {
  const assignee = ids('ticketing.user', t.assignee_id);
  const data = {
    name: nonEmpty(t.subject),
    status: (t.status ? STATUS_TO_UNIFIED[t.status] : undefined) ?? null,
    description: nonEmpty(t.description) ? [t.description!.trim()] : [],
    due_date: null,
    type: null,
    parent_ticket: null,
    project_id: null,
    tags: [],
    completed_at: null,
    priority: null,
    assigned_to: assignee ? [assignee] : [],
    account_id: null,
    contact_id: null,
  } satisfies TicketFields;
  return { objectType: 'ticketing.ticket', remoteId: String(t.id), data, remoteData: asRecord(t), remoteCreatedAt: toDate(t.created_at), remoteUpdatedAt: toDate(t.updated_at) };
}

export function unifyComment(c: __Pascal__Comment, ids: IdOf, ticketRemoteId: string): UnifiedRecord {
  const data = {
    body: nonEmpty(c.body) ?? (nonEmpty(c.html_body) ? htmlToText(c.html_body) : null),
    html_body: nonEmpty(c.html_body),
    is_private: typeof c.private === 'boolean' ? c.private : null,
    creator_type: c.author_id ? 'USER' : null,
    ticket_id: ids('ticketing.ticket', ticketRemoteId),
    contact_id: null,
    user_id: ids('ticketing.user', c.author_id),
    attachments: [],
  } satisfies CommentFields;
  return {
    objectType: 'ticketing.comment',
    remoteId: String(c.id),
    data,
    remoteData: asRecord(c),
    remoteCreatedAt: toDate(c.created_at),
    remoteUpdatedAt: toDate(c.updated_at) ?? toDate(c.created_at),
    parent: { objectType: 'ticketing.ticket', remoteId: ticketRemoteId },
  };
}
