import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketFields, type TicketPriority, type TicketStatus } from '../../core/unified/ticketing';
import type { TicketWrite, UnifiedRecord } from '../types';
import type { SnIncident } from './types';
import { asRecord, nonEmpty, refId, sysId, toDate, toIso, unsupported } from './util';

/** Incident states (Incident Management → Incident state model). */
export const STATE_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = { '1': 'OPEN', '2': 'IN_PROGRESS', '3': 'ON_HOLD', '6': 'CLOSED', '7': 'CLOSED', '8': 'CLOSED' };
export const STATE_TO_SERVICENOW: Readonly<Record<TicketStatus, string>> = { OPEN: '1', IN_PROGRESS: '2', ON_HOLD: '3', CLOSED: '6' };
/** Priority 1 Critical … 5 Planning (computed from impact × urgency by the priority lookup rules). */
export const PRIORITY_TO_UNIFIED: Readonly<Record<string, TicketPriority>> = { '1': 'URGENT', '2': 'HIGH', '3': 'MEDIUM', '4': 'LOW', '5': 'LOW' };
/** Impact and urgency that the default priority lookup turns into each priority: 1/1 → 1, 1/2 → 2, 2/2 → 3, 2/3 → 4. */
export const PRIORITY_TO_IMPACT_URGENCY: Readonly<Record<TicketPriority, { impact: string; urgency: string }>> = {
  URGENT: { impact: '1', urgency: '1' },
  HIGH: { impact: '1', urgency: '2' },
  MEDIUM: { impact: '2', urgency: '2' },
  LOW: { impact: '2', urgency: '3' },
};

/** Resolution fields the Resolved state requires (the incident data policy). */
export const RESOLUTION = { close_code: 'Solved (Permanently)', close_notes: 'Resolved through Omniport.' } as const;
/** Hold reason the On Hold state requires: 1 Awaiting Caller. */
export const HOLD_REASON = '1';

const paragraphs = (s: string | null) => (s ? s.split(/\n{2,}/).map((p) => p.trim()).filter(Boolean) : []);

/** ServiceNow incident → unified ticket. */
export function unifyIncident(t: SnIncident, ids: IdOf): UnifiedRecord {
  const state = typeof t.state === 'string' ? (STATE_TO_UNIFIED[t.state] ?? null) : null;
  const assignee = refId(t.assigned_to);
  const data = {
    name: nonEmpty(t.short_description),
    status: state,
    description: paragraphs(nonEmpty(t.description)),
    due_date: toIso(t.due_date),
    type: nonEmpty(t.category),
    parent_ticket: ids('ticketing.ticket', refId(t.parent_incident)),
    project_id: null,
    tags: [],
    completed_at: state === 'CLOSED' ? (toIso(t.resolved_at) ?? toIso(t.closed_at)) : null,
    priority: typeof t.priority === 'string' ? (PRIORITY_TO_UNIFIED[t.priority] ?? null) : null,
    assigned_to: assignee ? [ids('ticketing.user', assignee)!] : [],
    account_id: ids('ticketing.account', refId(t.company)),
    contact_id: ids('ticketing.contact', refId(t.caller_id)),
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: t.sys_id,
    data,
    remoteData: asRecord(t),
    remoteCreatedAt: toDate(t.sys_created_on),
    remoteUpdatedAt: toDate(t.sys_updated_on) ?? toDate(t.sys_created_on),
  };
}

export interface DesunifiedIncident {
  body: Record<string, unknown>;
  /** Comments to add (as Additional comments) after the incident is written. */
  comments: string[];
}

/**
 * Unified ticket write → the body of POST /api/now/table/incident or PATCH …/{sys_id}. Fields ServiceNow
 * cannot take through Omniport are refused with `unsupported_by_provider`.
 */
export function desunifyIncident(input: TicketWrite): DesunifiedIncident {
  if (input.project_id !== undefined) throw unsupported('project_id', 'ServiceNow incidents have no collections; leave project_id out');
  if (input.tags !== undefined) throw unsupported('tags', 'ServiceNow incidents carry no tags through Omniport');
  if (input.completed_at !== undefined) throw unsupported('completed_at', 'ServiceNow records the resolution time itself; set status CLOSED instead');
  const body: Record<string, unknown> = {};
  if (input.name !== undefined) body.short_description = input.name;
  if (input.description !== undefined) body.description = input.description.filter((p) => p.trim() !== '').join('\n\n');
  if (input.status !== undefined) {
    const s = input.status.toUpperCase() as TicketStatus;
    const state = STATE_TO_SERVICENOW[s];
    if (!state) throw new AppError('validation_failed', `status must be one of ${TICKET_STATUSES.join(', ')}`, { field: 'status', allowed: [...TICKET_STATUSES] });
    body.state = state;
    if (s === 'CLOSED') Object.assign(body, RESOLUTION);
    if (s === 'ON_HOLD') body.hold_reason = HOLD_REASON;
  }
  if (input.priority !== undefined) {
    const iu = PRIORITY_TO_IMPACT_URGENCY[input.priority.toUpperCase() as TicketPriority];
    if (!iu) throw new AppError('validation_failed', `priority must be one of ${TICKET_PRIORITIES.join(', ')}`, { field: 'priority', allowed: [...TICKET_PRIORITIES] });
    Object.assign(body, iu);
  }
  if (input.type !== undefined) body.category = input.type;
  if (input.due_date !== undefined) body.due_date = new Date(input.due_date).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');
  if (input.assigned_to !== undefined) {
    if (input.assigned_to.length > 1) throw unsupported('assigned_to', 'a ServiceNow incident has one assignee; give at most one user');
    body.assigned_to = input.assigned_to[0] === undefined ? '' : sysId(input.assigned_to[0], 'assigned_to');
  }
  if (input.contact_id !== undefined) body.caller_id = sysId(input.contact_id, 'contact_id');
  if (input.account_id !== undefined) body.company = sysId(input.account_id, 'account_id');
  if (input.parent_ticket !== undefined) body.parent_incident = sysId(input.parent_ticket, 'parent_ticket');
  for (const f of input.customFields ?? []) {
    if (!/^u_\w+$/.test(f.remoteFieldId)) throw unsupported(`field_mappings`, `${f.remoteFieldId} is not a custom (u_) column of incident`);
    body[f.remoteFieldId] = f.value === null || f.value === undefined ? '' : typeof f.value === 'boolean' ? String(f.value) : f.value;
  }
  const comments = (input.comment ?? []).filter((c) => c.trim() !== '');
  return { body, comments };
}
