/**
 * Front Core API simulator (api2.frontapp.com) for integration tests and benchmarks, built on the shared
 * HTTP kit.
 *
 * Auth: `Authorization: Bearer <API token>`; a missing or unknown token answers 401, a token without the
 * events scope answers 403 on `/events`. Errors are `{"_error": {status, title, message, details?}}`.
 * Every response carries `x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset` (epoch
 * seconds) for the company's one-minute window; with `rateLimit.enforce` an exhausted window answers 429
 * with `retry-after` (seconds). Lists that Front paginates take `limit` (≤ 100; events ≤ 15) and
 * `page_token` (keyset, stable while records change) and answer `_pagination.next` (a full URL).
 *
 * Endpoints:
 *   GET    /me                                          the token's company
 *   GET    /teammates, /teams, /teams/{id}, /inboxes, /inboxes/{id}, /inboxes/{id}/channels, /channels
 *   GET    /contacts                                   q[updated_after|updated_before], sort_by, sort_order, paginated
 *   GET    /contacts/{id}                              also the alias alt:email:<address>
 *   GET    /accounts, /accounts/{id}/contacts          paginated
 *   GET    /tags (paginated), POST /tags
 *   GET    /conversations/custom_fields, /contacts/custom_fields, /accounts/custom_fields, /teammates/custom_fields
 *   GET    /company/statuses                           404 when ticketing is disabled
 *   GET    /conversations                              newest activity first; q[statuses][]; paginated
 *   POST   /conversations                              discussion or task (JSON, or multipart with comment[attachments][i])
 *   GET    /conversations/{id}, PATCH /conversations/{id} (204), PUT /conversations/{id}/assignee (204)
 *   POST   /conversations/{id}/tags, DELETE /conversations/{id}/tags (204)
 *   GET    /conversations/{id}/inboxes
 *   GET    /conversations/{id}/comments, POST (201; JSON or multipart attachments[i])
 *   GET    /conversations/{id}/messages (paginated), POST (202 {status, message_uid}; reply, archives unless options.archive=false)
 *   POST   /channels/{id}/messages                     202; a new conversation once the message is created
 *   GET    /messages/{id}                              msg_… or alt:uid:<message_uid> (404 until created)
 *   GET    /comments/{id}
 *   GET    /events                                     q[after|before], q[types][]; sort_order; limit ≤ 15
 *   GET    /download/{attachment_id}                   the file
 *
 * Accepted messages (202) are created `messageDelayMs` after the send (simulator clock), as Front creates
 * them asynchronously. When shared/provider-specs/front/core-api.json exists, every request and every
 * response (injected faults excepted) is validated against it (`specViolations`).
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
import { firstAfter, type SortKey } from '../shared/keyset';
import { boundaryOf, nestForm, parseMultipart, splitFiles } from './multipart';
import { FrontHooks } from './hooks';
import { Serializer } from './serialize';
import { FRONT_KNOWN_DEVIATIONS, loadSpecCheck, type KnownDeviation, type SpecViolation } from './spec';
import { badRequest, FrontError, FrontState, type SimConversation, type SimFile } from './state';

export { FrontState, FrontError, FaultController, SimClock, FRONT_KNOWN_DEVIATIONS };
export { FrontHooks, frontHookHeaders, type FrontAppWebhook } from './hooks';
export type { ActiveFault, FaultSpec, RecordedRequest, SpecViolation, KnownDeviation };
export type * from './state';

export interface FrontSimulatorOptions {
  /** Extra API tokens; `events: false` makes `/events` answer 403 (a token without the events scope). */
  tokens?: Record<string, { events?: boolean }>;
  /** Create the default teammates, teams, inboxes, contacts, accounts, tags, custom fields, statuses and conversations. Default true. */
  seedDefaults?: boolean;
  /** Ticketing statuses (open, waiting, resolved). Default true. */
  ticketing?: boolean;
  /** Company rate limit per minute (default 50, Front's Starter plan). With `enforce`, requests beyond it get 429. */
  rateLimit?: { perMinute?: number; enforce?: boolean; /** The window (default a minute; shorter for time-scaled benchmarks). */ windowMs?: number };
  /** Delay before an accepted message exists (default 20 ms). */
  messageDelayMs?: number;
  validateSpec?: boolean;
  /** Override the description file; `null` disables validation. */
  specFile?: string | null;
  knownDeviations?: readonly KnownDeviation[];
  now?: () => number;
  recordBodies?: boolean;
}

