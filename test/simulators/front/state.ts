/**
 * In-memory Front company for the simulator: teammates, teams, inboxes with their channels, contacts
 * with handles, accounts, tags, custom fields, ticketing statuses, conversations (conversation,
 * discussion, task) with messages and comments, attachments, and the event feed. Timestamps are Unix
 * seconds with three decimals, strictly increasing, as Front renders them.
 *
 * Rules follow Front's Core API: a conversation's `status` is derived (`deleted` when trashed,
 * `archived`, else `assigned`/`unassigned`); with ticketing, `status_id` names a status whose category
 * (open, waiting, resolved) drives archiving; new messages bump a conversation in the list order,
 * tags, assignment, status and custom fields do not (they emit events and change `updated_at`).
 */
import type { SimClock } from '../shared/http-kit';

export type CustomFieldResource = 'conversation' | 'contact' | 'account' | 'teammate' | 'inbox';

export interface SimTeammate {
  id: string;
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  is_admin: boolean;
  is_available: boolean;
  is_blocked: boolean;
  type: string;
  custom_fields: Record<string, unknown>;
}

export interface SimTeam {
  id: string;
  name: string;
  memberIds: string[];
  inboxIds: string[];
}

export interface SimInbox {
  id: string;
  name: string;
  is_private: boolean;
  is_public: boolean;
  custom_fields: Record<string, unknown>;
}

export interface SimChannel {
  id: string;
  name: string;
  address: string;
  type: string;
  send_as: string;
  inboxId: string;
  is_private: boolean;
  is_valid: boolean;
}

export interface SimHandle {
  handle: string;
  source: string;
}

export interface SimContact {
  id: string;
  name: string | null;
  description: string | null;
  handles: SimHandle[];
  custom_fields: Record<string, unknown>;
  is_private: boolean;
  created_at: number;
  updated_at: number;
}

export interface SimAccount {
  id: string;
  name: string;
  description: string | null;
  domains: string[];
  external_id: string | null;
  custom_fields: Record<string, unknown>;
  contactIds: string[];
  created_at: number;
  updated_at: number;
}

export interface SimTag {
  id: string;
  name: string;
  description: string | null;
  highlight: string | null;
  is_private: boolean;
  is_visible_in_conversation_lists: boolean;
  created_at: number;
  updated_at: number;
}

export interface SimCustomField {
  id: string;
  name: string;
  description: string;
  type: 'string' | 'boolean' | 'datetime' | 'number' | 'teammate' | 'inbox' | 'enum';
  values?: Array<{ value: string; label: string }>;
  resource: CustomFieldResource;
}

export interface SimStatus {
  id: string;
  name: string;
  category: 'open' | 'waiting' | 'resolved';
  description: string | null;
  created_at: number;
  updated_at: number;
}

export interface SimFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface SimAttachment extends SimFile {
  id: string;
}

export interface SimRecipient {
  handle: string;
  role: 'from' | 'to' | 'cc' | 'bcc' | 'reply-to';
  name: string | null;
  contactId: string | null;
}

export interface SimComment {
  id: string;
  conversationId: string;
  authorId: string | null;
  body: string;
  posted_at: number;
  attachmentIds: string[];
  is_pinned: boolean;
}

export interface SimMessage {
  id: string;
  uid: string;
  conversationId: string;
  type: string;
  is_inbound: boolean;
  authorId: string | null;
  recipients: SimRecipient[];
  subject: string;
  body: string;
  text: string;
  created_at: number;
  attachmentIds: string[];
}

export type ConversationType = 'conversation' | 'discussion' | 'task';

export interface SimConversation {
  id: string;
  type: ConversationType;
  subject: string;
  archived: boolean;
  trashed: boolean;
  /** Ticketing status (when the company has ticketing). */
  statusId: string | null;
  assigneeId: string | null;
  recipient: SimRecipient | null;
  tagIds: string[];
  custom_fields: Record<string, unknown>;
  inboxIds: string[];
  /** Teammates a discussion without an inbox is shared with. */
  teammateIds: string[];
  /** The channel messages of the conversation go out on. */
  channelId: string | null;
  created_at: number;
  updated_at: number;
  /** Position in the conversation list (last activity that bumps). */
  bumped_at: number;
  is_private: boolean;
  description: string | null;
  due_at: number | null;
}

export type EventType =
  | 'assign'
  | 'unassign'
  | 'archive'
  | 'reopen'
  | 'trash'
  | 'restore'
  | 'comment'
  | 'inbound'
  | 'outbound'
  | 'out_reply'
  | 'move'
  | 'tag'
  | 'untag'
  | 'custom_field_updated'
  | 'ticket_status_update';

