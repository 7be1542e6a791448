/**
 * In-memory Zendesk account: records, default seed data, and the ticket write model
 * (validation, defaults, audits) shared by the HTTP handlers and the test helpers.
 * Timestamps are epoch milliseconds here; serialize.ts renders Zendesk JSON.
 */
import { randomBytes } from 'node:crypto';
import { ChangeFeed } from './feed';

export type Role = 'admin' | 'agent' | 'end-user';
export type TicketStatus = 'new' | 'open' | 'pending' | 'hold' | 'solved' | 'closed';
export const TICKET_STATUSES: readonly TicketStatus[] = ['new', 'open', 'pending', 'hold', 'solved', 'closed'];
export const TICKET_PRIORITIES = ['urgent', 'high', 'normal', 'low'] as const;
export const TICKET_TYPES = ['problem', 'incident', 'question', 'task'] as const;

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: Role;
  active: boolean;
  verified: boolean;
  suspended: boolean;
  organization_id: number | null;
  default_group_id: number | null;
  external_id: string | null;
  phone: string | null;
  time_zone: string;
  iana_time_zone: string;
  locale: string;
  locale_id: number;
  tags: string[];
  user_fields: Record<string, unknown>;
  notes: string;
  details: string;
  created_at: number;
  updated_at: number;
}

export interface OrganizationRecord {
  id: number;
  name: string;
  domain_names: string[];
  external_id: string | null;
  group_id: number | null;
  details: string;
  notes: string;
  shared_tickets: boolean;
  shared_comments: boolean;
  tags: string[];
  organization_fields: Record<string, unknown>;
  created_at: number;
  updated_at: number;
}

export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  default: boolean;
  deleted: boolean;
  is_public: boolean;
  created_at: number;
  updated_at: number;
}

export interface FieldOption {
  id: number;
  name: string;
  value: string;
  default?: boolean;
}

export interface TicketFieldRecord {
  id: number;
  /** System: subject, description, status, tickettype, priority, group, assignee. Custom: text, textarea, checkbox, date, integer, decimal, regexp, tagger, multiselect. */
  type: string;
  title: string;
  description: string;
  active: boolean;
  required: boolean;
  removable: boolean;
  position: number;
  tag: string | null;
  regexp_for_validation: string | null;
  custom_field_options?: FieldOption[];
  system_field_options?: Array<{ name: string; value: string }>;
  created_at: number;
  updated_at: number;
}

export interface CustomFieldRecord {
  id: number;
  key: string;
  type: string;
  title: string;
  description: string;
  active: boolean;
  position: number;
  regexp_for_validation: string | null;
  custom_field_options?: FieldOption[];
  created_at: number;
  updated_at: number;
}

export interface AttachmentRecord {
  id: number;
  /** Token in the content URL (distinct from the upload token). */
  contentToken: string;
  uploadToken: string;
  file_name: string;
  content_type: string;
  size: number;
  data: Buffer;
  commentId: number | null;
  created_at: number;
}

export interface UploadRecord {
  token: string;
  attachmentIds: number[];
  expires_at: number;
  consumed: boolean;
}

export interface CommentRecord {
  id: number;
  ticket_id: number;
  author_id: number;
  body: string;
  html_body: string;
  plain_body: string;
  public: boolean;
  attachmentIds: number[];
  audit_id: number;
  channel: string;
  created_at: number;
}

export interface TicketRecord {
  id: number;
  external_id: string | null;
  subject: string;
  description: string;
  status: TicketStatus;
  /** Soft-deleted: 404 on reads, `status: "deleted"` in incremental exports. */
  deleted: boolean;
  priority: string | null;
  type: string | null;
  requester_id: number;
  submitter_id: number;
  assignee_id: number | null;
  organization_id: number | null;
  group_id: number | null;
  collaborator_ids: number[];
  follower_ids: number[];
  email_cc_ids: number[];
  tags: string[];
  /** Custom field values by field id (unset fields are rendered as null). */
  custom_fields: Map<number, unknown>;
  due_at: number | null;
  problem_id: number | null;
  channel: string;
  comments: CommentRecord[];
  created_at: number;
  updated_at: number;
  /** When and by whom it was soft-deleted (GET /api/v2/deleted_tickets). */
  deleted_at?: number | null;
  deleted_by?: number | null;
}

export interface AuditEvent {
  id: number;
  type: string;
  [k: string]: unknown;
}

export interface AuditRecord {
  id: number;
  ticket_id: number;
  author_id: number;
  created_at: number;
  channel: string;
  events: AuditEvent[];
}

/** The values a seeded ticket was created with (its creation audit's `Create` events, ids from `firstId`). */
interface SeededCreation {
  values: Pick<TicketRecord, 'subject' | 'status' | 'priority' | 'type' | 'requester_id' | 'assignee_id' | 'group_id' | 'organization_id' | 'tags'> & {
    custom: Array<[number, unknown]>;
  };
  firstId: number;
}

/**
 * The audit of a seeded ticket (its creation, or one of its later comments): its child events are
 * built on first read, so that seeding tens of thousands of tickets stays fast.
 */
class SeededAudit implements AuditRecord {
  readonly id: number;
  readonly ticket_id: number;
  readonly author_id: number;
  created_at: number;
  readonly channel: string;
  private built: AuditEvent[] | undefined;
  constructor(
    private readonly state: ZendeskState,
    private readonly comment: CommentRecord,
    private readonly creation: SeededCreation | null,
  ) {
    this.id = comment.audit_id;
    this.ticket_id = comment.ticket_id;
    this.author_id = comment.author_id;
    this.created_at = comment.created_at;
    this.channel = comment.channel;
  }
  get events(): AuditEvent[] {
    if (!this.built) {
      this.built = [this.state.commentEvent(this.comment)];
      if (this.creation) this.built.push(...this.state.createEvents(this.creation.values, this.creation.firstId));
    }
    return this.built;
  }
  set events(v: AuditEvent[]) {
    this.built = v;
  }
}

export interface JobRecord {
  id: string;
  status: 'queued' | 'working' | 'completed' | 'failed';
  total: number;
  progress: number | null;
  message: string | null;
  results: Array<Record<string, unknown>> | null;
  created_at: number;
}

