import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_STATUSES, type TicketFields, type TicketStatus } from '../../core/unified/ticketing';
import type { CustomFieldValue, TicketWrite, UnifiedRecord } from '../types';
import type { FrComment, FrConversation, FrMessage, FrTicketStatus } from './types';
import { asRecord, frId, htmlToText, idFromLink, fromEpochSeconds, secondsIso, toSeconds, unsupported } from './util';

/**
 * Front conversation → unified status. A deleted (trashed) conversation is CLOSED (and reported deleted).
 * With Front ticketing, the status category decides first: `waiting` (on the customer) is ON_HOLD,
 * `resolved` is CLOSED. Otherwise `archived` is CLOSED, and an open conversation is IN_PROGRESS when a
 * teammate is assigned (`assigned`), else OPEN (`unassigned`).
 */
export function unifiedStatus(c: Pick<FrConversation, 'status' | 'status_category' | 'assignee'>): TicketStatus | null {
  if (c.status === 'deleted') return 'CLOSED';
  if (c.status_category === 'waiting') return 'ON_HOLD';
  if (c.status_category === 'resolved' || c.status === 'archived') return 'CLOSED';
  if (c.status === 'assigned' || c.status === 'unassigned' || c.status_category === 'open') {
    return c.status === 'assigned' || c.assignee ? 'IN_PROGRESS' : 'OPEN';
  }
  return null;
}

/** Front conversation types; the unified `type` is one of them. */
export const FRONT_TICKET_TYPES = ['conversation', 'discussion', 'task'] as const;
export type FrontTicketType = (typeof FRONT_TICKET_TYPES)[number];

export interface ConversationDetails {
  /** Inboxes the conversation is in (`GET /conversations/{id}/inboxes`); the first is the ticket's collection. */
  inboxIds?: string[];
  /** Messages and comments, as listed (any order). */
  messages?: FrMessage[];
  comments?: FrComment[];
}

/** Plain text of a message: its `text`, else its HTML body as text. */
export function messageText(m: FrMessage): string | null {
  if (typeof m.text === 'string' && m.text.trim() !== '') return m.text;
  if (typeof m.body === 'string' && m.body.trim() !== '') return htmlToText(m.body);
  return null;
}

const byTime = <T>(at: (x: T) => number | undefined) => (a: T, b: T) => (at(a) ?? 0) - (at(b) ?? 0);

/**
 * The description: a task's own description; otherwise the opening message of a conversation (the
 * customer's first words, as Zendesk's description is its first comment), or the opening comment of a
 * discussion.
 */
export function descriptionOf(c: FrConversation, d: ConversationDetails): string[] {
  if (c.type === 'task') return typeof c.description === 'string' && c.description !== '' ? [c.description] : [];
  const messages = (d.messages ?? []).filter((m) => !m.draft_mode).sort(byTime((m) => m.created_at));
  const comments = [...(d.comments ?? [])].sort(byTime((x) => x.posted_at));
  const first = c.type === 'discussion' ? comments[0]?.body : messages[0] ? messageText(messages[0]) : comments[0]?.body;
  return typeof first === 'string' && first !== '' ? [first] : [];
}

/** The Front contact id of a recipient (`_links.related.contact`), or null. */
export function recipientContactId(r: { _links?: { related?: { contact?: string | null } } } | null | undefined): string | null {
  return idFromLink(r?._links?.related?.contact, 'contacts');
}

/** Front conversation JSON → unified ticket. A trashed conversation (`status: deleted`) comes out with `deleted: true`. */
export function unifyConversation(c: FrConversation, ids: IdOf, d: ConversationDetails = {}): UnifiedRecord {
  const assignee = c.assignee?.id ?? null;
  const data = {
    name: c.subject ?? null,
    status: unifiedStatus(c),
    description: descriptionOf(c, d),
    due_date: secondsIso(c.due_at),
    type: c.type ?? null,
    parent_ticket: null,
    project_id: ids('ticketing.collection', d.inboxIds?.[0]),
    tags: (c.tags ?? []).map((t) => t.name).filter((n): n is string => typeof n === 'string'),
    completed_at: null,
    priority: null,
    assigned_to: assignee ? [ids('ticketing.user', assignee)!] : [],
    account_id: null,
    contact_id: ids('ticketing.contact', recipientContactId(c.recipient)),
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: c.id,
    data,
    remoteData: asRecord(c),
    remoteCreatedAt: fromEpochSeconds(c.created_at),
    remoteUpdatedAt: fromEpochSeconds(c.updated_at) ?? fromEpochSeconds(c.created_at),
    ...(c.status === 'deleted' ? { deleted: true } : {}),
  };
}

// ---------------------------------------------------------------- writes

