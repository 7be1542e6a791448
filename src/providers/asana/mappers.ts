import type { IdOf } from '../../core/unified/ids';
import type { AttachmentFields, CollectionFields, CommentFields, TagFields, TeamFields, TicketFields, UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { AsAttachment, AsCustomField, AsProject, AsStory, AsTag, AsTask, AsTeam, AsUser } from './types';
import { asRecord, toDate, nonEmpty } from './util';

const stamps = (o: { created_at?: string | null; modified_at?: string | null }) => ({
  remoteCreatedAt: toDate(o.created_at),
  remoteUpdatedAt: toDate(o.modified_at) ?? toDate(o.created_at),
});

/** The task's first project (tasks listed through a project always have one). */
export const projectOf = (t: AsTask): string | undefined => t.projects?.[0]?.gid ?? t.memberships?.find((m) => m.project?.gid)?.project?.gid;

export function unifyTask(t: AsTask, ids: IdOf): UnifiedRecord {
  const notes = nonEmpty(t.notes);
  const due = t.due_at ?? (t.due_on ? `${t.due_on}T00:00:00.000Z` : null);
  const data = {
    name: nonEmpty(t.name),
    status: typeof t.completed === 'boolean' ? (t.completed ? 'CLOSED' : 'OPEN') : null,
    description: notes ? [notes] : [],
    due_date: due ? (toDate(due)?.toISOString() ?? null) : null,
    type: nonEmpty(t.resource_subtype),
    parent_ticket: ids('ticketing.ticket', t.parent?.gid),
    project_id: ids('ticketing.collection', projectOf(t)),
    tags: (t.tags ?? []).map((x) => nonEmpty(x.name)).filter((x): x is string => x !== null),
    completed_at: toDate(t.completed_at)?.toISOString() ?? null,
    priority: null,
    assigned_to: t.assignee?.gid ? [ids('ticketing.user', t.assignee.gid)!] : [],
    account_id: null,
    contact_id: null,
  } satisfies TicketFields;
  return { objectType: 'ticketing.ticket', remoteId: t.gid, data, remoteData: asRecord(t), ...stamps(t) };
}

/** Stories that are comments (not system stories such as "assigned to" or "attachment added"). */
export const isComment = (s: AsStory) => s.resource_subtype === 'comment_added' || (s.resource_subtype == null && s.type === 'comment');

/** `html_text` is wrapped in `<body>`: Omniport answers the HTML inside it. */
const innerHtml = (html: string | null) => (html ? html.replace(/^\s*<body>/i, '').replace(/<\/body>\s*$/i, '') : null);

export function unifyStory(s: AsStory, ids: IdOf, taskGid: string, attachmentGids: string[] = []): UnifiedRecord {
  const data = {
    body: nonEmpty(s.text),
    html_body: innerHtml(nonEmpty(s.html_text)),
    is_private: false,
    creator_type: s.created_by?.gid ? 'USER' : null,
    ticket_id: ids('ticketing.ticket', taskGid),
    contact_id: null,
    user_id: ids('ticketing.user', s.created_by?.gid),
    attachments: attachmentGids.map((g) => ids('ticketing.attachment', g)!),
  } satisfies CommentFields;
  return { objectType: 'ticketing.comment', remoteId: s.gid, data, remoteData: asRecord(s), ...stamps(s), parent: { objectType: 'ticketing.ticket', remoteId: taskGid } };
}

export function unifyAttachment(a: AsAttachment, ids: IdOf, taskGid: string, commentGid?: string): UnifiedRecord {
  const data = {
    file_name: nonEmpty(a.name),
    file_url: nonEmpty(a.download_url) ?? nonEmpty(a.permanent_url),
    uploader: null,
    ticket_id: ids('ticketing.ticket', taskGid),
    comment_id: commentGid ? ids('ticketing.comment', commentGid) : null,
  } satisfies AttachmentFields;
  return { objectType: 'ticketing.attachment', remoteId: a.gid, data, remoteData: asRecord(a), ...stamps(a), parent: { objectType: 'ticketing.ticket', remoteId: taskGid } };
}

export function unifyUser(u: AsUser): UnifiedRecord {
  const data = { name: nonEmpty(u.name), email_address: nonEmpty(u.email), teams: [], account_id: null } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: u.gid, data, remoteData: asRecord(u), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyTeam(t: AsTeam): UnifiedRecord {
  const data = { name: nonEmpty(t.name), description: nonEmpty(t.description) } satisfies TeamFields;
  return { objectType: 'ticketing.team', remoteId: t.gid, data, remoteData: asRecord(t), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyTag(t: AsTag): UnifiedRecord {
  const data = { name: t.name ?? '' } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: t.gid, data, remoteData: asRecord(t), remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyProject(p: AsProject): UnifiedRecord {
  const data = { name: nonEmpty(p.name), description: nonEmpty(p.notes), collection_type: 'PROJECT', parent_id: null } satisfies CollectionFields;
  return { objectType: 'ticketing.collection', remoteId: p.gid, data, remoteData: asRecord(p), ...stamps(p) };
}

/** A custom field's value as field mapping reads it: text, number, enum option name, or date. */
export function customFieldValue(f: AsCustomField): unknown {
  switch (f.resource_subtype ?? f.type) {
    case 'text':
      return f.text_value ?? null;
    case 'number':
      return f.number_value ?? null;
    case 'enum':
      return f.enum_value?.name ?? null;
    case 'date':
      return f.date_value?.date_time ?? f.date_value?.date ?? null;
    default:
      return f.display_value ?? null;
  }
}
