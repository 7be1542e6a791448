/**
 * Help Scout Mailbox API 2.0 simulator (https://api.helpscout.net/v2/…) for integration tests and benchmarks,
 * built on the shared HTTP kit. Help Scout publishes no machine-readable description; the simulator follows the
 * reference at developer.helpscout.com/mailbox-api and checks every request against what it documents
 * (contract.ts): unknown or invalid parameters and bodies answer 400 and are recorded in `contractViolations`,
 * which tests assert stay empty.
 *
 * Auth: `Authorization: Bearer <token>` of a registered token (`acceptToken`, e.g. from the OAuth simulator);
 * otherwise 401 `{"error": "invalid_token", …}`.
 * Lists: HAL, `page` from 1, `_embedded.<name>`, `_links.next` while more follow, `page: {size, totalElements,
 * totalPages, number}`; 25 conversations a page, 50 of everything else (both configurable).
 * Creates answer 201 with `Resource-ID` and `Location`, and no body; updates 204.
 * Webhooks (hooks.ts): created, listed, updated and deleted through `/v2/webhooks`; conversation events
 * (`convo.created`, `convo.status`, `convo.assigned`, `convo.moved`, `convo.tags`, `convo.custom-fields`, replies,
 * notes, `convo.deleted`), `customer.created` and `tag.created` are sent to the webhooks subscribed to them.
 * Rate limit: per account per minute (default 400), writes counting two; answers carry `X-RateLimit-Limit-Minute`
 * and `X-RateLimit-Remaining-Minute`; with `enforce`, a spent minute answers 429 with `X-RateLimit-Retry-After`.
 */
