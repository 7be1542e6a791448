import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CollectionFields, CommentFields, TagFields, TeamFields, TicketFields, TicketPriority, TicketStatus, UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { CuAttachment, CuComment, CuField, CuFolder, CuGroup, CuList, CuSpace, CuTask, CuUser } from './types';
import { asRecord, fromEpochMs, nonEmpty } from './util';

export const STATUS_TYPE_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = { open: 'OPEN', custom: 'IN_PROGRESS', closed: 'CLOSED', done: 'CLOSED' };
export const PRIORITY_TO_UNIFIED: Readonly<Record<string, TicketPriority>> = { urgent: 'URGENT', high: 'HIGH', normal: 'MEDIUM', low: 'LOW' };
/** ClickUp's priority numbers: 1 urgent, 2 high, 3 normal, 4 low. */
export const UNIFIED_TO_PRIORITY: Readonly<Record<TicketPriority, number>> = { URGENT: 1, HIGH: 2, MEDIUM: 3, LOW: 4 };

const stamps = (created: unknown, updated: unknown) => ({ remoteCreatedAt: fromEpochMs(created), remoteUpdatedAt: fromEpochMs(updated) ?? fromEpochMs(created) });

export function unifyTask(t: CuTask, ids: IdOf): UnifiedRecord {
  const text = nonEmpty(t.text_content) ?? nonEmpty(t.description);
  const data = {
    name: nonEmpty(t.name),
    status: t.status?.type ? (STATUS_TYPE_TO_UNIFIED[t.status.type] ?? null) : null,
    description: text ? [text] : [],
    due_date: fromEpochMs(t.due_date)?.toISOString() ?? null,
    type: null,
    parent_ticket: ids('ticketing.ticket', nonEmpty(t.parent)),
    project_id: ids('ticketing.collection', t.list?.id ? `list:${t.list.id}` : undefined),
    tags: (t.tags ?? []).map((x) => nonEmpty(x.name)).filter((x): x is string => x !== null),
    completed_at: (fromEpochMs(t.date_done) ?? fromEpochMs(t.date_closed))?.toISOString() ?? null,
    priority: t.priority?.priority ? (PRIORITY_TO_UNIFIED[t.priority.priority] ?? null) : null,
    assigned_to: (t.assignees ?? []).map((u) => ids('ticketing.user', String(u.id))!),
    account_id: null,
    contact_id: null,
  } satisfies TicketFields;
  return { objectType: 'ticketing.ticket', remoteId: t.id, data, remoteData: asRecord(t), ...stamps(t.date_created, t.date_updated) };
}

export function unifyComment(c: CuComment, ids: IdOf, taskId: string, attachmentIds: string[] = []): UnifiedRecord {
  const data = {
    body: nonEmpty(c.comment_text),
    html_body: null,
    is_private: false,
    creator_type: c.user ? 'USER' : null,
    ticket_id: ids('ticketing.ticket', taskId),
    contact_id: null,
    user_id: c.user ? ids('ticketing.user', String(c.user.id)) : null,
    attachments: attachmentIds.map((a) => ids('ticketing.attachment', a)!),
  } satisfies CommentFields;
  return { objectType: 'ticketing.comment', remoteId: c.id, data, remoteData: asRecord(c), ...stamps(c.date, c.date), parent: { objectType: 'ticketing.ticket', remoteId: taskId } };
}

export function unifyAttachment(a: CuAttachment, ids: IdOf, taskId: string, commentId?: string): UnifiedRecord {
  const data = {
    file_name: nonEmpty(a.title),
    file_url: nonEmpty(a.url),
    uploader: a.user ? ids('ticketing.user', String(a.user.id)) : null,
    ticket_id: ids('ticketing.ticket', taskId),
    comment_id: commentId ? ids('ticketing.comment', commentId) : null,
  } satisfies AttachmentFields;
  return { objectType: 'ticketing.attachment', remoteId: a.id, data, remoteData: asRecord(a), ...stamps(a.date, a.date), parent: { objectType: 'ticketing.ticket', remoteId: taskId } };
}

export function unifyMember(u: CuUser, teamsOf: (userId: number) => string[], ids: IdOf): UnifiedRecord {
  const data = { name: nonEmpty(u.username), email_address: nonEmpty(u.email), teams: teamsOf(u.id).map((g) => ids('ticketing.team', g)!), account_id: null } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: String(u.id), data, remoteData: asRecord(u), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyGroup(g: CuGroup): UnifiedRecord {
  const data = { name: nonEmpty(g.name), description: nonEmpty(g.handle) } satisfies TeamFields;
  return { objectType: 'ticketing.team', remoteId: g.id, data, remoteData: asRecord(g), remoteCreatedAt: null, remoteUpdatedAt: null };
}

/** Tags are per space: remote id `<space id>:<name>`. */
export function unifyTag(spaceId: string, tag: { name?: string }): UnifiedRecord {
  const data = { name: tag.name ?? '' } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: `${spaceId}:${tag.name ?? ''}`, data, remoteData: asRecord({ ...tag, space_id: spaceId }), remoteCreatedAt: null, remoteUpdatedAt: null };
}

/** Spaces, folders and lists share one collection id space: remote ids `space:<id>`, `folder:<id>`, `list:<id>`. */
export function unifySpace(s: CuSpace): UnifiedRecord {
  const data = { name: nonEmpty(s.name), description: null, collection_type: 'SPACE', parent_id: null } satisfies CollectionFields;
  return { objectType: 'ticketing.collection', remoteId: `space:${s.id}`, data, remoteData: asRecord(s), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyFolder(f: CuFolder & { spaceId: string }, ids: IdOf): UnifiedRecord {
  const { lists: _lists, ...rest } = f;
  const data = { name: nonEmpty(f.name), description: null, collection_type: 'FOLDER', parent_id: ids('ticketing.collection', `space:${f.spaceId}`) } satisfies CollectionFields;
  return { objectType: 'ticketing.collection', remoteId: `folder:${f.id}`, data, remoteData: asRecord(rest), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyList(l: CuList & { spaceId: string; folderId: string | null }, ids: IdOf): UnifiedRecord {
  const parent = l.folderId ? `folder:${l.folderId}` : `space:${l.spaceId}`;
  const data = { name: nonEmpty(l.name), description: nonEmpty(l.content), collection_type: 'LIST', parent_id: ids('ticketing.collection', parent) } satisfies CollectionFields;
  return { objectType: 'ticketing.collection', remoteId: `list:${l.id}`, data, remoteData: asRecord(l), remoteCreatedAt: null, remoteUpdatedAt: null };
}

/** A custom field's value as field mapping reads it (a drop-down's option by name, dates as ISO). */
export function customFieldValue(f: CuField): unknown {
  if (f.value === undefined || f.value === null || f.value === '') return null;
  switch (f.type) {
    case 'drop_down': {
      const o = f.type_config?.options?.find((x) => x.id === f.value || x.orderindex === Number(f.value));
      return o?.name ?? null;
    }
    case 'date':
      return fromEpochMs(f.value)?.toISOString() ?? null;
    case 'number':
    case 'currency':
      return typeof f.value === 'number' ? f.value : Number(f.value);
    case 'checkbox':
      return f.value === true || f.value === 'true';
    default:
      return f.value;
  }
}
