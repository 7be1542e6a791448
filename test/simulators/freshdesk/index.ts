/**
 * Freshdesk API v2 simulator (https://<domain>.freshdesk.com/api/v2/…) for integration tests and
 * benchmarks, built on the shared HTTP kit. Freshdesk publishes no machine-readable API description; the
 * simulator follows the reference at developers.freshdesk.com/api and checks every request against what
 * it documents (contract.ts): unknown or invalid parameters and bodies answer 400 and are recorded in
 * `contractViolations`, which tests assert stay empty.
 *
 * Auth: HTTP Basic `<api key>:<anything>` of a registered key; otherwise 401 `{"code":
 * "invalid_credentials", "message": …}`.
 * Errors: `{"description": "Validation failed", "errors": [{"field", "message", "code"}]}`.
 * Rate limit: per account per minute (default 200, Growth); every answer carries `X-RateLimit-Total`,
 * `X-RateLimit-Remaining`, `X-RateLimit-Used-CurrentRequest`; with `rateLimit.enforce` a spent minute
 * answers 429 with `Retry-After` (seconds).
 * Lists: `page` (≥ 1) and `per_page` (1–100, default 30); `Link: <…?page=n+1…>; rel="next"` while more
 * follow. The ticket listing serves at most 300 pages, lists only tickets created in the last 30 days
 * unless `updated_since` is given, leaves trashed and spam tickets out unless `filter=deleted|spam`
 * (the filter combines with `updated_since` and the order, as the reference lists them side by side),
 * and carries `description` only with `include=description`.
 *
 * Endpoints (under /api/v2):
 *   GET    /agents, /agents/me, /agents/{id}     GET /groups, /groups/{id}
 *   GET    /contacts, /contacts/{id}             GET /companies, /companies/{id}
 *   GET    /ticket_fields
 *   GET    /tickets                              page, per_page, updated_since, order_by, order_type, filter, include
 *   POST   /tickets (201)                        GET, PUT /tickets/{id}; DELETE /tickets/{id} (204, to the trash)
 *   GET    /tickets/{id}/conversations           POST /tickets/{id}/reply, /tickets/{id}/notes (201; JSON or multipart with attachments[])
 *   GET    /attachments/{id}/{name}              an uploaded file (the `attachment_url`)
 */
import http from 'node:http';
import { checkBody, checkQuery, type Schema } from '../shared/contract-check';
import { FaultController, SimClock, SimHttpError, startSimServer, type ActiveFault, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { noRoute } from '../shared/no-route';
import { boundaryOf, parseMultipart, type FilePart } from '../shared/multipart';
import { BODIES, FORM_FIELDS, QUERIES, TICKET_INCLUDES, TICKET_LIST_INCLUDES } from './contract';

export { FaultController, SimClock };
export type { ActiveFault, RecordedRequest };

type Obj = Record<string, unknown>;

export interface SimAgent { id: number; name: string; email: string; groupIds: number[]; createdAt: number; updatedAt: number }
export interface SimContact { id: number; name: string; email: string | null; phone: string | null; companyId: number | null; description: string | null; deleted: boolean; createdAt: number; updatedAt: number }
export interface SimCompany { id: number; name: string; description: string | null; domains: string[]; createdAt: number; updatedAt: number }
export interface SimGroup { id: number; name: string; description: string | null; createdAt: number; updatedAt: number }
export interface SimField { id: number; name: string; label: string; type: string; default: boolean; choices?: string[] }
export interface SimFile { id: number; name: string; contentType: string; content: Buffer; createdAt: number }
export interface SimTicket {
  id: number; subject: string; description: string; status: number; priority: number; source: number; type: string | null;
  requesterId: number; responderId: number | null; groupId: number | null; companyId: number | null; tags: string[];
  customFields: Record<string, unknown>; dueBy: string | null; deleted: boolean; spam: boolean; attachments: number[];
  createdAt: number; updatedAt: number;
}
export interface SimConversation { id: number; ticketId: number; body: string; incoming: boolean; private: boolean; userId: number; source: number; attachments: number[]; createdAt: number; updatedAt: number }

export interface FreshdeskSimulatorOptions {
  /** API keys; default one, `freshdesk-test-key`, belonging to the agent Alex Admin. */
  apiKeys?: string[];
  /** Create the default agents, group, company, contacts, fields and a ticket. Default true. */
  seedDefaults?: boolean;
  /** Calls per minute (default 200, Growth). With `enforce`, a spent minute answers 429. */
  rateLimit?: { perMinute?: number; enforce?: boolean; /** Length of the window `perMinute` counts over (default 60 s; shorter for scaled budget runs). */ windowSeconds?: number };
  /** Pages of one ticket listing served (Freshdesk: 300). */
  maxTicketPages?: number;
  now?: () => number;
  recordBodies?: boolean;
}

export interface FreshdeskSeed {
  apiAgent: number;
  sam: number;
  robin: number;
  group: number;
  acme: number;
  casey: number;
  jordan: number;
  ticket: number;
}

export interface ContractViolation { method: string; path: string; problems: Array<{ path: string; message: string }> }

const DEFAULT_KEY = 'freshdesk-test-key';
const DAY = 86_400_000;
const TICKET_TYPES = ['Question', 'Incident', 'Problem', 'Feature Request', 'Refund'];
const STATUSES = [2, 3, 4, 5, 6, 7];
const SOURCES = [1, 2, 3, 5, 6, 7, 9, 10];

/** Freshdesk writes datetimes in UTC to the second. */
export const fdDate = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

const errorBody = (errors: Array<{ field: string; message: string; code: string }>) => ({ description: 'Validation failed', errors });
function invalid(field: string, message: string, code = 'invalid_value'): never {
  throw new SimHttpError({ status: 400, body: errorBody([{ field, message, code }]) });
}
function notFound(): never {
  throw new SimHttpError({ status: 404, body: { code: 'not_found', message: 'The requested resource could not be found' } });
}

const stripHtml = (html: string) => html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(div|p)>/gi, '\n').replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').trim();

