import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { FdAttachment, FdConversation } from './types';
import { asRecord, fdId, nonEmpty, freshdeskHtml, toDate, unsupported } from './util';

export interface UnifiedComment {
  comment: UnifiedRecord;
  attachments: UnifiedRecord[];
}

function unifyAttachment(a: FdAttachment, c: { ticketId: string | null; conversationId: string; uploader: string | null }, ids: IdOf): UnifiedRecord {
  const data = {
    file_name: nonEmpty(a.name),
    file_url: nonEmpty(a.attachment_url),
    uploader: c.uploader,
    ticket_id: c.ticketId === null ? null : ids('ticketing.ticket', c.ticketId),
    comment_id: ids('ticketing.comment', c.conversationId),
  } satisfies AttachmentFields;
  return {
    objectType: 'ticketing.attachment',
    remoteId: String(a.id),
    data,
    remoteData: asRecord(a),
    remoteCreatedAt: toDate(a.created_at),
    remoteUpdatedAt: toDate(a.updated_at) ?? toDate(a.created_at),
    parent: { objectType: 'ticketing.comment', remoteId: c.conversationId },
  };
}

/**
 * Freshdesk conversation (reply or note) → unified comment with its attachments. Freshdesk does not say
 * whether `user_id` is an agent or a contact; `incoming` (it came from outside the helpdesk: the
 * customer's email, an incoming note) tells a CONTACT from a USER.
 */
export function unifyConversation(c: FdConversation, ids: IdOf, ticketRemoteId?: string | number): UnifiedComment {
  const id = String(c.id);
  const ticketId = ticketRemoteId !== undefined ? String(ticketRemoteId) : typeof c.ticket_id === 'number' ? String(c.ticket_id) : null;
  const fromContact = c.incoming === true;
  const user_id = !fromContact ? ids('ticketing.user', c.user_id) : null;
  const contact_id = fromContact ? ids('ticketing.contact', c.user_id) : null;
  const attachments = (c.attachments ?? []).filter((a) => a && typeof a.id === 'number').map((a) => unifyAttachment(a, { ticketId, conversationId: id, uploader: user_id ?? contact_id }, ids));
  const data = {
    body: nonEmpty(c.body_text) ?? nonEmpty(c.body),
    html_body: nonEmpty(c.body),
    is_private: typeof c.private === 'boolean' ? c.private : null,
    creator_type: typeof c.incoming === 'boolean' ? (fromContact ? 'CONTACT' : 'USER') : null,
    ticket_id: ticketId === null ? null : ids('ticketing.ticket', ticketId),
    contact_id,
    user_id,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  return {
    comment: {
      objectType: 'ticketing.comment',
      remoteId: id,
      data,
      remoteData: asRecord(c),
      remoteCreatedAt: toDate(c.created_at),
      remoteUpdatedAt: toDate(c.updated_at) ?? toDate(c.created_at),
      ...(ticketId !== null ? { parent: { objectType: 'ticketing.ticket', remoteId: ticketId } } : {}),
    },
    attachments,
  };
}

export interface DesunifiedComment {
  /** `reply` (public, from an agent) or `notes` (private, or from a contact). */
  endpoint: 'reply' | 'notes';
  fields: Record<string, string | number | boolean>;
}

/**
 * Unified comment → POST /tickets/{id}/reply or /notes. Private comments are private notes; public ones
 * from a user are replies (Freshdesk emails them to the requester); comments from a contact are public
 * incoming notes in the contact's name.
 */
export function desunifyComment(input: CommentWrite): DesunifiedComment {
  if (input.customFields?.length) throw unsupported('field_mappings', 'Freshdesk replies and notes have no custom fields');
  if (input.user_id !== undefined && input.contact_id !== undefined) throw unsupported('contact_id', 'a Freshdesk reply or note has one author; give user_id or contact_id, not both');
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT' && input.contact_id === undefined) throw unsupported('contact_id', 'a comment with creator_type CONTACT needs contact_id (its author in Freshdesk)');
  if (creatorType === 'USER' && input.contact_id !== undefined) throw new AppError('unprocessable', 'creator_type USER does not match contact_id', { field: 'creator_type' });
  const fromContact = input.contact_id !== undefined;
  if (fromContact && input.is_private === true) throw unsupported('is_private', 'a comment from a contact is an incoming note, which is public in Freshdesk');
  const html = nonEmpty(input.html_body) ?? (nonEmpty(input.body) ? freshdeskHtml([input.body!]) : null);
  if (!html) throw new AppError('validation_failed', 'a Freshdesk reply or note needs body or html_body', { field: 'body' });
  if (fromContact) return { endpoint: 'notes', fields: { body: html, private: false, incoming: true, user_id: fdId(input.contact_id!, 'contact_id') } };
  const author: Record<string, number> = input.user_id !== undefined ? { user_id: fdId(input.user_id, 'user_id') } : {};
  if (input.is_private) return { endpoint: 'notes', fields: { body: html, private: true, ...author } };
  return { endpoint: 'reply', fields: { body: html, ...author } };
}
