/**
 * Gorgias REST API simulator (https://<account>.gorgias.com/api/…) for integration tests and benchmarks,
 * built on the shared HTTP kit. Gorgias publishes no machine-readable API description; the simulator
 * follows the reference at developers.gorgias.com and checks every request against what it documents
 * (contract.ts): unknown or invalid parameters and bodies answer 400 and are recorded in
 * `contractViolations`, which tests assert stay empty.
 *
 * Auth: HTTP Basic `email:api_key` of a registered credential, or `Bearer <token>`; otherwise 401.
 * Errors: `{"error": {"msg": "…", "data": {<field>: ["…"]}}}`; 401 is `{"message": "Unauthorized"}`.
 * Rate limit: a leaky bucket per account (default 40 calls, leaking 40 per 20 s, as for API keys); every
 * answer carries `X-Gorgias-Account-Api-Call-Limit: <used>/<limit>`; with `rateLimit.enforce` a full
 * bucket answers 429 with `Retry-After` (seconds).
 * Lists: cursor pagination — `limit` (1–100, default 30), `cursor` → `{object: "list", uri, data,
 * meta: {prev_cursor, next_cursor}}`; cursors expire after `cursorTtlMs` (400).
 *
 * Endpoints:
 *   GET    /api/users, /api/users/{id}              id 0 = the authenticated user; order_by, email, roles
 *   GET    /api/teams, /api/teams/{id}              members
 *   GET    /api/customers, /api/customers/{id}      by name; email filter
 *   GET    /api/tags, /api/tags/{id}                order_by usage|name|created_datetime
 *   GET    /api/custom-fields, /api/custom-fields/{id}   object_type required
 *   GET    /api/tickets                             order_by created|updated_datetime:asc|desc, trashed, customer_id, ticket_ids
 *   POST   /api/tickets                             201; messages (1–500) and via required
 *   GET    /api/tickets/{id}, PUT /api/tickets/{id}, DELETE /api/tickets/{id} (204, for good)
 *   GET    /api/tickets/{id}/custom-fields, PUT (only the fields sent change)
 *   GET    /api/tickets/{id}/messages (deprecated list), POST (201), GET /api/tickets/{id}/messages/{mid}
 *   GET    /api/messages                            order_by created_datetime:asc|desc, ticket_id
 *   POST   /api/upload?type=                        multipart, 201 [{url, name, size, content_type}]
 *   GET    /api/{file_type}/download/{hash}/{name}  the uploaded file
 *   POST   /api/integrations (type http, 201), GET / DELETE /api/integrations/{id}   HTTP integrations (hooks.ts)
 */
import http from 'node:http';
import {
  FaultController,
  SimClock,
  SimHttpError,
  startSimServer,
  type ActiveFault,
  type FaultSpec,
  type RecordedRequest,
  type SimRequest,
  type SimResponse,
} from '../shared/http-kit';
import { noRoute } from '../shared/no-route';
import { compareKeys, type SortKey } from '../shared/keyset';
import { asFieldErrors, BODIES, checkBody, checkQuery, QUERIES, type Schema } from './contract';
import { boundaryOf, parseMultipart } from './multipart';
import { GorgiasHooks, type SimHttpIntegration } from './hooks';
import { gorgiasDate, Serializer } from './serialize';
import { GorgiasError, GorgiasState, invalid, notFound, type SimCustomField, type SimMessage, type SimTag, type SimTeam, type SimTicket, type SimUser } from './state';

export { GorgiasState, GorgiasError, FaultController, SimClock };
export { gorgiasDate } from './serialize';
export { GorgiasHooks, renderTemplate, type SimHttpIntegration, type GorgiasTrigger } from './hooks';
export type { ActiveFault, FaultSpec, RecordedRequest };
export type * from './state';

export interface GorgiasCredential {
  email: string;
  apiKey: string;
}

export interface GorgiasSimulatorOptions {
  /** API keys; default one, `api@acme.example` / `gorgias-test-key`. Each email is (or becomes) an admin user. */
  credentials?: GorgiasCredential[];
  /** OAuth access tokens accepted as `Authorization: Bearer` (acting as the first credential's user). */
  accessTokens?: string[];
  /** Create the default users, team, customers, tags, custom fields and a ticket. Default true. */
  seedDefaults?: boolean;
  /** The account's leaky bucket: `limit` calls, leaking `limit` per `windowSeconds`. With `enforce`, a full bucket answers 429. */
  rateLimit?: { limit?: number; windowSeconds?: number; enforce?: boolean };
  /** Age after which a cursor is refused with 400 (Gorgias cursors are short-lived). Default 1 hour. */
  cursorTtlMs?: number;
  /** Upload size limit (413 beyond). Default 20 MB. */
  maxUploadBytes?: number;
  /** Ticket lists leave out each ticket's `messages`. Default false. */
  listWithoutMessages?: boolean;
  now?: () => number;
  recordBodies?: boolean;
}

export interface GorgiasSeed {
  /** The default credential's user (admin). */
  apiUser: number;
  /** Sam Agent and Robin Lead (agents), members of team Tier 1. */
  sam: number;
  robin: number;
  team: number;
  /** Casey Customer (casey@customer.example, +15550100) and Jordan Buyer. */
  casey: number;
  jordan: number;
  billingTag: number;
  /** Ticket custom fields: Order number (text), Refund amount (number), Escalated (boolean). */
  orderNumberField: number;
  refundField: number;
  escalatedField: number;
  /** Customer custom field Plan (text). */
  planField: number;
  /** Casey's ticket: an incoming message, an agent reply and an internal note; tag billing; assigned to Sam. */
  ticket: number;
}

