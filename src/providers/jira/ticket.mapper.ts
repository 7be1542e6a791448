import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketFields, type TicketPriority, type TicketStatus } from '../../core/unified/ticketing';
import type { TicketWrite, UnifiedRecord } from '../types';
import { adfToParagraphs, textToAdf } from './adf';
import type { JiraIssue, JiraStatus } from './types';
import { asRecord, jiraId, toDate, toIso, unsupported } from './util';

/** Status names read (and written) as ON_HOLD: Jira has no "on hold" category, only these names. */
export const HOLD_NAME = /\b(on[\s-]?hold|hold|blocked|waiting|paused|parked|deferred)\b/i;

/** Jira status category key → unified status. */
export const CATEGORY_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = {
  new: 'OPEN',
  indeterminate: 'IN_PROGRESS',
  done: 'CLOSED',
};

/** Unified status → the Jira status category a transition must reach. */
export const UNIFIED_TO_CATEGORY: Readonly<Record<TicketStatus, string>> = {
  OPEN: 'new',
  IN_PROGRESS: 'indeterminate',
  ON_HOLD: 'indeterminate',
  CLOSED: 'done',
};

/**
 * A Jira status → unified. The category decides (To Do → OPEN, In Progress → IN_PROGRESS, Done →
 * CLOSED), except that a not-done status named like "On hold", "Blocked" or "Waiting" is ON_HOLD.
 * A status of no category (`undefined`) has no unified status.
 */
export function unifyStatus(status: JiraStatus | undefined | null): TicketStatus | null {
  const key = status?.statusCategory?.key;
  const unified = key ? CATEGORY_TO_UNIFIED[key] : undefined;
  if (!unified) return null;
  if (unified !== 'CLOSED' && HOLD_NAME.test(status?.name ?? '')) return 'ON_HOLD';
  return unified;
}

/**
 * Jira priority name → unified. The default scheme's five priorities, and the names of older schemes
 * (Blocker, Critical, Major, Minor, Trivial). Any other name has no unified priority (it stays in
 * remote_data).
 */
export const PRIORITY_TO_UNIFIED: Readonly<Record<string, TicketPriority>> = {
  highest: 'URGENT',
  blocker: 'URGENT',
  critical: 'URGENT',
  urgent: 'URGENT',
  high: 'HIGH',
  major: 'HIGH',
  medium: 'MEDIUM',
  normal: 'MEDIUM',
  low: 'LOW',
  minor: 'LOW',
  lowest: 'LOW',
  trivial: 'LOW',
};

/** Unified priority → the name of a priority of Jira's default scheme. */
export const PRIORITY_TO_JIRA: Readonly<Record<TicketPriority, string>> = {
  URGENT: 'Highest',
  HIGH: 'High',
  MEDIUM: 'Medium',
  LOW: 'Low',
};

export function unifyPriority(name: string | undefined | null): TicketPriority | null {
  return name ? (PRIORITY_TO_UNIFIED[name.trim().toLowerCase()] ?? null) : null;
}

/** Jira issue JSON → unified ticket. */
export function unifyTicket(issue: JiraIssue, ids: IdOf): UnifiedRecord {
  const f = issue.fields ?? {};
  const status = unifyStatus(f.status);
  const done = f.status?.statusCategory?.key === 'done';
  const data = {
    name: typeof f.summary === 'string' ? f.summary : null,
    status,
    description: adfToParagraphs(f.description),
    due_date: toIso(f.duedate),
    type: f.issuetype?.name ?? null,
    parent_ticket: ids('ticketing.ticket', f.parent?.id),
    project_id: ids('ticketing.collection', f.project?.id),
    tags: Array.isArray(f.labels) ? [...f.labels] : [],
    completed_at: done ? (toIso(f.resolutiondate) ?? toIso(f.statuscategorychangedate)) : null,
    priority: unifyPriority(f.priority?.name),
    assigned_to: f.assignee?.accountId ? [ids('ticketing.user', f.assignee.accountId)!] : [],
    account_id: null,
    contact_id: null,
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: String(issue.id),
    data,
    remoteData: asRecord(issue),
    remoteCreatedAt: toDate(f.created),
    remoteUpdatedAt: toDate(f.updated),
  };
}

