/**
 * In-memory Gorgias account: users, teams, customers, tags, ticket custom fields, tickets, messages and
 * uploaded files, with the rules the simulator enforces (what Gorgias refuses is a GorgiasError carrying
 * the status and the `{error: {msg, data}}` body fields).
 */
import { createHash } from 'node:crypto';
import type { SimClock } from '../shared/http-kit';

export class GorgiasError extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(msg);
  }
}

/** 400 "Invalid data" with field errors in the marshmallow style Gorgias answers: `{field: ["…"]}`. */
export const invalid = (field: string, message: string) => new GorgiasError(400, 'Invalid data', nested(field.split('.'), [message]));

function nested(path: string[], leaf: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  return { [head!]: rest.length ? nested(rest, leaf) : leaf };
}

export const notFound = (what: string) => new GorgiasError(404, `${what} not found`);

export type RoleName = 'admin' | 'agent' | 'basic-agent' | 'bot' | 'internal-agent' | 'lite-agent' | 'observer-agent';

export interface SimUser {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  role: RoleName;
  active: boolean;
  bio: string | null;
  created: number;
  updated: number;
  deactivated: number | null;
}

export interface SimTeam {
  id: number;
  name: string;
  description: string | null;
  memberIds: number[];
  emoji: string | null;
  created: number;
}

export interface SimChannel {
  id: number;
  type: string;
  address: string;
  preferred: boolean;
}

export interface SimCustomer {
  id: number;
  email: string | null;
  firstname: string;
  lastname: string;
  name: string | null;
  channels: SimChannel[];
  note: string | null;
  externalId: string | null;
  language: string | null;
  timezone: string | null;
  created: number;
  updated: number;
}

export interface SimTag {
  id: number;
  name: string;
  description: string | null;
  color: string | null;
  created: number;
  deleted: number | null;
}

export type FieldDataType = 'text' | 'number' | 'boolean';

export interface SimCustomField {
  id: number;
  objectType: 'Ticket' | 'Customer';
  label: string;
  description: string | null;
  dataType: FieldDataType;
  priority: number;
  created: number;
  deactivated: number | null;
}

export interface SimFieldValue {
  /** Id of the value record (what `/tickets/{id}/custom-fields/{id}` addresses). */
  id: number;
  value: unknown;
}

export interface SimTicket {
  id: number;
  subject: string | null;
  status: 'open' | 'closed';
  priority: 'critical' | 'high' | 'normal' | 'low';
  channel: string;
  via: string;
  fromAgent: boolean | null;
  spam: boolean;
  customerId: number | null;
  assigneeUserId: number | null;
  assigneeTeamId: number | null;
  tagIds: number[];
  /** Custom field id → value. */
  fields: Map<number, SimFieldValue>;
  externalId: string | null;
  language: string | null;
  meta: Record<string, unknown> | null;
  created: number;
  updated: number;
  opened: number | null;
  closed: number | null;
  snooze: number | null;
  trashed: number | null;
  lastMessage: number | null;
  lastReceivedMessage: number | null;
}

export interface PersonRef {
  kind: 'user' | 'customer';
  id: number;
}

export interface SimAttachment {
  url: string;
  name: string;
  size: number | null;
  contentType: string | null;
  public: boolean | null;
}

export interface SimMessage {
  id: number;
  ticketId: number;
  public: boolean;
  channel: string;
  via: string;
  fromAgent: boolean;
  sender: PersonRef | null;
  receiver: PersonRef | null;
  subject: string | null;
  bodyText: string | null;
  bodyHtml: string | null;
  attachments: SimAttachment[];
  externalId: string | null;
  created: number;
  sent: number | null;
  deleted: number | null;
}

export interface SimFile {
  hash: string;
  name: string;
  contentType: string;
  content: Buffer;
  type: string;
}

