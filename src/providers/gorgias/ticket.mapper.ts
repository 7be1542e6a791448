import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import { TICKET_PRIORITIES, type TicketFields, type TicketPriority, type TicketStatus } from '../../core/unified/ticketing';
import type { TicketWrite, UnifiedRecord } from '../types';
import type { GgMessage, GgMessageBody, GgTicket, GgTicketBody } from './types';
import { asRecord, ggId, htmlToText, nonEmpty, PROVIDER, textToHtml, toDate, toIso, unsupported } from './util';

/**
 * Gorgias ticket status → unified. The API knows `open` and `closed` only. Snoozing (the UI's "Snoozed"
 * view) sets `snooze_datetime`, the time the ticket re-opens; such a ticket reads as ON_HOLD whatever
 * its status. Trashed tickets keep their status and come out deleted.
 */
export const STATUS_TO_UNIFIED: Readonly<Record<string, TicketStatus>> = {
  open: 'OPEN',
  closed: 'CLOSED',
};

/** Unified status → Gorgias; IN_PROGRESS and ON_HOLD have no Gorgias status (snoozing needs a wake-up time). */
export const STATUS_TO_GORGIAS: Readonly<Partial<Record<TicketStatus, string>>> = {
  OPEN: 'open',
  CLOSED: 'closed',
};

export const PRIORITY_TO_UNIFIED: Readonly<Record<string, TicketPriority>> = {
  critical: 'URGENT',
  high: 'HIGH',
  normal: 'MEDIUM',
  low: 'LOW',
};

export const PRIORITY_TO_GORGIAS: Readonly<Record<TicketPriority, string>> = {
  URGENT: 'critical',
  HIGH: 'high',
  MEDIUM: 'normal',
  LOW: 'low',
};

/**
 * Gorgias channels (`LegacyChannelSlug` in the reference), the unified ticket `type`: the channel the
 * conversation started on. Tickets created through Omniport use `api` unless a type is given.
 */
export const GORGIAS_CHANNELS = [
  'aircall',
  'api',
  'chat',
  'contact_form',
  'email',
  'facebook',
  'facebook-mention',
  'facebook-messenger',
  'facebook-recommendations',
  'help-center',
  'instagram-ad-comment',
  'instagram-comment',
  'instagram-direct-message',
  'instagram-mention',
  'internal-note',
  'phone',
  'sms',
  'twitter',
  'twitter-direct-message',
  'whatsapp',
  'yotpo-review',
] as const;

export const DEFAULT_CHANNEL = 'api';

/** Messages sort as Gorgias lists them: by creation, then id. */
export function byCreation(a: GgMessage, b: GgMessage): number {
  const ta = toDate(a.created_datetime)?.getTime() ?? 0;
  const tb = toDate(b.created_datetime)?.getTime() ?? 0;
  return ta - tb || a.id - b.id;
}

/** The text of a message: its plain-text body, else its HTML reduced to text. */
export function messageText(m: GgMessage): string | null {
  return nonEmpty(m.body_text) ?? nonEmpty(m.stripped_text) ?? (nonEmpty(m.body_html) ? htmlToText(m.body_html!) : null);
}

/**
 * The ticket's description: its first message (a Gorgias ticket has no description of its own). Only
 * known when the ticket JSON carries `messages`; otherwise empty.
 */
export function descriptionOf(t: GgTicket): string[] {
  const messages = Array.isArray(t.messages) ? [...t.messages].sort(byCreation) : [];
  const first = messages[0] ? messageText(messages[0]) : null;
  return first ? [first] : [];
}

const idOf = (ref: { id?: number | null } | null | undefined, flat: number | null | undefined) =>
  typeof ref?.id === 'number' ? ref.id : typeof flat === 'number' ? flat : null;

/** Gorgias ticket JSON → unified ticket. */
export function unifyTicket(t: GgTicket, ids: IdOf): UnifiedRecord {
  const snoozed = nonEmpty(t.snooze_datetime) !== null;
  const status = snoozed ? 'ON_HOLD' : t.status ? (STATUS_TO_UNIFIED[t.status] ?? null) : null;
  const priority = t.priority ? (PRIORITY_TO_UNIFIED[t.priority] ?? null) : null;
  const assignee = idOf(t.assignee_user, t.assignee_user_id);
  const customer = idOf(t.customer, t.customer_id);
  const data = {
    name: t.subject ?? null,
    status,
    description: descriptionOf(t),
    due_date: null,
    type: nonEmpty(t.channel),
    parent_ticket: null,
    project_id: null,
    tags: Array.isArray(t.tags) ? t.tags.map((x) => x?.name).filter((n): n is string => typeof n === 'string') : [],
    completed_at: t.status === 'closed' ? toIso(t.closed_datetime) : null,
    priority,
    assigned_to: assignee !== null ? [ids('ticketing.user', assignee)!] : [],
    account_id: null,
    contact_id: ids('ticketing.contact', customer),
  } satisfies TicketFields;
  return {
    objectType: 'ticketing.ticket',
    remoteId: String(t.id),
    data,
    remoteData: asRecord(t),
    remoteCreatedAt: toDate(t.created_datetime),
    remoteUpdatedAt: toDate(t.updated_datetime) ?? toDate(t.created_datetime),
    ...(nonEmpty(t.trashed_datetime) ? { deleted: true } : {}),
  };
}

export interface DesunifiedTicket {
  /** Body of POST /api/tickets (with `messages`) or PUT /api/tickets/{id} (without). */
  body: GgTicketBody;
  /** Custom field values (written with the ticket on create, through /custom-fields on update). */
  customFields: Array<{ id: number; value: unknown }>;
  /** Update only: comment bodies to add as messages. */
  laterComments: string[];
}

