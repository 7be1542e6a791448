import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { ZdAttachment, ZdComment, ZdCommentBody, ZdRole } from './types';
import { asRecord, toDate, unsupported, zdId } from './util';

type CreatorType = 'USER' | 'CONTACT';

/** Agents and admins are users (USER), end-users are contacts (CONTACT); an unknown role has no creator type. */
export function creatorTypeOf(role: ZdRole | null | undefined): CreatorType | null {
  if (!role) return null;
  return role === 'end-user' ? 'CONTACT' : 'USER';
}

/** Omniport references of a Zendesk author, by the author's role. */
export function authorRefs(authorId: number | null | undefined, role: ZdRole | null | undefined, ids: IdOf) {
  const creator_type = authorId == null ? null : creatorTypeOf(role);
  return {
    creator_type,
    user_id: creator_type === 'USER' ? ids('ticketing.user', authorId) : null,
    contact_id: creator_type === 'CONTACT' ? ids('ticketing.contact', authorId) : null,
  };
}

export interface CommentUnifyOptions {
  roleOf?: (userId: number) => ZdRole | undefined;
  /** Creation time when the JSON has none (the `Comment` event of an audit: use the audit's `created_at`). */
  createdAt?: string | null;
}

export interface UnifiedComment {
  comment: UnifiedRecord;
  attachments: UnifiedRecord[];
}

/** Zendesk attachment of a comment → unified attachment (parent: the comment). */
export function unifyAttachment(
  a: ZdAttachment,
  ctx: { ticketRemoteId: string; commentRemoteId: string; uploader: string | null; createdAt: Date | null },
  ids: IdOf,
): UnifiedRecord {
  const data = {
    file_name: a.file_name ?? null,
    file_url: a.content_url ?? a.mapped_content_url ?? null,
    uploader: ctx.uploader,
    ticket_id: ids('ticketing.ticket', ctx.ticketRemoteId),
    comment_id: ids('ticketing.comment', ctx.commentRemoteId),
  } satisfies AttachmentFields;
  return {
    objectType: 'ticketing.attachment',
    remoteId: String(a.id),
    data,
    remoteData: asRecord(a),
    remoteCreatedAt: ctx.createdAt,
    remoteUpdatedAt: ctx.createdAt,
    parent: { objectType: 'ticketing.comment', remoteId: ctx.commentRemoteId },
  };
}

/** Zendesk comment (or audit `Comment` event) → unified comment and its attachments. */
export function unifyComment(c: ZdComment, ticketRemoteId: string | number, ids: IdOf, opts: CommentUnifyOptions = {}): UnifiedComment {
  const ticketId = String(ticketRemoteId);
  const commentId = String(c.id);
  const role = c.author_id != null ? opts.roleOf?.(c.author_id) : undefined;
  const refs = authorRefs(c.author_id, role, ids);
  const createdAt = toDate(c.created_at ?? opts.createdAt);
  const uploader = refs.user_id ?? refs.contact_id;
  const attachments = (c.attachments ?? []).map((a) => unifyAttachment(a, { ticketRemoteId: ticketId, commentRemoteId: commentId, uploader, createdAt }, ids));
  const data = {
    body: c.body ?? c.plain_body ?? null,
    html_body: c.html_body ?? null,
    is_private: typeof c.public === 'boolean' ? !c.public : null,
    creator_type: refs.creator_type,
    ticket_id: ids('ticketing.ticket', ticketId),
    contact_id: refs.contact_id,
    user_id: refs.user_id,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  const remoteData = c.created_at === undefined && opts.createdAt ? { ...c, created_at: opts.createdAt } : c;
  return {
    comment: {
      objectType: 'ticketing.comment',
      remoteId: commentId,
      data,
      remoteData: asRecord(remoteData),
      remoteCreatedAt: createdAt,
      // Zendesk comments do not change (only redaction, which leaves no timestamp).
      remoteUpdatedAt: createdAt,
      parent: { objectType: 'ticketing.ticket', remoteId: ticketId },
    },
    attachments,
  };
}

export interface DesunifiedComment {
  comment: ZdCommentBody;
  /** Role of the author when the input tells it (user → agent, contact → end-user); undefined: the connection's own user. */
  authorRole?: ZdRole;
}

/**
 * Unified comment write → the `comment` object of PUT /api/v2/tickets/{id} (without uploads).
 * The author is `user_id` (an agent) or `contact_id` (an end-user); neither means the connection's own user.
 */
export function desunifyComment(input: CommentWrite): DesunifiedComment {
  if (input.customFields?.length) throw unsupported('field_mappings', 'Zendesk comments have no custom fields');
  if (input.user_id !== undefined && input.contact_id !== undefined) {
    throw unsupported('contact_id', 'a Zendesk comment has one author; give user_id or contact_id, not both');
  }
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT' && input.contact_id === undefined) {
    throw unsupported('contact_id', 'a comment with creator_type CONTACT needs contact_id (its author in Zendesk)');
  }
  if (creatorType === 'USER' && input.contact_id !== undefined) {
    throw new AppError('unprocessable', 'creator_type USER does not match contact_id (the author would be a contact)', { field: 'creator_type' });
  }
  if (creatorType === 'CONTACT' && input.user_id !== undefined) {
    throw new AppError('unprocessable', 'creator_type CONTACT does not match user_id (the author would be a user)', { field: 'creator_type' });
  }
  const hasBody = typeof input.body === 'string' && input.body.trim() !== '';
  const hasHtml = typeof input.html_body === 'string' && input.html_body.trim() !== '';
  if (!hasBody && !hasHtml) throw new AppError('validation_failed', 'a Zendesk comment needs body or html_body', { field: 'body' });

  const comment: ZdCommentBody = {};
  // Zendesk uses html_body when both are given; body is then the plain text Zendesk derives from it.
  if (hasHtml) comment.html_body = input.html_body;
  if (hasBody) comment.body = input.body;
  if (input.is_private !== undefined) comment.public = !input.is_private;
  let authorRole: ZdRole | undefined;
  if (input.user_id !== undefined) {
    comment.author_id = zdId(input.user_id, 'user_id');
    authorRole = 'agent';
  } else if (input.contact_id !== undefined) {
    comment.author_id = zdId(input.contact_id, 'contact_id');
    authorRole = 'end-user';
  }
  return { comment, authorRole };
}