function refuseCommon(input: TicketWrite) {
  if (input.priority !== undefined) throw unsupported('priority', 'Front conversations have no priority');
  if (input.parent_ticket !== undefined) throw unsupported('parent_ticket', 'Front conversations have no parent conversation');
  if (input.account_id !== undefined) throw unsupported('account_id', 'a Front conversation is not linked to an account (its contact may be)');
  if (input.completed_at !== undefined) throw unsupported('completed_at', 'Front records when a conversation is archived itself; set status CLOSED instead');
}

export function checkStatus(status: string): TicketStatus {
  const s = status.toUpperCase();
  if (!(TICKET_STATUSES as readonly string[]).includes(s)) {
    throw new AppError('validation_failed', `status must be one of ${TICKET_STATUSES.join(', ')}`, { field: 'status', allowed: [...TICKET_STATUSES] });
  }
  return s as TicketStatus;
}

function oneAssignee(assignedTo: string[] | undefined): string | null | undefined {
  if (assignedTo === undefined) return undefined;
  if (assignedTo.length > 1) throw unsupported('assigned_to', 'a Front conversation has one assignee; give at most one user');
  return assignedTo[0] === undefined ? null : frId(assignedTo[0], 'assigned_to');
}

function dueAt(due: string, type: string): number {
  const at = toSeconds(due);
  if (!Number.isFinite(at)) throw new AppError('validation_failed', 'due_date: not a date-time', { field: 'due_date' });
  if (at * 1000 <= Date.now()) throw unsupported('due_date', `Front needs the due date of a ${type} in the future`);
  return at;
}

const paragraphs = (v: string[] | undefined) => (v ?? []).filter((p) => p.trim() !== '');

export interface CreatePlan {
  type: FrontTicketType;
  subject?: string;
  /** Inbox of a discussion or task (`inbox_id`), or the inbox whose channel sends the first message. */
  inboxId?: string;
  /** Teammates of a discussion or task without an inbox. */
  teammateIds?: string[];
  /** Opening comment of a discussion (or task). */
  starter?: string;
  /** Description of a task. */
  taskDescription?: string;
  dueAt?: number;
  /** First message of a conversation (plain text), to `contactId`. */
  messageText?: string;
  contactId?: string;
  /** Comments added after creation, in order. */
  laterComments: string[];
  assigneeId?: string;
  tags?: string[];
  status?: TicketStatus;
  customFields: CustomFieldValue[];
}

/**
 * Unified ticket → how Front creates it. Without a type, a ticket with contact_id is a message to that
 * contact from the channel of the inbox `project_id` (type `conversation`), otherwise a discussion.
 */
export function planCreate(input: TicketWrite): CreatePlan {
  refuseCommon(input);
  const rawType = input.type?.trim().toLowerCase();
  if (rawType !== undefined && !(FRONT_TICKET_TYPES as readonly string[]).includes(rawType)) {
    throw new AppError('unsupported_by_provider', `type: Front conversation types are ${FRONT_TICKET_TYPES.join(', ')}; got ${JSON.stringify(input.type)}`, {
      field: 'type',
      provider: 'front',
      allowed: [...FRONT_TICKET_TYPES],
    });
  }
  const type: FrontTicketType = (rawType as FrontTicketType | undefined) ?? (input.contact_id !== undefined ? 'conversation' : 'discussion');
  const assigneeId = oneAssignee(input.assigned_to) ?? undefined;
  const inboxId = input.project_id !== undefined ? frId(input.project_id, 'project_id', 'inb') : undefined;
  const description = paragraphs(input.description);
  const comments = paragraphs(input.comment);
  const plan: CreatePlan = {
    type,
    subject: input.name,
    inboxId,
    laterComments: [],
    assigneeId,
    tags: input.tags,
    status: input.status !== undefined ? checkStatus(input.status) : undefined,
    customFields: input.customFields ?? [],
  };
  if (plan.status === 'IN_PROGRESS' && !assigneeId) {
    throw unsupported('status', 'IN_PROGRESS is a Front conversation that is open and assigned: give assigned_to');
  }
  if (input.due_date !== undefined && type !== 'task') throw unsupported('due_date', `only Front tasks have a due date (type "task"); this is a ${type}`);

  if (type === 'conversation') {
    if (input.contact_id === undefined) throw unsupported('contact_id', 'a Front conversation (type "conversation") starts with a message to a contact: give contact_id');
    if (inboxId === undefined) throw unsupported('project_id', 'a message to a contact is sent from the channel of an inbox: give project_id (a Front inbox)');
    plan.contactId = frId(input.contact_id, 'contact_id', 'crd');
    const [first, ...rest] = description.length > 0 ? [description.join('\n\n'), ...comments] : comments;
    if (first === undefined) throw new AppError('validation_failed', 'description: the first message of a Front conversation needs a body (description)', { field: 'description' });
    plan.messageText = first;
    plan.laterComments = rest;
    return plan;
  }

  if (input.contact_id !== undefined) throw unsupported('contact_id', `a Front ${type} has no recipient; create a conversation (type "conversation") to reach a contact`);
  if (input.name === undefined || input.name.trim() === '') {
    throw new AppError('validation_failed', `name: a Front ${type} needs a subject (name)`, { field: 'name' });
  }
  if (inboxId === undefined) {
    if (!assigneeId) throw unsupported('project_id', `a Front ${type} is created in an inbox (project_id) or shared with teammates: give project_id or assigned_to`);
    plan.teammateIds = [assigneeId];
  }
  if (type === 'task') {
    if (description.length > 0) plan.taskDescription = description.join('\n\n');
    if (input.due_date !== undefined) plan.dueAt = dueAt(input.due_date, 'task');
    const [first, ...rest] = comments;
    plan.starter = first;
    plan.laterComments = rest;
    return plan;
  }
  const [first, ...rest] = description.length > 0 ? [description.join('\n\n'), ...comments] : comments;
  if (first === undefined) {
    throw new AppError('validation_failed', 'description: a Front discussion starts with a comment: give description (or a first comment)', { field: 'description' });
  }
  plan.starter = first;
  plan.laterComments = rest;
  return plan;
}