/** A Zendesk validation failure: 422 RecordInvalid with these details. */
export class RecordInvalid extends Error {
  constructor(public readonly details: Record<string, Array<Record<string, unknown>>>) {
    super(
      `RecordInvalid: ${Object.values(details)
        .flat()
        .map((d) => d.description)
        .join('; ')}`,
    );
  }
}

/** 404 RecordNotFound. */
export class RecordNotFound extends Error {
  constructor(what = 'record') {
    super(`RecordNotFound: ${what}`);
  }
}

/** Safe-update conflict (409 UpdateConflict). */
export class UpdateConflict extends Error {}

/** Ticket create/update payload, as in `{"ticket": {...}}`. */
export interface TicketInput {
  subject?: string | null;
  raw_subject?: string | null;
  description?: string | null;
  /** A comment object, or (as Zendesk also accepts) a plain string body. */
  comment?: CommentInput | string | null;
  priority?: string | null;
  type?: string | null;
  status?: string | null;
  requester_id?: number | null;
  requester?: { name?: string; email?: string; locale_id?: number } | null;
  submitter_id?: number | null;
  assignee_id?: number | null;
  group_id?: number | null;
  organization_id?: number | null;
  tags?: string[] | string | null;
  additional_tags?: string[] | string | null;
  remove_tags?: string[] | string | null;
  custom_fields?: Array<{ id: number; value: unknown }> | null;
  fields?: Array<{ id: number; value: unknown }> | null;
  external_id?: string | number | null;
  due_at?: string | null;
  problem_id?: number | null;
  collaborator_ids?: number[] | null;
  follower_ids?: number[] | null;
  email_cc_ids?: number[] | null;
  safe_update?: boolean;
  updated_stamp?: string;
  [k: string]: unknown;
}

export interface CommentInput {
  body?: string | null;
  html_body?: string | null;
  public?: boolean | null;
  author_id?: number | null;
  uploads?: string[] | null;
  [k: string]: unknown;
}

const ID_BASE = {
  user: 10_000_000,
  organization: 20_000_000,
  group: 30_000_000,
  ticketField: 40_000_000,
  userField: 41_000_000,
  organizationField: 42_000_000,
  fieldOption: 43_000_000,
  event: 60_000_000,
  attachment: 70_000_000,
};