export interface ContractViolation {
  method: string;
  path: string;
  problems: Array<{ path: string; message: string }>;
}

export interface GorgiasSimulator {
  /** The account URL (the connection's base_url); the API is under `${url}/api`. */
  readonly url: string;
  readonly state: GorgiasState;
  readonly credentials: readonly GorgiasCredential[];
  readonly seed: GorgiasSeed | undefined;
  readonly requests: RecordedRequest[];
  readonly faults: FaultController;
  readonly clock: SimClock;
  /** Requests that sent something the reference does not document (answered 400). */
  readonly contractViolations: ContractViolation[];
  clearContractViolations(): void;
  clearRequests(): void;
  /** `Basic …` header value for a credential (default the first one). */
  authHeader(cred?: GorgiasCredential): string;
  /** A ticket as `GET /api/tickets/{id}` answers it, or undefined once deleted for good. */
  ticketJson(id: number): Record<string, unknown> | undefined;
  /** A change made in the helpdesk (bumps `updated_datetime`). */
  updateTicketRemotely(
    id: number,
    patch: { subject?: string; status?: 'open' | 'closed'; priority?: SimTicket['priority']; snoozeUntil?: number | null; tags?: string[]; customFields?: Record<number, unknown> },
  ): SimTicket;
  /** A message written in the helpdesk (an agent reply by default) or received from the customer. */
  addMessageRemotely(ticketId: number, input: { text: string; fromAgent?: boolean; senderId?: number; public?: boolean }): SimMessage;
  /** "Delete" in the helpdesk: the ticket goes to the trash (`trashed_datetime`). */
  trashTicketRemotely(id: number): void;
  /** Deleted for good, as `DELETE /api/tickets/{id}` does. */
  deleteTicketRemotely(id: number): void;
  /** `n` tickets from new customers, each with `messagesPerTicket` messages; ids oldest first. */
  seedTickets(n: number, opts?: { messagesPerTicket?: number }): number[];
  /** The next `times` requests answer 429 with `Retry-After` and a full call-limit header. */
  rateLimited(times: number, retryAfterSeconds?: number): ActiveFault;
  /** HTTP integrations created through the API, and the requests their triggers sent. */
  readonly hooks: GorgiasHooks;
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;

const DEFAULT_CREDENTIAL: GorgiasCredential = { email: 'api@acme.example', apiKey: 'gorgias-test-key' };

export const errorBody = (msg: string, data?: Record<string, unknown>): Obj => ({ error: { msg, ...(data ? { data } : {}) } });

function defaultFaultBody(status: number): Obj {
  if (status === 401) return { message: 'Unauthorized' };
  if (status === 403) return errorBody('Forbidden');
  if (status === 404) return errorBody('Resource not found');
  if (status === 429) return errorBody('Too many requests. Please retry later.');
  if (status >= 500) return errorBody('Internal server error');
  return errorBody(http.STATUS_CODES[status] ?? 'Error');
}

function fail(status: number, msg: string, data?: Record<string, unknown>): never {
  throw new SimHttpError({ status, body: errorBody(msg, data) });
}


interface Route {
  method: string;
  regex: RegExp;
  keys: string[];
  handler: (req: SimRequest, p: Record<string, string>, who: SimUser) => SimResponse;
}

function route(method: string, pattern: string, handler: Route['handler']): Route {
  const keys: string[] = [];
  const regex = new RegExp(
    `^${pattern.replace(/\{(\w+)\}/g, (_m, k: string) => {
      keys.push(k);
      return '([^/]+)';
    })}/?$`,
  );
  return { method, regex, keys, handler };
}

function seedDefaults(state: GorgiasState, apiUser: SimUser): GorgiasSeed {
  const sam = state.addUser({ email: 'sam@acme.example', firstname: 'Sam', lastname: 'Agent', role: 'agent' });
  const robin = state.addUser({ email: 'robin@acme.example', firstname: 'Robin', lastname: 'Lead', role: 'agent', bio: 'Team lead' });
  const team = state.addTeam('Tier 1', [sam.id, robin.id], { description: 'First line support', emoji: '🛟' });
  const casey = state.addCustomer({ email: 'casey@customer.example', firstname: 'Casey', lastname: 'Customer', phone: '+15550100', note: 'Prefers email' });
  const jordan = state.addCustomer({ email: 'jordan@buyer.example', firstname: 'Jordan', lastname: 'Buyer' });
  const billing = state.addTag('billing', { color: '#F58D86' });
  state.addTag('vip');
  const orderNumber = state.addCustomField('Ticket', 'Order number', 'text', { description: 'The order the ticket is about' });
  const refund = state.addCustomField('Ticket', 'Refund amount', 'number');
  const escalated = state.addCustomField('Ticket', 'Escalated', 'boolean');
  state.addCustomField('Ticket', 'Legacy reason', 'text', { deactivated: true });
  const plan = state.addCustomField('Customer', 'Plan', 'text');
  const ticket = state.createTicket({
    subject: 'Where is my order?',
    status: 'open',
    priority: 'normal',
    channel: 'email',
    via: 'email',
    fromAgent: false,
    customerId: casey.id,
    assigneeUserId: sam.id,
    assigneeTeamId: team.id,
    tagNames: ['billing'],
    fields: [{ id: orderNumber.id, value: 'ORD-7' }],
    externalId: null,
    spam: false,
  });
  const base = { channel: 'email', via: 'email', subject: 'Where is my order?', attachments: [], externalId: null };
  state.addMessage(ticket, { ...base, public: true, fromAgent: false, sender: { kind: 'customer', id: casey.id }, receiver: null, bodyText: 'It has been two weeks.', bodyHtml: '<p>It has been two weeks.</p>', sent: null });
  state.addMessage(ticket, {
    ...base,
    public: true,
    fromAgent: true,
    sender: { kind: 'user', id: sam.id },
    receiver: { kind: 'customer', id: casey.id },
    bodyText: 'Checking with the warehouse.',
    bodyHtml: '<p>Checking with the warehouse.</p>',
    sent: state.now(),
  });
  state.addMessage(ticket, {
    ...base,
    channel: 'internal-note',
    via: 'helpdesk',
    public: false,
    fromAgent: true,
    sender: { kind: 'user', id: sam.id },
    receiver: null,
    bodyText: 'Carrier lost it, refund?',
    bodyHtml: '<p>Carrier lost it, refund?</p>',
    sent: null,
  });
  return {
    apiUser: apiUser.id,
    sam: sam.id,
    robin: robin.id,
    team: team.id,
    casey: casey.id,
    jordan: jordan.id,
    billingTag: billing.id,
    orderNumberField: orderNumber.id,
    refundField: refund.id,
    escalatedField: escalated.id,
    planField: plan.id,
    ticket: ticket.id,
  };
}

export async function startGorgiasSimulator(opts: GorgiasSimulatorOptions = {}): Promise<GorgiasSimulator> {
  const clock = new SimClock(opts.now);
  const state = new GorgiasState(clock);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const contractViolations: ContractViolation[] = [];
  let origin = '';
  const ser = new Serializer(state, () => origin);
  const hooks = new GorgiasHooks(state, ser);

  const credentials = opts.credentials?.length ? [...opts.credentials] : [DEFAULT_CREDENTIAL];
  const userOfKey = new Map<string, { apiKey: string; userId: number }>();
  const names = ['Alex', 'Blake', 'Charlie', 'Dana'];
  credentials.forEach((c, i) => {
    const u = state.userByEmail(c.email) ?? state.addUser({ email: c.email, firstname: names[i % names.length]!, lastname: 'Admin', role: 'admin' });
    userOfKey.set(c.email.toLowerCase(), { apiKey: c.apiKey, userId: u.id });
  });
  const firstUser = state.users.get(userOfKey.get(credentials[0]!.email.toLowerCase())!.userId)!;
  const accessTokens = new Set(opts.accessTokens ?? []);
  const seed = opts.seedDefaults === false ? undefined : seedDefaults(state, firstUser);
  const cursorTtlMs = opts.cursorTtlMs ?? 60 * 60_000;
  const maxUploadBytes = opts.maxUploadBytes ?? 20 * 1024 * 1024;

  // ---------------------------------------------------------------- leaky bucket
  const limit = opts.rateLimit?.limit ?? 40;
  const leakPerMs = limit / ((opts.rateLimit?.windowSeconds ?? 20) * 1000);
  let bucket = { level: 0, at: clock.now() };
  const leak = () => {
    const now = clock.now();
    bucket = { level: Math.max(0, bucket.level - (now - bucket.at) * leakPerMs), at: now };
    return bucket;
  };
  const callLimit = (full = false) => ({ 'x-gorgias-account-api-call-limit': `${full ? limit : Math.min(limit, Math.ceil(leak().level))}/${limit}` });

  // ---------------------------------------------------------------- auth
  const authOf = (req: SimRequest): { scheme: string; label: string | null; user?: SimUser } => {
    const h = req.headers.authorization;
    if (typeof h !== 'string') return { scheme: 'none', label: null };
    const basic = /^basic\s+(\S+)\s*$/i.exec(h);
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const sep = decoded.indexOf(':');
      const email = decoded.slice(0, sep).toLowerCase();
      const hit = userOfKey.get(email);
      const ok = sep > 0 && hit !== undefined && hit.apiKey === decoded.slice(sep + 1);
      return { scheme: 'basic', label: ok ? email : null, user: ok ? state.users.get(hit.userId) : undefined };
    }
    const bearer = /^bearer\s+(\S+)\s*$/i.exec(h);
    if (bearer) return { scheme: 'bearer', label: accessTokens.has(bearer[1]!) ? 'token' : null, user: accessTokens.has(bearer[1]!) ? firstUser : undefined };
    return { scheme: 'other', label: null };
  };

