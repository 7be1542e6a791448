import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_STATUSES, type AttachmentFields, type CommentFields, type TicketFields, type TicketStatus } from '../../core/unified/ticketing';
import type { CommentWrite, TicketWrite, UnifiedRecord } from '../types';
import type { HsAttachment, HsConversation, HsThread } from './types';
import { asRecord, hsId, htmlToParagraphs, nonEmpty, paragraphsToHtml, toDate, toIso, unsupported } from './util';

export const STATUS_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = { active: 'OPEN', pending: 'ON_HOLD', closed: 'CLOSED', spam: 'CLOSED' };
export const STATUS_TO_HELPSCOUT: Readonly<Partial<Record<TicketStatus, string>>> = { OPEN: 'active', ON_HOLD: 'pending', CLOSED: 'closed' };
export const CONVERSATION_TYPES = ['email', 'chat', 'phone'] as const;
/** Threads that are not comments: system line items (status changes, moves, …). */
const NOT_COMMENTS = new Set(['lineitem']);

const byAge = (a: HsThread, b: HsThread) => (Date.parse(a.createdAt ?? '') || 0) - (Date.parse(b.createdAt ?? '') || 0) || a.id - b.id;

/** Threads that are comments, oldest first. */
export const commentThreads = (c: HsConversation) => (c._embedded?.threads ?? []).filter((t) => t && typeof t.id === 'number' && !NOT_COMMENTS.has(t.type ?? '')).sort(byAge);

/** Help Scout conversation → unified ticket: the first thread's text is its description. */
export function unifyConversation(c: HsConversation, ids: IdOf): UnifiedRecord {
  const status = typeof c.status === 'string' ? (STATUS_TO_UNIFIED[c.status] ?? null) : null;
  const first = commentThreads(c)[0];
  const description = first ? htmlToParagraphs(nonEmpty(first.body)) : nonEmpty(c.preview) ? [c.preview!] : [];
  const data = {
    name: nonEmpty(c.subject),
    status,
    description,
    due_date: null,
    type: nonEmpty(c.type),
    parent_ticket: null,
    project_id: ids('ticketing.collection', c.mailboxId),
    tags: (c.tags ?? []).map((t) => t?.tag).filter((t): t is string => typeof t === 'string' && t !== ''),
    completed_at: status === 'CLOSED' ? toIso(c.closedAt) : null,
    priority: null,
    assigned_to: typeof c.assignee?.id === 'number' ? [ids('ticketing.user', c.assignee.id)!] : [],
    account_id: null,
    contact_id: ids('ticketing.contact', c.primaryCustomer?.id),
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: String(c.id),
    data,
    remoteData: asRecord(c),
    remoteCreatedAt: toDate(c.createdAt),
    remoteUpdatedAt: toDate(c.modifiedAt) ?? toDate(c.userUpdatedAt) ?? toDate(c.createdAt),
  };
}

function unifyAttachment(a: HsAttachment, ticketId: string, threadId: string, uploader: string | null, at: Date | null, ids: IdOf): UnifiedRecord {
  const data = {
    file_name: nonEmpty(a.filename),
    file_url: nonEmpty(a._links?.web?.href) ?? nonEmpty(a._links?.data?.href),
    uploader,
    ticket_id: ids('ticketing.ticket', ticketId),
    comment_id: ids('ticketing.comment', threadId),
  } satisfies AttachmentFields;
  return {
    objectType: 'ticketing.attachment',
    remoteId: String(a.id),
    data,
    remoteData: asRecord(a),
    remoteCreatedAt: at,
    remoteUpdatedAt: at,
    parent: { objectType: 'ticketing.comment', remoteId: threadId },
  };
}

