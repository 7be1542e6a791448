import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CommentFields } from '../../core/unified/ticketing';
import type { CommentWrite, UnifiedRecord } from '../types';
import type { SnAttachment, SnJournalEntry } from './types';
import { asRecord, nonEmpty, refId, toDate, unsupported } from './util';

/** The journal fields of an incident that are comments: Additional comments (public) and Work notes (private). */
export const JOURNAL_ELEMENTS = ['comments', 'work_notes'] as const;

/**
 * A `sys_journal_field` entry → unified comment. The entry names its author by user_name only; `userIds` maps
 * user names to sys_ids (from the run's user listing).
 */
export function unifyJournalEntry(j: SnJournalEntry, ids: IdOf, userIds: ReadonlyMap<string, string>, attachments: string[] = []): UnifiedRecord {
  const ticketId = refId(j.element_id);
  const author = typeof j.sys_created_by === 'string' ? userIds.get(j.sys_created_by) : undefined;
  const data = {
    body: nonEmpty(j.value),
    html_body: null,
    is_private: j.element === 'work_notes',
    creator_type: 'USER',
    ticket_id: ids('ticketing.ticket', ticketId),
    contact_id: null,
    user_id: ids('ticketing.user', author),
    attachments,
  } satisfies CommentFields;
  return {
    objectType: 'ticketing.comment',
    remoteId: j.sys_id,
    data,
    remoteData: asRecord(j),
    remoteCreatedAt: toDate(j.sys_created_on),
    remoteUpdatedAt: toDate(j.sys_created_on),
    ...(ticketId ? { parent: { objectType: 'ticketing.ticket', remoteId: ticketId } } : {}),
  };
}

/**
 * Attachment API metadata → unified attachment. ServiceNow attaches files to the record (the incident), not to a
 * journal entry: `commentId` is only known for files Omniport uploaded with a comment.
 */
export function unifyAttachment(a: SnAttachment, ids: IdOf, userIds: ReadonlyMap<string, string>, commentId?: string): UnifiedRecord {
  const ticketId = a.table_name === 'incident' ? refId(a.table_sys_id) : null;
  const uploader = typeof a.sys_created_by === 'string' ? userIds.get(a.sys_created_by) : undefined;
  const data = {
    file_name: nonEmpty(a.file_name),
    file_url: nonEmpty(a.download_link),
    uploader: ids('ticketing.user', uploader),
    ticket_id: ids('ticketing.ticket', ticketId),
    comment_id: commentId ? ids('ticketing.comment', commentId) : null,
  } satisfies AttachmentFields;
  const parent = commentId ? { objectType: 'ticketing.comment', remoteId: commentId } : ticketId ? { objectType: 'ticketing.ticket', remoteId: ticketId } : undefined;
  return {
    objectType: 'ticketing.attachment',
    remoteId: a.sys_id,
    data,
    remoteData: asRecord(a),
    remoteCreatedAt: toDate(a.sys_created_on),
    remoteUpdatedAt: toDate(a.sys_updated_on) ?? toDate(a.sys_created_on),
    ...(parent ? { parent } : {}),
  };
}

/**
 * Unified comment → the journal field to write on the incident (`comments` or `work_notes`) and its text. The
 * entry is written as the connection's user: `selfId` is that user's sys_id.
 */
export function desunifyComment(input: CommentWrite, selfId: string | undefined): { element: 'comments' | 'work_notes'; value: string } {
  if (input.customFields?.length) throw unsupported('field_mappings', 'ServiceNow journal entries have no custom fields');
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'a journal entry is written as the connection\'s user; a caller comments from the portal');
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT') throw unsupported('creator_type', 'a journal entry is written as the connection\'s user');
  if (input.user_id !== undefined && selfId !== undefined && input.user_id !== selfId) {
    throw unsupported('user_id', 'a journal entry is written as the connection\'s user; leave user_id out or give that user');
  }
  const value = nonEmpty(input.body) ?? nonEmpty(input.html_body?.replace(/<[^>]*>/g, ''));
  if (!value) throw new AppError('validation_failed', 'a ServiceNow comment needs body', { field: 'body' });
  return { element: input.is_private ? 'work_notes' : 'comments', value };
}