  // ---------------------------------------------------------------- contract checks
  const violation = (req: SimRequest, problems: Array<{ path: string; message: string }>): never => {
    contractViolations.push({ method: req.method, path: req.path, problems });
    fail(400, 'Invalid data', asFieldErrors(problems));
  };
  const checkQ = (req: SimRequest, kind: keyof typeof QUERIES) => {
    const problems = checkQuery(req.query, QUERIES[kind]!);
    if (problems.length) violation(req, problems);
  };
  const checkB = (req: SimRequest, schema: Schema): unknown => {
    if (req.bodyError) violation(req, [{ path: '_schema', message: 'Invalid JSON body.' }]);
    if (req.body === undefined) violation(req, [{ path: '_schema', message: 'Missing request body.' }]);
    const problems = checkBody(req.body, schema);
    if (problems.length) violation(req, problems);
    return req.body;
  };

  // ---------------------------------------------------------------- pagination
  interface Cursor {
    k: SortKey;
    o: string;
    p?: boolean;
    at: number;
  }
  const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
  const decodeCursor = (raw: string, order: string): Cursor => {
    try {
      const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
      if (Array.isArray(c.k) && c.o === order && typeof c.at === 'number') {
        if (clock.now() - c.at > cursorTtlMs) fail(400, 'Invalid data', { cursor: ['This cursor has expired.'] });
        return c;
      }
    } catch (err) {
      if (err instanceof SimHttpError) throw err;
    }
    return fail(400, 'Invalid data', { cursor: ['Invalid cursor.'] });
  };