/** A thread → unified comment with its attachments. Notes are private; a thread by a customer is a CONTACT's. */
export function unifyThread(t: HsThread, conversationId: number | string, ids: IdOf): { comment: UnifiedRecord; attachments: UnifiedRecord[] } {
  const ticketId = String(conversationId);
  const id = String(t.id);
  const byCustomer = t.createdBy?.type === 'customer';
  const user_id = !byCustomer ? ids('ticketing.user', t.createdBy?.id) : null;
  const contact_id = byCustomer ? ids('ticketing.contact', t.createdBy?.id) : null;
  const at = toDate(t.createdAt);
  const attachments = (t._embedded?.attachments ?? []).filter((a) => a && typeof a.id === 'number').map((a) => unifyAttachment(a, ticketId, id, user_id ?? contact_id, at, ids));
  const body = nonEmpty(t.body);
  const data = {
    body: body ? htmlToParagraphs(body).join('\n\n') : null,
    html_body: body,
    is_private: t.type === 'note',
    creator_type: t.createdBy?.type ? (byCustomer ? 'CONTACT' : 'USER') : null,
    ticket_id: ids('ticketing.ticket', ticketId),
    contact_id,
    user_id,
    attachments: attachments.map((a) => ids('ticketing.attachment', a.remoteId)!),
  } satisfies CommentFields;
  return {
    comment: { objectType: 'ticketing.comment', remoteId: id, data, remoteData: { ...asRecord(t), conversationId: Number(ticketId) }, remoteCreatedAt: at, remoteUpdatedAt: at, parent: { objectType: 'ticketing.ticket', remoteId: ticketId } },
    attachments,
  };
}

function mapStatus(status: string): string {
  const upper = status.toUpperCase() as TicketStatus;
  const mapped = STATUS_TO_HELPSCOUT[upper];
  if (mapped) return mapped;
  if (upper === 'IN_PROGRESS') throw unsupported('status', 'Help Scout has no in-progress status (active, pending, closed)', { allowed: ['OPEN', 'ON_HOLD', 'CLOSED'] });
  throw new AppError('validation_failed', `status must be one of ${TICKET_STATUSES.join(', ')}`, { field: 'status' });
}

/** Refuses what Help Scout conversations cannot hold, before any call. */
function refuseUnsupported(input: TicketWrite) {
  if (input.priority !== undefined) throw unsupported('priority', 'Help Scout conversations have no priority');
  if (input.due_date !== undefined) throw unsupported('due_date', 'Help Scout conversations have no due date');
  if (input.account_id !== undefined) throw unsupported('account_id', 'Help Scout conversations have no account (company)');
  if (input.parent_ticket !== undefined) throw unsupported('parent_ticket', 'Help Scout conversations have no parent');
  if (input.completed_at !== undefined) throw unsupported('completed_at', 'Help Scout records the closing time itself; set status CLOSED instead');
  if (input.assigned_to !== undefined && input.assigned_to.length > 1) throw unsupported('assigned_to', 'a Help Scout conversation has one assignee; give at most one user');
  if (input.type !== undefined && !(CONVERSATION_TYPES as readonly string[]).includes(input.type)) {
    throw unsupported('type', `a Help Scout conversation type is one of ${CONVERSATION_TYPES.join(', ')}`, { allowed: [...CONVERSATION_TYPES] });
  }
}

export interface CreateBody {
  body: Record<string, unknown>;
  comments: string[];
}

/**
 * Unified ticket → the body of POST /v2/conversations (Create Conversation). The description is its first thread: a
 * customer thread from the contact, or from `fallbackCustomerEmail` (Help Scout needs a customer).
 */
export function desunifyCreate(input: TicketWrite, fallbackCustomerEmail?: string): CreateBody {
  refuseUnsupported(input);
  if (input.project_id === undefined) throw unsupported('project_id', 'a Help Scout conversation belongs to a mailbox: give project_id (a collection of type MAILBOX)');
  const customer = input.contact_id !== undefined ? { id: hsId(input.contact_id, 'contact_id') } : fallbackCustomerEmail ? { email: fallbackCustomerEmail } : undefined;
  if (!customer) throw new AppError('validation_failed', 'contact_id: a Help Scout conversation needs a customer', { field: 'contact_id' });
  const paragraphs = (input.description ?? []).filter((p) => p.trim() !== '');
  const body: Record<string, unknown> = {
    subject: input.name ?? '',
    customer,
    mailboxId: hsId(input.project_id, 'project_id'),
    type: input.type ?? 'email',
    status: input.status !== undefined ? mapStatus(input.status) : 'active',
    threads: [{ type: 'customer', customer, text: paragraphs.length ? paragraphsToHtml(paragraphs) : paragraphsToHtml([input.name ?? '(no description)']) }],
  };
  if (input.tags !== undefined) body.tags = [...new Set(input.tags)];
  if (input.assigned_to?.[0] !== undefined) body.assignTo = hsId(input.assigned_to[0], 'assigned_to');
  if (input.customFields?.length) body.fields = input.customFields.map((f) => ({ id: hsId(f.remoteFieldId, 'field_mappings'), value: f.value === null || f.value === undefined ? '' : String(f.value) }));
  return { body, comments: (input.comment ?? []).filter((c) => c.trim() !== '') };
}