export class GorgiasState {
  readonly users = new Map<number, SimUser>();
  readonly teams = new Map<number, SimTeam>();
  readonly customers = new Map<number, SimCustomer>();
  readonly tags = new Map<number, SimTag>();
  readonly customFields = new Map<number, SimCustomField>();
  readonly tickets = new Map<number, SimTicket>();
  readonly messages = new Map<number, SimMessage>();
  readonly files = new Map<string, SimFile>();
  /** Messages by ticket id (tickets render their messages on every read). */
  private readonly byTicket = new Map<number, SimMessage[]>();
  /** The account's domain hash in file URLs. */
  readonly domainHash: string;
  private seq = { user: 1, team: 1, customer: 1, channel: 1, tag: 1, field: 1, value: 1, ticket: 1, message: 1 };
  private last = 0;

  constructor(
    private readonly clock: SimClock,
    account = 'acme',
  ) {
    this.domainHash = createHash('sha256').update(account).digest('hex').slice(0, 12);
  }

  /**
   * Strictly increasing time in ms, stepping by a microsecond when the clock has not moved (Gorgias
   * datetimes have microseconds), so that timestamps order records without running ahead of the clock.
   */
  now(): number {
    const t = Math.max(this.clock.now(), this.last + 0.001);
    this.last = t;
    return t;
  }

  // ------------------------------------------------------------------ directory

  addUser(input: { email: string; firstname: string; lastname: string; role?: RoleName; active?: boolean; bio?: string }): SimUser {
    const t = this.now();
    const u: SimUser = {
      id: this.seq.user++,
      email: input.email,
      firstname: input.firstname,
      lastname: input.lastname,
      role: input.role ?? 'agent',
      active: input.active ?? true,
      bio: input.bio ?? null,
      created: t,
      updated: t,
      deactivated: input.active === false ? t : null,
    };
    this.users.set(u.id, u);
    return u;
  }

  addTeam(name: string, memberIds: number[], o: { description?: string; emoji?: string } = {}): SimTeam {
    const team: SimTeam = { id: this.seq.team++, name, description: o.description ?? null, memberIds: [...memberIds], emoji: o.emoji ?? null, created: this.now() };
    this.teams.set(team.id, team);
    return team;
  }

  addCustomer(input: { email?: string | null; firstname?: string; lastname?: string; name?: string; phone?: string; note?: string; externalId?: string }): SimCustomer {
    const t = this.now();
    const channels: SimChannel[] = [];
    if (input.email) channels.push({ id: this.seq.channel++, type: 'email', address: input.email, preferred: true });
    if (input.phone) channels.push({ id: this.seq.channel++, type: 'phone', address: input.phone, preferred: true });
    const firstname = input.firstname ?? '';
    const lastname = input.lastname ?? '';
    const c: SimCustomer = {
      id: this.seq.customer++,
      email: input.email ?? null,
      firstname,
      lastname,
      name: input.name ?? ([firstname, lastname].filter(Boolean).join(' ') || input.email || null),
      channels,
      note: input.note ?? null,
      externalId: input.externalId ?? null,
      language: null,
      timezone: null,
      created: t,
      updated: t,
    };
    this.customers.set(c.id, c);
    return c;
  }

  customerByEmail(email: string): SimCustomer | undefined {
    const e = email.toLowerCase();
    return [...this.customers.values()].find((c) => c.email?.toLowerCase() === e || c.channels.some((ch) => ch.type === 'email' && ch.address.toLowerCase() === e));
  }

  userByEmail(email: string): SimUser | undefined {
    const e = email.toLowerCase();
    return [...this.users.values()].find((u) => u.email.toLowerCase() === e);
  }

  addTag(name: string, o: { description?: string; color?: string } = {}): SimTag {
    const tag: SimTag = { id: this.seq.tag++, name, description: o.description ?? null, color: o.color ?? null, created: this.now(), deleted: null };
    this.tags.set(tag.id, tag);
    return tag;
  }