export interface DesunifiedTicket {
  /** `fields` of POST /rest/api/3/issue or PUT /rest/api/3/issue/{id} (without issue type and custom fields). */
  fields: Record<string, unknown>;
  /** Project remote id (required on create; on update only compared with the issue's own). */
  projectId?: string;
  /** Issue type name asked for (resolved against the project's issue types by the caller). */
  type?: string;
  /** Status to reach through a transition afterwards. */
  status?: TicketStatus;
  /** Comment bodies to add afterwards, in order (create only). */
  comments: string[];
}

function mapEnum<T extends string>(value: string, field: string, allowed: readonly T[]): T {
  const v = value.toUpperCase() as T;
  if (!allowed.includes(v)) throw new AppError('validation_failed', `${field} must be one of ${allowed.join(', ')}`, { field, allowed });
  return v;
}

/** Jira labels cannot contain spaces and are at most 255 characters. */
export function checkLabel(tag: string, i: number): string {
  const field = `tags[${i}]`;
  if (/\s/.test(tag)) throw unsupported(field, `Jira labels cannot contain spaces; got ${JSON.stringify(tag)}`);
  if (tag.length > 255) throw unsupported(field, 'Jira labels are at most 255 characters');
  return tag;
}

/** The date part (UTC) of an ISO date-time: Jira due dates are dates. */
export function dueDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new AppError('validation_failed', 'due_date must be an ISO 8601 date-time', { field: 'due_date' });
  return d.toISOString().slice(0, 10);
}

/**
 * Unified ticket write → Jira issue fields. Fields Jira has no place for (contact, account,
 * completed_at, several assignees) are refused with `unsupported_by_provider`; status goes through
 * a transition and the issue type through the project's issue types (both done by the caller).
 */
export function desunifyTicket(input: TicketWrite, mode: 'create' | 'update'): DesunifiedTicket {
  const fields: Record<string, unknown> = {};
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'Jira has no contacts (Jira Service Management customers are not supported)');
  if (input.account_id !== undefined) throw unsupported('account_id', 'Jira has no accounts (organizations)');
  if (input.completed_at !== undefined) throw unsupported('completed_at', 'Jira sets the resolution date itself; set status CLOSED instead');
  if (input.name !== undefined) {
    if (/[\r\n]/.test(input.name)) throw unsupported('name', 'a Jira summary is one line (no line breaks)');
    if (input.name.length > 255) throw unsupported('name', 'a Jira summary is at most 255 characters');
    fields.summary = input.name;
  }
  if (input.description !== undefined) {
    const paragraphs = input.description.filter((p) => p.trim() !== '');
    fields.description = paragraphs.length ? textToAdf(paragraphs) : null;
  }
  if (input.due_date !== undefined) fields.duedate = dueDate(input.due_date);
  if (input.parent_ticket !== undefined) fields.parent = { id: jiraId(input.parent_ticket, 'parent_ticket') };
  if (input.tags !== undefined) fields.labels = input.tags.map(checkLabel);
  if (input.priority !== undefined) fields.priority = { name: PRIORITY_TO_JIRA[mapEnum(input.priority, 'priority', TICKET_PRIORITIES)] };
  if (input.assigned_to !== undefined) {
    if (input.assigned_to.length > 1) throw unsupported('assigned_to', 'a Jira issue has one assignee; give at most one user');
    const a = input.assigned_to[0];
    fields.assignee = a === undefined ? null : { accountId: a };
  }
  const status = input.status !== undefined ? mapEnum(input.status, 'status', TICKET_STATUSES) : undefined;
  const projectId = input.project_id !== undefined ? jiraId(input.project_id, 'project_id') : undefined;
  if (mode === 'create') {
    if (projectId === undefined) throw new AppError('validation_failed', 'project_id is required: every Jira issue belongs to a project (a collection)', { field: 'project_id' });
    fields.project = { id: projectId };
  }
  const type = input.type?.trim();
  if (input.type !== undefined && !type) throw new AppError('validation_failed', 'type must not be empty', { field: 'type' });
  const comments = mode === 'create' ? (input.comment ?? []).filter((c) => c.trim() !== '') : [];
  return { fields, projectId, type, status, comments };
}