  /** `order_by` values → sort key and direction: `field:asc` and `field:desc` for each field, plus extras. */
  const orders = <T>(fields: Record<string, (x: T) => SortKey>, extra: Record<string, [(x: T) => SortKey, 1 | -1]> = {}) => {
    const out: Record<string, [(x: T) => SortKey, 1 | -1]> = { ...extra };
    for (const [f, key] of Object.entries(fields)) {
      out[`${f}:asc`] = [key, 1];
      out[`${f}:desc`] = [key, -1];
    }
    return out;
  };

  const list = <T>(req: SimRequest, items: T[], sorts: Record<string, [(x: T) => SortKey, 1 | -1]>, dflt: string, render: (x: T) => unknown): SimResponse => {
    const q = req.query;
    const size = q.get('limit') === null ? 30 : Number(q.get('limit'));
    const order = q.get('order_by') ?? dflt;
    const sort = sorts[order];
    if (!sort) fail(400, 'Invalid data', { order_by: [`Must be one of: ${Object.keys(sorts).join(', ')}.`] });
    const [keyOf, sign] = sort;
    const sorted = items
      .map((x) => ({ x, k: keyOf(x) }))
      .sort((a, b) => sign * compareKeys(a.k, b.k))
      .map((e) => e.x);
    const raw = q.get('cursor');
    let start = 0;
    let end: number;
    if (raw) {
      const c = decodeCursor(raw, order);
      if (c.p) {
        end = sorted.findIndex((x) => sign * compareKeys(keyOf(x), c.k) >= 0);
        if (end < 0) end = sorted.length;
        start = Math.max(0, end - size);
      } else {
        start = sorted.findIndex((x) => sign * compareKeys(keyOf(x), c.k) > 0);
        if (start < 0) start = sorted.length;
        end = start + size;
      }
    } else end = size;
    const page = sorted.slice(start, end);
    const at = clock.now();
    const next = end < sorted.length && page.length ? encodeCursor({ k: keyOf(page[page.length - 1]!), o: order, at }) : null;
    const prev = start > 0 && page.length ? encodeCursor({ k: keyOf(page[0]!), o: order, p: true, at }) : null;
    return {
      status: 200,
      body: { object: 'list', uri: `${req.path}${[...q.keys()].length ? `?${q.toString()}` : ''}`, data: page.map(render), meta: { prev_cursor: prev, next_cursor: next } },
    };
  };

  const intId = (raw: string, what: string): number => {
    if (!/^\d+$/.test(raw)) throw notFound(what);
    return Number(raw);
  };
  const ticketOf = (raw: string) => state.ticket(intId(raw, 'Ticket'));
  const ok = (body: unknown, status = 200): SimResponse => ({ status, body });
  const listTickets = (t: SimTicket) => ser.ticket(t, { messages: !opts.listWithoutMessages });

  // ---------------------------------------------------------------- tickets
  type AnyBody = Record<string, unknown>;
  const ref = (v: unknown) => (v && typeof v === 'object' ? (v as { id?: unknown; email?: unknown }) : null);

  const createTicket = (req: SimRequest): SimResponse => {
    const b = checkB(req, BODIES.createTicket) as AnyBody;
    const messagesIn = b.messages as AnyBody[];
    const prepared = messagesIn.map((m, i) => {
      const fromAgent = m.from_agent as boolean;
      if (m.channel === 'internal-note' && !fromAgent) throw invalid(`messages.${i}.from_agent`, 'Internal notes are written by agents.');
      return {
        m,
        fromAgent,
        sender: state.person(ref(m.sender), fromAgent, `messages.${i}.sender`),
        receiver: m.receiver ? state.person(ref(m.receiver), false, `messages.${i}.receiver`) : null,
      };
    });
    const first = prepared[0]!;
    let customerId: number | null = null;
    if (b.customer) customerId = state.person(ref(b.customer), false, 'customer').id;
    else if (!first.fromAgent) customerId = first.sender.id;
    else customerId = prepared.find((p) => p.receiver)?.receiver?.id ?? null;
    const assignee = ref(b.assignee_user);
    const team = ref(b.assignee_team);
    if (typeof team?.id === 'number' && !state.teams.has(team.id)) throw invalid('assignee_team.id', `Team ${team.id} does not exist.`);
    const ticket = state.createTicket({
      subject: (b.subject as string | null | undefined) ?? (first.m.subject as string | null | undefined) ?? null,
      status: (b.status as SimTicket['status']) ?? 'open',
      priority: (b.priority as SimTicket['priority']) ?? 'normal',
      channel: (b.channel as string) ?? (first.m.channel as string),
      via: b.via as string,
      fromAgent: (b.from_agent as boolean | undefined) ?? first.fromAgent,
      customerId,
      assigneeUserId: typeof assignee?.id === 'number' ? state.user(assignee.id, 'assignee_user.id').id : null,
      assigneeTeamId: typeof team?.id === 'number' ? team.id : null,
      tagNames: ((b.tags as Array<{ name: string }> | null | undefined) ?? []).map((t) => t.name),
      fields: (b.custom_fields as Array<{ id: number; value: unknown }> | null | undefined) ?? [],
      externalId: (b.external_id as string | null | undefined) ?? null,
      spam: (b.spam as boolean | null | undefined) ?? false,
    });
    for (const p of prepared) addMessage(ticket, p.m, p.fromAgent, p.sender, p.receiver);
    return ok(ser.ticket(ticket), 201);
  };

