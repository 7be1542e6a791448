import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketFields, type TicketPriority, type TicketStatus } from '../../core/unified/ticketing';
import type { TicketWrite, UnifiedRecord } from '../types';
import type { LnIssue, LnIssueInput, LnStateType } from './types';
import { asRecord, linearId, toDate, toIso, unsupported } from './util';

/**
 * Linear workflow state type → unified status. Triage, backlog and unstarted ("Todo") are OPEN;
 * started is IN_PROGRESS; completed, canceled and duplicate are CLOSED. Linear has no "on hold".
 */
export const STATUS_OF_STATE_TYPE: Readonly<Record<string, TicketStatus>> = {
  triage: 'OPEN',
  backlog: 'OPEN',
  unstarted: 'OPEN',
  started: 'IN_PROGRESS',
  completed: 'CLOSED',
  canceled: 'CLOSED',
  duplicate: 'CLOSED',
};

/**
 * Unified status → the state types that may carry it, best first: a write picks the team's first
 * state (lowest position) of the first type the team has.
 */
export const STATE_TYPES_OF_STATUS: Readonly<Record<TicketStatus, readonly LnStateType[]>> = {
  OPEN: ['unstarted', 'backlog', 'triage'],
  IN_PROGRESS: ['started'],
  ON_HOLD: [],
  CLOSED: ['completed'],
};

/** Linear priority number → unified; 0 ("No priority") is none. */
export const PRIORITY_TO_UNIFIED: Readonly<Record<number, TicketPriority>> = { 1: 'URGENT', 2: 'HIGH', 3: 'MEDIUM', 4: 'LOW' };
export const PRIORITY_TO_LINEAR: Readonly<Record<TicketPriority, number>> = { URGENT: 1, HIGH: 2, MEDIUM: 3, LOW: 4 };

export const statusOfStateType = (type: string | null | undefined): TicketStatus | null => (type ? (STATUS_OF_STATE_TYPE[type] ?? null) : null);

/** Linear's `dueDate` (a date without time) as the unified date-time: midnight UTC of that day. */
export function dueDateToIso(v: unknown): string | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return toIso(v);
  return toIso(`${v}T00:00:00.000Z`);
}

/** A unified due date (ISO date-time) as Linear's TimelessDate: the calendar day in UTC. */
export function dueDateToLinear(v: string): string {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new AppError('validation_failed', 'due_date must be an ISO 8601 date-time', { field: 'due_date' });
  return d.toISOString().slice(0, 10);
}

/** Paragraphs of a unified description as one Markdown text. */
export const descriptionToMarkdown = (paragraphs: string[]) => paragraphs.join('\n\n');

/** Linear issue → unified ticket. The team is the ticket's collection; a trashed issue is deleted. */
export function unifyIssue(issue: LnIssue, ids: IdOf): UnifiedRecord {
  const status = statusOfStateType(issue.state?.type);
  const priority = typeof issue.priority === 'number' ? (PRIORITY_TO_UNIFIED[issue.priority] ?? null) : null;
  const labels = issue.labels?.nodes ?? [];
  const data = {
    name: issue.title ?? null,
    status,
    description: typeof issue.description === 'string' && issue.description.trim() !== '' ? [issue.description] : [],
    due_date: dueDateToIso(issue.dueDate),
    type: null,
    parent_ticket: ids('ticketing.ticket', issue.parent?.id),
    project_id: ids('ticketing.collection', issue.team?.id),
    tags: [...new Set(labels.map((l) => l.name).filter((n): n is string => typeof n === 'string' && n !== ''))],
    completed_at: toIso(issue.completedAt ?? issue.canceledAt),
    priority,
    assigned_to: issue.assignee?.id ? [ids('ticketing.user', issue.assignee.id)!] : [],
    account_id: null,
    contact_id: null,
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: issue.id,
    data,
    remoteData: asRecord(issue),
    remoteCreatedAt: toDate(issue.createdAt),
    remoteUpdatedAt: toDate(issue.updatedAt),
    ...(issue.trashed === true ? { deleted: true } : {}),
  };
}