  /** Tag names are case-sensitive; an unknown name creates the tag, as Gorgias does. */
  tagByName(name: string, create = true): SimTag | undefined {
    const hit = [...this.tags.values()].find((t) => t.name === name && t.deleted === null);
    return hit ?? (create ? this.addTag(name) : undefined);
  }

  usage(tagId: number): number {
    return [...this.tickets.values()].filter((t) => t.tagIds.includes(tagId)).length;
  }

  addCustomField(objectType: 'Ticket' | 'Customer', label: string, dataType: FieldDataType, o: { description?: string; deactivated?: boolean } = {}): SimCustomField {
    const t = this.now();
    const f: SimCustomField = {
      id: this.seq.field++,
      objectType,
      label,
      description: o.description ?? null,
      dataType,
      priority: this.customFields.size + 1,
      created: t,
      deactivated: o.deactivated ? t : null,
    };
    this.customFields.set(f.id, f);
    return f;
  }

  // ------------------------------------------------------------------ references

  user(id: number, field: string): SimUser {
    const u = this.users.get(id);
    if (!u) throw invalid(field, `User ${id} does not exist.`);
    return u;
  }

  customer(id: number, field: string): SimCustomer {
    const c = this.customers.get(id);
    if (!c) throw invalid(field, `Customer ${id} does not exist.`);
    return c;
  }

  /** A person given as `{id}` or `{email}`: a user when `agent`, else a customer (created from a new email). */
  person(ref: { id?: unknown; email?: unknown } | null | undefined, agent: boolean, field: string): PersonRef {
    if (!ref || (ref.id == null && ref.email == null)) throw invalid(field, 'Missing data for required field.');
    if (agent) {
      const u = typeof ref.id === 'number' ? this.users.get(ref.id) : typeof ref.email === 'string' ? this.userByEmail(ref.email) : undefined;
      if (!u) throw invalid(field, `No user matches ${JSON.stringify(ref.id ?? ref.email)}: an agent message is sent by a user.`);
      return { kind: 'user', id: u.id };
    }
    if (typeof ref.id === 'number') return { kind: 'customer', id: this.customer(ref.id, field).id };
    const email = String(ref.email);
    return { kind: 'customer', id: (this.customerByEmail(email) ?? this.addCustomer({ email })).id };
  }

  ticket(id: number): SimTicket {
    const t = this.tickets.get(id);
    if (!t) throw notFound('Ticket');
    return t;
  }

  // ------------------------------------------------------------------ tickets and messages

  setCustomFields(t: SimTicket, values: Array<{ id: number; value: unknown }>, path: string, replace: boolean): void {
    const checked = values.map((v, i) => {
      const f = this.customFields.get(v.id);
      if (!f || f.objectType !== 'Ticket') throw invalid(`${path}.${i}.id`, `Custom field ${v.id} does not exist.`);
      if (f.deactivated !== null) throw invalid(`${path}.${i}.id`, `Custom field ${v.id} is archived.`);
      const ok =
        v.value === null ||
        (f.dataType === 'text' && typeof v.value === 'string') ||
        (f.dataType === 'number' && typeof v.value === 'number') ||
        (f.dataType === 'boolean' && typeof v.value === 'boolean');
      if (!ok) throw invalid(`${path}.${i}.value`, `Not a valid ${f.dataType} value.`);
      return { f, value: v.value };
    });
    if (replace) t.fields.clear();
    for (const { f, value } of checked) {
      if (value === null) t.fields.delete(f.id);
      else t.fields.set(f.id, { id: t.fields.get(f.id)?.id ?? this.seq.value++, value });
    }
  }