  const addMessage = (ticket: SimTicket, m: AnyBody, fromAgent: boolean, sender: SimMessage['sender'], receiver: SimMessage['receiver']): SimMessage => {
    const channel = m.channel as string;
    const note = channel === 'internal-note';
    const created = state.now();
    return state.addMessage(ticket, {
      public: note ? false : ((m.public as boolean | undefined) ?? true),
      channel,
      via: m.via as string,
      fromAgent,
      sender,
      receiver,
      subject: (m.subject as string | null | undefined) ?? ticket.subject,
      bodyText: (m.body_text as string | null | undefined) ?? null,
      bodyHtml: (m.body_html as string | null | undefined) ?? null,
      attachments: ((m.attachments as AnyBody[] | null | undefined) ?? []).map((a) => ({
        url: a.url as string,
        name: a.name as string,
        size: a.size === undefined || a.size === null ? null : Number(a.size),
        contentType: (a.content_type as string | null | undefined) ?? null,
        public: (a.public as boolean | null | undefined) ?? null,
      })),
      externalId: (m.external_id as string | null | undefined) ?? null,
      // Imported messages carry their sending time; others are sent at once (the api channel delivers nothing).
      sent: typeof m.sent_datetime === 'string' ? Date.parse(m.sent_datetime) : note ? null : created,
      created,
    });
  };

  const updateTicket = (req: SimRequest, raw: string): SimResponse => {
    const t = ticketOf(raw);
    const b = checkB(req, BODIES.updateTicket) as AnyBody;
    if (b.subject !== undefined) t.subject = b.subject as string | null;
    if (b.priority !== undefined) t.priority = b.priority as SimTicket['priority'];
    if (b.channel !== undefined) t.channel = b.channel as string;
    if (b.via !== undefined) t.via = b.via as string;
    if (b.customer !== undefined) t.customerId = b.customer === null ? null : state.person(ref(b.customer), false, 'customer').id;
    if (b.assignee_user !== undefined) {
      const a = ref(b.assignee_user);
      t.assigneeUserId = typeof a?.id === 'number' ? state.user(a.id, 'assignee_user.id').id : null;
    }
    if (b.assignee_team !== undefined) {
      const a = ref(b.assignee_team);
      if (typeof a?.id === 'number' && !state.teams.has(a.id)) throw invalid('assignee_team.id', `Team ${a.id} does not exist.`);
      t.assigneeTeamId = typeof a?.id === 'number' ? a.id : null;
    }
    if (b.tags !== undefined) state.setTags(t, ((b.tags as Array<{ name: string }> | null) ?? []).map((x) => x.name));
    // A `custom_fields` array replaces every value of the ticket (use /custom-fields to change some).
    if (b.custom_fields !== undefined) state.setCustomFields(t, (b.custom_fields as Array<{ id: number; value: unknown }> | null) ?? [], 'custom_fields', true);
    if (b.status !== undefined) state.setStatus(t, b.status as SimTicket['status']);
    if (b.snooze_datetime !== undefined) t.snooze = b.snooze_datetime === null ? null : Date.parse(`${String(b.snooze_datetime).replace(/(Z|[+-]\d{2}:?\d{2})$/, '')}Z`);
    if (b.trashed_datetime !== undefined) t.trashed = b.trashed_datetime === null ? null : state.now();
    if (b.spam !== undefined) t.spam = Boolean(b.spam);
    if (b.external_id !== undefined) t.externalId = b.external_id as string | null;
    if (b.language !== undefined) t.language = b.language as string | null;
    if (b.meta !== undefined) t.meta = b.meta as Record<string, unknown> | null;
    state.touch(t);
    return ok(ser.ticket(t));
  };

  const createMessage = (req: SimRequest, raw: string): SimResponse => {
    checkQ(req, 'messageCreate');
    const t = ticketOf(raw);
    const m = checkB(req, BODIES.createMessage) as AnyBody;
    const fromAgent = m.from_agent as boolean;
    if (m.channel === 'internal-note' && !fromAgent) throw invalid('from_agent', 'Internal notes are written by agents.');
    const sender = state.person(ref(m.sender), fromAgent, 'sender');
    const receiver = m.receiver ? state.person(ref(m.receiver), false, 'receiver') : null;
    return ok(ser.message(addMessage(t, m, fromAgent, sender, receiver)), 201);
  };

  const fieldValues = (t: SimTicket) => [...t.fields.keys()].map((id) => ser.fieldValue(t, id)).filter(Boolean);