/** Who the messages of a new ticket come from (the connection's user, or the ticket's contact). */
export interface MessageAuthors {
  /** Sender of agent messages: a user id, or the email of the connection's user. */
  agent: { id?: number; email?: string };
}

function mapStatus(status: string): string {
  const upper = status.toUpperCase() as TicketStatus;
  const mapped = STATUS_TO_GORGIAS[upper];
  if (mapped) return mapped;
  if (upper === 'IN_PROGRESS' || upper === 'ON_HOLD') {
    throw unsupported('status', `Gorgias tickets are open or closed; ${upper} cannot be written (snoozing needs a wake-up time)`, { allowed: ['OPEN', 'CLOSED'] });
  }
  throw new AppError('validation_failed', 'status must be one of OPEN, IN_PROGRESS, ON_HOLD, CLOSED', { field: 'status' });
}

function mapPriority(priority: string): string {
  const mapped = PRIORITY_TO_GORGIAS[priority.toUpperCase() as TicketPriority];
  if (!mapped) throw new AppError('validation_failed', `priority must be one of ${TICKET_PRIORITIES.join(', ')}`, { field: 'priority', allowed: [...TICKET_PRIORITIES] });
  return mapped;
}

function mapChannel(type: string): string {
  const channel = type.trim().toLowerCase();
  if (!(GORGIAS_CHANNELS as readonly string[]).includes(channel)) {
    throw unsupported('type', `the ticket type is the Gorgias channel, one of ${GORGIAS_CHANNELS.join(', ')}; got ${JSON.stringify(type)}`, {
      allowed: [...GORGIAS_CHANNELS],
    });
  }
  return channel;
}

/** A public message on the api channel, from an agent or from the ticket's customer. */
export function apiMessage(text: string, from: { agent: true; sender: { id?: number; email?: string }; receiver?: number } | { agent: false; customer: number }): GgMessageBody {
  const body: GgMessageBody = { channel: DEFAULT_CHANNEL, via: 'api', from_agent: from.agent, public: true, body_text: text, body_html: textToHtml(text) };
  if (from.agent) {
    body.sender = from.sender;
    if (from.receiver !== undefined) body.receiver = { id: from.receiver };
  } else {
    body.sender = { id: from.customer };
  }
  return body;
}

/**
 * Unified ticket write → Gorgias body. On create the first message is the description (paragraphs
 * joined by blank lines) — from the contact when there is one (an incoming request), else from the
 * connection's user — followed by one agent message per `comment`. Fields Gorgias cannot take are
 * refused with `unsupported_by_provider`.
 */
export function desunifyTicket(input: TicketWrite, mode: 'create' | 'update', authors?: MessageAuthors): DesunifiedTicket {
  if (input.project_id !== undefined) throw unsupported('project_id', 'Gorgias has no collections (projects); leave project_id out');
  if (input.account_id !== undefined) throw unsupported('account_id', 'Gorgias has no accounts (organizations); leave account_id out');
  if (input.parent_ticket !== undefined) throw unsupported('parent_ticket', 'Gorgias tickets have no parent ticket');
  if (input.due_date !== undefined) throw unsupported('due_date', 'Gorgias tickets have no due date');
  if (input.completed_at !== undefined) throw unsupported('completed_at', 'Gorgias records the closing time itself; set status CLOSED instead');

  const body: GgTicketBody = {};
  if (input.name !== undefined) body.subject = input.name;
  if (input.status !== undefined) body.status = mapStatus(input.status);
  if (input.priority !== undefined) body.priority = mapPriority(input.priority);
  if (input.type !== undefined) body.channel = mapChannel(input.type);
  if (input.tags !== undefined) body.tags = [...new Set(input.tags)].map((name) => ({ name }));
  if (input.assigned_to !== undefined) {
    if (input.assigned_to.length > 1) throw unsupported('assigned_to', 'a Gorgias ticket has one assignee user; give at most one user');
    const a = input.assigned_to[0];
    body.assignee_user = a === undefined ? null : { id: ggId(a, 'assigned_to') };
  }
  const customer = input.contact_id !== undefined ? ggId(input.contact_id, 'contact_id') : undefined;
  if (customer !== undefined) body.customer = { id: customer };
  const customFields = (input.customFields ?? []).map((f) => ({ id: ggId(f.remoteFieldId, 'field_mappings'), value: f.value ?? null }));

  const comments = (input.comment ?? []).filter((c) => c.trim() !== '');
  if (mode === 'update') {
    if (input.description !== undefined) {
      throw unsupported('description', 'the description of a Gorgias ticket is its first message and cannot be changed; add a comment instead');
    }
    return { body, customFields, laterComments: comments };
  }

  const description = (input.description ?? []).filter((p) => p.trim() !== '');
  const first = description.length > 0 ? description.join('\n\n') : comments.shift();
  // Gorgias refuses a ticket without a message; say so before calling it.
  if (first === undefined) {
    throw new AppError('validation_failed', 'description: a Gorgias ticket needs a description (or a first comment), its first message', {
      field: 'description',
      provider: PROVIDER,
    });
  }
  const agent = authors?.agent ?? {};
  body.channel ??= DEFAULT_CHANNEL;
  body.via = 'api';
  body.from_agent = customer === undefined;
  body.messages = [
    customer !== undefined ? apiMessage(first, { agent: false, customer }) : apiMessage(first, { agent: true, sender: agent }),
    ...comments.map((c) => apiMessage(c, { agent: true, sender: agent, receiver: customer })),
  ];
  if (customFields.length) body.custom_fields = customFields;
  return { body, customFields, laterComments: [] };
}