function mapPriority(value: string): number {
  const p = PRIORITY_TO_LINEAR[value.toUpperCase() as TicketPriority];
  if (p === undefined) throw new AppError('validation_failed', `priority must be one of ${TICKET_PRIORITIES.join(', ')}`, { field: 'priority', allowed: [...TICKET_PRIORITIES] });
  return p;
}

/** The unified status of a write, checked: ON_HOLD has no Linear state type. */
export function statusOfWrite(value: string): TicketStatus {
  const status = value.toUpperCase() as TicketStatus;
  if (!(TICKET_STATUSES as readonly string[]).includes(status)) {
    throw new AppError('validation_failed', `status must be one of ${TICKET_STATUSES.join(', ')}`, { field: 'status', allowed: [...TICKET_STATUSES] });
  }
  if (STATE_TYPES_OF_STATUS[status].length === 0) {
    throw unsupported('status', `Linear workflows have no "${status}" state; use OPEN, IN_PROGRESS or CLOSED`);
  }
  return status;
}

export interface DesunifiedIssue {
  /** issueCreate / issueUpdate input without what needs a lookup (state, labels). */
  input: LnIssueInput;
  /** Wanted unified status (resolved to a state of the issue's team). */
  status?: TicketStatus;
  /** Wanted label names (resolved to, or created as, labels of the issue's team). */
  tags?: string[];
  /** Comment bodies to add after the issue is created. */
  comments: string[];
}

/**
 * Unified ticket write → Linear issue input. Fields Linear cannot take are refused with
 * `unsupported_by_provider`: type, account_id, contact_id, field_mappings, ON_HOLD, more than one
 * assignee, completed_at (Linear records it when the issue is completed).
 */
export function desunifyIssue(input: TicketWrite, mode: 'create' | 'update'): DesunifiedIssue {
  if (input.type !== undefined) throw unsupported('type', 'Linear issues have no type');
  if (input.account_id !== undefined) throw unsupported('account_id', 'Linear has no accounts');
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'Linear has no contacts (requesters)');
  if (input.customFields?.length) throw unsupported('field_mappings', 'Linear issues have no custom fields');
  if (mode === 'update' && input.comment !== undefined) throw unsupported('comment', 'add comments with POST /ticketing/comments');

  const out: DesunifiedIssue = { input: {}, comments: [] };
  const i = out.input;
  if (input.project_id !== undefined) i.teamId = linearId(input.project_id, 'project_id');
  else if (mode === 'create') {
    throw new AppError('validation_failed', 'project_id is required: a Linear issue belongs to a team (give the id of a collection)', { field: 'project_id' });
  }
  if (input.name !== undefined) {
    if (input.name.trim() === '') throw new AppError('validation_failed', 'name must not be empty', { field: 'name' });
    i.title = input.name;
  } else if (mode === 'create') {
    throw new AppError('validation_failed', 'name is required: a Linear issue needs a title', { field: 'name' });
  }
  if (input.description !== undefined) i.description = descriptionToMarkdown(input.description);
  if (input.priority !== undefined) i.priority = mapPriority(input.priority);
  if (input.status !== undefined) out.status = statusOfWrite(input.status);
  if (input.assigned_to !== undefined) {
    if (input.assigned_to.length > 1) throw unsupported('assigned_to', 'a Linear issue has one assignee; give at most one user');
    const a = input.assigned_to[0];
    i.assigneeId = a === undefined ? null : linearId(a, 'assigned_to');
  }
  if (input.due_date !== undefined) i.dueDate = dueDateToLinear(input.due_date);
  if (input.parent_ticket !== undefined) i.parentId = linearId(input.parent_ticket, 'parent_ticket');
  if (input.tags !== undefined) out.tags = [...new Set(input.tags.map((t) => t.trim()).filter((t) => t !== ''))];
  if (input.completed_at !== undefined) {
    // Linear takes completedAt only for imports, after a createdAt in the past: not a unified field to write.
    throw unsupported('completed_at', 'Linear records the completion time itself when the issue moves to a completed state; set status CLOSED');
  }
  if (mode === 'create') out.comments = (input.comment ?? []).filter((c) => c.trim() !== '');
  return out;
}
