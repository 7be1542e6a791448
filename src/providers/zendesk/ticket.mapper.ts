import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketFields, type TicketPriority, type TicketStatus } from '../../core/unified/ticketing';
import type { TicketWrite, UnifiedRecord } from '../types';
import type { ZdRole, ZdTicket, ZdTicketBody } from './types';
import { asRecord, toDate, toIso, unsupported, zdId } from './util';

/**
 * Zendesk status → unified. `new` and `open` are both OPEN (new only means "not yet assigned");
 * `pending` (an agent answered and waits for the requester) is IN_PROGRESS; `hold` (waiting on a
 * third party) is ON_HOLD; `solved` and `closed` are CLOSED. Soft-deleted tickets in exports
 * (`deleted`) have no unified status.
 */
export const STATUS_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = {
  new: 'OPEN',
  open: 'OPEN',
  pending: 'IN_PROGRESS',
  hold: 'ON_HOLD',
  solved: 'CLOSED',
  closed: 'CLOSED',
};

/**
 * Unified status → Zendesk. CLOSED is written as `solved`: Zendesk closes solved tickets itself after
 * a while, and a `closed` ticket can never be changed again (Zendesk refuses every later update).
 */
export const STATUS_TO_ZENDESK: Readonly<Record<TicketStatus, string>> = {
  OPEN: 'open',
  IN_PROGRESS: 'pending',
  ON_HOLD: 'hold',
  CLOSED: 'solved',
};

export const PRIORITY_TO_UNIFIED: Readonly<Record<string, TicketPriority>> = {
  urgent: 'URGENT',
  high: 'HIGH',
  normal: 'MEDIUM',
  low: 'LOW',
};

export const PRIORITY_TO_ZENDESK: Readonly<Record<TicketPriority, string>> = {
  URGENT: 'urgent',
  HIGH: 'high',
  MEDIUM: 'normal',
  LOW: 'low',
};

/**
 * Zendesk's ticket types. The unified `type` is free text; for Zendesk it must be one of these (any case),
 * else it is refused before calling Zendesk (which would answer 422 RecordInvalid).
 */
export const ZENDESK_TICKET_TYPES = ['problem', 'incident', 'question', 'task'] as const;

export interface TicketUnifyOptions {
  /** Role of a Zendesk user, when known (sideloaded users); decides whether the requester is a contact. */
  roleOf?: (userId: number) => ZdRole | undefined;
  /** When the ticket was solved (ticket metrics `solved_at`), if known. */
  solvedAt?: string | null;
}

/** Zendesk ticket JSON → unified ticket. */
export function unifyTicket(t: ZdTicket, ids: IdOf, opts: TicketUnifyOptions = {}): UnifiedRecord {
  const status = t.status ? (STATUS_TO_UNIFIED[t.status] ?? null) : null;
  const priority = t.priority ? (PRIORITY_TO_UNIFIED[t.priority] ?? null) : null;
  const requesterRole = t.requester_id != null ? opts.roleOf?.(t.requester_id) : undefined;
  // The requester is a contact (end-user) unless we know it is an agent; an agent requester stays in remote_data.
  const requesterIsAgent = requesterRole !== undefined && requesterRole !== 'end-user';
  const data = {
    name: t.subject ?? t.raw_subject ?? null,
    status,
    description: typeof t.description === 'string' && t.description !== '' ? [t.description] : [],
    due_date: toIso(t.due_at),
    type: t.type ?? null,
    parent_ticket: ids('ticketing.ticket', t.problem_id),
    project_id: null,
    tags: Array.isArray(t.tags) ? [...t.tags] : [],
    completed_at: status === 'CLOSED' ? toIso(opts.solvedAt) : null,
    priority,
    assigned_to: t.assignee_id != null ? [ids('ticketing.user', t.assignee_id)!] : [],
    account_id: ids('ticketing.account', t.organization_id),
    contact_id: requesterIsAgent ? null : ids('ticketing.contact', t.requester_id),
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: String(t.id),
    data,
    remoteData: asRecord(t),
    remoteCreatedAt: toDate(t.created_at),
    remoteUpdatedAt: toDate(t.updated_at),
    ...(t.status === 'deleted' ? { deleted: true } : {}),
  };
}

