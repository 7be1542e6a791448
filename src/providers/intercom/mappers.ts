import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AccountFields, AttachmentFields, CommentFields, ContactFields, TagFields, TeamFields, TicketFields, TicketStatus, UserFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { IcAdmin, IcCompany, IcContact, IcTag, IcTeam, IcTicket, IcTicketPart } from './types';
import { asRecord, fromEpochSeconds, htmlToText, nonEmpty, textToHtml, unsupported } from './util';

export const TITLE = '_default_title_';
export const DESCRIPTION = '_default_description_';

export const STATE_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = { submitted: 'OPEN', in_progress: 'IN_PROGRESS', waiting_on_customer: 'ON_HOLD', resolved: 'CLOSED' };
export const UNIFIED_TO_STATE: Readonly<Record<TicketStatus, string>> = { OPEN: 'submitted', IN_PROGRESS: 'in_progress', ON_HOLD: 'waiting_on_customer', CLOSED: 'resolved' };

const stamps = (o: { created_at?: number; updated_at?: number }) => ({ remoteCreatedAt: fromEpochSeconds(o.created_at), remoteUpdatedAt: fromEpochSeconds(o.updated_at) ?? fromEpochSeconds(o.created_at) });

export function unifyTicket(t: IcTicket, ids: IdOf): UnifiedRecord {
  const attrs = t.ticket_attributes ?? {};
  const description = nonEmpty(attrs[DESCRIPTION]);
  const assignee = nonEmpty(t.admin_assignee_id);
  const category = t.ticket_state?.category;
  const data = {
    name: nonEmpty(attrs[TITLE]),
    status: category ? (STATE_TO_UNIFIED[category] ?? null) : null,
    description: description ? [description] : [],
    due_date: null,
    type: nonEmpty(t.ticket_type?.name),
    parent_ticket: null,
    project_id: null,
    tags: [],
    completed_at: null,
    priority: null,
    // Intercom answers "0" for an unassigned ticket.
    assigned_to: assignee && assignee !== '0' ? [ids('ticketing.user', assignee)!] : [],
    account_id: null,
    contact_id: ids('ticketing.contact', t.contacts?.contacts?.[0]?.id),
  } satisfies TicketFields;
  return { objectType: 'ticketing.ticket', remoteId: t.id, data, remoteData: asRecord(t), ...stamps(t) };
}

/** Parts that are conversation, not events (state changes, assignments …). */
export const isCommentPart = (p: IcTicketPart) => p.part_type === 'comment' || p.part_type === 'note' || p.part_type === 'quick_reply';

/** A ticket part (comment or note) → unified comment, with its attachments (`<part id>:<index>`, no ids of their own). */
export function unifyPart(p: IcTicketPart, ids: IdOf, ticketId: string): { comment: UnifiedRecord; attachments: UnifiedRecord[] } {
  const byUser = p.author?.type === 'user';
  const user_id = !byUser && p.author?.type === 'admin' ? ids('ticketing.user', p.author.id) : null;
  const contact_id = byUser ? ids('ticketing.contact', p.author?.id) : null;
  const attachments = (p.attachments ?? []).map((a, i): UnifiedRecord => {
    const data = { file_name: nonEmpty(a.name), file_url: nonEmpty(a.url), uploader: user_id ?? contact_id, ticket_id: ids('ticketing.ticket', ticketId), comment_id: ids('ticketing.comment', p.id) } satisfies AttachmentFields;
    return { objectType: 'ticketing.attachment', remoteId: `${p.id}:${i}`, data, remoteData: asRecord(a), ...stamps(p), parent: { objectType: 'ticketing.comment', remoteId: p.id } };
  });
  const html = nonEmpty(p.body);
  const data = {
    body: html ? htmlToText(html) : null,
    html_body: html,
    is_private: p.part_type === 'note',
    creator_type: byUser ? 'CONTACT' : p.author?.type ? 'USER' : null,
    ticket_id: ids('ticketing.ticket', ticketId),
    contact_id,
    user_id,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  return {
    comment: { objectType: 'ticketing.comment', remoteId: p.id, data, remoteData: asRecord(p), ...stamps(p), parent: { objectType: 'ticketing.ticket', remoteId: ticketId } },
    attachments,
  };
}

/** Unified comment → body of POST /tickets/{id}/reply: an admin comment or note, or a contact's comment. */
export function desunifyComment(input: CommentWrite, selfAdminId: string): Record<string, unknown> {
  if (input.files?.length) throw unsupported('attachments', 'Intercom ticket replies take files by public URL only (attachment_urls), not uploads');
  if (input.customFields?.length) throw unsupported('field_mappings', 'Intercom ticket replies have no custom fields');
  if (input.user_id !== undefined && input.contact_id !== undefined) throw unsupported('contact_id', 'a reply has one author; give user_id or contact_id, not both');
  const html = nonEmpty(input.html_body) ?? (nonEmpty(input.body) ? textToHtml(input.body!) : null);
  if (!html) throw new AppError('validation_failed', 'an Intercom reply needs body or html_body', { field: 'body' });
  if (input.contact_id !== undefined || input.creator_type === 'CONTACT') {
    if (input.contact_id === undefined) throw unsupported('contact_id', 'a comment with creator_type CONTACT needs contact_id');
    if (input.is_private) throw unsupported('is_private', 'a contact\'s reply is public; only admins write notes');
    return { message_type: 'comment', type: 'user', intercom_user_id: input.contact_id, body: html };
  }
  return { message_type: input.is_private ? 'note' : 'comment', type: 'admin', admin_id: input.user_id ?? selfAdminId, body: html };
}

export function unifyAdmin(a: IcAdmin, ids: IdOf): UnifiedRecord {
  const data = { name: nonEmpty(a.name), email_address: nonEmpty(a.email), teams: (a.team_ids ?? []).map((t) => ids('ticketing.team', t)!), account_id: null } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: a.id, data, remoteData: asRecord(a), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyTeam(t: IcTeam): UnifiedRecord {
  const data = { name: nonEmpty(t.name), description: null } satisfies TeamFields;
  return { objectType: 'ticketing.team', remoteId: t.id, data, remoteData: asRecord(t), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyTag(t: IcTag): UnifiedRecord {
  const data = { name: t.name ?? '' } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: t.id, data, remoteData: asRecord(t), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyContact(c: IcContact, ids: IdOf): UnifiedRecord {
  const data = {
    name: nonEmpty(c.name),
    email_address: nonEmpty(c.email),
    phone_number: nonEmpty(c.phone),
    details: null,
    account_id: ids('ticketing.account', c.companies?.data?.[0]?.id),
  } satisfies ContactFields;
  return { objectType: 'ticketing.contact', remoteId: c.id, data, remoteData: asRecord(c), ...stamps(c) };
}

export function unifyCompany(c: IcCompany): UnifiedRecord {
  const website = nonEmpty(c.website);
  let domain: string | null = null;
  try {
    domain = website ? new URL(/^https?:\/\//.test(website) ? website : `https://${website}`).hostname : null;
  } catch {
    domain = null;
  }
  const data = { name: nonEmpty(c.name), domains: domain ? [domain] : [] } satisfies AccountFields;
  return { objectType: 'ticketing.account', remoteId: c.id, data, remoteData: asRecord(c), ...stamps(c) };
}