import { checkBody, checkQuery, type Schema } from '../shared/contract-check';
import { FaultController, SimClock, SimHttpError, startSimServer, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { noRoute } from '../shared/no-route';
import { BODIES, QUERIES } from './contract';
import { HelpScoutHooks } from './hooks';

export { HelpScoutHooks, helpscoutHookHeaders, type SimHsWebhook } from './hooks';

export { FaultController, SimClock };

type Obj = Record<string, unknown>;

export interface SimUser { id: number; firstName: string; lastName: string; email: string; createdAt: number; updatedAt: number }
export interface SimCustomer { id: number; firstName: string; lastName: string; email: string | null; phone: string | null; createdAt: number; updatedAt: number }
export interface SimThread { id: number; type: string; body: string; by: { id: number; type: 'user' | 'customer' }; customerId: number | null; attachments: Array<{ id: number; filename: string; mimeType: string; size: number }>; createdAt: number }
export interface SimConversation {
  id: number; number: number; subject: string; status: string; type: string; mailboxId: number; assignee: number | null; customerId: number; createdBy: number;
  tags: string[]; fields: Record<number, string>; threads: SimThread[]; closedAt: number | null; createdAt: number; modifiedAt: number; userUpdatedAt: number;
}

export interface HelpScoutSimulatorOptions {
  tokens?: string[];
  seedDefaults?: boolean;
  rateLimit?: { perMinute?: number; enforce?: boolean; windowSeconds?: number };
  pageSize?: { conversations?: number; other?: number };
  now?: () => number;
  recordBodies?: boolean;
}

export interface ContractViolation { method: string; path: string; problems: Array<{ path: string; message: string }> }

/** Help Scout writes datetimes in UTC to the second. */
export const hsDate = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

const DEFAULT_TOKEN = 'helpscout-test-token';

function fail(status: number, message: string, errors: Array<{ path: string; message: string }> = []): never {
  throw new SimHttpError({ status, body: { message, logRef: 'sim', ...(errors.length ? { _embedded: { errors: errors.map((e) => ({ ...e, source: 'BODY' })) } } : {}) } });
}
const notFound = (): never => fail(404, 'Resource not found');

export async function startHelpScoutSimulator(opts: HelpScoutSimulatorOptions = {}) {
  const clock = new SimClock(opts.now);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const contractViolations: ContractViolation[] = [];
  const convPage = opts.pageSize?.conversations ?? 25;
  const otherPage = opts.pageSize?.other ?? 50;
  let seq = 100;
  let number = 1000;
  const now = () => clock.now();
  const users = new Map<number, SimUser>();
  const teams = new Map<number, { id: number; name: string; members: number[]; createdAt: number; updatedAt: number }>();
  const mailboxes = new Map<number, { id: number; name: string; email: string; fields: Array<{ id: number; name: string; type: string }>; createdAt: number; updatedAt: number }>();
  const tags = new Map<string, { id: number; name: string; createdAt: number; updatedAt: number }>();
  const customers = new Map<number, SimCustomer>();
  const conversations = new Map<number, SimConversation>();
  const files = new Map<number, Buffer>();
  const hooks = new HelpScoutHooks();
  let origin = '';
  // Bumped whenever a conversation or customer is added, changed or deleted: the sorted lists behind a
  // listing's pages are computed once per revision, not once per page (a full sync pages them all).
  let revision = 0;
  let listed: { revision: number; lists: Map<string, unknown[]> } = { revision, lists: new Map() };
  const listOf = <T>(key: string, compute: () => T[]): T[] => {
    if (listed.revision !== revision) listed = { revision, lists: new Map() };
    let list = listed.lists.get(key) as T[] | undefined;
    if (!list) listed.lists.set(key, (list = compute()));
    return list;
  };

  const addUser = (firstName: string, lastName: string, email: string) => {
    const u = { id: ++seq, firstName, lastName, email, createdAt: now(), updatedAt: now() };
    users.set(u.id, u);
    return u;
  };
  const addCustomer = (firstName: string, lastName: string, email: string | null, phone: string | null = null, at = now()) => {
    const c = { id: ++seq, firstName, lastName, email, phone, createdAt: at, updatedAt: at };
    customers.set(c.id, c);
    // (Seeding happens before the shapes are defined, and before any webhook exists.)
    if (hooks.webhooks.size) hooks.fire('customer.created', customerJson(c));
    revision++;
    return c;
  };
  const customerByEmail = (email: string) => [...customers.values()].find((c) => c.email === email) ?? addCustomer('', '', email);
  const ensureTag = (name: string) => {
    if (tags.has(name)) return;
    const t = { id: ++seq, name, createdAt: now(), updatedAt: now() };
    tags.set(name, t);
    if (hooks.webhooks.size) hooks.fire('tag.created', tagJson(t));
  };

  const me = addUser('Alex', 'Admin', 'alex@acme.example');
  const tokens = new Map((opts.tokens?.length ? opts.tokens : [DEFAULT_TOKEN]).map((t) => [t, me.id]));
  const support = { id: ++seq, name: 'Support', email: 'support@acme.example', fields: [{ id: ++seq, name: 'Order number', type: 'SINGLE_LINE' }, { id: ++seq, name: 'Plan', type: 'DROPDOWN' }], createdAt: now(), updatedAt: now() };
  mailboxes.set(support.id, support);
  const orderField = support.fields[0]!.id;

  /** A change of a conversation, and the event Help Scout sends for it (none for a change it has no event for, e.g. the subject). */
  const touch = (c: SimConversation, event?: string, byUser = true) => {
    revision++;
    c.modifiedAt = now();
    if (byUser) c.userUpdatedAt = now();
    if (event && hooks.webhooks.size) hooks.fire(event, conversationJson(c, true), c.mailboxId);
  };
  const addThread = (c: SimConversation, t: Omit<SimThread, 'id' | 'createdAt'>, at = now()) => {
    const th = { ...t, id: ++seq, createdAt: at };
    c.threads.push(th);
    revision++;
    return th;
  };
  const uploads = (list: unknown) =>
    (Array.isArray(list) ? (list as Array<{ fileName: string; mimeType: string; data: string }>) : []).map((a) => {
      const id = ++seq;
      const content = Buffer.from(a.data, 'base64');
      files.set(id, content);
      return { id, filename: a.fileName, mimeType: a.mimeType, size: content.length };
    });

  let seed: { me: number; sam: number; team: number; mailbox: number; casey: number; conversation: number; orderField: number } | undefined;
  if (opts.seedDefaults !== false) {
    const sam = addUser('Sam', 'Agent', 'sam@acme.example');
    const team = { id: ++seq, name: 'Tier 1', members: [sam.id, me.id], createdAt: now(), updatedAt: now() };
    teams.set(team.id, team);
    const casey = addCustomer('Casey', 'Customer', 'casey@northwind.example', '+15550100');
    ensureTag('billing');
    const c: SimConversation = {
      id: ++seq, number: ++number, subject: 'Where is my order?', status: 'active', type: 'email', mailboxId: support.id, assignee: sam.id, customerId: casey.id, createdBy: casey.id,
      tags: ['billing'], fields: { [orderField]: 'ORD-7' }, threads: [], closedAt: null, createdAt: now(), modifiedAt: now(), userUpdatedAt: now(),
    };
    conversations.set(c.id, c);
    addThread(c, { type: 'customer', body: '<p>It has been two weeks.</p>', by: { id: casey.id, type: 'customer' }, customerId: casey.id, attachments: [] });
    addThread(c, { type: 'message', body: '<p>Checking with the warehouse.</p>', by: { id: sam.id, type: 'user' }, customerId: casey.id, attachments: uploads([{ fileName: 'label.txt', mimeType: 'text/plain', data: Buffer.from('tracking').toString('base64') }]) });
    addThread(c, { type: 'note', body: '<p>Carrier lost it.</p>', by: { id: sam.id, type: 'user' }, customerId: null, attachments: [] });
    addThread(c, { type: 'lineitem', body: '', by: { id: sam.id, type: 'user' }, customerId: null, attachments: [] });
    seed = { me: me.id, sam: sam.id, team: team.id, mailbox: support.id, casey: casey.id, conversation: c.id, orderField };
  }

  // ---------------------------------------------------------------- rate limit
  const perMinute = opts.rateLimit?.perMinute ?? 400;
  const windowMs = (opts.rateLimit?.windowSeconds ?? 60) * 1000;
  let windowStart = now();
  let used = 0;
  const limitHeaders = (remaining: number) => ({ 'x-ratelimit-limit-minute': String(perMinute), 'x-ratelimit-remaining-minute': String(Math.max(0, remaining)) });

  // ---------------------------------------------------------------- contract
  const violation = (req: SimRequest, problems: Array<{ path: string; message: string }>): never => {
    contractViolations.push({ method: req.method, path: req.path, problems });
    fail(400, 'Bad request', problems);
  };
  const checkQ = (req: SimRequest, name: keyof typeof QUERIES) => {
    const problems = checkQuery(req.query, QUERIES[name]!);
    if (problems.length) violation(req, problems);
  };
  const checkB = (req: SimRequest, schema: Schema): Obj => {
    if (req.bodyError) violation(req, [{ path: '_body', message: 'Malformed JSON' }]);
    const problems = checkBody(req.body ?? {}, schema);
    if (problems.length) violation(req, problems);
    return (req.body ?? {}) as Obj;
  };
  const checkSince = (req: SimRequest) => {
    const s = req.query.get('modifiedSince');
    if (s !== null && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(s)) violation(req, [{ path: 'modifiedSince', message: 'must be an ISO 8601 date-time in UTC (yyyy-MM-ddTHH:mm:ssZ)' }]);
    return s === null ? null : Date.parse(s);
  };

  // ---------------------------------------------------------------- shapes
  const person = (id: number, type: 'user' | 'customer') => {
    const p = type === 'user' ? users.get(id) : customers.get(id);
    return { id, type, first: p?.firstName ?? '', last: p?.lastName ?? '', email: p?.email ?? null };
  };
  const threadJson = (t: SimThread) => ({
    id: t.id, type: t.type, status: 'active', state: 'published', body: t.body, createdBy: person(t.by.id, t.by.type), ...(t.customerId ? { customer: person(t.customerId, 'customer') } : {}),
    createdAt: hsDate(t.createdAt),
    _embedded: { attachments: t.attachments.map((a) => ({ ...a, _links: { data: { href: `${origin}/v2/attachments/${a.id}/data` }, web: { href: `${origin}/v2/attachments/${a.id}/data` } } })) },
  });
  const conversationJson = (c: SimConversation, threads: boolean) => ({
    id: c.id, number: c.number, subject: c.subject, status: c.status, type: c.type, mailboxId: c.mailboxId, state: 'published',
    preview: (c.threads[0]?.body ?? '').replace(/<[^>]*>/g, '').slice(0, 185),
    ...(c.assignee ? { assignee: person(c.assignee, 'user') } : {}),
    primaryCustomer: person(c.customerId, 'customer'), createdBy: person(c.createdBy, users.has(c.createdBy) ? 'user' : 'customer'),
    tags: c.tags.map((t) => ({ id: tags.get(t)?.id ?? 0, tag: t, color: '#929499' })),
    customFields: Object.entries(c.fields).map(([id, value]) => ({ id: Number(id), name: mailboxes.get(c.mailboxId)?.fields.find((f) => f.id === Number(id))?.name ?? '', value, text: value })),
    closedAt: c.closedAt ? hsDate(c.closedAt) : null, createdAt: hsDate(c.createdAt), userUpdatedAt: hsDate(c.userUpdatedAt),
    ...(threads ? { _embedded: { threads: [...c.threads].reverse().map(threadJson) } } : {}),
  });
  const tagJson = (t: { id: number; name: string; createdAt: number; updatedAt: number }) => ({ id: t.id, name: t.name, slug: t.name, color: '#929499', createdAt: hsDate(t.createdAt), updatedAt: hsDate(t.updatedAt) });
  const userJson = (u: SimUser) => ({ id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email, role: 'user', createdAt: hsDate(u.createdAt), updatedAt: hsDate(u.updatedAt) });
  const customerJson = (c: SimCustomer) => ({
    id: c.id, firstName: c.firstName, lastName: c.lastName, createdAt: hsDate(c.createdAt), updatedAt: hsDate(c.updatedAt),
    _embedded: { emails: c.email ? [{ id: c.id, value: c.email, type: 'work' }] : [], phones: c.phone ? [{ id: c.id, value: c.phone, type: 'work' }] : [] },
  });

  /** One page of `items`, only its own items rendered with `render`. */
  const hal = <T>(req: SimRequest, name: string, items: T[], size: number, render: (item: T) => unknown = (item) => item): SimResponse => {
    const page = Number(req.query.get('page') ?? 1);
    const totalPages = Math.max(1, Math.ceil(items.length / size));
    const slice = items.slice((page - 1) * size, page * size).map(render);
    const link = (p: number) => {
      const q = new URLSearchParams(req.query);
      q.set('page', String(p));
      return { href: `${origin}${req.path}?${q.toString()}` };
    };
    return {
      status: 200,
      body: { _embedded: { [name]: slice }, _links: { self: link(page), first: link(1), last: link(totalPages), ...(page < totalPages ? { next: link(page + 1) } : {}), page: { href: `${origin}${req.path}{?page}`, templated: true } }, page: { size, totalElements: items.length, totalPages, number: page } },
    };
  };

  // ---------------------------------------------------------------- routes
  type Handler = (req: SimRequest, p: string[], userId: number) => SimResponse;
  const routes: Array<[string, RegExp, Handler]> = [];
  const on = (method: string, pattern: string, h: Handler) => routes.push([method, new RegExp(`^${pattern.replace(/\{\w+\}/g, '(\\d+)')}/?$`), h]);
  const conv = (id: string) => conversations.get(Number(id)) ?? notFound();
  const created = (path: string, id: number): SimResponse => ({ status: 201, headers: { 'resource-id': String(id), location: `${origin}${path}/${id}` } });

  on('GET', '/v2/users/me', (req, _p, uid) => (checkQ(req, 'none'), { status: 200, body: userJson(users.get(uid)!) }));
  on('GET', '/v2/users', (req) => (checkQ(req, 'users'), hal(req, 'users', [...users.values()], otherPage, userJson)));
  on('GET', '/v2/teams', (req) => (checkQ(req, 'paged'), hal(req, 'teams', [...teams.values()].map((t) => ({ id: t.id, name: t.name, createdAt: hsDate(t.createdAt), updatedAt: hsDate(t.updatedAt) })), otherPage)));
  on('GET', '/v2/teams/{id}/members', (req, [id]) => {
    checkQ(req, 'paged');
    const t = teams.get(Number(id)) ?? notFound();
    return hal(req, 'users', t.members.map((m) => userJson(users.get(m)!)), otherPage);
  });
  on('GET', '/v2/mailboxes', (req) => (checkQ(req, 'paged'), hal(req, 'mailboxes', [...mailboxes.values()].map((m) => ({ id: m.id, name: m.name, email: m.email, createdAt: hsDate(m.createdAt), updatedAt: hsDate(m.updatedAt) })), otherPage)));
  on('GET', '/v2/mailboxes/{id}/fields', (req, [id]) => {
    checkQ(req, 'paged');
    const m = mailboxes.get(Number(id)) ?? notFound();
    return hal(req, 'fields', m.fields.map((f) => ({ ...f, required: false, order: 1, options: [] })), otherPage);
  });
  on('GET', '/v2/tags', (req) => (checkQ(req, 'paged'), hal(req, 'tags', [...tags.values()].map(tagJson), otherPage)));
  on('GET', '/v2/customers', (req) => {
    checkQ(req, 'customers');
    const since = checkSince(req);
    const dir = req.query.get('sortOrder') === 'asc' ? 1 : -1;
    const list = listOf(`customers\n${since}\n${dir}`, () => [...customers.values()].filter((c) => since === null || c.updatedAt >= since).sort((a, b) => dir * (a.updatedAt - b.updatedAt) || a.id - b.id));
    return hal(req, 'customers', list, otherPage, customerJson);
  });
  on('GET', '/v2/conversations', (req) => {
    checkQ(req, 'conversations');
    const since = checkSince(req);
    // Without `status`, only active conversations; `all` is every status but spam.
    const status = req.query.get('status') ?? 'active';
    const field = req.query.get('sortField') ?? 'createdAt';
    if (!['createdAt', 'modifiedAt'].includes(field)) violation(req, [{ path: 'sortField', message: `the simulator sorts by createdAt or modifiedAt, not ${field}` }]);
    const dir = req.query.get('sortOrder') === 'asc' ? 1 : -1;
    const key = (c: SimConversation) => (field === 'modifiedAt' ? Math.floor(c.modifiedAt / 1000) : Math.floor(c.createdAt / 1000));
    const list = listOf(`conversations\n${status}\n${field}\n${dir}\n${since}`, () =>
      [...conversations.values()]
        .filter((c) => (status === 'all' ? c.status !== 'spam' : c.status === status))
        .filter((c) => since === null || c.modifiedAt >= since)
        .sort((a, b) => dir * (key(a) - key(b)) || a.id - b.id));
    const embed = req.query.get('embed') === 'threads';
    return hal(req, 'conversations', list, convPage, (c) => conversationJson(c, embed));
  });
  on('GET', '/v2/conversations/{id}', (req, [id]) => (checkQ(req, 'conversation'), { status: 200, body: conversationJson(conv(id!), req.query.get('embed') === 'threads') }));
  on('GET', '/v2/conversations/{id}/threads', (req, [id]) => (checkQ(req, 'paged'), hal(req, 'threads', [...conv(id!).threads].reverse(), otherPage, threadJson)));
  on('POST', '/v2/conversations', (req, _p, uid) => {
    checkQ(req, 'none');
    const b = checkB(req, BODIES.createConversation);
    if (!mailboxes.has(b.mailboxId as number)) fail(400, 'Bad request', [{ path: 'mailboxId', message: 'Mailbox not found' }]);
    const cref = b.customer as { id?: number; email?: string };
    const customer = cref.id !== undefined ? (customers.get(cref.id) ?? fail(400, 'Bad request', [{ path: 'customer.id', message: 'Customer not found' }])) : cref.email ? customerByEmail(cref.email) : fail(400, 'Bad request', [{ path: 'customer', message: 'id or email is required' }]);
    if (b.assignTo !== undefined && !users.has(b.assignTo as number)) fail(400, 'Bad request', [{ path: 'assignTo', message: 'User not found' }]);
    const mb = mailboxes.get(b.mailboxId as number)!;
    for (const f of (b.fields as Array<{ id: number }> | undefined) ?? []) if (!mb.fields.some((x) => x.id === f.id)) fail(400, 'Bad request', [{ path: 'fields', message: `Custom field ${f.id} not found in mailbox` }]);
    const c: SimConversation = {
      id: ++seq, number: ++number, subject: b.subject as string, status: b.status as string, type: b.type as string, mailboxId: mb.id, assignee: (b.assignTo as number | undefined) ?? null,
      customerId: customer.id, createdBy: (b.user as number | undefined) ?? uid, tags: [...new Set((b.tags as string[] | undefined) ?? [])],
      fields: Object.fromEntries(((b.fields as Array<{ id: number; value: string }> | undefined) ?? []).map((f) => [f.id, f.value])), threads: [], closedAt: b.status === 'closed' ? now() : null,
      createdAt: now(), modifiedAt: now(), userUpdatedAt: now(),
    };
    c.tags.forEach(ensureTag);
    conversations.set(c.id, c);
    revision++;
    for (const t of b.threads as Array<{ type: string; text: string; customer?: { id?: number }; user?: number; attachments?: unknown }>) {
      const byCustomer = t.type === 'customer';
      addThread(c, { type: t.type === 'reply' ? 'message' : t.type, body: t.text, by: byCustomer ? { id: customer.id, type: 'customer' } : { id: t.user ?? uid, type: 'user' }, customerId: t.type === 'note' ? null : customer.id, attachments: uploads(t.attachments) });
    }
    hooks.fire('convo.created', conversationJson(c, true), c.mailboxId);
    return created('/v2/conversations', c.id);
  });
  on('PATCH', '/v2/conversations/{id}', (req, [id]) => {
    checkQ(req, 'none');
    const c = conv(id!);
    const b = checkB(req, BODIES.patch);
    const v = b.value;
    const events: Record<string, string> = { '/status': 'convo.status', '/mailboxId': 'convo.moved', '/assignTo': 'convo.assigned' };
    switch (b.path) {
      case '/subject': if (typeof v !== 'string') fail(400, 'Bad request', [{ path: 'value', message: 'must be a string' }]); c.subject = v; break;
      case '/status': if (!['active', 'pending', 'closed', 'spam'].includes(v as string)) fail(400, 'Bad request', [{ path: 'value', message: 'invalid status' }]); c.status = v as string; c.closedAt = v === 'closed' ? now() : null; break;
      case '/mailboxId': if (!mailboxes.has(v as number)) fail(400, 'Bad request', [{ path: 'value', message: 'Mailbox not found' }]); c.mailboxId = v as number; break;
      case '/primaryCustomer.id': if (!customers.has(v as number)) fail(400, 'Bad request', [{ path: 'value', message: 'Customer not found' }]); c.customerId = v as number; break;
      case '/assignTo':
        if (b.op === 'remove') c.assignee = null;
        else if (!users.has(v as number)) fail(400, 'Bad request', [{ path: 'value', message: 'User not found' }]);
        else c.assignee = v as number;
        break;
      default: fail(400, 'Bad request', [{ path: 'path', message: 'unsupported path' }]);
    }
    touch(c, events[b.path as string]);
    return { status: 204 };
  });
  on('PUT', '/v2/conversations/{id}/tags', (req, [id]) => {
    checkQ(req, 'none');
    const c = conv(id!);
    c.tags = [...new Set(checkB(req, BODIES.tags).tags as string[])];
    c.tags.forEach(ensureTag);
    touch(c, 'convo.tags');
    return { status: 204 };
  });
  on('PUT', '/v2/conversations/{id}/fields', (req, [id]) => {
    checkQ(req, 'none');
    const c = conv(id!);
    const mb = mailboxes.get(c.mailboxId)!;
    for (const f of checkB(req, BODIES.fields).fields as Array<{ id: number; value: string }>) {
      if (!mb.fields.some((x) => x.id === f.id)) fail(400, 'Bad request', [{ path: 'fields', message: `Custom field ${f.id} not found in mailbox` }]);
      c.fields[f.id] = f.value;
    }
    touch(c, 'convo.custom-fields');
    return { status: 204 };
  });
  on('DELETE', '/v2/conversations/{id}', (req, [id]) => {
    checkQ(req, 'none');
    const c = conv(id!);
    conversations.delete(c.id);
    revision++;
    hooks.fire('convo.deleted', { id: c.id }, c.mailboxId);
    return { status: 204 };
  });
  const threadWrite = (kind: 'reply' | 'notes' | 'customer'): Handler => (req, [id], uid) => {
    checkQ(req, 'none');
    const c = conv(id!);
    const b = checkB(req, BODIES[kind]);
    const cust = (b.customer as { id?: number } | undefined)?.id;
    if (cust !== undefined && !customers.has(cust)) fail(400, 'Bad request', [{ path: 'customer.id', message: 'Customer not found' }]);
    if (b.user !== undefined && !users.has(b.user as number)) fail(400, 'Bad request', [{ path: 'user', message: 'User not found' }]);
    const th = addThread(c, {
      type: kind === 'reply' ? 'message' : kind === 'notes' ? 'note' : 'customer', body: b.text as string,
      by: kind === 'customer' ? { id: cust!, type: 'customer' } : { id: (b.user as number | undefined) ?? uid, type: 'user' }, customerId: kind === 'notes' ? null : (cust ?? c.customerId), attachments: uploads(b.attachments),
    });
    touch(c, kind === 'reply' ? 'convo.agent.reply.created' : kind === 'notes' ? 'convo.note.created' : 'convo.customer.reply.created');
    return created(`/v2/conversations/${c.id}/threads`, th.id);
  };
  on('POST', '/v2/conversations/{id}/reply', threadWrite('reply'));
  on('POST', '/v2/conversations/{id}/notes', threadWrite('notes'));
  on('POST', '/v2/conversations/{id}/customer', threadWrite('customer'));
  const hook = (id: string) => hooks.webhooks.get(Number(id)) ?? notFound();
  const webhookOf = (b: Obj, id: number) => ({
    id, url: b.url as string, events: [...new Set(b.events as string[])], secret: b.secret as string, notification: b.notification === true, label: (b.label as string | undefined) ?? null,
    payloadVersion: 'V2' as const, mailboxIds: (b.mailboxIds as number[] | undefined) ?? [],
  });
  on('GET', '/v2/webhooks', (req) => (checkQ(req, 'paged'), hal(req, 'webhooks', [...hooks.webhooks.values()].map((h) => hooks.render(h, origin)), otherPage)));
  on('POST', '/v2/webhooks', (req) => {
    checkQ(req, 'none');
    const h = webhookOf(checkB(req, BODIES.webhook), ++seq);
    hooks.webhooks.set(h.id, h);
    return created('/v2/webhooks', h.id);
  });
  on('GET', '/v2/webhooks/{id}', (req, [id]) => (checkQ(req, 'none'), { status: 200, body: hooks.render(hook(id!), origin) }));
  on('PUT', '/v2/webhooks/{id}', (req, [id]) => {
    checkQ(req, 'none');
    const h = hook(id!);
    hooks.webhooks.set(h.id, webhookOf(checkB(req, BODIES.webhook), h.id));
    return { status: 204 };
  });
  on('DELETE', '/v2/webhooks/{id}', (req, [id]) => {
    checkQ(req, 'none');
    hooks.webhooks.delete(hook(id!).id);
    return { status: 204 };
  });
  on('GET', '/v2/attachments/{id}/data', (_req, [id]) => ({ status: 200, body: { data: (files.get(Number(id)) ?? notFound()).toString('base64') } }));

  const authOf = (req: SimRequest) => {
    const m = /^bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
    return m ? tokens.get(m[1]!) : undefined;
  };
  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    describeAuth: (req) => (req.headers.authorization ? { scheme: 'bearer', label: String(authOf(req) ?? ''), valid: authOf(req) !== undefined } : null),
    faultResponse: (fault) => ({
      status: fault.status!,
      body: fault.status === 429 ? { message: 'Too many requests', logRef: 'sim' } : { message: 'Internal server error', logRef: 'sim' },
      headers: fault.status === 429 ? { ...limitHeaders(0), 'x-ratelimit-retry-after': String(fault.retryAfterSeconds ?? 1) } : {},
    }),
    handle(req) {
      const uid = authOf(req);
      if (uid === undefined) return { status: 401, body: { error: 'invalid_token', error_description: 'Invalid access token' } };
      if (now() - windowStart >= windowMs) {
        windowStart = now();
        used = 0;
      }
      used += req.method === 'GET' ? 1 : 2;
      if (opts.rateLimit?.enforce && used > perMinute) {
        return { status: 429, body: { message: 'Too many requests', logRef: 'sim' }, headers: { ...limitHeaders(0), 'x-ratelimit-retry-after': String(Math.max(1, Math.ceil((windowStart + windowMs - now()) / 1000))) } };
      }
      for (const [method, re, h] of routes) {
        const m = re.exec(req.path);
        if (!m || method !== req.method) continue;
        const res = h(req, m.slice(1), uid);
        res.headers = { ...limitHeaders(perMinute - used), ...(res.headers ?? {}) };
        return res;
      }
      return noRoute({ status: 404, body: { message: 'Resource not found', logRef: 'sim' } });
    },
    internalError: (err) => ({ status: 500, body: { message: String(err), logRef: 'sim' } }),
  });
  origin = server.url;

  return {
    url: server.url,
    seed,
    token: [...tokens.keys()][0]!,
    requests,
    faults,
    clock,
    contractViolations,
    conversations,
    hooks,
    acceptToken(token: string) {
      tokens.set(token, me.id);
    },
    conversationJson: (id: number) => {
      const c = conversations.get(id);
      return c ? conversationJson(c, true) : undefined;
    },
    /** A change made in Help Scout's UI. */
    updateConversationRemotely(id: number, patch: { subject?: string; status?: string; fields?: Record<number, string>; tags?: string[] }) {
      const c = conversations.get(id) ?? notFound();
      if (patch.subject !== undefined) c.subject = patch.subject;
      if (patch.status !== undefined) c.status = patch.status;
      if (patch.fields) Object.assign(c.fields, patch.fields);
      if (patch.tags) {
        c.tags = [...new Set(patch.tags)];
        c.tags.forEach(ensureTag);
      }
      touch(c);
      // Help Scout has an event per kind of change (none for the subject).
      if (patch.status !== undefined) hooks.fire('convo.status', conversationJson(c, true), c.mailboxId);
      if (patch.fields) hooks.fire('convo.custom-fields', conversationJson(c, true), c.mailboxId);
      if (patch.tags) hooks.fire('convo.tags', conversationJson(c, true), c.mailboxId);
      return c;
    },
    deleteConversationRemotely(id: number) {
      const c = conversations.get(id);
      conversations.delete(id);
      revision++;
      if (c) hooks.fire('convo.deleted', { id: c.id }, c.mailboxId);
    },
    /** `n` conversations from one customer, each with `threadsPerConversation` threads, a second apart and a day old. */
    seedConversations(n: number, o: { threadsPerConversation?: number } = {}) {
      const start = now() - 86_400_000 - n * 1000;
      const customer = addCustomer('Bulk', 'Customer', `bulk${seq}@example.com`, null, start);
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        const at = start + i * 1000;
        const c: SimConversation = {
          id: ++seq, number: ++number, subject: `Conversation ${i + 1}`, status: 'active', type: 'email', mailboxId: support.id, assignee: null, customerId: customer.id, createdBy: customer.id,
          tags: [], fields: {}, threads: [], closedAt: null, createdAt: at, modifiedAt: at, userUpdatedAt: at,
        };
        conversations.set(c.id, c);
        revision++;
        for (let j = 0; j < (o.threadsPerConversation ?? 1); j++) addThread(c, { type: j === 0 ? 'customer' : 'message', body: `<p>Thread ${j + 1}</p>`, by: j === 0 ? { id: customer.id, type: 'customer' } : { id: me.id, type: 'user' }, customerId: customer.id, attachments: [] }, at);
        ids.push(c.id);
      }
      return ids;
    },
    async close() {
      hooks.sender.enabled = false;
      await hooks.sender.settle();
      await server.close();
    },
  };
}

export type HelpScoutSimulator = Awaited<ReturnType<typeof startHelpScoutSimulator>>;