export interface FrontSeed {
  /** Sam Agent (admin) and Alex Admin, teammates. */
  sam: string;
  alex: string;
  team: string;
  /** Support inbox (email channel support@acme.example) and Sales inbox (no channel). */
  supportInbox: string;
  salesInbox: string;
  supportChannel: string;
  /** Casey (casey@customer.example, +15550100), contact of the Customer Co account. */
  casey: string;
  account: string;
  /** Tags `billing` and `vip`. */
  billingTag: string;
  /** Conversation custom fields: `Order number` (string), `Escalated` (boolean), `Renewal date` (datetime). */
  orderNumberField: string;
  /** An inbound conversation from Casey, with a reply and a comment. */
  inboundConversation: string;
}

export interface FrontSimulator {
  readonly url: string;
  readonly state: FrontState;
  /** The default API token. */
  readonly token: string;
  readonly seed: FrontSeed | undefined;
  readonly requests: RecordedRequest[];
  readonly faults: FaultController;
  readonly clock: SimClock;
  readonly specAvailable: boolean;
  readonly specFile?: string;
  readonly specViolations: SpecViolation[];
  readonly specDeviations: { violation: SpecViolation; reason: string }[];
  readonly specUndocumented: { method: string; path: string }[];
  clearSpecViolations(): void;
  clearRequests(): void;
  addToken(token: string, opts?: { events?: boolean }): void;
  /** A conversation as `GET /conversations/{id}` answers it (undefined once deleted for good). */
  conversationJson(id: string): Record<string, unknown> | undefined;
  /**
   * `n` inbound conversations in the support inbox (or `inboxId`), each with `messagesPerConversation`
   * messages (the first inbound, then alternating replies) and `commentsPerConversation` comments.
   * Returns their ids, oldest first.
   */
  seedConversations(n: number, opts?: { inboxId?: string; messagesPerConversation?: number; commentsPerConversation?: number }): string[];
  /** The next `times` requests answer 429 with `retry-after` and an exhausted `x-ratelimit-remaining`. */
  rateLimited(times: number, retryAfterSeconds?: number): ActiveFault;
  /** Application webhooks an admin installed (`install`), and the signed requests sent to them. */
  readonly hooks: FrontHooks;
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;

const DEFAULT_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.front-sim.default-token';

export function errorBody(status: number, title: string, message: string, details?: string[]): Obj {
  return { _error: { status, title, message, ...(details?.length ? { details } : {}) } };
}

function fail(status: number, title: string, message: string, details?: string[]): never {
  throw new SimHttpError({ status, body: errorBody(status, title, message, details) });
}

function defaultFaultBody(status: number, retryAfter?: number): Obj {
  if (status === 401) return errorBody(401, 'Unauthenticated', 'Invalid token');
  if (status === 403) return errorBody(403, 'Forbidden', 'Your token does not have the required scope');
  if (status === 404) return errorBody(404, 'Not found', 'Resource not found');
  if (status === 429) return errorBody(429, 'Too many requests', `Rate limit exceeded. Please retry in ${retryAfter ?? 1} seconds.`);
  if (status >= 500) return errorBody(status, http.STATUS_CODES[status] ?? 'Server error', 'Something went wrong on our side');
  return errorBody(status, http.STATUS_CODES[status] ?? 'Error', http.STATUS_CODES[status] ?? 'Error');
}

interface Route {
  method: string;
  regex: RegExp;
  keys: string[];
  handler: (req: SimRequest, params: Record<string, string>, ctx: { events: boolean; body: Obj; files: SimFile[]; form: Obj | null }) => SimResponse;
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


const encodeToken = (key: SortKey) => Buffer.from(JSON.stringify(key)).toString('base64url');
function decodeToken(token: string): SortKey {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v)) return v as SortKey;
  } catch {
    // fall through
  }
  fail(400, 'Bad request', 'Invalid page_token');
}