  createTicket(input: {
    subject: string | null;
    status: SimTicket['status'];
    priority: SimTicket['priority'];
    channel: string;
    via: string;
    fromAgent: boolean | null;
    customerId: number | null;
    assigneeUserId: number | null;
    assigneeTeamId: number | null;
    tagNames: string[];
    fields: Array<{ id: number; value: unknown }>;
    externalId: string | null;
    spam: boolean;
  }): SimTicket {
    const t = this.now();
    const ticket: SimTicket = {
      id: this.seq.ticket++,
      subject: input.subject,
      status: input.status,
      priority: input.priority,
      channel: input.channel,
      via: input.via,
      fromAgent: input.fromAgent,
      spam: input.spam,
      customerId: input.customerId,
      assigneeUserId: input.assigneeUserId,
      assigneeTeamId: input.assigneeTeamId,
      tagIds: [],
      fields: new Map(),
      externalId: input.externalId,
      language: null,
      meta: null,
      created: t,
      updated: t,
      opened: null,
      closed: input.status === 'closed' ? t : null,
      snooze: null,
      trashed: null,
      lastMessage: null,
      lastReceivedMessage: null,
    };
    this.setCustomFields(ticket, input.fields, 'custom_fields', true);
    ticket.tagIds = [...new Set(input.tagNames.map((n) => this.tagByName(n)!.id))];
    this.tickets.set(ticket.id, ticket);
    this.changed('ticket-created', ticket);
    return ticket;
  }

  /** Called with every ticket change (the HTTP integrations of test/simulators/gorgias/hooks.ts). */
  readonly listeners: ((trigger: 'ticket-created' | 'ticket-updated' | 'ticket-message-created', ticket: SimTicket) => void)[] = [];

  private changed(trigger: 'ticket-created' | 'ticket-updated' | 'ticket-message-created', ticket: SimTicket): void {
    for (const listener of this.listeners) listener(trigger, ticket);
  }

  /** Something changed on the ticket: bump `updated_datetime` (what incremental sync orders by). */
  touch(t: SimTicket): void {
    t.updated = this.now();
    this.changed('ticket-updated', t);
  }

  setStatus(t: SimTicket, status: SimTicket['status']): void {
    if (t.status === status) return;
    t.status = status;
    t.closed = status === 'closed' ? this.now() : null;
    if (status === 'open') t.snooze = null;
  }

  setTags(t: SimTicket, names: string[]): void {
    t.tagIds = [...new Set(names.map((n) => this.tagByName(n)!.id))];
  }

  addMessage(ticket: SimTicket, input: Omit<SimMessage, 'id' | 'ticketId' | 'created' | 'deleted'> & { created?: number }): SimMessage {
    const created = input.created ?? this.now();
    const m: SimMessage = { ...input, id: this.seq.message++, ticketId: ticket.id, created, deleted: null };
    this.messages.set(m.id, m);
    const list = this.byTicket.get(ticket.id) ?? [];
    list.push(m);
    this.byTicket.set(ticket.id, list);
    if (m.public) ticket.lastMessage = created;
    this.changed('ticket-message-created', ticket);
    if (!m.fromAgent) {
      ticket.lastReceivedMessage = created;
      // A customer writing again re-opens a closed or snoozed ticket.
      if (ticket.status === 'closed' || ticket.snooze !== null) this.setStatus(ticket, 'open');
      ticket.snooze = null;
    }
    this.touch(ticket);
    return m;
  }

  messagesOf(ticketId: number): SimMessage[] {
    return [...(this.byTicket.get(ticketId) ?? [])].sort((a, b) => a.created - b.created || a.id - b.id);
  }

  trash(t: SimTicket): void {
    t.trashed = this.now();
    this.touch(t);
  }

  /** Deleted for good (`DELETE /api/tickets/{id}`): the ticket and its messages disappear. */
  deleteTicket(id: number): void {
    this.ticket(id);
    this.tickets.delete(id);
    for (const m of this.byTicket.get(id) ?? []) this.messages.delete(m.id);
    this.byTicket.delete(id);
  }

  addFile(input: { name: string; contentType: string; content: Buffer; type: string }): SimFile {
    const hash = createHash('sha256').update(input.content).update(input.name).update(String(this.files.size)).digest('hex').slice(0, 24);
    const f: SimFile = { hash, ...input };
    this.files.set(hash, f);
    return f;
  }
}
