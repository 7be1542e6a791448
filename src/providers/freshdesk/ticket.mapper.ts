import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_PRIORITIES, type TicketFields, type TicketPriority, type TicketStatus } from '../../core/unified/ticketing';
import type { TicketWrite, UnifiedRecord } from '../types';
import type { FdTicket, FdTicketBody } from './types';
import { asRecord, fdId, nonEmpty, freshdeskHtml, toDate, toIso, unsupported } from './util';

/** Freshdesk statuses (API v2 → Tickets → Ticket properties); 6 and 7 are the default custom ones. */
export const STATUS_TO_UNIFIED: Readonly<Record<number, TicketStatus>> = { 2: 'OPEN', 3: 'ON_HOLD', 4: 'CLOSED', 5: 'CLOSED', 6: 'ON_HOLD', 7: 'ON_HOLD' };
export const STATUS_TO_FRESHDESK: Readonly<Partial<Record<TicketStatus, number>>> = { OPEN: 2, ON_HOLD: 3, CLOSED: 5 };
export const PRIORITY_TO_UNIFIED: Readonly<Record<number, TicketPriority>> = { 1: 'LOW', 2: 'MEDIUM', 3: 'HIGH', 4: 'URGENT' };
export const PRIORITY_TO_FRESHDESK: Readonly<Record<TicketPriority, number>> = { LOW: 1, MEDIUM: 2, HIGH: 3, URGENT: 4 };

/** Freshdesk ticket → unified ticket (a ticket in the trash comes out deleted). */
export function unifyTicket(t: FdTicket, ids: IdOf): UnifiedRecord {
  const status = typeof t.status === 'number' ? (STATUS_TO_UNIFIED[t.status] ?? null) : null;
  const closed = t.status === 4 || t.status === 5;
  const description = nonEmpty(t.description_text);
  const data = {
    name: t.subject ?? null,
    status,
    description: description ? [description] : [],
    due_date: toIso(t.due_by),
    type: nonEmpty(t.type),
    parent_ticket: null,
    project_id: null,
    tags: Array.isArray(t.tags) ? t.tags.filter((x): x is string => typeof x === 'string') : [],
    completed_at: closed ? (toIso(t.stats?.closed_at) ?? toIso(t.stats?.resolved_at)) : null,
    priority: typeof t.priority === 'number' ? (PRIORITY_TO_UNIFIED[t.priority] ?? null) : null,
    assigned_to: typeof t.responder_id === 'number' ? [ids('ticketing.user', t.responder_id)!] : [],
    account_id: ids('ticketing.account', t.company_id),
    contact_id: ids('ticketing.contact', t.requester_id),
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: String(t.id),
    data,
    remoteData: asRecord(t),
    remoteCreatedAt: toDate(t.created_at),
    remoteUpdatedAt: toDate(t.updated_at) ?? toDate(t.created_at),
    ...(t.deleted === true ? { deleted: true } : {}),
  };
}

function mapStatus(status: string): number {
  const upper = status.toUpperCase() as TicketStatus;
  const mapped = STATUS_TO_FRESHDESK[upper];
  if (mapped !== undefined) return mapped;
  if (upper === 'IN_PROGRESS') throw unsupported('status', 'Freshdesk has no in-progress status (Open, Pending, Resolved, Closed)', { allowed: ['OPEN', 'ON_HOLD', 'CLOSED'] });
  throw new AppError('validation_failed', 'status must be one of OPEN, IN_PROGRESS, ON_HOLD, CLOSED', { field: 'status' });
}

function mapPriority(priority: string): number {
  const mapped = PRIORITY_TO_FRESHDESK[priority.toUpperCase() as TicketPriority];
  if (mapped === undefined) throw new AppError('validation_failed', `priority must be one of ${TICKET_PRIORITIES.join(', ')}`, { field: 'priority', allowed: [...TICKET_PRIORITIES] });
  return mapped;
}

export interface DesunifiedTicket {
  body: FdTicketBody;
  /** Comments to add as replies after the ticket is written. */
  comments: string[];
}

/**
 * Unified ticket write → the body of POST /tickets or PUT /tickets/{id}. Fields Freshdesk cannot take
 * are refused with `unsupported_by_provider`. On create, the requester is the contact or, without one,
 * `selfAgentId` (Freshdesk needs a requester); status and priority default to Open and Low.
 */
export function desunifyTicket(input: TicketWrite, mode: 'create' | 'update', selfAgentId?: number): DesunifiedTicket {
  if (input.project_id !== undefined) throw unsupported('project_id', 'Freshdesk has no collections (projects); leave project_id out');
  if (input.parent_ticket !== undefined) throw unsupported('parent_ticket', 'parent-child tickets are not written through Omniport for Freshdesk');
  if (input.completed_at !== undefined) throw unsupported('completed_at', 'Freshdesk records the closing time itself; set status CLOSED instead');
  const body: FdTicketBody = {};
  if (input.name !== undefined) body.subject = input.name;
  if (input.status !== undefined) body.status = mapStatus(input.status);
  if (input.priority !== undefined) body.priority = mapPriority(input.priority);
  if (input.type !== undefined) body.type = input.type;
  if (input.tags !== undefined) body.tags = [...new Set(input.tags)];
  if (input.due_date !== undefined) body.due_by = new Date(input.due_date).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (input.assigned_to !== undefined) {
    if (input.assigned_to.length > 1) throw unsupported('assigned_to', 'a Freshdesk ticket has one responder; give at most one user');
    body.responder_id = input.assigned_to[0] === undefined ? null : fdId(input.assigned_to[0], 'assigned_to');
  }
  if (input.account_id !== undefined) body.company_id = fdId(input.account_id, 'account_id');
  if (input.contact_id !== undefined) body.requester_id = fdId(input.contact_id, 'contact_id');
  if (input.customFields?.length) body.custom_fields = Object.fromEntries(input.customFields.map((f) => [f.remoteFieldId, f.value ?? null]));
  const description = (input.description ?? []).filter((p) => p.trim() !== '');
  if (input.description !== undefined) body.description = freshdeskHtml(description);
  const comments = (input.comment ?? []).filter((c) => c.trim() !== '');
  if (mode === 'create') {
    if (body.requester_id === undefined) {
      if (selfAgentId === undefined) throw new AppError('validation_failed', 'contact_id: a Freshdesk ticket needs a requester', { field: 'contact_id' });
      body.requester_id = selfAgentId;
    }
    body.status ??= 2;
    body.priority ??= 1;
  }
  return { body, comments };
}