/** Coerces the string values multipart gives known boolean and numeric fields. */
function coerceForm(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => coerceForm(x));
  if (v && typeof v === 'object' && !Buffer.isBuffer((v as SimFile).content)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, coerceForm(x, k)]));
  }
  if (typeof v === 'string' && ['archive', 'is_pinned', 'should_add_default_signature'].includes(key) && (v === 'true' || v === 'false')) return v === 'true';
  if (typeof v === 'string' && key === 'due_at' && v !== '' && Number.isFinite(Number(v))) return Number(v);
  return v;
}

function seedDefaults(state: FrontState): FrontSeed {
  const sam = state.addTeammate({ email: 'sam@acme.example', first_name: 'Sam', last_name: 'Agent', is_admin: true });
  const alex = state.addTeammate({ email: 'alex@acme.example', first_name: 'Alex', last_name: 'Admin' });
  const support = state.addInbox('Support', { channel: { type: 'smtp', address: 'support@acme.example', name: 'Acme Support' } });
  const sales = state.addInbox('Sales');
  const team = state.addTeam('Customer Care', [sam.id, alex.id], [support.id, sales.id]);
  const casey = state.addContact({
    name: 'Casey Customer',
    handles: [
      { handle: 'casey@customer.example', source: 'email' },
      { handle: '+15550100', source: 'phone' },
    ],
    description: 'Prefers email',
  });
  const account = state.addAccount({ name: 'Customer Co', domains: ['customer.example'], contactIds: [casey.id] });
  const billing = state.addTag('billing');
  state.addTag('vip', { highlight: 'red' });
  const orderNumber = state.addCustomField('conversation', 'Order number', 'string', 'The order the conversation is about');
  state.addCustomField('conversation', 'Escalated', 'boolean');
  state.addCustomField('conversation', 'Renewal date', 'datetime');
  state.addCustomField('contact', 'Plan', 'enum', 'Subscription plan', [
    { value: 'free', label: 'Free' },
    { value: 'pro', label: 'Pro' },
  ]);
  state.addCustomField('account', 'Tier', 'string');
  state.addCustomField('teammate', 'Region', 'string');
  if (state.ticketing) {
    state.addStatus('Open', 'open');
    state.addStatus('In progress', 'open');
    state.addStatus('Waiting on customer', 'waiting');
    state.addStatus('Resolved', 'resolved');
  }
  const first = state.receiveMessage({ inboxId: support.id, from: 'casey@customer.example', subject: 'Where is my order?', text: 'It has been two weeks.' });
  const conv = state.conversation(first.conversationId);
  state.setAssignee(conv, sam.id, sam.id);
  state.setTags(conv, [billing.id], sam.id);
  state.updateConversation(conv.id, { custom_fields: { 'Order number': 'ORD-7' } }, sam.id);
  state.addComment(conv.id, { body: 'Checking with the warehouse.', authorId: sam.id });
  return {
    sam: sam.id,
    alex: alex.id,
    team: team.id,
    supportInbox: support.id,
    salesInbox: sales.id,
    supportChannel: state.channelsOf(support.id)[0]!.id,
    casey: casey.id,
    account: account.id,
    billingTag: billing.id,
    orderNumberField: orderNumber.id,
    inboundConversation: conv.id,
  };
}