  // ---------------------------------------------------------------- routes
  const byName = (name: string | null, id: number): SortKey => [(name ?? '').toLowerCase(), id];
  const routes: Route[] = [
    route('GET', '/api/users', (req) => {
      checkQ(req, 'users');
      const q = req.query;
      const roles = q.getAll('roles').flatMap((r) => r.split(','));
      const search = q.get('search')?.toLowerCase();
      const items = [...state.users.values()].filter(
        (u) =>
          (!q.get('email') || u.email.toLowerCase() === q.get('email')!.toLowerCase()) &&
          (roles.length === 0 || roles.includes(u.role)) &&
          (!search || `${u.firstname} ${u.lastname} ${u.email}`.toLowerCase().includes(search)),
      );
      const name = (u: SimUser) => `${u.firstname} ${u.lastname}`;
      const sorts = orders<SimUser>({ created_datetime: (u) => [u.created, u.id], name: (u) => byName(name(u), u.id), email: (u) => [u.email, u.id], 'role.name': (u) => [u.role, u.id] });
      return list(req, items, sorts, 'name:asc', (u) => ser.user(u));
    }),
    route('GET', '/api/users/{id}', (req, p, who) => {
      checkQ(req, 'none');
      const id = intId(p.id!, 'User');
      const u = id === 0 ? who : state.users.get(id);
      if (!u) throw notFound('User');
      return ok(ser.user(u));
    }),
    route('GET', '/api/teams', (req) => {
      checkQ(req, 'teams');
      const sorts = orders<SimTeam>({ created_datetime: (t) => [t.created, t.id], name: (t) => byName(t.name, t.id) });
      return list(req, [...state.teams.values()], sorts, 'created_datetime:desc', (t) => ser.team(t));
    }),
    route('GET', '/api/teams/{id}', (req, p) => {
      checkQ(req, 'none');
      const t = state.teams.get(intId(p.id!, 'Team'));
      if (!t) throw notFound('Team');
      return ok(ser.team(t));
    }),
    route('GET', '/api/customers', (req) => {
      checkQ(req, 'customers');
      const email = req.query.get('email');
      const items = [...state.customers.values()].filter((c) => !email || state.customerByEmail(email)?.id === c.id);
      // Listed by name, the only order the reference gives for customers.
      return list(req, items, { default: [(c) => byName(c.name, c.id), 1] }, 'default', (c) => ser.customer(c));
    }),
    route('GET', '/api/customers/{id}', (req, p) => {
      checkQ(req, 'none');
      const c = state.customers.get(intId(p.id!, 'Customer'));
      if (!c) throw notFound('Customer');
      return ok(ser.customer(c));
    }),
    route('GET', '/api/tags', (req) => {
      checkQ(req, 'tags');
      const search = req.query.get('search');
      const items = [...state.tags.values()].filter((t) => t.deleted === null && (!search || t.name.includes(search)));
      const created = (t: SimTag): SortKey => [t.created, t.id];
      const name = (t: SimTag): SortKey => byName(t.name, t.id);
      const usage = (t: SimTag): SortKey => [state.usage(t.id), t.name.toLowerCase(), t.id];
      const sorts = orders<SimTag>({ created_datetime: created, name }, { created_datetime: [created, 1], name: [name, 1], usage: [usage, 1], 'usage:asc,name:asc': [usage, 1], 'usage:desc,name:desc': [usage, -1] });
      return list(req, items, sorts, 'created_datetime:desc', (t) => ser.tag(t));
    }),
    route('GET', '/api/tags/{id}', (req, p) => {
      checkQ(req, 'none');
      const t = state.tags.get(intId(p.id!, 'Tag'));
      if (!t || t.deleted !== null) throw notFound('Tag');
      return ok(ser.tag(t));
    }),
    route('GET', '/api/custom-fields', (req) => {
      checkQ(req, 'customFields');
      const type = req.query.get('object_type');
      if (!type) violation(req, [{ path: 'object_type', message: 'Missing data for required field.' }]);
      const archived = req.query.get('archived');
      const items = [...state.customFields.values()].filter((f) => f.objectType === type && (archived === null || (f.deactivated !== null) === (archived === 'true')));
      return list(req, items, orders<SimCustomField>({ priority: (f) => [f.priority, f.id] }), 'priority:desc', (f) => ser.customField(f));
    }),
    route('GET', '/api/custom-fields/{id}', (req, p) => {
      checkQ(req, 'none');
      const f = state.customFields.get(intId(p.id!, 'Custom field'));
      if (!f) throw notFound('Custom field');
      return ok(ser.customField(f));
    }),

    route('GET', '/api/tickets', (req) => {
      checkQ(req, 'tickets');
      const q = req.query;
      const trashed = q.get('trashed') !== 'false';
      const customer = q.get('customer_id');
      const ids = q.getAll('ticket_ids').map(Number);
      const items = [...state.tickets.values()].filter(
        (t) =>
          (trashed || t.trashed === null) &&
          (!customer || t.customerId === Number(customer)) &&
          (!q.get('external_id') || t.externalId === q.get('external_id')) &&
          (ids.length === 0 || ids.includes(t.id)),
      );
      return list(req, items, orders<SimTicket>({ created_datetime: (t) => [t.created, t.id], updated_datetime: (t) => [t.updated, t.id] }), 'created_datetime:desc', listTickets);
    }),
    route('POST', '/api/tickets', (req) => {
      checkQ(req, 'none');
      return createTicket(req);
    }),
    route('GET', '/api/tickets/{id}', (req, p) => {
      checkQ(req, 'none');
      return ok(ser.ticket(ticketOf(p.id!)));
    }),
    route('PUT', '/api/tickets/{id}', (req, p) => {
      checkQ(req, 'none');
      return updateTicket(req, p.id!);
    }),
    route('DELETE', '/api/tickets/{id}', (req, p) => {
      checkQ(req, 'none');
      state.deleteTicket(intId(p.id!, 'Ticket'));
      return { status: 204 };
    }),
    route('GET', '/api/tickets/{id}/custom-fields', (req, p) => {
      checkQ(req, 'none');
      return ok(fieldValues(ticketOf(p.id!)));
    }),
    route('PUT', '/api/tickets/{id}/custom-fields', (req, p) => {
      checkQ(req, 'none');
      const t = ticketOf(p.id!);
      const values = checkB(req, BODIES.ticketCustomFields) as Array<{ id: number; value: unknown }>;
      state.setCustomFields(t, values, '_schema', false);
      state.touch(t);
      return ok(values.map((v) => ser.fieldValue(t, v.id)).filter(Boolean));
    }),
    route('GET', '/api/tickets/{id}/messages', (req, p) => {
      checkQ(req, 'messages');
      const t = ticketOf(p.id!);
      return list(req, state.messagesOf(t.id), orders<SimMessage>({ created_datetime: (m) => [m.created, m.id] }), 'created_datetime:asc', (m) => ser.message(m));
    }),
    route('POST', '/api/tickets/{id}/messages', (req, p) => createMessage(req, p.id!)),
    route('GET', '/api/tickets/{id}/messages/{mid}', (req, p) => {
      checkQ(req, 'none');
      const t = ticketOf(p.id!);
      const m = state.messages.get(intId(p.mid!, 'Message'));
      if (!m || m.ticketId !== t.id) throw notFound('Message');
      return ok(ser.message(m));
    }),
    route('GET', '/api/messages', (req) => {
      checkQ(req, 'messages');
      const ticketId = req.query.get('ticket_id');
      const items = [...state.messages.values()].filter((m) => !ticketId || m.ticketId === Number(ticketId));
      return list(req, items, orders<SimMessage>({ created_datetime: (m) => [m.created, m.id] }), 'created_datetime:desc', (m) => ser.message(m));
    }),

    route('POST', '/api/upload', (req) => {
      checkQ(req, 'upload');
      const boundary = boundaryOf(req.headers['content-type']);
      if (!boundary) violation(req, [{ path: '_schema', message: 'Expected multipart/form-data.' }]);
      if (Buffer.byteLength(req.rawBody, 'utf8') > maxUploadBytes) fail(413, 'Request Entity Too Large');
      const parts = parseMultipart(req.rawBody, boundary!);
      if (parts.length === 0) violation(req, [{ path: 'file', message: 'Missing data for required field.' }]);
      const type = req.query.get('type') ?? 'attachment';
      const files = parts.map((part) => {
        const f = state.addFile({ name: part.name, contentType: part.contentType, content: part.content, type });
        // The reference's example answers the size as a string.
        return { url: ser.fileUrl(f.hash, f.name, type), name: f.name, size: String(f.content.length), content_type: f.contentType };
      });
      return ok(files, 201);
    }),
    route('POST', '/api/integrations', (req, _p, who) => {
      checkQ(req, 'none');
      const b = checkB(req, BODIES.createIntegration) as { name: string; description?: string | null; http: Partial<SimHttpIntegration['http']> & { url: string; method: string } };
      const { request_content_type: requestType, response_content_type: responseType, triggers, ...http } = b.http;
      const created = hooks.create({
        name: b.name,
        description: b.description,
        http: { ...http, request_content_type: requestType ?? 'application/json', response_content_type: responseType ?? 'application/json', triggers: triggers ?? {} },
      });
      return ok(integrationJson(created, who), 201);
    }),
    route('GET', '/api/integrations/{id}', (req, _p, who) => {
      checkQ(req, 'none');
      const i = hooks.integrations.get(intId(_p.id!, 'Integration'));
      if (!i) throw notFound('Integration');
      return ok(integrationJson(i, who));
    }),
    route('DELETE', '/api/integrations/{id}', (req, p) => {
      checkQ(req, 'none');
      if (!hooks.integrations.delete(intId(p.id!, 'Integration'))) throw notFound('Integration');
      return { status: 204 };
    }),
    route('GET', '/api/{type}/download/{domain}/{resource}', (req, p) => {
      checkQ(req, 'none');
      const hash = p.resource!.split('-')[0]!;
      const f = state.files.get(hash);
      if (!f || p.domain !== state.domainHash) throw notFound('File');
      return { status: 200, body: f.content.toString('utf8'), headers: { 'content-type': f.contentType } };
    }),
  ];

