import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { GgAttachment, GgFile, GgMessage, GgMessageBody } from './types';
import { asRecord, ggId, htmlToText, nonEmpty, textToHtml, toDate, unsupported } from './util';

type CreatorType = 'USER' | 'CONTACT';

/**
 * Omniport references of a message's author. `from_agent` tells who wrote it: an agent (a Gorgias user,
 * USER) or the customer (CONTACT); `sender` names them.
 */
export function authorRefs(m: Pick<GgMessage, 'from_agent' | 'sender'>, ids: IdOf) {
  const senderId = typeof m.sender?.id === 'number' ? m.sender.id : null;
  const creator_type: CreatorType | null = typeof m.from_agent === 'boolean' ? (m.from_agent ? 'USER' : 'CONTACT') : null;
  return {
    creator_type,
    user_id: creator_type === 'USER' ? ids('ticketing.user', senderId) : null,
    contact_id: creator_type === 'CONTACT' ? ids('ticketing.contact', senderId) : null,
  };
}

/**
 * Attachments have no id of their own in Gorgias: they are entries of the message's `attachments`
 * array. Their remote id is `<message id>:<position>`, stable because messages do not change.
 */
export const attachmentRemoteId = (messageId: number | string, index: number) => `${messageId}:${index}`;

export interface UnifiedComment {
  comment: UnifiedRecord;
  attachments: UnifiedRecord[];
}

function unifyAttachment(
  a: GgAttachment,
  index: number,
  ctx: { ticketRemoteId: string | null; messageRemoteId: string; uploader: string | null; createdAt: Date | null; deleted: boolean },
  ids: IdOf,
): UnifiedRecord {
  const data = {
    file_name: nonEmpty(a.name),
    file_url: nonEmpty(a.url),
    uploader: ctx.uploader,
    ticket_id: ctx.ticketRemoteId === null ? null : ids('ticketing.ticket', ctx.ticketRemoteId),
    comment_id: ids('ticketing.comment', ctx.messageRemoteId),
  } satisfies AttachmentFields;
  return {
    objectType: 'ticketing.attachment',
    remoteId: attachmentRemoteId(ctx.messageRemoteId, index),
    data,
    remoteData: asRecord(a),
    remoteCreatedAt: ctx.createdAt,
    remoteUpdatedAt: ctx.createdAt,
    parent: { objectType: 'ticketing.comment', remoteId: ctx.messageRemoteId },
    ...(ctx.deleted ? { deleted: true } : {}),
  };
}

/**
 * Gorgias ticket message → unified comment and its attachments. `public: false` is an internal note
 * (is_private). A message Gorgias reports deleted (`deleted_datetime`) comes out deleted.
 */