export interface UpdatePlan {
  /** null: unassign. */
  assigneeId?: string | null;
  /** Move to this inbox. */
  inboxId?: string;
  tags?: string[];
  status?: TicketStatus;
  taskDescription?: string | null;
  dueAt?: number | null;
  customFields: CustomFieldValue[];
}

/** Unified ticket patch → Front conversation update, checked against the conversation as it is. */
export function planUpdate(input: TicketWrite, current: FrConversation): UpdatePlan {
  refuseCommon(input);
  if (input.name !== undefined && input.name !== current.subject) {
    throw unsupported('name', 'Front cannot rename a conversation (its subject is set when it is created)');
  }
  if (input.type !== undefined && input.type.trim().toLowerCase() !== current.type) {
    throw unsupported('type', `the type of a Front conversation cannot change (this one is a ${current.type ?? 'conversation'})`);
  }
  if (input.contact_id !== undefined && input.contact_id !== recipientContactId(current.recipient)) {
    throw unsupported('contact_id', 'the recipient of a Front conversation cannot change');
  }
  const isTask = current.type === 'task';
  const plan: UpdatePlan = { customFields: input.customFields ?? [] };
  if (input.description !== undefined) {
    if (!isTask) throw unsupported('description', 'only the description of a Front task can change; the opening message or comment of a conversation cannot: add a comment instead');
    const text = paragraphs(input.description).join('\n\n');
    plan.taskDescription = text === '' ? null : text;
  }
  if (input.due_date !== undefined) {
    if (!isTask) throw unsupported('due_date', `only Front tasks have a due date; this is a ${current.type ?? 'conversation'}`);
    plan.dueAt = dueAt(input.due_date, 'task');
  }
  const assignee = oneAssignee(input.assigned_to);
  if (assignee !== undefined) plan.assigneeId = assignee;
  if (input.project_id !== undefined) plan.inboxId = frId(input.project_id, 'project_id', 'inb');
  if (input.tags !== undefined) plan.tags = input.tags;
  if (input.status !== undefined) {
    plan.status = checkStatus(input.status);
    const assignedAfter = assignee !== undefined ? assignee !== null : Boolean(current.assignee);
    if (plan.status === 'IN_PROGRESS' && !assignedAfter) {
      throw unsupported('status', 'IN_PROGRESS is a Front conversation that is open and assigned: give assigned_to (or assign it first)');
    }
  }
  return plan;
}

/**
 * The `status` / `status_id` of a conversation update for a unified status. With ticketing statuses
 * (`GET /company/statuses`) the first status of the matching category is used (OPEN and IN_PROGRESS →
 * open, ON_HOLD → waiting, CLOSED → resolved); without them OPEN and IN_PROGRESS reopen (`open`), CLOSED
 * archives, and ON_HOLD cannot be written.
 */
export function statusUpdate(status: TicketStatus, statuses: FrTicketStatus[] | null): { status?: string; status_id?: string } {
  if (statuses && statuses.length > 0) {
    const category = status === 'ON_HOLD' ? 'waiting' : status === 'CLOSED' ? 'resolved' : 'open';
    const match = statuses.find((s) => s.category === category);
    if (match) return { status_id: match.id };
    if (category === 'waiting') throw unsupported('status', 'this Front company has no ticket status in the waiting category for ON_HOLD');
  }
  if (status === 'ON_HOLD') {
    throw unsupported('status', 'ON_HOLD needs Front ticketing statuses (the waiting category), which this company has not enabled', {
      allowed: ['OPEN', 'IN_PROGRESS', 'CLOSED'],
    });
  }
  return { status: status === 'CLOSED' ? 'archived' : 'open' };
}

/** Which fields of a conversation's current custom fields to send: all of them, with the changes (Front erases the ones left out). */
export function mergedCustomFields(current: Record<string, unknown> | undefined, changes: Record<string, unknown>): Record<string, unknown> {
  return { ...(current ?? {}), ...changes };
}