export interface DesunifiedTicket {
  /** The `ticket` object of POST/PUT /api/v2/tickets (with the first comment, if any). */
  body: ZdTicketBody;
  /** Comment bodies to add afterwards, one update each, in order. */
  laterComments: string[];
}

function mapEnum<T extends string>(value: string, field: string, table: Readonly<Record<string, string>>, allowed: readonly T[]): string {
  const mapped = table[value.toUpperCase()];
  if (!mapped) throw new AppError('validation_failed', `${field} must be one of ${allowed.join(', ')}`, { field, allowed });
  return mapped;
}

/**
 * Unified ticket write → Zendesk ticket body. On create the opening comment is the description
 * (paragraphs joined by blank lines) or else the first `comment`; the other comments follow as
 * updates. Fields Zendesk cannot take are refused with `unsupported_by_provider`.
 */
export function desunifyTicket(input: TicketWrite, mode: 'create' | 'update'): DesunifiedTicket {
  const body: ZdTicketBody = {};
  if (input.project_id !== undefined) throw unsupported('project_id', 'Zendesk has no collections (projects); leave project_id out');
  if (input.completed_at !== undefined) {
    throw unsupported('completed_at', 'Zendesk records the solved time itself; set status CLOSED instead');
  }
  if (input.name !== undefined) body.subject = input.name;
  if (input.status !== undefined) body.status = mapEnum(input.status, 'status', STATUS_TO_ZENDESK, TICKET_STATUSES);
  if (input.priority !== undefined) body.priority = mapEnum(input.priority, 'priority', PRIORITY_TO_ZENDESK, TICKET_PRIORITIES);
  if (input.type !== undefined) {
    const type = input.type.trim().toLowerCase();
    if (!(ZENDESK_TICKET_TYPES as readonly string[]).includes(type)) {
      throw new AppError('unsupported_by_provider', `type: Zendesk ticket types are ${ZENDESK_TICKET_TYPES.join(', ')}; got ${JSON.stringify(input.type)}`, {
        field: 'type',
        provider: 'zendesk',
        allowed: [...ZENDESK_TICKET_TYPES],
      });
    }
    body.type = type;
  }
  if (input.due_date !== undefined) body.due_at = input.due_date;
  if (input.parent_ticket !== undefined) body.problem_id = zdId(input.parent_ticket, 'parent_ticket');
  if (input.tags !== undefined) body.tags = [...input.tags];
  if (input.assigned_to !== undefined) {
    if (input.assigned_to.length > 1) throw unsupported('assigned_to', 'a Zendesk ticket has one assignee; give at most one user');
    const a = input.assigned_to[0];
    body.assignee_id = a === undefined ? null : zdId(a, 'assigned_to');
  }
  if (input.account_id !== undefined) body.organization_id = zdId(input.account_id, 'account_id');
  if (input.contact_id !== undefined) body.requester_id = zdId(input.contact_id, 'contact_id');
  if (input.customFields?.length) {
    body.custom_fields = input.customFields.map((f) => ({ id: zdId(f.remoteFieldId, 'field_mappings'), value: f.value ?? null }));
  }

  const comments = (input.comment ?? []).filter((c) => c.trim() !== '');
  const description = (input.description ?? []).filter((p) => p.trim() !== '');
  let laterComments: string[];
  if (mode === 'update') {
    if (input.description !== undefined) {
      throw unsupported('description', 'the description of a Zendesk ticket is its opening comment and cannot be changed; add a comment instead');
    }
    const [first, ...rest] = comments;
    if (first !== undefined) body.comment = { body: first };
    laterComments = rest;
  } else if (description.length > 0) {
    body.comment = { body: description.join('\n\n') };
    laterComments = comments;
  } else {
    const [first, ...rest] = comments;
    // Zendesk refuses a ticket without its opening comment; say so before calling it.
    if (first === undefined) {
      throw new AppError('validation_failed', 'description: a Zendesk ticket needs a description (or a first comment)', {
        field: 'description',
        provider: 'zendesk',
      });
    }
    body.comment = { body: first };
    laterComments = rest;
  }
  return { body, laterComments };
}