/** One change of Update Conversation (`PATCH /v2/conversations/{id}`, one operation a request). */
export interface PatchOp {
  op: 'replace' | 'remove';
  path: string;
  value?: unknown;
}

export interface UpdatePlan {
  ops: PatchOp[];
  tags?: string[];
  fields?: Array<{ id: number; value: string }>;
  comments: string[];
}

/** Unified patch → the Update Conversation operations, Update Tags and Update Custom Fields calls. */
export function desunifyUpdate(input: TicketWrite): UpdatePlan {
  refuseUnsupported(input);
  if (input.type !== undefined) throw unsupported('type', 'a Help Scout conversation\'s type is set when it is created');
  if (input.description !== undefined) throw unsupported('description', 'the description is the conversation\'s first thread; add a comment instead');
  const ops: PatchOp[] = [];
  if (input.name !== undefined) ops.push({ op: 'replace', path: '/subject', value: input.name });
  if (input.status !== undefined) ops.push({ op: 'replace', path: '/status', value: mapStatus(input.status) });
  if (input.project_id !== undefined) ops.push({ op: 'replace', path: '/mailboxId', value: hsId(input.project_id, 'project_id') });
  if (input.contact_id !== undefined) ops.push({ op: 'replace', path: '/primaryCustomer.id', value: hsId(input.contact_id, 'contact_id') });
  if (input.assigned_to !== undefined) {
    ops.push(input.assigned_to[0] === undefined ? { op: 'remove', path: '/assignTo' } : { op: 'replace', path: '/assignTo', value: hsId(input.assigned_to[0], 'assigned_to') });
  }
  return {
    ops,
    tags: input.tags !== undefined ? [...new Set(input.tags)] : undefined,
    fields: input.customFields?.length ? input.customFields.map((f) => ({ id: hsId(f.remoteFieldId, 'field_mappings'), value: f.value === null || f.value === undefined ? '' : String(f.value) })) : undefined,
    comments: (input.comment ?? []).filter((c) => c.trim() !== ''),
  };
}

/** Unified comment → the thread endpoint (reply, notes, customer) and its body, without attachments. */
export function desunifyComment(input: CommentWrite, primaryCustomerId: number | undefined): { endpoint: 'reply' | 'notes' | 'customer'; body: Record<string, unknown> } {
  if (input.customFields?.length) throw unsupported('field_mappings', 'Help Scout threads have no custom fields');
  if (input.user_id !== undefined && input.contact_id !== undefined) throw unsupported('contact_id', 'a Help Scout thread has one author; give user_id or contact_id, not both');
  const creatorType = input.creator_type;
  if (creatorType === 'CONTACT' && input.contact_id === undefined) throw unsupported('contact_id', 'a comment with creator_type CONTACT needs contact_id (the customer in Help Scout)');
  if (creatorType === 'USER' && input.contact_id !== undefined) throw new AppError('unprocessable', 'creator_type USER does not match contact_id', { field: 'creator_type' });
  const text = nonEmpty(input.html_body) ?? (nonEmpty(input.body) ? paragraphsToHtml([input.body!]) : null);
  if (!text) throw new AppError('validation_failed', 'a Help Scout thread needs body or html_body', { field: 'body' });
  if (input.contact_id !== undefined) {
    if (input.is_private === true) throw unsupported('is_private', 'a customer thread is public in Help Scout');
    return { endpoint: 'customer', body: { customer: { id: hsId(input.contact_id, 'contact_id') }, text } };
  }
  const user = input.user_id !== undefined ? { user: hsId(input.user_id, 'user_id') } : {};
  if (input.is_private) return { endpoint: 'notes', body: { text, ...user } };
  if (primaryCustomerId === undefined) throw new AppError('unprocessable', 'the conversation has no customer to reply to', { field: 'ticket_id' });
  return { endpoint: 'reply', body: { customer: { id: primaryCustomerId }, text, ...user } };
}