  const integrationJson = (i: SimHttpIntegration, who: SimUser): Obj => ({
    id: i.id,
    name: i.name,
    description: i.description,
    type: 'http',
    http: { id: i.id + 1000, ...i.http },
    created_datetime: gorgiasDate(i.created),
    updated_datetime: gorgiasDate(i.updated),
    deactivated_datetime: null,
    managed: false,
    application_id: null,
    user: { id: who.id },
    uri: `/api/integrations/${i.id}/`,
  });

  const dispatch = (req: SimRequest, who: SimUser): SimResponse => {
    for (const r of routes) {
      if (r.method !== req.method) continue;
      const m = r.regex.exec(req.path);
      if (!m) continue;
      const params: Record<string, string> = {};
      r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? '')));
      try {
        return r.handler(req, params, who);
      } catch (err) {
        if (err instanceof GorgiasError) return { status: err.status, body: errorBody(err.msg, err.data) };
        throw err;
      }
    }
    return noRoute({ status: 404, body: errorBody('Resource not found') });
  };

  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    describeAuth: (req) => {
      const a = authOf(req);
      return a.scheme === 'none' ? null : { scheme: a.scheme, label: a.label, valid: a.user !== undefined };
    },
    faultResponse: (fault) => ({ status: fault.status!, body: defaultFaultBody(fault.status!), headers: fault.status === 429 ? callLimit(true) : {} }),
    handle: (req) => {
      const b = leak();
      if (opts.rateLimit?.enforce && b.level + 1 > limit) {
        const retry = Math.max(1, Math.ceil((b.level + 1 - limit) / leakPerMs / 1000));
        return { status: 429, body: defaultFaultBody(429), headers: { ...callLimit(true), 'retry-after': String(retry) } };
      }
      b.level += 1;
      const who = authOf(req).user;
      // The reference documents 401 answers as {"message": "Unauthorized"}.
      if (!who) return { status: 401, body: { message: 'Unauthorized' } };
      return dispatch(req, who);
    },
    decorate: (_req, res) => {
      res.headers = { ...callLimit(), ...(res.headers ?? {}) };
    },
    internalError: (err) => ({ status: 500, body: errorBody('Internal server error', { detail: [(err as Error)?.message ?? String(err)] }) }),
  });
  origin = server.url;

  const encodeBasic = (c: GorgiasCredential) => `Basic ${Buffer.from(`${c.email}:${c.apiKey}`).toString('base64')}`;

  return {
    url: origin,
    state,
    credentials,
    seed,
    requests,
    faults,
    clock,
    contractViolations,
    clearContractViolations: () => void (contractViolations.length = 0),
    clearRequests: () => void (requests.length = 0),
    authHeader: (c = credentials[0]!) => encodeBasic(c),
    ticketJson: (id) => {
      const t = state.tickets.get(id);
      return t ? ser.ticket(t) : undefined;
    },
    updateTicketRemotely: (id, patch) => {
      const t = state.ticket(id);
      if (patch.subject !== undefined) t.subject = patch.subject;
      if (patch.status !== undefined) state.setStatus(t, patch.status);
      if (patch.priority !== undefined) t.priority = patch.priority;
      if (patch.snoozeUntil !== undefined) {
        t.snooze = patch.snoozeUntil;
        if (patch.snoozeUntil !== null) state.setStatus(t, 'closed');
      }
      if (patch.tags !== undefined) state.setTags(t, patch.tags);
      if (patch.customFields) state.setCustomFields(t, Object.entries(patch.customFields).map(([k, value]) => ({ id: Number(k), value })), 'custom_fields', false);
      state.touch(t);
      return t;
    },
    addMessageRemotely: (ticketId, input) => {
      const t = state.ticket(ticketId);
      const fromAgent = input.fromAgent ?? true;
      const senderId = input.senderId ?? (fromAgent ? (seed?.sam ?? firstUser.id) : t.customerId);
      if (senderId === null) throw new Error(`ticket ${ticketId} has no customer to write the message`);
      return state.addMessage(t, {
        public: input.public ?? true,
        channel: input.public === false ? 'internal-note' : 'email',
        via: 'helpdesk',
        fromAgent,
        sender: { kind: fromAgent ? 'user' : 'customer', id: senderId },
        receiver: fromAgent && t.customerId !== null ? { kind: 'customer', id: t.customerId } : null,
        subject: t.subject,
        bodyText: input.text,
        bodyHtml: `<p>${input.text}</p>`,
        attachments: [],
        externalId: null,
        sent: state.now(),
      });
    },
    trashTicketRemotely: (id) => state.trash(state.ticket(id)),
    deleteTicketRemotely: (id) => state.deleteTicket(id),
    seedTickets: (n, o = {}) => {
      const out: number[] = [];
      const agent = seed?.sam ?? firstUser.id;
      for (let i = 0; i < n; i++) {
        const c = state.addCustomer({ email: `customer${i}@shop.example`, firstname: 'Customer', lastname: String(i) });
        const t = state.createTicket({
          subject: `Seeded ${i}`,
          status: 'open',
          priority: 'normal',
          channel: 'email',
          via: 'email',
          fromAgent: false,
          customerId: c.id,
          assigneeUserId: null,
          assigneeTeamId: null,
          tagNames: [],
          fields: [],
          externalId: null,
          spam: false,
        });
        for (let k = 0; k < (o.messagesPerTicket ?? 1); k++) {
          const fromAgent = k % 2 === 1;
          state.addMessage(t, {
            public: true,
            channel: 'email',
            via: 'email',
            fromAgent,
            sender: fromAgent ? { kind: 'user', id: agent } : { kind: 'customer', id: c.id },
            receiver: fromAgent ? { kind: 'customer', id: c.id } : null,
            subject: t.subject,
            bodyText: `Message ${i}.${k}`,
            bodyHtml: `<p>Message ${i}.${k}</p>`,
            attachments: [],
            externalId: null,
            sent: null,
          });
        }
        out.push(t.id);
      }
      return out;
    },
    rateLimited: (times, retryAfterSeconds = 1) => faults.add({ status: 429, times, retryAfterSeconds }),
    hooks,
    async close() {
      hooks.sender.enabled = false;
      await hooks.sender.settle();
      await server.close();
    },
  };
}