export interface SimEvent {
  id: string;
  type: EventType;
  emitted_at: number;
  conversationId: string;
  /** What the event is about: a teammate, comment, message, tag, inboxes or custom field. */
  target: { kind: 'teammate' | 'comment' | 'message' | 'tag' | 'inboxes' | 'custom_field'; id?: string; ids?: string[] } | null;
  /** The teammate who acted, or null for the API. */
  sourceTeammateId: string | null;
}

/** A pending message send (202 Accepted): created once the clock reaches `dueAt` (ms). */
interface PendingMessage {
  uid: string;
  dueAt: number;
  create: () => void;
}

/** Front's error for a refused call: `{"_error": {status, title, message}}`. */
export class FrontError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly details?: string[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: string[]) => new FrontError(400, 'Bad request', message, details);
export const notFound = (message: string) => new FrontError(404, 'Not found', message);

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export class FrontState {
  readonly companyId = 'cmp_1a2b3';
  companyName = 'Acme Support';
  readonly teammates = new Map<string, SimTeammate>();
  readonly teams = new Map<string, SimTeam>();
  readonly inboxes = new Map<string, SimInbox>();
  readonly channels = new Map<string, SimChannel>();
  readonly contacts = new Map<string, SimContact>();
  readonly accounts = new Map<string, SimAccount>();
  readonly tags = new Map<string, SimTag>();
  readonly customFields = new Map<string, SimCustomField>();
  readonly statuses = new Map<string, SimStatus>();
  readonly conversations = new Map<string, SimConversation>();
  readonly comments = new Map<string, SimComment>();
  readonly messages = new Map<string, SimMessage>();
  readonly attachments = new Map<string, SimAttachment>();
  /** Each conversation's comments and messages, in the order added: a thread is read without scanning them all. */
  private readonly threads = new Map<string, { comments: SimComment[]; messages: SimMessage[] }>();
  readonly events: SimEvent[] = [];
  /** Called with every event as it is recorded (the app webhooks of test/simulators/front/hooks.ts). */
  readonly listeners: ((e: SimEvent) => void)[] = [];
  /** Conversations deleted for good: their events still embed them (as last seen). */
  readonly tombstones = new Map<string, SimConversation>();
  /** Ticketing statuses enabled (`GET /company/statuses` answers 404 otherwise). */
  ticketing = true;
  /** How long Front takes to create an accepted message (ms of the simulator clock). */
  messageDelayMs = 20;

  private readonly pending: PendingMessage[] = [];
  private readonly counters = new Map<string, number>();
  private lastTs = 0;

  constructor(private readonly clock: SimClock) {}

  // ---------------------------------------------------------------- ids and time

  newId(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    // Front ids look like `cnv_55c8c149`: a prefix and a short base-36 token.
    let x = n * 7919 + 46_656;
    let s = '';
    while (x > 0) {
      s = ID_ALPHABET[x % 36] + s;
      x = Math.floor(x / 36);
    }
    return `${prefix}_${s}`;
  }

  /** Now, in Unix seconds with three decimals, strictly after the previous timestamp. */
  ts(): number {
    let t = Math.floor(this.clock.now()) / 1000;
    if (t <= this.lastTs) t = Math.round((this.lastTs + 0.001) * 1000) / 1000;
    this.lastTs = t;
    return t;
  }

  uid(): string {
    return Array.from({ length: 16 }, () => ID_ALPHABET[Math.floor(Math.random() * 16)]).join('');
  }

  // ---------------------------------------------------------------- directory

  addTeammate(input: Partial<SimTeammate> & { email: string; first_name: string; last_name: string }): SimTeammate {
    const t: SimTeammate = {
      id: this.newId('tea'),
      username: input.email.split('@')[0]!,
      is_admin: false,
      is_available: true,
      is_blocked: false,
      type: 'user',
      custom_fields: {},
      ...input,
    };
    this.teammates.set(t.id, t);
    return t;
  }

  addTeam(name: string, memberIds: string[] = [], inboxIds: string[] = []): SimTeam {
    const t: SimTeam = { id: this.newId('tim'), name, memberIds, inboxIds };
    this.teams.set(t.id, t);
    return t;
  }

  addInbox(name: string, opts: { channel?: { type: string; address: string; name?: string }; isPrivate?: boolean } = {}): SimInbox {
    const inbox: SimInbox = { id: this.newId('inb'), name, is_private: opts.isPrivate ?? false, is_public: !(opts.isPrivate ?? false), custom_fields: {} };
    this.inboxes.set(inbox.id, inbox);
    if (opts.channel) this.addChannel(inbox.id, opts.channel);
    return inbox;
  }

  addChannel(inboxId: string, input: { type: string; address: string; name?: string; is_valid?: boolean }): SimChannel {
    const c: SimChannel = {
      id: this.newId('cha'),
      name: input.name ?? input.address,
      address: input.address,
      type: input.type,
      send_as: input.address,
      inboxId,
      is_private: false,
      is_valid: input.is_valid ?? true,
    };
    this.channels.set(c.id, c);
    return c;
  }

  channelsOf(inboxId: string): SimChannel[] {
    return [...this.channels.values()].filter((c) => c.inboxId === inboxId);
  }

  addContact(input: { name: string | null; handles: SimHandle[]; description?: string | null; custom_fields?: Record<string, unknown> }): SimContact {
    const now = this.ts();
    const c: SimContact = {
      id: this.newId('crd'),
      name: input.name,
      description: input.description ?? null,
      handles: input.handles,
      custom_fields: input.custom_fields ?? {},
      is_private: false,
      created_at: now,
      updated_at: now,
    };
    this.contacts.set(c.id, c);
    return c;
  }

  updateContact(id: string, patch: Partial<Pick<SimContact, 'name' | 'description' | 'handles' | 'custom_fields'>>): SimContact {
    const c = this.contacts.get(id);
    if (!c) throw notFound(`Unknown contact ${id}`);
    Object.assign(c, patch, { updated_at: this.ts() });
    return c;
  }

  contactByHandle(handle: string): SimContact | undefined {
    const h = handle.toLowerCase();
    return [...this.contacts.values()].find((c) => c.handles.some((x) => x.handle.toLowerCase() === h));
  }

  /** The contact of a handle, created the way Front does when a message reaches a new address. */
  ensureContact(handle: string, name: string | null = null): SimContact {
    return this.contactByHandle(handle) ?? this.addContact({ name, handles: [{ handle, source: handle.includes('@') ? 'email' : 'phone' }] });
  }

  addAccount(input: { name: string; domains?: string[]; description?: string | null; contactIds?: string[] }): SimAccount {
    const now = this.ts();
    const a: SimAccount = {
      id: this.newId('acc'),
      name: input.name,
      description: input.description ?? null,
      domains: input.domains ?? [],
      external_id: null,
      custom_fields: {},
      contactIds: input.contactIds ?? [],
      created_at: now,
      updated_at: now,
    };
    this.accounts.set(a.id, a);
    return a;
  }

  addTag(name: string, opts: Partial<Pick<SimTag, 'description' | 'highlight' | 'is_private'>> = {}): SimTag {
    if (!name || name.length > 64) throw badRequest('Body did not satisfy requirements', ['name must be between 1 and 64 characters']);
    if ([...this.tags.values()].some((t) => t.name === name && !t.is_private)) throw new FrontError(409, 'Conflict', `A tag named ${name} already exists`);
    const now = this.ts();
    const t: SimTag = {
      id: this.newId('tag'),
      name,
      description: opts.description ?? null,
      highlight: opts.highlight ?? null,
      is_private: opts.is_private ?? false,
      is_visible_in_conversation_lists: false,
      created_at: now,
      updated_at: now,
    };
    this.tags.set(t.id, t);
    return t;
  }

  tagByName(name: string): SimTag | undefined {
    return [...this.tags.values()].find((t) => t.name === name);
  }

  addCustomField(resource: CustomFieldResource, name: string, type: SimCustomField['type'], description = name, values?: SimCustomField['values']): SimCustomField {
    const f: SimCustomField = { id: this.newId('cuf'), name, description, type, resource, ...(values ? { values } : {}) };
    this.customFields.set(f.id, f);
    return f;
  }

  customFieldsOf(resource: CustomFieldResource): SimCustomField[] {
    return [...this.customFields.values()].filter((f) => f.resource === resource);
  }

  addStatus(name: string, category: SimStatus['category']): SimStatus {
    const now = this.ts();
    const s: SimStatus = { id: this.newId('sts'), name, category, description: null, created_at: now, updated_at: now };
    this.statuses.set(s.id, s);
    return s;
  }

  firstStatus(category: SimStatus['category']): SimStatus | undefined {
    return [...this.statuses.values()].find((s) => s.category === category);
  }

  addFile(file: SimFile): SimAttachment {
    const a: SimAttachment = { id: this.newId('fil'), ...file };
    this.attachments.set(a.id, a);
    return a;
  }

  // ---------------------------------------------------------------- conversations

  conversation(id: string): SimConversation {
    const c = this.conversations.get(id);
    if (!c) throw notFound(`Unknown conversation ${id}`);
    return c;
  }

  /** `status` as the API renders it. */
  statusOf(c: SimConversation): 'assigned' | 'unassigned' | 'archived' | 'deleted' {
    if (c.trashed) return 'deleted';
    if (c.archived) return 'archived';
    return c.assigneeId ? 'assigned' : 'unassigned';
  }

  private emit(type: EventType, c: SimConversation, target: SimEvent['target'] = null, actor: string | null = null, at = this.ts()): SimEvent {
    const e: SimEvent = { id: this.newId('evt'), type, emitted_at: at, conversationId: c.id, target, sourceTeammateId: actor };
    this.events.push(e);
    for (const listener of this.listeners) listener(e);
    return e;
  }

  private touch(c: SimConversation, bump = false): number {
    const at = this.ts();
    c.updated_at = at;
    if (bump) c.bumped_at = at;
    return at;
  }

  private checkTeammate(id: unknown, field: string): string {
    if (typeof id !== 'string' || !this.teammates.has(id)) throw badRequest(`Unknown teammate ${String(id)}`, [`${field} must be a teammate id`]);
    return id;
  }

  private checkInbox(id: unknown, field: string): string {
    if (typeof id !== 'string' || !this.inboxes.has(id)) throw notFound(`Unknown inbox ${String(id)} (${field})`);
    return id;
  }

  private checkTags(ids: unknown, field: string): string[] {
    if (!Array.isArray(ids)) throw badRequest('Body did not satisfy requirements', [`${field} must be an array`]);
    return ids.map((id) => {
      if (typeof id !== 'string' || !this.tags.has(id)) throw notFound(`Unknown tag ${String(id)}`);
      return id;
    });
  }

  /** Custom field values checked against the company's conversation fields, as Front validates them by type. */
  private checkCustomFields(values: unknown): Record<string, unknown> {
    if (!values || typeof values !== 'object' || Array.isArray(values)) throw badRequest('Invalid custom fields', ['custom_fields must be an object']);
    const fields = this.customFieldsOf('conversation');
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      const f = fields.find((x) => x.name === name);
      if (!f) throw badRequest('Invalid custom fields', [`Unknown custom field ${name}`]);
      if (value !== null) {
        const ok =
          f.type === 'string' || f.type === 'teammate' || f.type === 'inbox'
            ? typeof value === 'string'
            : f.type === 'boolean'
              ? typeof value === 'boolean'
              : f.type === 'number' || f.type === 'datetime'
                ? typeof value === 'number' && Number.isFinite(value)
                : f.type === 'enum'
                  ? typeof value === 'string' && (f.values ?? []).some((v) => v.value === value)
                  : true;
        if (!ok) throw badRequest('Invalid custom fields', [`${name} must be a ${f.type}`]);
      }
      out[name] = value;
    }
    return out;
  }

  private newConversation(input: Partial<SimConversation> & { type: ConversationType; subject: string }): SimConversation {
    const now = this.ts();
    const open = this.ticketing ? (this.firstStatus('open')?.id ?? null) : null;
    const c: SimConversation = {
      id: this.newId('cnv'),
      archived: false,
      trashed: false,
      statusId: open,
      assigneeId: null,
      recipient: null,
      tagIds: [],
      custom_fields: {},
      inboxIds: [],
      teammateIds: [],
      channelId: null,
      created_at: now,
      updated_at: now,
      bumped_at: now,
      is_private: false,
      description: null,
      due_at: null,
      ...input,
    };
    this.conversations.set(c.id, c);
    return c;
  }

  /** `POST /conversations`: a discussion or task, in an inbox or shared with teammates, with its starter comment. */
  createDiscussion(input: {
    type: unknown;
    subject: unknown;
    inbox_id?: unknown;
    teammate_ids?: unknown;
    comment?: { body?: unknown; author_id?: unknown; files?: SimFile[] } | null;
    description?: unknown;
    due_at?: unknown;
    custom_fields?: unknown;
  }): SimConversation {
    const errors: string[] = [];
    if (input.type !== 'discussion' && input.type !== 'task') errors.push('type must be one of discussion, task');
    if (typeof input.subject !== 'string' || input.subject === '') errors.push('subject is required');
    const hasInbox = input.inbox_id !== undefined;
    const hasTeammates = Array.isArray(input.teammate_ids) && input.teammate_ids.length > 0;
    if (hasInbox === hasTeammates) errors.push('Either inbox_id or teammate_ids must be provided (not both)');
    if (input.type === 'discussion' && (!input.comment || typeof input.comment.body !== 'string' || input.comment.body === '')) errors.push('comment is required for discussions');
    if (input.type !== 'task' && (input.description !== undefined || input.due_at !== undefined)) errors.push('description and due_at are only allowed on tasks');
    if (input.due_at !== undefined && (typeof input.due_at !== 'number' || input.due_at * 1000 <= this.clock.now())) errors.push('due_at must be in the future');
    if (errors.length) throw badRequest('Body did not satisfy requirements', errors);
    const inboxIds = hasInbox ? [this.checkInbox(input.inbox_id, 'inbox_id')] : [];
    const teammateIds = hasTeammates ? (input.teammate_ids as unknown[]).map((t) => this.checkTeammate(t, 'teammate_ids')) : [];
    const authorId = input.comment?.author_id !== undefined ? this.checkTeammate(input.comment.author_id, 'comment.author_id') : null;
    const custom = input.custom_fields !== undefined ? this.checkCustomFields(input.custom_fields) : {};
    const c = this.newConversation({
      type: input.type as ConversationType,
      subject: input.subject as string,
      inboxIds,
      teammateIds,
      is_private: !hasInbox,
      custom_fields: custom,
      description: input.type === 'task' && typeof input.description === 'string' ? input.description : null,
      due_at: typeof input.due_at === 'number' ? input.due_at : null,
    });
    if (input.comment && typeof input.comment.body === 'string') this.addComment(c.id, { body: input.comment.body, authorId, files: input.comment.files ?? [] });
    return c;
  }

  /** `POST /conversations/{id}/comments`. */
  addComment(conversationId: string, input: { body: unknown; authorId?: string | null; files?: SimFile[]; isPinned?: boolean }): SimComment {
    const c = this.conversation(conversationId);
    if (typeof input.body !== 'string' || input.body === '') throw badRequest('Body did not satisfy requirements', ['body is required']);
    const authorId = input.authorId ? this.checkTeammate(input.authorId, 'author_id') : null;
    const at = this.touch(c, true);
    const comment: SimComment = {
      id: this.newId('com'),
      conversationId: c.id,
      authorId,
      body: input.body,
      posted_at: at,
      attachmentIds: (input.files ?? []).map((f) => this.addFile(f).id),
      is_pinned: input.isPinned ?? false,
    };
    this.comments.set(comment.id, comment);
    this.threadOf(c.id).comments.push(comment);
    this.emit('comment', c, { kind: 'comment', id: comment.id }, authorId, at);
    return comment;
  }

  commentsOf(conversationId: string): SimComment[] {
    return [...(this.threads.get(conversationId)?.comments ?? [])];
  }

  messagesOf(conversationId: string): SimMessage[] {
    return [...(this.threads.get(conversationId)?.messages ?? [])];
  }

  private threadOf(conversationId: string) {
    let thread = this.threads.get(conversationId);
    if (!thread) this.threads.set(conversationId, (thread = { comments: [], messages: [] }));
    return thread;
  }

  private addMessage(c: SimConversation, m: Omit<SimMessage, 'id' | 'conversationId' | 'created_at'>, eventType: EventType, actor: string | null): SimMessage {
    const at = this.touch(c, true);
    const message: SimMessage = { id: this.newId('msg'), conversationId: c.id, created_at: at, ...m };
    this.messages.set(message.id, message);
    this.threadOf(c.id).messages.push(message);
    this.emit(eventType, c, { kind: 'message', id: message.id }, actor, at);
    return message;
  }

  /** `POST /channels/{id}/messages` (202): the new conversation and its first message appear after `messageDelayMs`. */
  sendMessage(
    channelId: string,
    input: { to?: unknown; cc?: unknown; bcc?: unknown; subject?: unknown; body?: unknown; text?: unknown; author_id?: unknown; options?: { tag_ids?: unknown; archive?: unknown } | null; files?: SimFile[] },
  ): string {
    const channel = this.channels.get(channelId);
    if (!channel) throw notFound(`Unknown channel ${channelId}`);
    const to = [input.to, input.cc, input.bcc].flatMap((v) => (Array.isArray(v) ? v : []));
    if (to.length === 0 || to.some((h) => typeof h !== 'string' || h === '')) throw badRequest('Body did not satisfy requirements', ['One of to, cc or bcc is required']);
    if (typeof input.body !== 'string') throw badRequest('Body did not satisfy requirements', ['body is required']);
    const authorId = input.author_id !== undefined ? this.checkTeammate(input.author_id, 'author_id') : null;
    const tagIds = input.options?.tag_ids !== undefined ? this.checkTags(input.options.tag_ids, 'options.tag_ids') : [];
    const archive = input.options?.archive === undefined ? true : input.options.archive !== false && input.options.archive !== 'false';
    const uid = this.uid();
    const files = input.files ?? [];
    this.pending.push({
      uid,
      dueAt: this.clock.now() + this.messageDelayMs,
      create: () => {
        const first = this.ensureContact(to[0] as string);
        const recipient: SimRecipient = { handle: to[0] as string, role: 'to', name: first.name, contactId: first.id };
        const c = this.newConversation({
          type: 'conversation',
          subject: typeof input.subject === 'string' ? input.subject : '',
          inboxIds: [channel.inboxId],
          channelId: channel.id,
          recipient,
          tagIds,
        });
        const recipients: SimRecipient[] = [
          { handle: channel.address, role: 'from', name: channel.name, contactId: null },
          ...(['to', 'cc', 'bcc'] as const).flatMap((role) =>
            (Array.isArray(input[role]) ? (input[role] as string[]) : []).map((h) => {
              const contact = this.ensureContact(h);
              return { handle: h, role, name: contact.name, contactId: contact.id };
            }),
          ),
        ];
        this.addMessage(
          c,
          {
            uid,
            type: channel.type === 'custom' ? 'custom' : 'email',
            is_inbound: false,
            authorId,
            recipients,
            subject: c.subject,
            body: input.body as string,
            text: typeof input.text === 'string' ? input.text : stripTags(input.body as string),
            attachmentIds: files.map((f) => this.addFile(f).id),
          },
          'outbound',
          authorId,
        );
        if (archive) this.setArchived(c, true, authorId);
      },
    });
    return uid;
  }

  /** `POST /conversations/{id}/messages` (202): a reply on the conversation's channel. Archives it unless `options.archive` is false. */
  reply(
    conversationId: string,
    input: { to?: unknown; body?: unknown; text?: unknown; author_id?: unknown; channel_id?: unknown; options?: { tag_ids?: unknown; archive?: unknown } | null; files?: SimFile[] },
  ): string {
    const c = this.conversation(conversationId);
    if (typeof input.body !== 'string' || input.body === '') throw badRequest('Body did not satisfy requirements', ['body is required']);
    const channelId = typeof input.channel_id === 'string' ? input.channel_id : c.channelId;
    const channel = channelId ? this.channels.get(channelId) : undefined;
    if (!channel) throw badRequest('Cannot reply to a conversation without a channel', [`${c.type} conversations only support comments`]);
    const authorId = input.author_id !== undefined ? this.checkTeammate(input.author_id, 'author_id') : null;
    const tagIds = input.options?.tag_ids !== undefined ? this.checkTags(input.options.tag_ids, 'options.tag_ids') : [];
    const archive = input.options?.archive === undefined ? true : input.options.archive !== false && input.options.archive !== 'false';
    const uid = this.uid();
    const files = input.files ?? [];
    this.pending.push({
      uid,
      dueAt: this.clock.now() + this.messageDelayMs,
      create: () => {
        const to = Array.isArray(input.to) && input.to.length ? (input.to as string[]) : c.recipient ? [c.recipient.handle] : [];
        const recipients: SimRecipient[] = [
          { handle: channel.address, role: 'from', name: channel.name, contactId: null },
          ...to.map((h) => {
            const contact = this.ensureContact(h);
            return { handle: h, role: 'to' as const, name: contact.name, contactId: contact.id };
          }),
        ];
        this.addMessage(
          c,
          {
            uid,
            type: channel.type === 'custom' ? 'custom' : 'email',
            is_inbound: false,
            authorId,
            recipients,
            subject: `Re: ${c.subject}`,
            body: input.body as string,
            text: typeof input.text === 'string' ? input.text : stripTags(input.body as string),
            attachmentIds: files.map((f) => this.addFile(f).id),
          },
          'out_reply',
          authorId,
        );
        for (const t of tagIds) if (!c.tagIds.includes(t)) c.tagIds.push(t);
        if (archive) this.setArchived(c, true, authorId);
      },
    });
    return uid;
  }

  /** Creates the accepted messages whose time has come (called before every request). */
  processDue(now = this.clock.now()): void {
    for (let i = 0; i < this.pending.length; ) {
      const p = this.pending[i]!;
      if (p.dueAt <= now) {
        this.pending.splice(i, 1);
        p.create();
      } else i++;
    }
  }

  /** Creates every accepted message now. */
  flushPending(): void {
    this.processDue(Infinity);
  }

  messageByUid(uid: string): SimMessage | undefined {
    return [...this.messages.values()].find((m) => m.uid === uid);
  }

  /** An inbound message from a contact: a new conversation in the inbox, or the next message of `conversationId`. */
  receiveMessage(input: { inboxId?: string; conversationId?: string; from: string; fromName?: string | null; subject?: string; text: string; files?: SimFile[] }): SimMessage {
    const contact = this.ensureContact(input.from, input.fromName ?? null);
    let c: SimConversation;
    if (input.conversationId) {
      c = this.conversation(input.conversationId);
      if (c.archived) this.setArchived(c, false, null);
    } else {
      const inboxId = this.checkInbox(input.inboxId, 'inbox_id');
      const channel = this.channelsOf(inboxId)[0];
      c = this.newConversation({
        type: 'conversation',
        subject: input.subject ?? '',
        inboxIds: [inboxId],
        channelId: channel?.id ?? null,
        recipient: { handle: input.from, role: 'from', name: contact.name, contactId: contact.id },
      });
    }
    const channel = c.channelId ? this.channels.get(c.channelId) : undefined;
    return this.addMessage(
      c,
      {
        uid: this.uid(),
        type: channel?.type === 'custom' ? 'custom' : 'email',
        is_inbound: true,
        authorId: null,
        recipients: [
          { handle: input.from, role: 'from', name: contact.name, contactId: contact.id },
          ...(channel ? [{ handle: channel.address, role: 'to' as const, name: channel.name, contactId: null }] : []),
        ],
        subject: input.subject ?? c.subject,
        body: `<p>${escapeHtml(input.text)}</p>`,
        text: input.text,
        attachmentIds: (input.files ?? []).map((f) => this.addFile(f).id),
      },
      'inbound',
      null,
    );
  }

  private setArchived(c: SimConversation, archived: boolean, actor: string | null): void {
    if (c.archived === archived && !c.trashed) return;
    c.archived = archived;
    c.trashed = false;
    if (this.ticketing) {
      const current = c.statusId ? this.statuses.get(c.statusId) : undefined;
      if (archived && current?.category !== 'resolved') c.statusId = this.firstStatus('resolved')?.id ?? c.statusId;
      if (!archived && current?.category === 'resolved') c.statusId = this.firstStatus('open')?.id ?? c.statusId;
    }
    const at = this.touch(c);
    this.emit(archived ? 'archive' : 'reopen', c, null, actor, at);
  }

  setAssignee(c: SimConversation, assigneeId: string | null, actor: string | null = null): void {
    if (assigneeId !== null) this.checkTeammate(assigneeId, 'assignee_id');
    if (c.assigneeId === assigneeId) return;
    c.assigneeId = assigneeId;
    const at = this.touch(c);
    this.emit(assigneeId ? 'assign' : 'unassign', c, assigneeId ? { kind: 'teammate', id: assigneeId } : null, actor, at);
  }

  setTags(c: SimConversation, tagIds: string[], actor: string | null = null): void {
    const added = tagIds.filter((t) => !c.tagIds.includes(t));
    const removed = c.tagIds.filter((t) => !tagIds.includes(t));
    if (added.length === 0 && removed.length === 0) return;
    c.tagIds = [...tagIds];
    const at = this.touch(c);
    for (const t of added) this.emit('tag', c, { kind: 'tag', id: t }, actor, at);
    for (const t of removed) this.emit('untag', c, { kind: 'tag', id: t }, actor, at);
  }

  /** `PATCH /conversations/{id}`. */
  updateConversation(id: string, input: Record<string, unknown>, actor: string | null = null): SimConversation {
    const c = this.conversation(id);
    const errors: string[] = [];
    if (input.status !== undefined && input.status_id !== undefined) errors.push('Only one of status and status_id should be provided');
    if (input.status !== undefined && !['archived', 'open', 'deleted', 'spam'].includes(String(input.status))) errors.push('status must be one of archived, open, deleted, spam');
    if (input.status_id !== undefined && !this.ticketing) errors.push('Ticketing must be enabled to use status_id');
    if ((input.description !== undefined || input.due_at !== undefined) && c.type !== 'task') errors.push('description and due_at are only allowed on task conversations');
    if (input.due_at !== undefined && input.due_at !== null && (typeof input.due_at !== 'number' || input.due_at * 1000 <= this.clock.now())) errors.push('due_at must be in the future');
    if (errors.length) throw badRequest('Body did not satisfy requirements', errors);

    const statusId = input.status_id !== undefined ? String(input.status_id) : undefined;
    if (statusId !== undefined && !this.statuses.has(statusId)) throw notFound(`Unknown status ${statusId}`);
    const tagIds = input.tag_ids !== undefined ? this.checkTags(input.tag_ids, 'tag_ids') : undefined;
    const custom = input.custom_fields !== undefined ? this.checkCustomFields(input.custom_fields) : undefined;
    const inboxId = input.inbox_id !== undefined ? this.checkInbox(input.inbox_id, 'inbox_id') : undefined;
    if (input.assignee_id !== undefined && input.assignee_id !== null) this.checkTeammate(input.assignee_id, 'assignee_id');

    if (input.assignee_id !== undefined) this.setAssignee(c, (input.assignee_id as string | null) ?? null, actor);
    if (inboxId !== undefined && !(c.inboxIds.length === 1 && c.inboxIds[0] === inboxId)) {
      c.inboxIds = [inboxId];
      c.teammateIds = [];
      const at = this.touch(c);
      this.emit('move', c, { kind: 'inboxes', ids: [inboxId] }, actor, at);
    }
    if (tagIds !== undefined) this.setTags(c, tagIds, actor);
    if (input.status === 'archived') this.setArchived(c, true, actor);
    else if (input.status === 'open') {
      if (c.trashed) this.restore(c, actor);
      this.setArchived(c, false, actor);
    } else if (input.status === 'deleted') this.trash(c, actor);
    else if (input.status === 'spam') this.trash(c, actor);
    if (statusId !== undefined && statusId !== c.statusId) {
      const s = this.statuses.get(statusId)!;
      c.statusId = statusId;
      const wasArchived = c.archived;
      c.archived = s.category === 'resolved';
      c.trashed = false;
      const at = this.touch(c);
      this.emit('ticket_status_update', c, null, actor, at);
      if (wasArchived !== c.archived) this.emit(c.archived ? 'archive' : 'reopen', c, null, actor, at);
    }
    if (input.description !== undefined) {
      c.description = (input.description as string | null) ?? null;
      this.touch(c);
    }
    if (input.due_at !== undefined) {
      c.due_at = (input.due_at as number | null) ?? null;
      this.touch(c);
    }
    if (custom !== undefined) {
      // Front replaces every custom field with the ones sent.
      const before = JSON.stringify(c.custom_fields);
      c.custom_fields = custom;
      if (JSON.stringify(custom) !== before) {
        const at = this.touch(c);
        this.emit('custom_field_updated', c, { kind: 'custom_field' }, actor, at);
      }
    }
    return c;
  }

  trash(c: SimConversation, actor: string | null = null): void {
    if (c.trashed) return;
    c.trashed = true;
    const at = this.touch(c);
    this.emit('trash', c, null, actor, at);
  }

  restore(c: SimConversation, actor: string | null = null): void {
    if (!c.trashed) return;
    c.trashed = false;
    const at = this.touch(c);
    this.emit('restore', c, null, actor, at);
  }

  /** `DELETE /conversations/{id}` on a trashed conversation: gone for good (404 afterwards). */
  deleteForGood(id: string): void {
    const c = this.conversation(id);
    if (!c.trashed) throw badRequest('Conversation must have status "trashed" before it can be permanently deleted');
    this.conversations.delete(id);
    this.tombstones.set(id, c);
    for (const x of this.commentsOf(id)) this.comments.delete(x.id);
    for (const x of this.messagesOf(id)) this.messages.delete(x.id);
    this.threads.delete(id);
  }

  // ---------------------------------------------------------------- changes made in Front's UI (tests)

  /** A reply a teammate sent from Front (created at once, without archiving). */
  addOutboundRemotely(conversationId: string, text: string, authorId: string | null = null): SimMessage {
    const c = this.conversation(conversationId);
    const channel = c.channelId ? this.channels.get(c.channelId) : undefined;
    const to = c.recipient ? [{ handle: c.recipient.handle, role: 'to' as const, name: c.recipient.name, contactId: c.recipient.contactId }] : [];
    return this.addMessage(
      c,
      {
        uid: this.uid(),
        type: channel?.type === 'custom' ? 'custom' : 'email',
        is_inbound: false,
        authorId,
        recipients: [...(channel ? [{ handle: channel.address, role: 'from' as const, name: channel.name, contactId: null }] : []), ...to],
        subject: `Re: ${c.subject}`,
        body: `<p>${escapeHtml(text)}</p>`,
        text,
        attachmentIds: [],
      },
      'out_reply',
      authorId,
    );
  }

  /** Renames a conversation as someone editing its subject in Front's UI (no event; the conversation is not bumped). */
  renameRemotely(id: string, subject: string): void {
    const c = this.conversation(id);
    c.subject = subject;
    this.touch(c);
  }

  setCustomFieldRemotely(id: string, name: string, value: unknown): void {
    const c = this.conversation(id);
    this.updateConversation(id, { custom_fields: { ...c.custom_fields, [name]: value } });
  }
}

export function stripTags(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