export function unifyMessage(m: GgMessage, ids: IdOf, ticketRemoteId?: string | number): UnifiedComment {
  const messageId = String(m.id);
  const ticketId = ticketRemoteId !== undefined ? String(ticketRemoteId) : typeof m.ticket_id === 'number' ? String(m.ticket_id) : null;
  const refs = authorRefs(m, ids);
  const createdAt = toDate(m.created_datetime) ?? toDate(m.sent_datetime);
  const deleted = nonEmpty(m.deleted_datetime) !== null;
  const uploader = refs.user_id ?? refs.contact_id;
  const attachments = (Array.isArray(m.attachments) ? m.attachments : []).map((a, i) =>
    unifyAttachment(a ?? {}, i, { ticketRemoteId: ticketId, messageRemoteId: messageId, uploader, createdAt, deleted }, ids),
  );
  const body = nonEmpty(m.body_text) ?? nonEmpty(m.stripped_text) ?? (nonEmpty(m.body_html) ? htmlToText(m.body_html!) : null);
  const data = {
    body,
    html_body: nonEmpty(m.body_html),
    is_private: typeof m.public === 'boolean' ? !m.public : m.channel === 'internal-note' ? true : null,
    creator_type: refs.creator_type,
    ticket_id: ticketId === null ? null : ids('ticketing.ticket', ticketId),
    contact_id: refs.contact_id,
    user_id: refs.user_id,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  return {
    comment: {
      objectType: 'ticketing.comment',
      remoteId: messageId,
      data,
      remoteData: asRecord(m),
      remoteCreatedAt: createdAt,
      // Messages are not edited; deletion is the only later change.
      remoteUpdatedAt: toDate(m.deleted_datetime) ?? createdAt,
      ...(ticketId !== null ? { parent: { objectType: 'ticketing.ticket', remoteId: ticketId } } : {}),
      ...(deleted ? { deleted: true } : {}),
    },
    attachments,
  };
}

export interface DesunifiedComment {
  /** The message, without `sender` when the connection's own user writes it and without attachments. */
  message: GgMessageBody;
  /** The author is the connection's own user: the caller fills `sender` in. */
  fromSelf: boolean;
  /** A public agent message: the caller names the ticket's customer as `receiver`. */
  needsReceiver: boolean;
}

/**
 * Unified comment write → the body of POST /api/tickets/{id}/messages (sender and attachments added by
 * the caller). Three kinds, as Gorgias documents them:
 *  - internal note (is_private): channel `internal-note`, `public: false`, from an agent;
 *  - customer message (contact_id or creator_type CONTACT): `from_agent: false`, the customer as sender;
 *  - agent message: `from_agent: true`, a user (user_id, else the connection's user) as sender.
 * Public messages use the `api` channel, which Gorgias records without delivering anywhere.
 */
export function desunifyComment(input: CommentWrite): DesunifiedComment {
  if (input.customFields?.length) throw unsupported('field_mappings', 'Gorgias ticket messages have no custom fields');
  if (input.user_id !== undefined && input.contact_id !== undefined) {
    throw unsupported('contact_id', 'a Gorgias message has one sender; give user_id or contact_id, not both');
  }
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT' && input.contact_id === undefined) {
    throw unsupported('contact_id', 'a message with creator_type CONTACT needs contact_id (its sender in Gorgias)');
  }
  if (creatorType === 'USER' && input.contact_id !== undefined) {
    throw new AppError('unprocessable', 'creator_type USER does not match contact_id (the sender would be a contact)', { field: 'creator_type' });
  }
  if (creatorType === 'CONTACT' && input.user_id !== undefined) {
    throw new AppError('unprocessable', 'creator_type CONTACT does not match user_id (the sender would be a user)', { field: 'creator_type' });
  }
  const fromContact = input.contact_id !== undefined;
  if (fromContact && input.is_private === true) {
    throw unsupported('is_private', 'internal notes are written by agents; a customer message is always public');
  }
  const text = typeof input.body === 'string' && input.body.trim() !== '' ? input.body : undefined;
  const html = typeof input.html_body === 'string' && input.html_body.trim() !== '' ? input.html_body : undefined;
  if (!text && !html) throw new AppError('validation_failed', 'a Gorgias message needs body or html_body', { field: 'body' });

  const message: GgMessageBody = {
    channel: input.is_private ? 'internal-note' : 'api',
    via: 'api',
    from_agent: !fromContact,
    public: !input.is_private,
    // Both forms: Gorgias shows the HTML in the helpdesk and uses the text in search and notifications.
    body_text: text ?? htmlToText(html!),
    body_html: html ?? textToHtml(text!),
  };
  if (fromContact) message.sender = { id: ggId(input.contact_id!, 'contact_id') };
  else if (input.user_id !== undefined) message.sender = { id: ggId(input.user_id, 'user_id') };
  return { message, fromSelf: !fromContact && input.user_id === undefined, needsReceiver: !fromContact && !input.is_private };
}

/** Uploaded files as message attachments (the upload answer, unchanged). */
export const asAttachments = (files: GgFile[]): GgFile[] => files.map((f) => ({ url: f.url, name: f.name, size: f.size, content_type: f.content_type }));
