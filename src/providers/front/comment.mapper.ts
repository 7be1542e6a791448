import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { FrAttachment, FrComment, FrMessage, FrTeammate } from './types';
import { messageText, recipientContactId } from './ticket.mapper';
import { asRecord, frId, htmlToText, nonEmpty, textToHtml, fromEpochSeconds, unsupported } from './util';

export interface UnifiedComment {
  comment: UnifiedRecord;
  attachments: UnifiedRecord[];
}

/** Teammates listed by `GET /teammates` are people (`type: user`); bots (rules, API clients, macros …) are not users. */
export const isPerson = (t: FrTeammate | null | undefined): t is FrTeammate => !!t?.id && (t.type === undefined || t.type === 'user');

function unifyAttachments(
  list: FrAttachment[] | null | undefined,
  ctx: { conversationId: string; commentId: string; uploader: string | null; createdAt: Date | null },
  ids: IdOf,
): UnifiedRecord[] {
  return (list ?? [])
    .filter((a) => a && typeof a.id === 'string')
    .map((a) => {
      const data = {
        file_name: a.filename ?? null,
        file_url: a.url ?? null,
        uploader: ctx.uploader,
        ticket_id: ids('ticketing.ticket', ctx.conversationId),
        comment_id: ids('ticketing.comment', ctx.commentId),
      } satisfies AttachmentFields;
      return {
        objectType: 'ticketing.attachment',
        remoteId: a.id,
        data,
        remoteData: asRecord(a),
        remoteCreatedAt: ctx.createdAt,
        remoteUpdatedAt: ctx.createdAt,
        parent: { objectType: 'ticketing.comment', remoteId: ctx.commentId },
      };
    });
}

/**
 * Front comment (internal, teammates only) → unified comment: private, written by a user. The author is
 * referenced when it is a person (a rule or an API client leaves user_id empty).
 */
export function unifyComment(c: FrComment, conversationId: string, ids: IdOf): UnifiedComment {
  const createdAt = fromEpochSeconds(c.posted_at);
  const userId = isPerson(c.author) ? ids('ticketing.user', c.author.id) : null;
  const attachments = unifyAttachments(c.attachments, { conversationId, commentId: c.id, uploader: userId, createdAt }, ids);
  const data = {
    body: c.body ?? null,
    html_body: null,
    is_private: true,
    creator_type: 'USER',
    ticket_id: ids('ticketing.ticket', conversationId),
    contact_id: null,
    user_id: userId,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  return {
    comment: {
      objectType: 'ticketing.comment',
      remoteId: c.id,
      data,
      remoteData: asRecord(c),
      remoteCreatedAt: createdAt,
      remoteUpdatedAt: createdAt,
      parent: { objectType: 'ticketing.ticket', remoteId: conversationId },
    },
    attachments,
  };
}

/**
 * Front message → unified comment: public. An inbound message is the contact's (CONTACT, contact_id of
 * its `from` recipient); an outbound one is a teammate's (USER, its author when a person sent it).
 */
export function unifyMessage(m: FrMessage, conversationId: string, ids: IdOf): UnifiedComment {
  const createdAt = fromEpochSeconds(m.created_at);
  const inbound = m.is_inbound === true;
  const from = (m.recipients ?? []).find((r) => r.role === 'from');
  const contactId = inbound ? ids('ticketing.contact', recipientContactId(from)) : null;
  const userId = !inbound && isPerson(m.author) ? ids('ticketing.user', m.author.id) : null;
  const attachments = unifyAttachments(m.attachments, { conversationId, commentId: m.id, uploader: userId ?? contactId, createdAt }, ids);
  const data = {
    body: messageText(m),
    html_body: nonEmpty(m.body),
    is_private: false,
    creator_type: inbound ? 'CONTACT' : 'USER',
    ticket_id: ids('ticketing.ticket', conversationId),
    contact_id: contactId,
    user_id: userId,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  return {
    comment: {
      objectType: 'ticketing.comment',
      remoteId: m.id,
      data,
      remoteData: asRecord(m),
      remoteCreatedAt: createdAt,
      remoteUpdatedAt: createdAt,
      parent: { objectType: 'ticketing.ticket', remoteId: conversationId },
    },
    attachments,
  };
}

export interface CommentPlan {
  /** Internal comment (`POST /conversations/{id}/comments`) or message reply (`POST /conversations/{id}/messages`). */
  kind: 'comment' | 'reply';
  authorId?: string;
  /** Comment body (Markdown) or the reply's plain text. */
  text: string;
  /** The reply's HTML body. */
  html?: string;
}

/**
 * Unified comment → a Front comment or reply. Private (the default) is an internal comment; is_private
 * false is a message reply on the conversation's channel. Front's Core API writes both as teammates only.
 */
export function planComment(input: CommentWrite): CommentPlan {
  if (input.customFields?.length) throw unsupported('field_mappings', 'Front comments and messages have no custom fields');
  const creatorType = input.creator_type;
  if (input.contact_id !== undefined) throw unsupported('contact_id', "Front's API writes comments and messages as teammates only, not as a contact");
  if (creatorType === 'CONTACT') throw unsupported('creator_type', "Front's API writes comments and messages as teammates only (creator_type USER)");
  const body = typeof input.body === 'string' && input.body.trim() !== '' ? input.body : undefined;
  const html = typeof input.html_body === 'string' && input.html_body.trim() !== '' ? input.html_body : undefined;
  if (!body && !html) throw new AppError('validation_failed', 'a Front comment needs body or html_body', { field: 'body' });
  const authorId = input.user_id !== undefined ? frId(input.user_id, 'user_id', 'tea') : undefined;
  if (input.is_private === false) {
    return { kind: 'reply', authorId, text: body ?? htmlToText(html!), html: html ?? textToHtml(body!) };
  }
  // Comments are Markdown: HTML alone is sent as its text.
  return { kind: 'comment', authorId, text: body ?? htmlToText(html!) };
}