export async function startFrontSimulator(opts: FrontSimulatorOptions = {}): Promise<FrontSimulator> {
  const clock = new SimClock(opts.now);
  const state = new FrontState(clock);
  state.ticketing = opts.ticketing ?? true;
  state.messageDelayMs = opts.messageDelayMs ?? 20;
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const spec = await loadSpecCheck({ enabled: opts.validateSpec, file: opts.specFile, deviations: opts.knownDeviations });
  let origin = '';
  const ser = new Serializer(state, () => origin);
  const hooks = new FrontHooks(state, ser);
  const seed = opts.seedDefaults === false ? undefined : seedDefaults(state);

  const tokens = new Map<string, { events: boolean }>([[DEFAULT_TOKEN, { events: true }]]);
  for (const [t, o] of Object.entries(opts.tokens ?? {})) tokens.set(t, { events: o.events ?? true });

  // ---------------------------------------------------------------- rate limit (per company, one minute)
  const perMinute = opts.rateLimit?.perMinute ?? 50;
  const windowMs = opts.rateLimit?.windowMs ?? 60_000;
  // Front states its waits in whole seconds. A time-scaled window (a benchmark's) scales the second with it, so a
  // wait costs the same share of a window as at Front: a whole second would be two windows of half a second.
  const secondMs = (1_000 * windowMs) / 60_000;
  const inSeconds = (ms: number) => (Math.ceil(ms / secondMs) * secondMs) / 1000;
  // `reset` in epoch milliseconds; the header says it in seconds, as Front does.
  let window = { reset: 0, used: 0 };
  const budget = () => {
    const now = clock.now();
    if (window.reset <= now) window = { reset: now + windowMs, used: 0 };
    return window;
  };
  const rateHeaders = (remaining?: number) => {
    const w = budget();
    return {
      'x-ratelimit-limit': String(perMinute),
      'x-ratelimit-remaining': String(remaining ?? Math.max(0, perMinute - w.used)),
      'x-ratelimit-reset': String(inSeconds(w.reset)),
    };
  };

  const tokenOf = (req: SimRequest): string | undefined => {
    const h = req.headers.authorization;
    const m = typeof h === 'string' ? /^bearer\s+(\S+)\s*$/i.exec(h) : null;
    return m?.[1];
  };

  // ---------------------------------------------------------------- helpers
  const intParam = (q: URLSearchParams, name: string, dflt: number, max: number): number => {
    const raw = q.get(name);
    if (raw === null) return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) fail(400, 'Bad request', `${name} must be a positive integer`);
    if (n > max) fail(400, 'Bad request', `${name} must be less than or equal to ${max}`);
    return n;
  };
  const secondsParam = (q: URLSearchParams, name: string): number | undefined => {
    const raw = q.get(name);
    if (raw === null) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n)) fail(400, 'Bad request', `${name} must be a timestamp in seconds`);
    return n;
  };
  const sortOrder = (q: URLSearchParams, dflt: 'asc' | 'desc'): 'asc' | 'desc' => {
    const v = q.get('sort_order');
    if (v === null) return dflt;
    if (v !== 'asc' && v !== 'desc') fail(400, 'Bad request', 'sort_order must be one of asc, desc');
    return v;
  };

  /** A keyset page of `items` ordered by `key` in `order`, with `_pagination.next`. */
  const paginated = <T>(req: SimRequest, items: T[], key: (x: T) => SortKey, order: 'asc' | 'desc', render: (x: T) => unknown, o: { dflt?: number; max?: number } = {}): SimResponse => {
    const limit = intParam(req.query, 'limit', o.dflt ?? 50, o.max ?? 100);
    const dir = order === 'asc' ? 1 : -1;
    const token = req.query.get('page_token');
    // One beyond the page tells whether there is a next one.
    const rest = firstAfter(items, key, dir, token ? decodeToken(token) : undefined, limit + 1);
    const page = rest.slice(0, limit);
    let next: string | null = null;
    if (rest.length > limit) {
      const q = new URLSearchParams(req.query);
      q.set('limit', String(limit));
      q.set('page_token', encodeToken(key(page[page.length - 1]!)));
      next = `${origin}${req.path}?${q.toString()}`;
    }
    return { status: 200, body: { _pagination: { next }, _links: { self: `${origin}${req.path}` }, _results: page.map(render) } };
  };
  const all = <T>(req: SimRequest, items: T[], render: (x: T) => unknown): SimResponse => ({
    status: 200,
    body: { _links: { self: `${origin}${req.path}` }, _results: items.map(render) },
  });

  const conversationOf = (id: string): SimConversation => {
    const c = state.conversations.get(id);
    if (!c) fail(404, 'Not found', `Unknown conversation ${id}`);
    return c;
  };
  const contactOf = (idOrAlias: string) => {
    const alias = /^alt:(email|phone|twitter|custom):(.+)$/.exec(idOrAlias);
    const c = alias ? state.contactByHandle(alias[2]!) : state.contacts.get(idOrAlias);
    if (!c) fail(404, 'Not found', `Unknown contact ${idOrAlias}`);
    return c;
  };
  const accepted = (uid: string): SimResponse => ({ status: 202, body: { status: 'accepted', message_uid: uid } });
  const conversationsList = (req: SimRequest, items: SimConversation[]): SimResponse => {
    const statuses = [...req.query.getAll('q[statuses][]'), ...req.query.getAll('q[statuses]')].flatMap((s) => s.split(','));
    const visible = items.filter((c) => {
      if (statuses.length === 0) return !c.trashed;
      const status = c.trashed ? 'trashed' : c.archived ? 'archived' : c.assigneeId ? 'assigned' : 'unassigned';
      return statuses.includes(status);
    });
    return paginated(req, visible, (c) => [c.bumped_at, c.id], 'desc', (c) => ser.conversation(c));
  };

  // ---------------------------------------------------------------- routes
  const routes: Route[] = [
    route('GET', '/me', () => ({ status: 200, body: ser.identity() })),

    // Before the routes with an id in the same place.
    route('GET', '/conversations/custom_fields', (req) => all(req, state.customFieldsOf('conversation'), (f) => ser.customField(f))),
    route('GET', '/contacts/custom_fields', (req) => all(req, state.customFieldsOf('contact'), (f) => ser.customField(f))),
    route('GET', '/custom_fields', (req) => all(req, state.customFieldsOf('contact'), (f) => ser.customField(f))),
    route('GET', '/accounts/custom_fields', (req) => all(req, state.customFieldsOf('account'), (f) => ser.customField(f))),
    route('GET', '/teammates/custom_fields', (req) => all(req, state.customFieldsOf('teammate'), (f) => ser.customField(f))),

    route('GET', '/teammates', (req) => all(req, [...state.teammates.values()], (t) => ser.teammate(t))),
    route('GET', '/teammates/{id}', (_req, p) => {
      const t = state.teammates.get(p.id!);
      if (!t) fail(404, 'Not found', `Unknown teammate ${p.id}`);
      return { status: 200, body: ser.teammate(t) };
    }),
    route('GET', '/teams', (req) => all(req, [...state.teams.values()], (t) => ser.teamPreview(t))),
    route('GET', '/teams/{id}', (_req, p) => {
      const t = state.teams.get(p.id!);
      if (!t) fail(404, 'Not found', `Unknown team ${p.id}`);
      return { status: 200, body: ser.team(t) };
    }),
    route('GET', '/inboxes', (req) => all(req, [...state.inboxes.values()], (i) => ser.inbox(i))),
    route('GET', '/inboxes/{id}', (_req, p) => {
      const i = state.inboxes.get(p.id!);
      if (!i) fail(404, 'Not found', `Unknown inbox ${p.id}`);
      return { status: 200, body: ser.inbox(i) };
    }),
    route('GET', '/inboxes/{id}/channels', (req, p) => {
      if (!state.inboxes.has(p.id!)) fail(404, 'Not found', `Unknown inbox ${p.id}`);
      return all(req, state.channelsOf(p.id!), (c) => ser.channel(c));
    }),
    route('GET', '/channels', (req) => all(req, [...state.channels.values()], (c) => ser.channel(c))),

    route('GET', '/contacts', (req) => {
      const q = req.query;
      const after = secondsParam(q, 'q[updated_after]');
      const before = secondsParam(q, 'q[updated_before]');
      const sortBy = q.get('sort_by') ?? 'created_at';
      if (sortBy !== 'created_at' && sortBy !== 'updated_at') fail(400, 'Bad request', 'sort_by must be one of created_at, updated_at');
      const items = [...state.contacts.values()].filter((c) => (after === undefined || c.updated_at > after) && (before === undefined || c.updated_at < before));
      return paginated(req, items, (c) => [sortBy === 'updated_at' ? c.updated_at : c.created_at, c.id], sortOrder(q, 'desc'), (c) => ser.contact(c));
    }),
    route('GET', '/contacts/{id}', (_req, p) => ({ status: 200, body: ser.contact(contactOf(p.id!)) })),
    route('GET', '/accounts', (req) => {
      const sortBy = req.query.get('sort_by') ?? 'created_at';
      return paginated(req, [...state.accounts.values()], (a) => [sortBy === 'updated_at' ? a.updated_at : a.created_at, a.id], sortOrder(req.query, 'desc'), (a) => ser.account(a));
    }),
    route('GET', '/accounts/{id}/contacts', (req, p) => {
      const a = state.accounts.get(p.id!);
      if (!a) fail(404, 'Not found', `Unknown account ${p.id}`);
      const items = a.contactIds.flatMap((id) => (state.contacts.get(id) ? [state.contacts.get(id)!] : []));
      return paginated(req, items, (c) => [c.created_at, c.id], 'asc', (c) => ser.contact(c));
    }),

    route('GET', '/tags', (req) => paginated(req, [...state.tags.values()], (t) => [t.created_at, t.id], sortOrder(req.query, 'asc'), (t) => ser.tag(t))),
    route('POST', '/tags', (_req, _p, { body }) => {
      const errors: string[] = [];
      if (typeof body.name !== 'string' || body.name === '') errors.push('name is required');
      if (errors.length) throw badRequest('Body did not satisfy requirements', errors);
      const t = state.addTag(body.name as string, { description: typeof body.description === 'string' ? body.description : null, highlight: typeof body.highlight === 'string' ? body.highlight : null });
      return { status: 201, body: ser.tag(t) };
    }),

    route('GET', '/company/statuses', (req) => {
      if (!state.ticketing) fail(404, 'Not found', 'Ticketing is not enabled, therefore, there are no ticket statuses.');
      return all(req, [...state.statuses.values()], (s) => ser.status(s));
    }),

    route('GET', '/conversations', (req) => conversationsList(req, [...state.conversations.values()])),
    route('POST', '/conversations', (_req, _p, { body, form }) => {
      const comment = body.comment as Obj | undefined;
      const files = form ? ((((form.comment as Obj | undefined)?.attachments as SimFile[] | undefined) ?? []).filter(Boolean)) : [];
      const c = state.createDiscussion({
        type: body.type,
        subject: body.subject,
        inbox_id: body.inbox_id,
        teammate_ids: body.teammate_ids,
        comment: comment ? { body: comment.body, author_id: comment.author_id, files } : null,
        description: body.description,
        due_at: body.due_at,
        custom_fields: body.custom_fields,
      });
      return { status: 201, body: ser.conversation(c) };
    }),
    route('GET', '/conversations/{id}', (_req, p) => ({ status: 200, body: ser.conversation(conversationOf(p.id!)) })),
    route('PATCH', '/conversations/{id}', (_req, p, { body }) => {
      conversationOf(p.id!);
      state.updateConversation(p.id!, body);
      return { status: 204 };
    }),
    route('DELETE', '/conversations/{id}', (_req, p) => {
      conversationOf(p.id!);
      state.deleteForGood(p.id!);
      return { status: 204 };
    }),
    route('PUT', '/conversations/{id}/assignee', (_req, p, { body }) => {
      const c = conversationOf(p.id!);
      if (!('assignee_id' in body)) throw badRequest('Body did not satisfy requirements', ['assignee_id is required']);
      state.setAssignee(c, (body.assignee_id as string | null) ?? null);
      return { status: 204 };
    }),
    route('POST', '/conversations/{id}/tags', (_req, p, { body }) => {
      const c = conversationOf(p.id!);
      if (!Array.isArray(body.tag_ids)) throw badRequest('Body did not satisfy requirements', ['tag_ids is required']);
      for (const t of body.tag_ids) if (!state.tags.has(String(t))) fail(404, 'Not found', `Unknown tag ${String(t)}`);
      state.setTags(c, [...new Set([...c.tagIds, ...(body.tag_ids as string[])])]);
      return { status: 204 };
    }),
    route('DELETE', '/conversations/{id}/tags', (_req, p, { body }) => {
      const c = conversationOf(p.id!);
      if (!Array.isArray(body.tag_ids)) throw badRequest('Body did not satisfy requirements', ['tag_ids is required']);
      state.setTags(c, c.tagIds.filter((t) => !(body.tag_ids as string[]).includes(t)));
      return { status: 204 };
    }),
    route('GET', '/conversations/{id}/inboxes', (req, p) => {
      const c = conversationOf(p.id!);
      return all(req, c.inboxIds.flatMap((id) => (state.inboxes.get(id) ? [state.inboxes.get(id)!] : [])), (i) => ser.inbox(i));
    }),
    route('GET', '/conversations/{id}/comments', (req, p) => {
      conversationOf(p.id!);
      const items = state.commentsOf(p.id!).sort((a, b) => b.posted_at - a.posted_at);
      return all(req, items, (c) => ser.comment(c));
    }),
    route('POST', '/conversations/{id}/comments', (_req, p, { body, files }) => {
      conversationOf(p.id!);
      const c = state.addComment(p.id!, {
        body: body.body,
        authorId: typeof body.author_id === 'string' ? body.author_id : null,
        files,
        isPinned: body.is_pinned === true,
      });
      return { status: 201, body: ser.comment(c) };
    }),
    route('GET', '/conversations/{id}/messages', (req, p) => {
      conversationOf(p.id!);
      if ((req.query.get('sort_by') ?? 'created_at') !== 'created_at') fail(400, 'Bad request', 'sort_by only supports created_at');
      return paginated(req, state.messagesOf(p.id!), (m) => [m.created_at, m.id], sortOrder(req.query, 'desc'), (m) => ser.message(m));
    }),
    route('POST', '/conversations/{id}/messages', (_req, p, { body, files }) => {
      conversationOf(p.id!);
      return accepted(state.reply(p.id!, { ...body, options: body.options as Obj | undefined, files }));
    }),
    route('POST', '/channels/{id}/messages', (_req, p, { body, files }) =>
      accepted(state.sendMessage(p.id!, { ...body, options: body.options as Obj | undefined, files })),
    ),
    route('GET', '/messages/{id}', (_req, p) => {
      const alias = /^alt:uid:(.+)$/.exec(p.id!);
      const m = alias ? state.messageByUid(alias[1]!) : state.messages.get(p.id!);
      if (!m) fail(404, 'Not found', `Unknown message ${p.id}`);
      return { status: 200, body: ser.message(m) };
    }),
    route('GET', '/comments/{id}', (_req, p) => {
      const c = state.comments.get(p.id!);
      if (!c) fail(404, 'Not found', `Unknown comment ${p.id}`);
      return { status: 200, body: ser.comment(c) };
    }),

    route('GET', '/events', (req, _p, { events }) => {
      if (!events) fail(403, 'Forbidden', 'Your token does not have the required scope events:*:read');
      const q = req.query;
      const after = secondsParam(q, 'q[after]');
      const before = secondsParam(q, 'q[before]');
      const types = [...q.getAll('q[types][]'), ...q.getAll('q[types]')].flatMap((s) => s.split(','));
      if ((q.get('sort_by') ?? 'created_at') !== 'created_at') fail(400, 'Bad request', 'sort_by only supports created_at');
      const items = state.events.filter(
        (e) => (after === undefined || e.emitted_at > after) && (before === undefined || e.emitted_at < before) && (types.length === 0 || types.includes(e.type)),
      );
      return paginated(req, items, (e) => [e.emitted_at, e.id], sortOrder(q, 'desc'), (e) => ser.event(e), { dflt: 15, max: 15 });
    }),

    route('GET', '/download/{id}', (_req, p) => {
      const a = state.attachments.get(p.id!);
      if (!a) fail(404, 'Not found', `Unknown attachment ${p.id}`);
      return { status: 200, body: a.content.toString('utf8'), headers: { 'content-type': a.contentType } };
    }),
  ];

  /** The request body: JSON, or multipart spelled as nested fields (files kept apart). */
  const bodyOf = (req: SimRequest): { body: Obj; files: SimFile[]; form: Obj | null; forSpec: unknown } => {
    const boundary = boundaryOf(req.headers['content-type']);
    if (boundary) {
      const form = coerceForm(nestForm(parseMultipart(req.rawBody, boundary))) as Obj;
      const { files, plain } = splitFiles(form);
      const topFiles = Array.isArray(form.attachments) ? (form.attachments as SimFile[]).filter(Boolean) : [];
      return { body: plain as Obj, files: topFiles.length ? topFiles : files, form, forSpec: plain };
    }
    if (req.bodyError) fail(400, 'Bad request', `Invalid JSON body: ${req.bodyError}`);
    const body = req.body;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) fail(400, 'Bad request', 'The body must be a JSON object');
    return { body: (body ?? {}) as Obj, files: [], form: null, forSpec: body };
  };

  const dispatch = (req: SimRequest): SimResponse => {
    const t = tokenOf(req);
    const access = t ? tokens.get(t) : undefined;
    if (!access) fail(401, 'Unauthenticated', t ? 'Invalid token' : 'Missing authorization header');
    state.processDue();
    const path = req.path.split('/').map((s) => decodeURIComponent(s)).join('/');
    for (const r of routes) {
      if (r.method !== req.method) continue;
      const m = r.regex.exec(req.path);
      if (!m) continue;
      const params: Record<string, string> = {};
      r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? '')));
      const { body, files, form } = bodyOf(req);
      try {
        return r.handler(req, params, { events: access.events, body, files, form });
      } catch (err) {
        if (err instanceof FrontError) return { status: err.status, body: errorBody(err.status, err.title, err.message, err.details) };
        throw err;
      }
    }
    return { status: 404, body: errorBody(404, 'Not found', `Unknown route ${req.method} ${path}`) };
  };

  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    describeAuth: (req) => {
      const t = tokenOf(req);
      if (!t) return null;
      return { scheme: 'bearer', label: tokens.has(t) ? (t === DEFAULT_TOKEN ? 'default' : 'extra') : null, valid: tokens.has(t) };
    },
    onRequest: (req) => {
      let body: unknown = req.body;
      if (boundaryOf(req.headers['content-type'])) {
        try {
          body = bodyOf(req).forSpec;
        } catch {
          body = undefined;
        }
      }
      spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body });
    },
    faultResponse: (fault) => ({
      status: fault.status!,
      body: defaultFaultBody(fault.status!, fault.retryAfterSeconds),
      headers: fault.status === 429 ? rateHeaders(0) : {},
    }),
    handle: (req) => {
      const w = budget();
      let res: SimResponse;
      if (opts.rateLimit?.enforce && w.used >= perMinute) {
        const retry = Math.max(secondMs / 1000, inSeconds(w.reset - clock.now()));
        res = { status: 429, body: defaultFaultBody(429, retry), headers: { ...rateHeaders(0), 'retry-after': String(retry) } };
      } else {
        w.used++;
        try {
          res = dispatch(req);
        } catch (err) {
          if (!(err instanceof SimHttpError)) throw err;
          res = err.response;
        }
      }
      const json = res.headers?.['content-type'] && !/json/.test(res.headers['content-type']) ? undefined : res.body;
      spec.checkResponse({ method: req.method, path: req.path }, res.status, json);
      return res;
    },
    decorate: (_req, res) => {
      res.headers = { ...rateHeaders(), ...(res.headers ?? {}) };
    },
    internalError: (err) => ({ status: 500, body: errorBody(500, 'Internal server error', (err as Error)?.message ?? String(err)) }),
  });
  origin = server.url;

  return {
    url: origin,
    state,
    token: DEFAULT_TOKEN,
    seed,
    requests,
    faults,
    clock,
    specAvailable: spec.available,
    specFile: spec.file,
    specViolations: spec.violations,
    specDeviations: spec.deviations,
    specUndocumented: spec.undocumented,
    clearSpecViolations: () => spec.clear(),
    clearRequests: () => void (requests.length = 0),
    addToken: (token, o = {}) => void tokens.set(token, { events: o.events ?? true }),
    conversationJson: (id) => {
      const c = state.conversations.get(id);
      return c ? ser.conversation(c) : undefined;
    },
    seedConversations: (n, o = {}) => {
      const inboxId = o.inboxId ?? seed?.supportInbox ?? [...state.inboxes.keys()][0];
      if (!inboxId) throw new Error('no inbox to seed conversations in');
      const author = [...state.teammates.keys()][0] ?? null;
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const first = state.receiveMessage({ inboxId, from: `customer${i}@example.com`, fromName: `Customer ${i}`, subject: `Seeded ${i}`, text: `Question ${i}` });
        const c = state.conversation(first.conversationId);
        for (let m = 1; m < (o.messagesPerConversation ?? 1); m++) {
          if (m % 2 === 1) state.addOutboundRemotely(c.id, `Answer ${i}.${m}`, author);
          else state.receiveMessage({ conversationId: c.id, from: `customer${i}@example.com`, text: `Follow-up ${i}.${m}` });
        }
        for (let k = 0; k < (o.commentsPerConversation ?? 0); k++) state.addComment(c.id, { body: `Note ${i}.${k}`, authorId: author });
        out.push(c.id);
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