// ---------------------------------------------------------------------------
// text helpers

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function decodeEntities(s: string): string {
  return s
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

/** Zendesk renders plain-text comments as `<div class="zd-comment" dir="auto"><p dir="auto">...</p></div>`. */
export function textToHtml(text: string): string {
  const paragraphs = text
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}/)
    .map((p) => `<p dir="auto">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
  return `<div class="zd-comment" dir="auto">${paragraphs}</div>`;
}

export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|li|h[1-6]|tr|blockquote)>/gi, '\n\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function normalizeTags(input: unknown): string[] {
  const raw = Array.isArray(input) ? input : typeof input === 'string' ? [input] : [];
  const out: string[] = [];
  for (const t of raw) {
    if (t === null || t === undefined) continue;
    for (const part of String(t).split(/[\s,]+/)) {
      const tag = part.trim().toLowerCase();
      if (tag && !out.includes(tag)) out.push(tag);
    }
  }
  return out;
}

function randomToken(len: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = randomBytes(len);
  let s = '';
  for (let i = 0; i < len; i++) s += alphabet[(bytes[i] as number) % alphabet.length];
  return s;
}

/** Small deterministic PRNG (mulberry32) for reproducible seed data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MIME_BY_EXT: Record<string, string> = {
  txt: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function guessContentType(fileName: string, header: string | undefined): string {
  const h = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (h && h !== 'application/binary' && h !== 'application/octet-stream' && h !== 'application/x-www-form-urlencoded') return h;
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return (ext && MIME_BY_EXT[ext]) || 'application/octet-stream';
}

// ---------------------------------------------------------------------------

export interface StateOptions {
  now?: () => number;
  credentials: Array<{ email: string; apiToken: string }>;
  seedDefaults: boolean;
}

export class ZendeskState {
  readonly users = new Map<number, UserRecord>();
  readonly organizations = new Map<number, OrganizationRecord>();
  readonly groups = new Map<number, GroupRecord>();
  readonly ticketFields = new Map<number, TicketFieldRecord>();
  readonly userFields = new Map<number, CustomFieldRecord>();
  readonly organizationFields = new Map<number, CustomFieldRecord>();
  /** Tickets by id, in id (= insertion) order; soft-deleted ones stay with `deleted: true`. */
  readonly tickets = new Map<number, TicketRecord>();
  readonly audits = new Map<number, AuditRecord[]>();
  /**
   * Every ticket audit with a comment or a field change, by audit id, in time order along
   * `ticketEventFeed`: what GET /api/v2/incremental/ticket_events lists (seeded tickets included).
   */
  readonly ticketEvents = new Map<number, AuditRecord>();
  readonly ticketEventFeed = new ChangeFeed({ appendOnly: true });
  readonly uploads = new Map<string, UploadRecord>();
  readonly attachments = new Map<number, AttachmentRecord>();
  readonly attachmentsByContentToken = new Map<string, AttachmentRecord>();
  readonly jobs = new Map<string, JobRecord>();
  readonly ticketFeed = new ChangeFeed();
  readonly userFeed = new ChangeFeed();
  readonly organizationFeed = new ChangeFeed();
  /** Bumped on every ticket write (cache key for tag counts). */
  ticketVersion = 0;

  private seq = { ...ID_BASE, ticket: 0 };
  private lastNow = 0;
  private readonly clock: () => number;

  constructor(opts: StateOptions) {
    this.clock = opts.now ?? Date.now;
    if (opts.seedDefaults) this.seedDefaults();
    for (const c of opts.credentials) {
      if (!this.findUserByEmail(c.email)) this.addUser({ email: c.email, name: c.email.split('@')[0] ?? c.email, role: 'admin' });
    }
  }

  /** Monotonic clock (ms). */
  now(): number {
    this.lastNow = Math.max(this.clock(), this.lastNow);
    return this.lastNow;
  }

  nextId(kind: keyof typeof ID_BASE | 'ticket'): number {
    return ++this.seq[kind];
  }

  /** Every id handed out from now on is at least `base` (the sandbox's per-start ids, src/sandbox/ids.ts). */
  startIdsFrom(base: number): void {
    for (const kind of Object.keys(this.seq) as (keyof typeof this.seq)[]) this.seq[kind] = Math.max(this.seq[kind], base - 1);
  }

  /** Next ticket id that will be assigned. */
  peekNextTicketId(): number {
    return this.seq.ticket + 1;
  }

  // -------------------------------------------------------------------------
  // users / organizations / groups

  findUserByEmail(email: string): UserRecord | undefined {
    const e = email.toLowerCase();
    for (const u of this.users.values()) if (u.email.toLowerCase() === e) return u;
    return undefined;
  }

  isAgent(id: number | null | undefined): boolean {
    const u = id == null ? undefined : this.users.get(id);
    return !!u && (u.role === 'agent' || u.role === 'admin') && u.active;
  }

  agents(): UserRecord[] {
    return [...this.users.values()].filter((u) => u.role !== 'end-user');
  }

  endUsers(): UserRecord[] {
    return [...this.users.values()].filter((u) => u.role === 'end-user');
  }

  addUser(input: Partial<UserRecord> & { name: string; email: string }): UserRecord {
    const now = this.now();
    const id = input.id ?? this.nextId('user');
    const user: UserRecord = {
      role: 'end-user',
      active: true,
      verified: true,
      suspended: false,
      organization_id: null,
      default_group_id: null,
      external_id: null,
      phone: null,
      time_zone: 'UTC',
      iana_time_zone: 'Etc/UTC',
      locale: 'en-US',
      locale_id: 1,
      tags: [],
      user_fields: {},
      notes: '',
      details: '',
      created_at: now,
      updated_at: now,
      ...input,
      id,
    };
    if (user.role !== 'end-user' && user.default_group_id === null) {
      user.default_group_id = [...this.groups.values()].find((g) => g.default)?.id ?? null;
    }
    for (const f of this.userFields.values()) if (!(f.key in user.user_fields)) user.user_fields[f.key] = null;
    user.updated_at = this.userFeed.touch(id, user.updated_at);
    this.users.set(id, user);
    return user;
  }

  updateUser(id: number, patch: Partial<UserRecord>): UserRecord {
    const u = this.users.get(id);
    if (!u) throw new RecordNotFound(`user ${id}`);
    Object.assign(u, patch, { id });
    u.updated_at = this.userFeed.touch(id, this.now());
    return u;
  }

  addOrganization(input: Partial<OrganizationRecord> & { name: string }): OrganizationRecord {
    const now = this.now();
    const id = input.id ?? this.nextId('organization');
    const org: OrganizationRecord = {
      domain_names: [],
      external_id: null,
      group_id: null,
      details: '',
      notes: '',
      shared_tickets: false,
      shared_comments: false,
      tags: [],
      organization_fields: {},
      created_at: now,
      updated_at: now,
      ...input,
      id,
    };
    for (const f of this.organizationFields.values()) if (!(f.key in org.organization_fields)) org.organization_fields[f.key] = null;
    org.updated_at = this.organizationFeed.touch(id, org.updated_at);
    this.organizations.set(id, org);
    return org;
  }

  updateOrganization(id: number, patch: Partial<OrganizationRecord>): OrganizationRecord {
    const o = this.organizations.get(id);
    if (!o) throw new RecordNotFound(`organization ${id}`);
    Object.assign(o, patch, { id });
    o.updated_at = this.organizationFeed.touch(id, this.now());
    return o;
  }

  addGroup(input: Partial<GroupRecord> & { name: string }): GroupRecord {
    const now = this.now();
    const id = input.id ?? this.nextId('group');
    const g: GroupRecord = { description: '', default: false, deleted: false, is_public: true, created_at: now, updated_at: now, ...input, id };
    this.groups.set(id, g);
    return g;
  }

  addTicketField(input: Partial<TicketFieldRecord> & { type: string; title: string }): TicketFieldRecord {
    const now = this.now();
    const id = input.id ?? this.nextId('ticketField');
    const f: TicketFieldRecord = {
      description: '',
      active: true,
      required: false,
      removable: true,
      position: this.ticketFields.size + 1,
      tag: null,
      regexp_for_validation: null,
      created_at: now,
      updated_at: now,
      ...input,
      id,
    };
    if (f.custom_field_options) f.custom_field_options = f.custom_field_options.map((o) => ({ ...o, id: o.id || this.nextId('fieldOption') }));
    this.ticketFields.set(id, f);
    return f;
  }

  private addCustomField(
    map: Map<number, CustomFieldRecord>,
    kind: 'userField' | 'organizationField',
    input: Partial<CustomFieldRecord> & { key: string; type: string; title: string },
  ): CustomFieldRecord {
    const now = this.now();
    const id = input.id ?? this.nextId(kind);
    const f: CustomFieldRecord = { description: '', active: true, position: map.size + 1, regexp_for_validation: null, created_at: now, updated_at: now, ...input, id };
    if (f.custom_field_options) f.custom_field_options = f.custom_field_options.map((o) => ({ ...o, id: o.id || this.nextId('fieldOption') }));
    map.set(id, f);
    return f;
  }

  addUserField(input: Partial<CustomFieldRecord> & { key: string; type: string; title: string }): CustomFieldRecord {
    return this.addCustomField(this.userFields, 'userField', input);
  }

  addOrganizationField(input: Partial<CustomFieldRecord> & { key: string; type: string; title: string }): CustomFieldRecord {
    return this.addCustomField(this.organizationFields, 'organizationField', input);
  }

  /** Active custom ticket fields, in position order (the `custom_fields` array of every ticket). */
  customTicketFields(): TicketFieldRecord[] {
    return [...this.ticketFields.values()].filter((f) => f.removable).sort((a, b) => a.position - b.position);
  }

  get descriptionFieldId(): number {
    for (const f of this.ticketFields.values()) if (f.type === 'description') return f.id;
    return 0;
  }

  private seedDefaults(): void {
    const support = this.addGroup({ name: 'Support', description: 'Front-line support', default: true });
    const billing = this.addGroup({ name: 'Billing', description: 'Invoices and refunds' });
    this.addGroup({ name: 'Escalations', description: 'Tier 2', is_public: false });

    this.addUserField({ key: 'plan', type: 'dropdown', title: 'Plan', custom_field_options: [
      { id: 0, name: 'Free', value: 'plan_free' },
      { id: 0, name: 'Pro', value: 'plan_pro' },
      { id: 0, name: 'Enterprise', value: 'plan_enterprise' },
    ] });
    this.addUserField({ key: 'employee_id', type: 'text', title: 'Employee ID' });
    this.addOrganizationField({ key: 'tier', type: 'dropdown', title: 'Tier', custom_field_options: [
      { id: 0, name: 'Gold', value: 'tier_gold' },
      { id: 0, name: 'Silver', value: 'tier_silver' },
    ] });
    this.addOrganizationField({ key: 'account_manager', type: 'text', title: 'Account manager' });

    const acme = this.addOrganization({ name: 'Acme Corp', domain_names: ['acme.example'], tags: ['enterprise'], organization_fields: { tier: 'tier_gold', account_manager: 'Alex' } });
    const globex = this.addOrganization({ name: 'Globex', domain_names: ['globex.example'], organization_fields: { tier: 'tier_silver' } });

    this.addUser({ name: 'Alex Admin', email: 'agent@example.com', role: 'admin', default_group_id: support.id });
    this.addUser({ name: 'Sam Support', email: 'sam@example.com', role: 'agent', default_group_id: support.id });
    this.addUser({ name: 'Bea Billing', email: 'bea@example.com', role: 'agent', default_group_id: billing.id });
    this.addUser({ name: 'Casey Customer', email: 'casey@acme.example', organization_id: acme.id, user_fields: { plan: 'plan_pro' } });
    this.addUser({ name: 'Dana Doe', email: 'dana@globex.example', organization_id: globex.id, phone: '+15555550100' });
    this.addUser({ name: 'Eli End-User', email: 'eli@example.net', user_fields: { plan: 'plan_free' } });

    // System fields first (as the real List Ticket Fields returns them), then custom fields.
    this.addTicketField({ type: 'subject', title: 'Subject', removable: false, required: true });
    this.addTicketField({ type: 'description', title: 'Description', description: 'Please enter the details of your request.', removable: false, required: true });
    this.addTicketField({ type: 'status', title: 'Status', removable: false, system_field_options: TICKET_STATUSES.map((s) => ({ name: s[0]!.toUpperCase() + s.slice(1), value: s })) });
    this.addTicketField({ type: 'tickettype', title: 'Type', removable: false, system_field_options: TICKET_TYPES.map((s) => ({ name: s[0]!.toUpperCase() + s.slice(1), value: s })) });
    this.addTicketField({ type: 'priority', title: 'Priority', removable: false, system_field_options: TICKET_PRIORITIES.map((s) => ({ name: s[0]!.toUpperCase() + s.slice(1), value: s })) });
    this.addTicketField({ type: 'group', title: 'Group', removable: false });
    this.addTicketField({ type: 'assignee', title: 'Assignee', removable: false, required: true });
    this.addTicketField({ type: 'text', title: 'Order number', description: 'Order reference' });
    this.addTicketField({ type: 'tagger', title: 'Product', custom_field_options: [
      { id: 0, name: 'Widget', value: 'product_widget' },
      { id: 0, name: 'Gadget', value: 'product_gadget' },
      { id: 0, name: 'Gizmo', value: 'product_gizmo' },
    ] });
    this.addTicketField({ type: 'multiselect', title: 'Categories', custom_field_options: [
      { id: 0, name: 'Hardware', value: 'cat_hardware' },
      { id: 0, name: 'Software', value: 'cat_software' },
      { id: 0, name: 'Shipping', value: 'cat_shipping' },
    ] });
    this.addTicketField({ type: 'checkbox', title: 'VIP', tag: 'vip' });
    this.addTicketField({ type: 'decimal', title: 'Refund amount' });
    this.addTicketField({ type: 'date', title: 'Follow-up date' });
    this.addTicketField({ type: 'integer', title: 'Units affected', active: false });
  }

  // -------------------------------------------------------------------------
  // uploads

  addUpload(fileName: string, contentType: string, data: Buffer, token?: string): { upload: UploadRecord; attachment: AttachmentRecord } {
    const now = this.now();
    let upload = token ? this.uploads.get(token) : undefined;
    if (!upload || upload.consumed) {
      upload = { token: token && !this.uploads.has(token) ? token : randomToken(25), attachmentIds: [], expires_at: now + 3 * 24 * 3600_000, consumed: false };
      this.uploads.set(upload.token, upload);
    }
    const attachment: AttachmentRecord = {
      id: this.nextId('attachment'),
      contentToken: randomToken(25),
      uploadToken: upload.token,
      file_name: fileName,
      content_type: contentType,
      size: data.length,
      data,
      commentId: null,
      created_at: now,
    };
    upload.attachmentIds.push(attachment.id);
    this.attachments.set(attachment.id, attachment);
    this.attachmentsByContentToken.set(attachment.contentToken, attachment);
    return { upload, attachment };
  }

  deleteUpload(token: string): boolean {
    const u = this.uploads.get(token);
    if (!u || u.consumed) return false;
    for (const id of u.attachmentIds) {
      const a = this.attachments.get(id);
      if (a) this.attachmentsByContentToken.delete(a.contentToken);
      this.attachments.delete(id);
    }
    this.uploads.delete(token);
    return true;
  }

  // -------------------------------------------------------------------------
  // tickets

  liveTicket(id: number): TicketRecord {
    const t = this.tickets.get(id);
    if (!t || t.deleted) throw new RecordNotFound(`ticket ${id}`);
    return t;
  }

  private touchTicket(t: TicketRecord, ts: number): void {
    t.updated_at = this.ticketFeed.touch(t.id, ts);
    this.ticketVersion++;
    for (const listener of this.ticketListeners) listener(t);
  }

  /** Called on every ticket write (several times for one request: listeners coalesce). */
  readonly ticketListeners: ((t: TicketRecord) => void)[] = [];

  /** Validates the parts of a create/update payload that do not depend on the current ticket. */
  private validateInput(input: TicketInput, details: Record<string, Array<Record<string, unknown>>>): void {
    const add = (key: string, description: string, error = 'InvalidValue') => {
      (details[key] ??= []).push({ description, error });
    };
    const enumCheck = (key: 'priority' | 'type' | 'status', allowed: readonly string[], label: string) => {
      const v = input[key];
      if (v === undefined || v === null || v === '') return;
      if (typeof v !== 'string' || !allowed.includes(v)) add(key, `${label}: ${JSON.stringify(v)} is not a valid value`);
    };
    enumCheck('priority', TICKET_PRIORITIES, 'Priority');
    enumCheck('type', TICKET_TYPES, 'Type');
    enumCheck('status', TICKET_STATUSES, 'Status');
    if (input.assignee_id !== undefined && input.assignee_id !== null && !this.isAgent(Number(input.assignee_id))) {
      add('assignee', this.users.has(Number(input.assignee_id)) ? 'Assignee: is not an agent' : 'Assignee: is invalid');
    }
    if (input.requester_id !== undefined && input.requester_id !== null && !this.users.has(Number(input.requester_id))) {
      add('requester', 'Requester: is invalid');
    }
    if (input.requester && typeof input.requester === 'object' && input.requester_id == null) {
      const email = input.requester.email;
      if (!email && !input.requester.name) add('requester', 'Requester: Name:  is too short (minimum is 1 character)');
      else if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(email))) add('requester', `Requester: Email: ${String(email)} is not properly formatted`);
    }
    if (input.submitter_id !== undefined && input.submitter_id !== null && !this.users.has(Number(input.submitter_id))) {
      add('submitter', 'Submitter: is invalid');
    }
    if (input.organization_id !== undefined && input.organization_id !== null && !this.organizations.has(Number(input.organization_id))) {
      add('organization', 'Organization: is invalid');
    }
    if (input.group_id !== undefined && input.group_id !== null) {
      const g = this.groups.get(Number(input.group_id));
      if (!g || g.deleted) add('group', 'Group: is invalid');
    }
    if (input.due_at !== undefined && input.due_at !== null && Number.isNaN(Date.parse(String(input.due_at)))) {
      add('due_at', 'Due date: is invalid');
    }
    if (input.comment && typeof input.comment === 'object') {
      const a = input.comment.author_id;
      if (a !== undefined && a !== null && !this.users.has(Number(a))) add('author', 'Author: is invalid');
    } else if (input.comment !== undefined && input.comment !== null && typeof input.comment !== 'string') {
      add('comment', 'Comment: is invalid');
    }
    const cf = input.custom_fields ?? input.fields;
    if (cf !== undefined && cf !== null && !Array.isArray(cf)) add('custom_fields', 'Custom fields: must be an array of {id, value}');
  }

  private resolveRequester(input: TicketInput, acting: UserRecord): number {
    if (input.requester_id != null) return Number(input.requester_id);
    if (input.requester && typeof input.requester === 'object') {
      const email = input.requester.email ? String(input.requester.email) : undefined;
      const existing = email ? this.findUserByEmail(email) : undefined;
      if (existing) return existing.id;
      const name = input.requester.name || (email ? email.split('@')[0]! : 'Unknown');
      return this.addUser({ name, email: email ?? `${randomToken(8).toLowerCase()}@users.invalid`, role: 'end-user', locale_id: input.requester.locale_id ?? 1 }).id;
    }
    return acting.id;
  }

  private commentFromInput(input: TicketInput): { body?: string; html?: string; public?: boolean; author?: number; uploads: string[] } | undefined {
    const c = input.comment;
    if (typeof c === 'string') return c.trim() ? { body: c, uploads: [] } : undefined;
    if (c && typeof c === 'object') {
      const body = typeof c.body === 'string' && c.body.trim() ? c.body : undefined;
      const html = typeof c.html_body === 'string' && c.html_body.trim() ? c.html_body : undefined;
      const uploads = Array.isArray(c.uploads) ? c.uploads.map(String) : [];
      if (!body && !html && uploads.length === 0) return undefined;
      return {
        body,
        html,
        public: typeof c.public === 'boolean' ? c.public : undefined,
        author: c.author_id != null ? Number(c.author_id) : undefined,
        uploads,
      };
    }
    return undefined;
  }

  private makeComment(
    t: TicketRecord,
    c: { body?: string; html?: string; public?: boolean; author?: number; uploads: string[] },
    authorId: number,
    auditId: number,
    channel: string,
    at: number,
  ): CommentRecord {
    let body: string;
    let html: string;
    if (c.html !== undefined) {
      html = c.html.includes('zd-comment') ? c.html : `<div class="zd-comment" dir="auto">${c.html}</div>`;
      body = htmlToText(c.html);
    } else {
      body = c.body ?? '';
      html = textToHtml(body);
    }
    const comment: CommentRecord = {
      id: this.nextId('event'),
      ticket_id: t.id,
      author_id: authorId,
      body,
      html_body: html,
      plain_body: body,
      public: c.public ?? true,
      attachmentIds: [],
      audit_id: auditId,
      channel,
      created_at: at,
    };
    for (const token of c.uploads) {
      const u = this.uploads.get(token);
      if (!u || u.consumed) continue; // Zendesk ignores unknown/consumed tokens
      u.consumed = true;
      for (const id of u.attachmentIds) {
        const a = this.attachments.get(id);
        if (a) {
          a.commentId = comment.id;
          comment.attachmentIds.push(id);
        }
      }
    }
    return comment;
  }

  private applyCustomFields(t: TicketRecord, input: TicketInput, events: AuditEvent[] | null, kind: 'Create' | 'Change'): void {
    const cf = input.custom_fields ?? input.fields;
    if (!Array.isArray(cf)) return;
    for (const item of cf) {
      if (!item || typeof item !== 'object') continue;
      const id = Number((item as { id: unknown }).id);
      const field = this.ticketFields.get(id);
      if (!field || !field.removable) continue; // unknown ids are ignored, like Zendesk
      let value = (item as { value: unknown }).value ?? null;
      if (field.type === 'checkbox') value = value === true || value === 'true' || value === 1 || value === '1';
      else if (field.type === 'multiselect') value = value === null ? [] : normalizeTags(value);
      else if (value !== null && typeof value !== 'string') value = String(value);
      const prev = t.custom_fields.get(id) ?? null;
      if (JSON.stringify(prev) === JSON.stringify(value)) continue;
      t.custom_fields.set(id, value);
      events?.push({ id: this.nextId('event'), type: kind, field_name: String(id), value, ...(kind === 'Change' ? { previous_value: prev } : {}) });
    }
  }

  /** Creates a ticket the way POST /api/v2/tickets does. Throws RecordInvalid. */
  createTicket(input: TicketInput, acting: UserRecord, channel = 'api'): { ticket: TicketRecord; audit: AuditRecord } {
    const details: Record<string, Array<Record<string, unknown>>> = {};
    this.validateInput(input, details);
    const comment = this.commentFromInput(input) ?? (typeof input.description === 'string' && input.description.trim() ? { body: input.description, uploads: [] } : undefined);
    if (!comment) {
      (details.base ??= []).push({
        description: 'Description: cannot be blank',
        error: 'BlankValue',
        ticket_field_id: this.descriptionFieldId,
        ticket_field_type: 'FieldDescription',
      });
    }
    if (Object.keys(details).length) throw new RecordInvalid(details);

    const now = this.now();
    const requesterId = this.resolveRequester(input, acting);
    const requester = this.users.get(requesterId)!;
    const submitterId = input.submitter_id != null ? Number(input.submitter_id) : acting.id;
    const assigneeId = input.assignee_id != null ? Number(input.assignee_id) : null;
    let status = (input.status || (assigneeId ? 'open' : 'new')) as TicketStatus;
    if (status === 'new' && assigneeId) status = 'open';
    const id = this.nextId('ticket');
    const t: TicketRecord = {
      id,
      external_id: input.external_id != null ? String(input.external_id) : null,
      subject: String(input.subject ?? input.raw_subject ?? ''),
      description: '',
      status,
      deleted: false,
      priority: input.priority || null,
      type: input.type || null,
      requester_id: requesterId,
      submitter_id: submitterId,
      assignee_id: assigneeId,
      organization_id: input.organization_id != null ? Number(input.organization_id) : requester.organization_id,
      group_id: input.group_id != null ? Number(input.group_id) : assigneeId ? (this.users.get(assigneeId)?.default_group_id ?? null) : null,
      collaborator_ids: input.collaborator_ids ?? [],
      follower_ids: input.follower_ids ?? [],
      email_cc_ids: input.email_cc_ids ?? [],
      tags: normalizeTags(input.tags),
      custom_fields: new Map(),
      due_at: input.due_at ? Date.parse(String(input.due_at)) : null,
      problem_id: input.problem_id ?? null,
      channel,
      comments: [],
      created_at: now,
      updated_at: now,
    };
    if ((status === 'solved' || status === 'closed') && !t.assignee_id && this.isAgent(acting.id)) t.assignee_id = acting.id;
    const auditId = this.nextId('event');
    const c = this.makeComment(t, comment!, comment!.author ?? submitterId, auditId, channel, now);
    t.comments.push(c);
    t.description = c.plain_body;
    if (!t.subject) t.subject = c.plain_body.split('\n')[0]!.slice(0, 80);
    const events: AuditEvent[] = [this.commentEvent(c)];
    const created = (field_name: string, value: unknown) => events.push({ id: this.nextId('event'), type: 'Create', field_name, value });
    created('subject', t.subject);
    created('status', t.status);
    created('priority', t.priority);
    created('type', t.type);
    created('requester_id', String(t.requester_id));
    created('assignee_id', t.assignee_id === null ? null : String(t.assignee_id));
    created('group_id', t.group_id === null ? null : String(t.group_id));
    created('organization_id', t.organization_id === null ? null : String(t.organization_id));
    if (t.tags.length) created('tags', t.tags);
    this.applyCustomFields(t, input, events, 'Create');
    this.tickets.set(id, t);
    this.touchTicket(t, now);
    const audit: AuditRecord = { id: auditId, ticket_id: id, author_id: acting.id, created_at: now, channel, events };
    this.audits.set(id, [audit]);
    this.logTicketEvent(audit);
    return { ticket: t, audit };
  }

  commentEvent(c: CommentRecord): AuditEvent {
    return {
      id: c.id,
      type: 'Comment',
      author_id: c.author_id,
      body: c.body,
      html_body: c.html_body,
      plain_body: c.plain_body,
      public: c.public,
      attachments: c.attachmentIds,
      audit_id: c.audit_id,
    };
  }

  /** Applies PUT /api/v2/tickets/{id}. Throws RecordNotFound, RecordInvalid, UpdateConflict. */
  updateTicket(
    id: number,
    input: TicketInput,
    acting: UserRecord,
    channel = 'api',
    opts: { allowClosed?: boolean; forceTouch?: boolean } = {},
  ): { ticket: TicketRecord; audit: AuditRecord } {
    const t = this.liveTicket(id);
    const details: Record<string, Array<Record<string, unknown>>> = {};
    this.validateInput(input, details);
    if (t.status === 'closed' && !opts.allowClosed) {
      (details.status ??= []).push({ description: 'Status: closed prevents ticket update', error: 'ClosedPreventsUpdate' });
    }
    if (Object.keys(details).length) throw new RecordInvalid(details);
    if (input.safe_update && input.updated_stamp !== undefined) {
      const stamp = Date.parse(String(input.updated_stamp));
      if (Number.isNaN(stamp) || Math.floor(stamp / 1000) !== Math.floor(t.updated_at / 1000)) {
        throw new UpdateConflict('Safe Update prevented the update due to outdated ticket data. Please fetch the latest ticket data and try again.');
      }
    }

    const now = this.now();
    const auditId = this.nextId('event');
    const events: AuditEvent[] = [];
    const change = <K extends keyof TicketRecord>(key: K, value: TicketRecord[K], fieldName: string = key as string) => {
      const prev = t[key];
      if (JSON.stringify(prev) === JSON.stringify(value)) return;
      t[key] = value;
      const render = (v: unknown) => (typeof v === 'number' && fieldName.endsWith('_id') ? String(v) : v);
      events.push({ id: this.nextId('event'), type: 'Change', field_name: fieldName, value: render(value), previous_value: render(prev) });
    };

    const comment = this.commentFromInput(input);
    let newComment: CommentRecord | undefined;
    if (comment) {
      newComment = this.makeComment(t, comment, comment.author ?? acting.id, auditId, channel, now);
      t.comments.push(newComment);
      events.unshift(this.commentEvent(newComment));
    }

    if (input.subject !== undefined && input.subject !== null) change('subject', String(input.subject));
    if (input.priority !== undefined) change('priority', input.priority || null);
    if (input.type !== undefined) change('type', input.type || null);
    if (input.requester_id !== undefined && input.requester_id !== null) change('requester_id', Number(input.requester_id));
    else if (input.requester && typeof input.requester === 'object') change('requester_id', this.resolveRequester(input, acting));
    if (input.assignee_id !== undefined) change('assignee_id', input.assignee_id === null ? null : Number(input.assignee_id));
    if (input.group_id !== undefined) change('group_id', input.group_id === null ? null : Number(input.group_id));
    if (input.organization_id !== undefined) change('organization_id', input.organization_id === null ? null : Number(input.organization_id));
    if (input.external_id !== undefined) change('external_id', input.external_id === null ? null : String(input.external_id));
    if (input.due_at !== undefined) change('due_at', input.due_at ? Date.parse(String(input.due_at)) : null);
    if (input.problem_id !== undefined) change('problem_id', input.problem_id ?? null);
    if (input.collaborator_ids) change('collaborator_ids', input.collaborator_ids);
    if (input.follower_ids) change('follower_ids', input.follower_ids);
    if (input.email_cc_ids) change('email_cc_ids', input.email_cc_ids);
    let tags = t.tags;
    if (input.tags !== undefined) tags = normalizeTags(input.tags);
    if (input.additional_tags !== undefined) tags = [...tags, ...normalizeTags(input.additional_tags).filter((x) => !tags.includes(x))];
    if (input.remove_tags !== undefined) {
      const rm = normalizeTags(input.remove_tags);
      tags = tags.filter((x) => !rm.includes(x));
    }
    change('tags', tags);
    this.applyCustomFields(t, input, events, 'Change');

    let status = (input.status || t.status) as TicketStatus;
    if (status === 'new' && (t.assignee_id || (newComment && this.isAgent(newComment.author_id)))) status = 'open';
    if ((status === 'solved' || status === 'closed') && !t.assignee_id && this.isAgent(acting.id)) change('assignee_id', acting.id);
    change('status', status);

    if (events.length || opts.forceTouch) this.touchTicket(t, now);
    const audit: AuditRecord = { id: auditId, ticket_id: id, author_id: acting.id, created_at: now, channel, events };
    if (events.length) {
      const list = this.audits.get(id) ?? [];
      list.push(audit);
      this.audits.set(id, list);
      this.logTicketEvent(audit);
    }
    return { ticket: t, audit };
  }

  /**
   * Redact String in Comment (PUT /api/v2/tickets/{ticket_id}/comments/{id}/redact): every occurrence of
   * `text` becomes ▇ characters, for good, in the comment and in the audit that carries it. The ticket is
   * not touched (no new `updated_at`); the redaction is an audit of its own with a `CommentRedactionEvent`.
   */
  redactComment(ticketId: number, commentId: number, text: string, acting: UserRecord): CommentRecord {
    const t = this.liveTicket(ticketId);
    const c = t.comments.find((x) => x.id === commentId);
    if (!c) throw new RecordNotFound();
    if (text.length === 0) throw new RecordInvalid({ text: [{ description: 'Text cannot be blank', error: 'BlankValue' }] });
    const mask = (s: string) => s.split(text).join('\u2587'.repeat(text.length));
    c.body = mask(c.body);
    c.html_body = mask(c.html_body);
    c.plain_body = mask(c.plain_body);
    for (const audit of this.audits.get(ticketId) ?? []) {
      for (const e of audit.events) if (e.type === 'Comment' && e.id === commentId) Object.assign(e, { body: c.body, html_body: c.html_body, plain_body: c.plain_body });
    }
    const audit: AuditRecord = {
      id: this.nextId('event'),
      ticket_id: ticketId,
      author_id: acting.id,
      created_at: this.now(),
      channel: 'api',
      events: [{ id: this.nextId('event'), type: 'CommentRedactionEvent', comment_id: commentId }],
    };
    const list = this.audits.get(ticketId) ?? [];
    list.push(audit);
    this.audits.set(ticketId, list);
    this.logTicketEvent(audit);
    return c;
  }

  /**
   * Soft delete (DELETE /api/v2/tickets/{id}): the ticket leaves the API (404), is listed by
   * GET /api/v2/deleted_tickets, shows `status: "deleted"` in the ticket exports, and its deletion is
   * an audit (status → deleted) in the ticket event export; its earlier events stay there.
   */
  deleteTicket(id: number, acting?: UserRecord, channel = 'api'): TicketRecord {
    const t = this.liveTicket(id);
    const now = this.now();
    t.deleted = true;
    t.deleted_at = now;
    t.deleted_by = acting?.id ?? null;
    this.touchTicket(t, now);
    const audit: AuditRecord = {
      id: this.nextId('event'),
      ticket_id: id,
      author_id: acting?.id ?? t.submitter_id,
      created_at: now,
      channel,
      events: [{ id: this.nextId('event'), type: 'Change', field_name: 'status', value: 'deleted', previous_value: t.status }],
    };
    const list = this.audits.get(id) ?? [];
    list.push(audit);
    this.audits.set(id, list);
    this.logTicketEvent(audit);
    return t;
  }

  /** Appends an audit to the ticket event log (its time is kept in order along the log). */
  private logTicketEvent(audit: AuditRecord): void {
    audit.created_at = this.ticketEventFeed.touch(audit.id, audit.created_at);
    this.ticketEvents.set(audit.id, audit);
  }

  /** The `Create` events of a new ticket's audit, one per property set (ids from `firstId` on). */
  createEvents(v: SeededCreation['values'], firstId: number): AuditEvent[] {
    let next = firstId;
    const events: AuditEvent[] = [];
    const created = (field_name: string, value: unknown) => events.push({ id: next++, type: 'Create', field_name, value });
    const idText = (x: number | null) => (x === null ? null : String(x));
    created('subject', v.subject);
    created('status', v.status);
    created('priority', v.priority);
    created('type', v.type);
    created('requester_id', String(v.requester_id));
    created('assignee_id', idText(v.assignee_id));
    created('group_id', idText(v.group_id));
    created('organization_id', idText(v.organization_id));
    if (v.tags.length) created('tags', v.tags);
    for (const [fieldId, value] of v.custom) created(String(fieldId), value);
    return events;
  }


  // -------------------------------------------------------------------------
  // bulk seeding

  /**
   * Creates `n` tickets directly (no validation; each comment is logged as a ticket event, see
   * `logSeededTicketEvents`): deterministic content, timestamps
   * spread over the past (`spacingMs` apart, default 1 s) ending now, so incremental
   * exports from any `start_time` are meaningful.
   */
  seedTickets(
    n: number,
    opts: { commentsPerTicket?: number; spacingMs?: number; seed?: number; overrides?: (i: number) => Partial<TicketRecord> } = {},
  ): number[] {
    const commentsPerTicket = opts.commentsPerTicket ?? 1;
    const rand = prng(opts.seed ?? 42 + this.seq.ticket);
    const agents = this.agents().filter((u) => u.active);
    const endUsers = this.endUsers();
    const requesters = endUsers.length ? endUsers : agents;
    const groups = [...this.groups.values()].filter((g) => !g.deleted);
    const product = [...this.ticketFields.values()].find((f) => f.type === 'tagger');
    const vip = [...this.ticketFields.values()].find((f) => f.type === 'checkbox');
    const orderNo = [...this.ticketFields.values()].find((f) => f.type === 'text' && f.removable);
    const statuses: TicketStatus[] = ['new', 'open', 'open', 'open', 'pending', 'hold', 'solved', 'closed'];
    const priorities = [null, 'low', 'normal', 'normal', 'high', 'urgent'];
    const types = [null, 'question', 'incident', 'problem', 'task'];
    const words = ['printer', 'login', 'invoice', 'refund', 'shipping', 'crash', 'password', 'billing', 'upgrade', 'export'];
    const tagPool = ['vip', 'billing', 'bug', 'feature_request', 'urgent', 'follow_up', 'mobile', 'web'];

    const now = this.now();
    let spacing = opts.spacingMs ?? 1000;
    let start = now - n * spacing;
    const floor = Math.max(this.ticketFeed.lastTs, this.lastNow - 365 * 24 * 3600_000);
    if (start < floor) {
      start = Math.min(floor, now);
      spacing = n > 0 ? Math.floor((now - start) / n) : 0;
    }
    const ids: number[] = [];
    const pick = <T>(arr: readonly T[]): T => arr[Math.floor(rand() * arr.length)] as T;
    for (let i = 0; i < n; i++) {
      const id = this.nextId('ticket');
      const createdAt = start + i * spacing;
      const requester = pick(requesters);
      const status = pick(statuses);
      const assignee = status === 'new' ? null : pick(agents);
      const w = pick(words);
      const t: TicketRecord = {
        id,
        external_id: null,
        subject: `Problem with ${w} #${id}`,
        description: '',
        status,
        deleted: false,
        priority: pick(priorities),
        type: pick(types),
        requester_id: requester.id,
        submitter_id: requester.id,
        assignee_id: assignee?.id ?? null,
        organization_id: requester.organization_id,
        group_id: assignee ? (assignee.default_group_id ?? (groups.length ? pick(groups).id : null)) : null,
        collaborator_ids: [],
        follower_ids: [],
        email_cc_ids: [],
        tags: rand() < 0.5 ? [pick(tagPool)] : [],
        custom_fields: new Map(),
        due_at: null,
        problem_id: null,
        channel: rand() < 0.7 ? 'email' : 'web',
        comments: [],
        created_at: createdAt,
        updated_at: createdAt,
      };
      if (product?.custom_field_options?.length && rand() < 0.6) t.custom_fields.set(product.id, pick(product.custom_field_options).value);
      if (vip) t.custom_fields.set(vip.id, rand() < 0.1);
      if (orderNo && rand() < 0.3) t.custom_fields.set(orderNo.id, `ORD-${100000 + id}`);
      for (let c = 0; c < commentsPerTicket; c++) {
        const fromAgent = c % 2 === 1 && agents.length > 0;
        const body = c === 0 ? `Hello, I have a problem with ${w}.\n\nTicket ${id}, please help.` : fromAgent ? `Thanks for reaching out (reply ${c}).` : `Any update? (follow-up ${c})`;
        // Each comment is its own ticket update (audit); the first one is the ticket's creation.
        const auditId = this.nextId('event');
        const commentId = this.nextId('event');
        t.comments.push({
          id: commentId,
          ticket_id: id,
          author_id: fromAgent ? (assignee?.id ?? agents[0]!.id) : requester.id,
          body,
          html_body: textToHtml(body),
          plain_body: body,
          public: !(fromAgent && c % 4 === 3),
          attachmentIds: [],
          audit_id: auditId,
          channel: t.channel,
          created_at: createdAt + c,
        });
      }
      t.description = t.comments[0]?.plain_body ?? '';
      if (opts.overrides) Object.assign(t, opts.overrides(i), { id });
      this.tickets.set(id, t);
      this.logSeededTicketEvents(t);
      t.updated_at = this.ticketFeed.touch(id, Math.max(t.updated_at, createdAt + Math.max(0, commentsPerTicket - 1)));
      ids.push(id);
    }
    this.ticketVersion++;
    return ids;
  }

  /**
   * The ticket events of a seeded ticket: its creation (first comment and the values set) and one
   * update per later comment, at the comments' times. Child events are built when first read.
   */
  private logSeededTicketEvents(t: TicketRecord): void {
    const comments = t.comments;
    if (comments.length === 0) return;
    const tags = t.tags;
    const custom = [...t.custom_fields.entries()];
    const creation: SeededCreation = {
      values: {
        subject: t.subject,
        status: t.status,
        priority: t.priority,
        type: t.type,
        requester_id: t.requester_id,
        assignee_id: t.assignee_id,
        group_id: t.group_id,
        organization_id: t.organization_id,
        tags,
        custom,
      },
      // Reserve the ids of the Create events now, so ids stay in creation order.
      firstId: this.seq.event + 1,
    };
    this.seq.event += 8 + (tags.length ? 1 : 0) + custom.length;
    for (let k = 0; k < comments.length; k++) this.logTicketEvent(new SeededAudit(this, comments[k]!, k === 0 ? creation : null));
  }


  // -------------------------------------------------------------------------
  // jobs

  newJob(total: number): JobRecord {
    const job: JobRecord = { id: randomBytes(16).toString('hex'), status: 'queued', total, progress: null, message: null, results: null, created_at: this.now() };
    this.jobs.set(job.id, job);
    return job;
  }
}
