import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { TicketFields, TicketStatus } from '../../core/unified/ticketing';
import type { TicketWrite, UnifiedRecord } from '../types';
import type { GlIssue, GlIssueBody } from './types';
import { asRecord, glId, issueRemoteId, PROVIDER, toDate, toIso, unsupported } from './util';

/** GitLab issue state → unified status. */
export const STATUS_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = {
  opened: 'OPEN',
  closed: 'CLOSED',
};

/** Unified statuses GitLab can hold: an issue is open or closed (no workflow states in the REST API on Free). */
export const WRITABLE_STATUSES = ['OPEN', 'CLOSED'] as const;

/**
 * Issue types Omniport writes (`issue_type`). GitLab also knows `requirement` (Ultimate, created through
 * the requirements UI) and `ticket` (Service Desk, created by email); both are read as they are.
 */
export const GITLAB_ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;

/** A GitLab date (`2030-01-15`) as an ISO 8601 time at midnight UTC. */
export function dateToIso(v: unknown): string | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return null;
  return toIso(`${v}T00:00:00.000Z`);
}

/**
 * The calendar date of a unified time, as written (`2030-01-15T23:30:00-05:00` → `2030-01-15`):
 * GitLab due dates have no time of day and no zone.
 */
export function isoToDate(v: string, field: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(v.trim());
  if (!m || Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`))) {
    throw new AppError('validation_failed', `${field}: ${JSON.stringify(v)} is not an ISO 8601 date or time`, { field });
  }
  return m[1]!;
}

const labelName = (l: string | { name: string }) => (typeof l === 'string' ? l : l?.name);

/** GitLab issue JSON → unified ticket. */
export function unifyTicket(i: GlIssue, ids: IdOf): UnifiedRecord {
  const status = i.state ? (STATUS_TO_UNIFIED[i.state] ?? null) : null;
  const assignees = Array.isArray(i.assignees) ? i.assignees : i.assignee ? [i.assignee] : [];
  const type = i.issue_type ?? (typeof i.type === 'string' ? i.type.toLowerCase() : null);
  const data = {
    name: i.title ?? null,
    status,
    description: typeof i.description === 'string' && i.description !== '' ? [i.description] : [],
    due_date: dateToIso(i.due_date),
    type: type ?? null,
    parent_ticket: null,
    project_id: ids('ticketing.collection', i.project_id),
    tags: (Array.isArray(i.labels) ? i.labels : []).map(labelName).filter((n): n is string => typeof n === 'string'),
    completed_at: status === 'CLOSED' ? toIso(i.closed_at) : null,
    priority: null,
    assigned_to: assignees.filter((a) => a && typeof a.id === 'number').map((a) => ids('ticketing.user', a.id)!),
    account_id: null,
    contact_id: null,
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: issueRemoteId(i.project_id, i.iid),
    data,
    remoteData: asRecord(i),
    remoteCreatedAt: toDate(i.created_at),
    remoteUpdatedAt: toDate(i.updated_at),
  };
}

export interface DesunifiedTicket {
  /** The project to create the issue in (create only). */
  projectId?: number;
  body: GlIssueBody;
  /** Create only: close the issue right after creating it (GitLab creates open issues). */
  closeAfterCreate: boolean;
  /** Notes to add afterwards, in order. */
  comments: string[];
}

/**
 * Unified ticket write → the JSON body of `POST /projects/:id/issues` or `PUT /projects/:id/issues/:iid`.
 * Everything GitLab cannot hold is refused with `unsupported_by_provider` (422 naming the field).
 * `currentProjectId` (update) is the project of the issue being changed.
 */
export function desunifyTicket(input: TicketWrite, mode: 'create' | 'update', currentProjectId?: number): DesunifiedTicket {
  if (input.priority !== undefined) {
    throw unsupported('priority', 'GitLab issues have no priority (weight is a different measure, and a Premium feature); leave priority out');
  }
  if (input.parent_ticket !== undefined) throw unsupported('parent_ticket', 'GitLab’s REST API has no parent issue; leave parent_ticket out');
  if (input.account_id !== undefined) throw unsupported('account_id', 'GitLab has no accounts (organizations) on issues');
  if (input.contact_id !== undefined) throw unsupported('contact_id', 'GitLab has no contacts on issues; the author is the token’s user');
  if (input.completed_at !== undefined) throw unsupported('completed_at', 'GitLab records the closing time itself; set status CLOSED instead');
  if (input.customFields?.length) throw unsupported('field_mappings', 'GitLab issues have no custom fields in the REST API');

  const body: GlIssueBody = {};
  let projectId: number | undefined;
  if (mode === 'create') {
    if (input.project_id === undefined) {
      throw new AppError('unprocessable', 'project_id: a GitLab issue belongs to a project; give project_id (the id of a synced collection)', {
        field: 'project_id',
        provider: PROVIDER,
      });
    }
    projectId = glId(input.project_id, 'project_id');
    if (input.name === undefined || input.name.trim() === '') {
      throw new AppError('unprocessable', 'name: a GitLab issue needs a title', { field: 'name', provider: PROVIDER });
    }
  } else if (input.project_id !== undefined && glId(input.project_id, 'project_id') !== currentProjectId) {
    throw unsupported('project_id', 'moving an issue to another project gives it a new id in GitLab; Omniport does not move issues');
  }

  if (input.name !== undefined) body.title = input.name;
  if (input.description !== undefined) body.description = input.description.filter((p) => p.trim() !== '').join('\n\n');
  if (input.tags !== undefined) body.labels = [...new Set(input.tags.map((t) => t.trim()).filter(Boolean))];
  if (input.assigned_to !== undefined) body.assignee_ids = input.assigned_to.map((a) => glId(a, 'assigned_to'));
  if (input.due_date !== undefined) body.due_date = isoToDate(input.due_date, 'due_date');
  if (input.type !== undefined) {
    const type = input.type.trim().toLowerCase();
    if (!(GITLAB_ISSUE_TYPES as readonly string[]).includes(type)) {
      throw unsupported('type', `GitLab issue types Omniport writes are ${GITLAB_ISSUE_TYPES.join(', ')}; got ${JSON.stringify(input.type)}`, {
        allowed: [...GITLAB_ISSUE_TYPES],
      });
    }
    body.issue_type = type;
  }

  let closeAfterCreate = false;
  if (input.status !== undefined) {
    const status = input.status.toUpperCase();
    if (status !== 'OPEN' && status !== 'CLOSED') {
      throw unsupported('status', `a GitLab issue is open or closed; status must be one of ${WRITABLE_STATUSES.join(', ')}`, { allowed: [...WRITABLE_STATUSES] });
    }
    if (mode === 'update') body.state_event = status === 'CLOSED' ? 'close' : 'reopen';
    else closeAfterCreate = status === 'CLOSED';
  }
  const comments = (input.comment ?? []).filter((c) => c.trim() !== '');
  return { projectId, body, closeAfterCreate, comments };
}