export class FreshdeskState {
  private seq = 1000;
  readonly agents = new Map<number, SimAgent>();
  readonly contacts = new Map<number, SimContact>();
  readonly companies = new Map<number, SimCompany>();
  readonly groups = new Map<number, SimGroup>();
  readonly fields: SimField[] = [];
  readonly tickets = new Map<number, SimTicket>();
  readonly conversations = new Map<number, SimConversation>();
  // Each ticket's conversations in the order they were added: a ticket's listing reads its own, not every one.
  private readonly byTicket = new Map<number, SimConversation[]>();
  readonly files = new Map<number, SimFile>();
  private ticketSeq = 0;
  constructor(readonly clock: SimClock) {
    const defaults: Array<[string, string]> = [['requester', 'default_requester'], ['subject', 'default_subject'], ['ticket_type', 'default_ticket_type'], ['status', 'default_status'], ['priority', 'default_priority'], ['group', 'default_group'], ['agent', 'default_agent'], ['description', 'default_description'], ['company', 'default_company']];
    for (const [name, type] of defaults) this.fields.push({ id: this.nextId(), name, label: name, type, default: true, ...(name === 'ticket_type' ? { choices: TICKET_TYPES } : {}) });
  }
  nextId() { return ++this.seq; }
  now() { return this.clock.now(); }
  addGroup(name: string, description: string | null = null): SimGroup {
    const g = { id: this.nextId(), name, description, createdAt: this.now(), updatedAt: this.now() };
    this.groups.set(g.id, g);
    return g;
  }
  addAgent(name: string, email: string, groupIds: number[] = []): SimAgent {
    const a = { id: this.nextId(), name, email, groupIds, createdAt: this.now(), updatedAt: this.now() };
    this.agents.set(a.id, a);
    return a;
  }
  addCompany(name: string, domains: string[] = [], description: string | null = null): SimCompany {
    const c = { id: this.nextId(), name, domains, description, createdAt: this.now(), updatedAt: this.now() };
    this.companies.set(c.id, c);
    return c;
  }
  addContact(i: { name: string; email?: string; phone?: string; companyId?: number; description?: string }): SimContact {
    const c = { id: this.nextId(), name: i.name, email: i.email ?? null, phone: i.phone ?? null, companyId: i.companyId ?? null, description: i.description ?? null, deleted: false, createdAt: this.now(), updatedAt: this.now() };
    this.contacts.set(c.id, c);
    return c;
  }
  addField(label: string, type: string): SimField {
    const f = { id: this.nextId(), name: `cf_${label.toLowerCase().replace(/\W+/g, '_')}`, label, type, default: false };
    this.fields.push(f);
    return f;
  }
  customFields() { return this.fields.filter((f) => !f.default); }
  addFile(name: string, contentType: string, content: Buffer): SimFile {
    const f = { id: this.nextId(), name, contentType, content, createdAt: this.now() };
    this.files.set(f.id, f);
    return f;
  }
  createTicket(i: Partial<SimTicket> & { subject: string; requesterId: number }, at = this.now()): SimTicket {
    const t: SimTicket = {
      id: ++this.ticketSeq, description: '', status: 2, priority: 1, source: 2, type: null, responderId: null, groupId: null, companyId: null, tags: [],
      dueBy: null, deleted: false, spam: false, attachments: [], ...i,
      customFields: { ...Object.fromEntries(this.customFields().map((f) => [f.name, null])), ...(i.customFields ?? {}) },
      createdAt: at, updatedAt: at,
    };
    this.tickets.set(t.id, t);
    return t;
  }
  addConversation(ticket: SimTicket, i: { body: string; incoming: boolean; private: boolean; userId: number; source: number; attachments?: number[] }): SimConversation {
    const c = { id: this.nextId(), ticketId: ticket.id, attachments: [], ...i, createdAt: this.now(), updatedAt: this.now() };
    this.putConversation(c);
    ticket.updatedAt = this.now();
    return c;
  }
  putConversation(c: SimConversation) {
    this.conversations.set(c.id, c);
    const list = this.byTicket.get(c.ticketId);
    if (list) list.push(c);
    else this.byTicket.set(c.ticketId, [c]);
  }
  conversationsOf(ticketId: number): SimConversation[] { return this.byTicket.get(ticketId) ?? []; }
  dropConversationsOf(ticketId: number) {
    for (const c of this.conversationsOf(ticketId)) this.conversations.delete(c.id);
    this.byTicket.delete(ticketId);
  }
  isUser(id: number) { return this.agents.has(id) || this.contacts.has(id); }
}

export async function startFreshdeskSimulator(opts: FreshdeskSimulatorOptions = {}) {
  const clock = new SimClock(opts.now);
  const state = new FreshdeskState(clock);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const contractViolations: ContractViolation[] = [];
  const maxTicketPages = opts.maxTicketPages ?? 300;
  let origin = '';

  // ---------------------------------------------------------------- seed
  const apiKeys = opts.apiKeys?.length ? opts.apiKeys : [DEFAULT_KEY];
  const group = state.addGroup('Tier 1', 'First line support');
  const apiAgent = state.addAgent('Alex Admin', 'alex@acme.example');
  const agentOfKey = new Map(apiKeys.map((k) => [k, apiAgent.id]));
  let seed: FreshdeskSeed | undefined;
  if (opts.seedDefaults !== false) {
    const sam = state.addAgent('Sam Agent', 'sam@acme.example', [group.id]);
    const robin = state.addAgent('Robin Lead', 'robin@acme.example', [group.id]);
    const acme = state.addCompany('Northwind Traders', ['northwind.example'], 'Wholesale customer');
    const casey = state.addContact({ name: 'Casey Customer', email: 'casey@northwind.example', phone: '+15550100', companyId: acme.id, description: 'Prefers email' });
    const jordan = state.addContact({ name: 'Jordan Buyer', email: 'jordan@buyer.example' });
    state.addField('Order number', 'custom_text');
    state.addField('Refund amount', 'custom_decimal');
    state.addField('Escalated', 'custom_checkbox');
    const ticket = state.createTicket({
      subject: 'Where is my order?', description: '<div>It has been two weeks.</div>', status: 2, priority: 2, source: 1, type: 'Question',
      requesterId: casey.id, responderId: sam.id, groupId: group.id, companyId: acme.id, tags: ['billing'], customFields: { cf_order_number: 'ORD-7' },
    });
    const label = state.addFile('label.txt', 'text/plain', Buffer.from('tracking 1Z999'));
    state.addConversation(ticket, { body: '<div>Checking with the warehouse.</div>', incoming: false, private: false, userId: sam.id, source: 0, attachments: [label.id] });
    state.addConversation(ticket, { body: '<div>Carrier lost it, refund?</div>', incoming: false, private: true, userId: sam.id, source: 2 });
    seed = { apiAgent: apiAgent.id, sam: sam.id, robin: robin.id, group: group.id, acme: acme.id, casey: casey.id, jordan: jordan.id, ticket: ticket.id };
  }

  // ---------------------------------------------------------------- rate limit (per minute)
  const perMinute = opts.rateLimit?.perMinute ?? 200;
  const windowMs = (opts.rateLimit?.windowSeconds ?? 60) * 1000;
  let windowStart = clock.now();
  let used = 0;
  const spend = () => {
    const now = clock.now();
    if (now - windowStart >= windowMs) {
      windowStart = now;
      used = 0;
    }
    used += 1;
    return { remaining: Math.max(0, perMinute - used), retryAfter: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
  };
  const limitHeaders = (remaining: number) => ({ 'x-ratelimit-total': String(perMinute), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-used-currentrequest': '1' });

  // ---------------------------------------------------------------- serialisation
  const fileJson = (id: number) => {
    const f = state.files.get(id)!;
    const at = fdDate(f.createdAt);
    return { id: f.id, name: f.name, content_type: f.contentType, size: f.content.length, attachment_url: `${origin}/api/v2/attachments/${f.id}/${encodeURIComponent(f.name)}`, created_at: at, updated_at: at };
  };
  const ticketJson = (t: SimTicket, withDescription: boolean): Obj => ({
    cc_emails: [], fwd_emails: [], reply_cc_emails: [], ticket_cc_emails: [], fr_escalated: false, spam: t.spam, email_config_id: null,
    group_id: t.groupId, priority: t.priority, requester_id: t.requesterId, responder_id: t.responderId, source: t.source, company_id: t.companyId,
    status: t.status, subject: t.subject, association_type: null, to_emails: null, product_id: null, id: t.id, type: t.type,
    due_by: t.dueBy ?? fdDate(t.createdAt + 3 * DAY), fr_due_by: fdDate(t.createdAt + DAY), is_escalated: false,
    ...(withDescription ? { description: t.description, description_text: stripHtml(t.description), attachments: t.attachments.map(fileJson) } : {}),
    custom_fields: { ...t.customFields }, created_at: fdDate(t.createdAt), updated_at: fdDate(t.updatedAt), tags: [...t.tags],
    ...(t.deleted ? { deleted: true } : {}),
  });
  const conversationJson = (c: SimConversation): Obj => ({
    body: c.body, body_text: stripHtml(c.body), id: c.id, incoming: c.incoming, private: c.private, user_id: c.userId, support_email: null, source: c.source,
    category: c.source === 2 ? 2 : 3, ticket_id: c.ticketId, to_emails: [], from_email: null, cc_emails: [], bcc_emails: [],
    attachments: c.attachments.map(fileJson), created_at: fdDate(c.createdAt), updated_at: fdDate(c.updatedAt),
  });
  const agentJson = (a: SimAgent): Obj => ({
    available: true, occasional: false, id: a.id, signature: null, ticket_scope: 1, group_ids: [...a.groupIds], role_ids: [], skill_ids: [], type: 'support_agent',
    contact: { active: true, email: a.email, job_title: null, language: 'en', last_login_at: null, mobile: null, name: a.name, phone: null, time_zone: 'UTC', created_at: fdDate(a.createdAt), updated_at: fdDate(a.updatedAt) },
    created_at: fdDate(a.createdAt), updated_at: fdDate(a.updatedAt),
  });
  const contactJson = (c: SimContact): Obj => ({
    active: true, address: null, company_id: c.companyId, description: c.description, email: c.email, id: c.id, job_title: null, language: 'en', mobile: null,
    name: c.name, phone: c.phone, time_zone: 'UTC', twitter_id: null, custom_fields: {}, other_emails: [], tags: [], ...(c.deleted ? { deleted: true } : {}),
    created_at: fdDate(c.createdAt), updated_at: fdDate(c.updatedAt),
  });
  const companyJson = (c: SimCompany): Obj => ({ id: c.id, name: c.name, description: c.description, domains: [...c.domains], note: null, custom_fields: {}, created_at: fdDate(c.createdAt), updated_at: fdDate(c.updatedAt) });
  const groupJson = (g: SimGroup): Obj => ({
    id: g.id, name: g.name, description: g.description, escalate_to: null, unassigned_for: null, auto_ticket_assign: 0, group_type: 'support_agent_group',
    agent_ids: [...state.agents.values()].filter((a) => a.groupIds.includes(g.id)).map((a) => a.id), created_at: fdDate(g.createdAt), updated_at: fdDate(g.updatedAt),
  });
  const fieldJson = (f: SimField): Obj => ({ id: f.id, name: f.name, label: f.label, description: null, position: f.id, required_for_closure: false, required_for_agents: false, type: f.type, default: f.default, customers_can_edit: false, label_for_customers: f.label, required_for_customers: false, displayed_to_customers: false, ...(f.choices ? { choices: f.choices } : {}) });

  // ---------------------------------------------------------------- contract checks
  const violation = (req: SimRequest, problems: Array<{ path: string; message: string }>): never => {
    contractViolations.push({ method: req.method, path: req.path, problems });
    throw new SimHttpError({ status: 400, body: errorBody(problems.map((p) => ({ field: p.path, message: p.message, code: p.message === 'Unknown field.' ? 'invalid_field' : 'invalid_value' }))) });
  };
  const checkQ = (req: SimRequest, kind: keyof typeof QUERIES) => {
    const problems = checkQuery(req.query, QUERIES[kind]!);
    if (problems.length) violation(req, problems);
  };
  const checkB = (req: SimRequest, schema: Schema): Obj => {
    if (req.bodyError || req.body === undefined) violation(req, [{ path: '_schema', message: 'Invalid or missing JSON body.' }]);
    const problems = checkBody(req.body, schema);
    if (problems.length) violation(req, problems);
    return req.body as Obj;
  };
  const checkIncludes = (req: SimRequest, allowed: readonly string[]) => {
    const inc = req.query.get('include');
    if (inc === null) return [];
    const parts = inc.split(',').map((s) => s.trim());
    const bad = parts.filter((p) => !allowed.includes(p));
    if (bad.length) violation(req, [{ path: 'include', message: `It should be one of these values: '${allowed.join(',')}'` }]);
    return parts;
  };

  /** A write's fields from JSON, or from multipart (text fields plus `attachments[]` files). */
  const readWrite = (req: SimRequest, schema: Schema, formFields: readonly string[]): { body: Obj; files: FilePart[] } => {
    const boundary = boundaryOf(req.headers['content-type']);
    if (!boundary) return { body: checkB(req, schema), files: [] };
    const parts = parseMultipart(req.rawBody, boundary);
    const body: Obj = {};
    const files: FilePart[] = [];
    for (const p of parts) {
      if (p.name === 'attachments[]' && p.filename !== null) files.push(p);
      else if (formFields.includes(p.name)) {
        const v = p.content.toString('utf8');
        body[p.name] = v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) && p.name.endsWith('_id') ? Number(v) : v;
      } else violation(req, [{ path: p.name, message: 'Unknown field.' }]);
    }
    const problems = checkBody(body, schema);
    if (problems.length) violation(req, problems);
    return { body, files };
  };

  // ---------------------------------------------------------------- lists
  const paginate = <T>(req: SimRequest, items: T[], maxPages = Infinity): SimResponse & { body: T[] } => {
    const page = Number(req.query.get('page') ?? 1);
    const per = Number(req.query.get('per_page') ?? 30);
    if (page > maxPages) invalid('page', `It should be less than or equal to ${maxPages}`);
    const slice = items.slice((page - 1) * per, page * per);
    const headers: Record<string, string> = {};
    if (page * per < items.length) {
      const next = new URLSearchParams(req.query);
      next.set('page', String(page + 1));
      headers.link = `<${origin}${req.path}?${next.toString()}>; rel="next"`;
    }
    return { status: 200, body: slice, headers };
  };

  const ticketOf = (id: string, allowTrashed = true) => {
    const t = state.tickets.get(Number(id));
    if (!t || (!allowTrashed && t.deleted)) notFound();
    return t;
  };

  const validateTicket = (b: Obj, t?: SimTicket) => {
    if (b.status !== undefined && !STATUSES.includes(b.status as number)) invalid('status', `It should be one of these values: '${STATUSES.join(',')}'`);
    if (b.priority !== undefined && ![1, 2, 3, 4].includes(b.priority as number)) invalid('priority', "It should be one of these values: '1,2,3,4'");
    if (b.source !== undefined && !SOURCES.includes(b.source as number)) invalid('source', `It should be one of these values: '${SOURCES.join(',')}'`);
    if (b.type !== undefined && b.type !== null && !TICKET_TYPES.includes(b.type as string)) invalid('type', `It should be one of these values: '${TICKET_TYPES.join(',')}'`);
    if (typeof b.requester_id === 'number' && !state.isUser(b.requester_id)) invalid('requester_id', 'There is no contact matching the given requester_id');
    if (typeof b.responder_id === 'number' && !state.agents.has(b.responder_id)) invalid('responder_id', 'There is no agent matching the given responder_id');
    if (typeof b.company_id === 'number' && !state.companies.has(b.company_id)) invalid('company_id', 'There is no company matching the given company_id');
    if (typeof b.group_id === 'number' && !state.groups.has(b.group_id)) invalid('group_id', 'There is no group matching the given group_id');
    if (b.custom_fields !== undefined) {
      if (!b.custom_fields || typeof b.custom_fields !== 'object' || Array.isArray(b.custom_fields)) invalid('custom_fields', 'It should be a/an key/value pair');
      for (const [k, v] of Object.entries(b.custom_fields as Obj)) {
        const f = state.customFields().find((x) => x.name === k);
        if (!f) invalid(k, 'Unexpected/invalid field in request', 'invalid_field');
        if (v === null) continue;
        const ok = f.type === 'custom_checkbox' ? typeof v === 'boolean' : f.type === 'custom_decimal' || f.type === 'custom_number' ? typeof v === 'number' : typeof v === 'string';
        if (!ok) invalid(k, `Value set is of type ${typeof v}.It should be a/an ${f.type === 'custom_checkbox' ? 'Boolean' : f.type === 'custom_text' ? 'String' : 'Number'}`, 'datatype_mismatch');
      }
    }
    if (t?.deleted) notFound();
  };

  const applyTicket = (t: SimTicket, b: Obj) => {
    if (typeof b.subject === 'string') t.subject = b.subject;
    if (typeof b.description === 'string') t.description = b.description;
    if (typeof b.status === 'number') t.status = b.status;
    if (typeof b.priority === 'number') t.priority = b.priority;
    if (b.type !== undefined) t.type = (b.type as string | null) ?? null;
    if (typeof b.requester_id === 'number') t.requesterId = b.requester_id;
    if (b.responder_id !== undefined) t.responderId = (b.responder_id as number | null) ?? null;
    if (b.company_id !== undefined) t.companyId = (b.company_id as number | null) ?? null;
    if (b.group_id !== undefined) t.groupId = (b.group_id as number | null) ?? null;
    if (Array.isArray(b.tags)) t.tags = [...new Set(b.tags as string[])];
    if (b.due_by !== undefined) t.dueBy = b.due_by === null ? null : fdDate(Date.parse(b.due_by as string));
    if (b.custom_fields) Object.assign(t.customFields, b.custom_fields);
    t.updatedAt = state.now();
  };

  // ---------------------------------------------------------------- routes
  type Handler = (req: SimRequest, p: string[], agent: SimAgent) => SimResponse;
  const routes: Array<[string, RegExp, Handler]> = [];
  const on = (method: string, pattern: string, h: Handler) => routes.push([method, new RegExp(`^/api/v2${pattern.replace(/\{\w+\}/g, '([^/]+)')}/?$`), h]);
  const ok = (body: unknown, status = 200): SimResponse => ({ status, body });
  const byId = <T>(m: Map<number, T>, id: string) => m.get(Number(id)) ?? notFound();

  on('GET', '/agents/me', (req, _p, agent) => (checkQ(req, 'none'), ok(agentJson(agent))));
  on('GET', '/agents', (req) => {
    checkQ(req, 'agents');
    const email = req.query.get('email');
    return paginate(req, [...state.agents.values()].filter((a) => !email || a.email === email).map(agentJson));
  });
  on('GET', '/agents/{id}', (req, [id]) => (checkQ(req, 'none'), ok(agentJson(byId(state.agents, id!)))));
  on('GET', '/groups', (req) => (checkQ(req, 'groups'), paginate(req, [...state.groups.values()].map(groupJson))));
  on('GET', '/groups/{id}', (req, [id]) => (checkQ(req, 'none'), ok(groupJson(byId(state.groups, id!)))));
  on('GET', '/companies', (req) => (checkQ(req, 'companies'), paginate(req, [...state.companies.values()].map(companyJson))));
  on('GET', '/companies/{id}', (req, [id]) => (checkQ(req, 'none'), ok(companyJson(byId(state.companies, id!)))));
  on('GET', '/contacts', (req) => {
    checkQ(req, 'contacts');
    const deleted = req.query.get('state') === 'deleted';
    const since = req.query.get('updated_since');
    if (since !== null && Number.isNaN(Date.parse(since))) invalid('updated_since', 'It should be in the \'YYYY-MM-DDTHH:MM:SSZ\' format');
    const from = since === null ? null : Date.parse(since);
    const res = paginate(req, [...state.contacts.values()].filter((c) => c.deleted === deleted && (from === null || c.updatedAt >= from)));
    return { ...res, body: res.body.map(contactJson) };
  });
  on('GET', '/contacts/{id}', (req, [id]) => (checkQ(req, 'none'), ok(contactJson(byId(state.contacts, id!)))));
  on('GET', '/ticket_fields', (req) => (checkQ(req, 'ticketFields'), ok(state.fields.map(fieldJson))));

  on('GET', '/tickets', (req) => {
    checkQ(req, 'tickets');
    const include = checkIncludes(req, TICKET_LIST_INCLUDES);
    const since = req.query.get('updated_since');
    if (since !== null && Number.isNaN(Date.parse(since))) invalid('updated_since', 'It should be in the \'YYYY-MM-DDTHH:MM:SSZ\' format');
    const filter = req.query.get('filter');
    const now = state.now();
    const by = (req.query.get('order_by') ?? 'created_at') as 'created_at' | 'updated_at' | 'due_by' | 'status';
    const dir = req.query.get('order_type') === 'asc' ? 1 : -1;
    const key = (t: SimTicket) => (by === 'updated_at' ? Math.floor(t.updatedAt / 1000) : by === 'status' ? t.status : by === 'due_by' ? Date.parse(t.dueBy ?? fdDate(t.createdAt + 3 * DAY)) : Math.floor(t.createdAt / 1000));
    const from = since === null ? null : Math.floor(Date.parse(since) / 1000) * 1000;
    const list = [...state.tickets.values()]
      .filter((t) => (filter === 'deleted' ? t.deleted : filter === 'spam' ? t.spam && !t.deleted : !t.deleted && !t.spam))
      // Without updated_since, only tickets created in the last 30 days.
      .filter((t) => (from !== null ? t.updatedAt >= from : t.createdAt >= now - 30 * DAY))
      .filter((t) => !req.query.get('requester_id') || t.requesterId === Number(req.query.get('requester_id')))
      .filter((t) => !req.query.get('company_id') || t.companyId === Number(req.query.get('company_id')))
      .sort((a, b) => dir * (key(a) - key(b)) || dir * (a.id - b.id));
    const res = paginate(req, list, maxTicketPages);
    return { ...res, body: res.body.map((t) => ticketJson(t, include.includes('description'))) };
  });
  on('POST', '/tickets', (req) => {
    checkQ(req, 'none');
    const b = checkB(req, BODIES.createTicket);
    if (b.requester_id === undefined && b.email === undefined && b.phone === undefined && b.twitter_id === undefined && b.facebook_id === undefined && b.unique_external_id === undefined) {
      invalid('requester_id', 'Please fill at least 1 of requester_id, phone, email, twitter_id, facebook_id, unique_external_id attributes', 'missing_field');
    }
    if (typeof b.subject !== 'string' || b.subject === '') invalid('subject', 'It should be a/an String', 'missing_field');
    validateTicket(b);
    let requesterId = b.requester_id as number | undefined;
    if (requesterId === undefined && typeof b.email === 'string') {
      requesterId = ([...state.contacts.values()].find((c) => c.email === b.email) ?? state.addContact({ name: b.email, email: b.email })).id;
    }
    const t = state.createTicket({ subject: b.subject, requesterId: requesterId ?? apiAgent.id });
    applyTicket(t, { ...b, requester_id: requesterId });
    t.updatedAt = t.createdAt;
    return ok(ticketJson(t, true), 201);
  });
  on('GET', '/tickets/{id}', (req, [id]) => {
    checkQ(req, 'ticket');
    checkIncludes(req, TICKET_INCLUDES);
    return ok(ticketJson(ticketOf(id!), true));
  });
  on('PUT', '/tickets/{id}', (req, [id]) => {
    checkQ(req, 'none');
    const t = ticketOf(id!, false);
    const b = checkB(req, BODIES.updateTicket);
    validateTicket(b, t);
    applyTicket(t, b);
    return ok(ticketJson(t, true));
  });
  on('DELETE', '/tickets/{id}', (req, [id]) => {
    checkQ(req, 'none');
    const t = ticketOf(id!, false);
    t.deleted = true;
    t.updatedAt = state.now();
    return { status: 204 };
  });
  on('GET', '/tickets/{id}/conversations', (req, [id]) => {
    checkQ(req, 'conversations');
    const t = ticketOf(id!);
    return paginate(req, state.conversationsOf(t.id).map(conversationJson));
  });
  const conversationWrite = (kind: 'reply' | 'note'): Handler => (req, [id], agent) => {
    checkQ(req, 'none');
    const t = ticketOf(id!, false);
    const { body: b, files } = readWrite(req, kind === 'reply' ? BODIES.reply : BODIES.note, FORM_FIELDS[kind]);
    const userId = (b.user_id as number | undefined) ?? agent.id;
    if (!state.isUser(userId)) invalid('user_id', 'There is no contact/agent matching the given user_id');
    if (kind === 'reply' && !state.agents.has(userId)) invalid('user_id', 'The user_id should belong to an agent');
    const attachments = files.map((f) => state.addFile(f.filename ?? f.name, f.contentType, f.content).id);
    const c = state.addConversation(t, {
      body: b.body as string, incoming: kind === 'note' && b.incoming === true, private: kind === 'note' ? b.private !== false : false,
      userId, source: kind === 'reply' ? 0 : 2, attachments,
    });
    return ok(conversationJson(c), 201);
  };
  on('POST', '/tickets/{id}/reply', conversationWrite('reply'));
  on('POST', '/tickets/{id}/notes', conversationWrite('note'));

  // ---------------------------------------------------------------- server
  const authOf = (req: SimRequest): SimAgent | undefined => {
    const m = /^basic\s+(\S+)\s*$/i.exec(String(req.headers.authorization ?? ''));
    if (!m) return undefined;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const id = agentOfKey.get(decoded.slice(0, decoded.indexOf(':')));
    return id === undefined ? undefined : state.agents.get(id);
  };
  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    describeAuth: (req) => (req.headers.authorization ? { scheme: 'basic', label: authOf(req)?.email ?? null, valid: authOf(req) !== undefined } : null),
    faultResponse: (fault) => ({
      status: fault.status!,
      body: fault.status === 429 ? { message: 'You have exceeded the limit of requests per minute' } : { code: 'internal_error', message: http.STATUS_CODES[fault.status!] ?? 'Error' },
      headers: fault.status === 429 ? limitHeaders(0) : {},
    }),
    handle(req) {
      const file = /^\/api\/v2\/attachments\/(\d+)\/[^/]+$/.exec(req.path);
      if (file && req.method === 'GET') {
        const f = state.files.get(Number(file[1])) ?? notFound();
        return { status: 200, body: f.content.toString('utf8'), headers: { 'content-type': f.contentType } };
      }
      const agent = authOf(req);
      if (!agent) return { status: 401, body: { code: 'invalid_credentials', message: 'You have to be logged in to perform this action.' } };
      const spent = spend();
      if (opts.rateLimit?.enforce && used > perMinute) {
        return { status: 429, body: { message: 'You have exceeded the limit of requests per minute' }, headers: { ...limitHeaders(0), 'retry-after': String(spent.retryAfter) } };
      }
      for (const [method, re, h] of routes) {
        const m = re.exec(req.path);
        if (!m) continue;
        if (method !== req.method) continue;
        const res = h(req, m.slice(1), agent);
        res.headers = { ...limitHeaders(spent.remaining), ...(res.headers ?? {}) };
        return res;
      }
      if (routes.some(([, re]) => re.test(req.path))) return noRoute({ status: 405, body: { code: 'method_not_allowed', message: 'Method not allowed' } });
      return noRoute({ status: 404, body: { code: 'not_found', message: 'The requested resource could not be found' } });
    },
    internalError: (err) => ({ status: 500, body: { code: 'internal_error', message: String(err) } }),
  });
  origin = server.url;

  return {
    url: server.url,
    state,
    seed,
    apiKeys,
    requests,
    faults,
    clock,
    contractViolations,
    /** A ticket as `GET /api/v2/tickets/{id}` answers it (undefined once deleted for good). */
    ticketJson: (id: number) => {
      const t = state.tickets.get(id);
      return t ? ticketJson(t, true) : undefined;
    },
    /** A change made in the helpdesk (bumps `updated_at`). */
    updateTicketRemotely(id: number, patch: { subject?: string; status?: number; tags?: string[]; customFields?: Obj }) {
      const t = state.tickets.get(id) ?? notFound();
      applyTicket(t, { subject: patch.subject, status: patch.status, tags: patch.tags, custom_fields: patch.customFields });
      return t;
    },
    /** "Delete" in the helpdesk: to the trash. */
    trashTicketRemotely(id: number) {
      const t = state.tickets.get(id) ?? notFound();
      t.deleted = true;
      t.updatedAt = state.now();
    },
    /** Emptying the trash: the ticket and its conversations are gone. */
    deleteTicketForGood(id: number) {
      state.tickets.delete(id);
      state.dropConversationsOf(id);
    },
    /** `n` tickets from one requester, each with `conversationsPerTicket` replies, a second apart and a day old; ids oldest first. */
    seedTickets(n: number, o: { conversationsPerTicket?: number } = {}) {
      const requester = state.addContact({ name: 'Bulk Requester', email: `bulk${state.nextId()}@example.com` });
      const ids: number[] = [];
      const start = state.now() - DAY - n * 1000;
      for (let i = 0; i < n; i++) {
        const t = state.createTicket({ subject: `Ticket ${i + 1}`, description: `<div>Body ${i + 1}</div>`, requesterId: requester.id, tags: [`t${i % 10}`] }, start + i * 1000);
        for (let j = 0; j < (o.conversationsPerTicket ?? 0); j++) {
          const c = { id: state.nextId(), ticketId: t.id, body: `<div>Reply ${j + 1}</div>`, incoming: false, private: false, userId: apiAgent.id, source: 0, attachments: [], createdAt: t.createdAt, updatedAt: t.createdAt };
          state.putConversation(c);
        }
        ids.push(t.id);
      }
      return ids;
    },
    close: () => server.close(),
  };
}

export type FreshdeskSimulator = Awaited<ReturnType<typeof startFreshdeskSimulator>>;
