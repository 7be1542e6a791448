/**
 * Zendesk Sell Core API simulator (`/v2`) for integration tests and benchmarks: contacts (persons and
 * organizations), deals (decimal values), pipelines and stages, notes, tasks, calls, users, custom fields
 * (keyed by name), page lists (`page`/`per_page` ≤ 100, `sort_by=field[:desc]`, `meta.links.next_page`),
 * the `{data, meta}` envelopes, Sell's error envelope, bearer tokens and the hourly request limit (429).
 * Requests are checked against the contract transcribed from Sell's reference (contract.ts): unknown or
 * invalid parameters and bodies are refused as Sell refuses them and recorded as violations.
 */
import { FaultController, SimClock, startSimServer, type ActiveFault, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { noRoute } from '../shared/no-route';
import { BODIES, QUERIES, checkBody, checkQuery } from './contract';

export type SellObj = Record<string, unknown> & { id: number };
export type Resource = 'contacts' | 'deals' | 'notes' | 'tasks' | 'calls';
const TYPE: Record<Resource, string> = { contacts: 'contact', deals: 'deal', notes: 'note', tasks: 'task', calls: 'call' };

export interface ZendeskSellSimulatorOptions {
  tokens?: string[];
  /** Requests per window per token (default 36,000 an hour); beyond, 429 with Retry-After. */
  hourlyLimit?: number;
  /** The limit's window (default an hour; budget tests scale it down). */
  windowMs?: number;
  users?: number;
}

export interface ZendeskSellSimulator {
  readonly url: string;
  readonly clock: SimClock;
  readonly faults: FaultController;
  readonly requests: RecordedRequest[];
  readonly users: SellObj[];
  readonly stages: SellObj[];
  /** Requests that broke the transcribed contract, with what was wrong. */
  readonly contractViolations: { method: string; path: string; problems: string[] }[];
  get(resource: Resource, id: number | string): SellObj | undefined;
  all(resource: Resource): SellObj[];
  create(resource: Resource, fields: Record<string, unknown>): SellObj;
  update(resource: Resource, id: number | string, patch: Record<string, unknown>): SellObj;
  remove(resource: Resource, id: number | string): void;
  addCustomField(resource: 'contact' | 'deal', def: { name: string; type: string; for_contact?: boolean; for_organization?: boolean }): SellObj;
  addToken(token: string): void;
  close(): Promise<void>;
}

class SellError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error' };
const errorBody = (status: number, code: string, message: string, field?: string) => ({
  errors: [{ error: { code, message, details: message, ...(field ? { resource: 'data', field } : {}) }, meta: { type: 'error', links: { more_info: 'https://developer.zendesk.com/api-reference/sales-crm/errors/' } } }],
  meta: { type: 'errors', http_status: `${status} ${STATUS_TEXT[status] ?? ''}`.trim(), logref: 'sim' },
});

export async function startZendeskSellSimulator(opts: ZendeskSellSimulatorOptions = {}): Promise<ZendeskSellSimulator> {
  const clock = new SimClock();
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Set(opts.tokens ?? ['sell-test-token']);
  const hourly = opts.hourlyLimit ?? 36_000;
  const windowMs = opts.windowMs ?? 3_600_000;
  const usage = new Map<string, { hour: number; used: number }>();
  const contractViolations: ZendeskSellSimulator['contractViolations'] = [];
  let seq = 1000;
  /** Sell timestamps: whole seconds, UTC. */
  const stamp = (ms = clock.now()) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  const users: SellObj[] = Array.from({ length: opts.users ?? 2 }, (_, i) => ({
    id: ++seq,
    name: ['Ada Admin', 'Grace Hopper', 'Alan Turing'][i % 3],
    email: `user${i + 1}@sell.example`,
    status: 'active',
    role: i === 0 ? 'admin' : 'user',
    confirmed: true,
    created_at: stamp(),
    updated_at: stamp(),
  }));
  const pipelines: SellObj[] = [{ id: ++seq, name: 'Sales Pipeline', created_at: stamp(), updated_at: stamp() }];
  const stages: SellObj[] = ['Incoming', 'Qualified', 'Quote', 'Won', 'Lost'].map((name, i) => ({
    id: ++seq,
    name,
    category: ['incoming', 'in_progress', 'in_progress', 'won', 'lost'][i],
    active: i < 3,
    likelihood: [10, 30, 60, 100, 0][i],
    position: i + 1,
    pipeline_id: pipelines[0]!.id,
    created_at: stamp(),
    updated_at: stamp(),
  }));
  const customFields: Record<'contact' | 'deal', SellObj[]> = { contact: [], deal: [] };
  const store: Record<Resource, Map<number, SellObj>> = { contacts: new Map(), deals: new Map(), notes: new Map(), tasks: new Map(), calls: new Map() };

  const need = (cond: boolean, field: string, message: string) => {
    if (!cond) throw new SellError(422, 'invalid', message, field);
  };
  const contactOf = (id: unknown) => (typeof id === 'number' ? store.contacts.get(id) : undefined);

  function checkCustom(kind: 'contact' | 'deal', body: Record<string, unknown>, organization: boolean) {
    const cf = body.custom_fields;
    if (cf === undefined) return;
    need(Boolean(cf) && typeof cf === 'object' && !Array.isArray(cf), 'custom_fields', 'must be an object');
    for (const [name, v] of Object.entries(cf as Record<string, unknown>)) {
      const def = customFields[kind].find((f) => f.name === name && (kind === 'deal' || (organization ? f.for_organization !== false : f.for_contact !== false)));
      need(Boolean(def), `custom_fields.${name}`, 'unknown custom field');
      if (v === null) continue;
      const ok = def!.type === 'number' ? typeof v === 'number' : def!.type === 'bool' ? typeof v === 'boolean' : def!.type === 'multi_select_list' ? Array.isArray(v) : typeof v === 'string';
      need(ok, `custom_fields.${name}`, `invalid value for a ${String(def!.type)} field`);
    }
  }

  /** Sell's checks beyond the contract (references, required fields by kind); answers the stored fields. */
  function validate(resource: Resource, body: Record<string, unknown>, current: SellObj | undefined): Record<string, unknown> {
    const out: Record<string, unknown> = { ...body };
    const merged = { ...current, ...body };
    if (body.owner_id !== undefined && body.owner_id !== null) need(users.some((u) => u.id === body.owner_id), 'owner_id', 'user not found');
    switch (resource) {
      case 'contacts': {
        const org = merged.is_organization === true;
        if (org) need(typeof merged.name === 'string' && merged.name !== '', 'name', 'can\'t be blank');
        else need(typeof merged.last_name === 'string' && merged.last_name !== '', 'last_name', 'can\'t be blank');
        if (body.contact_id !== undefined && body.contact_id !== null) {
          need(!org, 'contact_id', 'organizations cannot belong to an organization');
          need(contactOf(body.contact_id)?.is_organization === true, 'contact_id', 'organization not found');
        }
        if (!org && body.name !== undefined) delete out.name;
        checkCustom('contact', body, org);
        if (body.custom_fields) out.custom_fields = { ...((current?.custom_fields as object) ?? {}), ...(body.custom_fields as object) };
        if (!org && (body.first_name !== undefined || body.last_name !== undefined)) out.name = [merged.first_name, merged.last_name].filter(Boolean).join(' ');
        break;
      }
      case 'deals': {
        if (body.contact_id !== undefined) {
          const c = contactOf(body.contact_id);
          need(Boolean(c), 'contact_id', 'contact not found');
          out.organization_id = c!.is_organization === true ? c!.id : (c!.contact_id ?? null);
        }
        if (body.stage_id !== undefined) need(stages.some((s) => s.id === body.stage_id), 'stage_id', 'stage not found');
        if (body.value !== undefined) {
          const v = body.value;
          const textual = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
          need(/^\d+(\.\d{1,2})?$/.test(textual), 'value', 'must be a number with at most two decimals');
          // Whole values are answered as numbers, values with cents as strings with two decimals.
          const cents = Math.round(Number(textual) * 100);
          out.value = cents % 100 === 0 ? cents / 100 : `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        }
        if (body.estimated_close_date !== undefined && body.estimated_close_date !== null) need(/^\d{4}-\d{2}-\d{2}$/.test(String(body.estimated_close_date)), 'estimated_close_date', 'must be a date');
        checkCustom('deal', body, false);
        if (body.custom_fields) out.custom_fields = { ...((current?.custom_fields as object) ?? {}), ...(body.custom_fields as object) };
        break;
      }
      case 'notes':
      case 'tasks':
      case 'calls': {
        if (merged.resource_type === 'contact') need(Boolean(contactOf(merged.resource_id)), 'resource_id', 'contact not found');
        if (merged.resource_type === 'deal') need(store.deals.has(merged.resource_id as number), 'resource_id', 'deal not found');
        if (resource === 'tasks' && body.completed !== undefined) out.completed_at = body.completed === true ? stamp() : null;
        if (resource === 'calls' && body.user_id !== undefined && body.user_id !== null) need(users.some((u) => u.id === body.user_id), 'user_id', 'user not found');
        break;
      }
    }
    return out;
  }

  const DEFAULTS: Record<Resource, () => Record<string, unknown>> = {
    contacts: () => ({ is_organization: false, name: null, first_name: null, last_name: null, contact_id: null, owner_id: users[0]!.id, email: null, phone: null, mobile: null, fax: null, industry: null, address: null, custom_fields: {}, tags: [] }),
    deals: () => ({ value: 0, currency: 'USD', stage_id: stages[0]!.id, owner_id: users[0]!.id, organization_id: null, estimated_close_date: null, hot: false, custom_fields: {}, tags: [] }),
    notes: () => ({ creator_id: users[0]!.id, is_important: false, type: 'regular', tags: [] }),
    tasks: () => ({ creator_id: users[0]!.id, owner_id: users[0]!.id, completed: false, completed_at: null, due_date: null, resource_type: null, resource_id: null, overdue: false }),
    calls: () => ({ user_id: users[0]!.id, summary: null, duration: 0, incoming: false, missed: false, resource_type: null, resource_id: null, made_at: stamp(), associated_deal_ids: [] }),
  };

  function insert(resource: Resource, fields: Record<string, unknown>): SellObj {
    const o: SellObj = { ...DEFAULTS[resource](), ...fields, id: ++seq, ...(resource === 'contacts' || resource === 'deals' ? { creator_id: users[0]!.id } : {}), created_at: stamp(), updated_at: stamp() };
    store[resource].set(o.id, o);
    return o;
  }
  function change(resource: Resource, id: number, patch: Record<string, unknown>): SellObj {
    const o = store[resource].get(id);
    if (!o) throw new SellError(404, 'not_found', 'The requested resource could not be found');
    Object.assign(o, patch, { updated_at: stamp() });
    return o;
  }
  function remove(resource: Resource, id: number) {
    if (!store[resource].delete(id)) throw new SellError(404, 'not_found', 'The requested resource could not be found');
  }

  // ------------------------------------------------------------ HTTP
  const tokenOf = (req: SimRequest) => {
    const h = req.headers.authorization;
    const m = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h) : null;
    return m ? m[1]! : null;
  };
  const one = (type: string, o: SellObj) => ({ data: structuredClone(o), meta: { type } });

  function list(path: string, all: SellObj[], q: URLSearchParams, type: string): SimResponse {
    let items = all;
    if (q.has('ids')) {
      const ids = new Set(q.get('ids')!.split(',').map(Number));
      items = items.filter((o) => ids.has(o.id));
    }
    for (const f of ['is_organization', 'contact_id', 'resource_type', 'resource_id', 'pipeline_id', 'stage_id', 'owner_id', 'completed']) {
      if (q.has(f)) items = items.filter((o) => String(o[f]) === q.get(f));
    }
    if (path === 'calls') items = [...items].sort((a, b) => Date.parse(String(b.made_at)) - Date.parse(String(a.made_at)) || b.id - a.id);
    else {
      const [field = 'id', dir] = (q.get('sort_by') ?? 'id').split(':');
      const key = (o: SellObj) => (field === 'id' ? o.id : String(o[field] ?? ''));
      items = [...items].sort((a, b) => {
        const x = key(a);
        const y = key(b);
        const c = x < y ? -1 : x > y ? 1 : a.id - b.id;
        return dir === 'desc' ? -c : c;
      });
    }
    const page = Number(q.get('page') ?? 1);
    const per = Number(q.get('per_page') ?? 25);
    const data = items.slice((page - 1) * per, page * per);
    const more = page * per < items.length;
    const self = `/v2/${path}?page=${page}&per_page=${per}`;
    return {
      status: 200,
      body: {
        items: data.map((o) => one(type, o)),
        meta: { type: 'collection', count: data.length, links: { self, first_page: `/v2/${path}?page=1&per_page=${per}`, ...(more ? { next_page: `/v2/${path}?page=${page + 1}&per_page=${per}` } : {}), ...(page > 1 ? { prev_page: `/v2/${path}?page=${page - 1}&per_page=${per}` } : {}) } },
      },
    };
  }

  async function handle(req: SimRequest): Promise<SimResponse> {
    const token = tokenOf(req);
    if (!token || !tokens.has(token)) return { status: 401, body: errorBody(401, 'unauthorized', 'Invalid access token') };
    const hour = Math.floor(clock.now() / windowMs);
    const u = usage.get(token);
    if (!u || u.hour !== hour) usage.set(token, { hour, used: 0 });
    const counter = usage.get(token)!;
    if (counter.used >= hourly) return { status: 429, body: errorBody(429, 'rate_limit_exceeded', 'Rate limit exceeded'), headers: { 'retry-after': String(Math.max(1, Math.ceil((windowMs - (clock.now() % windowMs)) / 1000))) } };
    counter.used++;
    const m = /^\/v2\/(.+?)\/?$/.exec(req.path);
    if (!m) return noRoute({ status: 404, body: errorBody(404, 'not_found', 'The requested resource could not be found') });
    const parts = m[1]!.split('/');
    const q = req.query;
    const refuseQuery = (kind: string) => {
      const problems = checkQuery(q, QUERIES[kind]!);
      if (problems.length) {
        contractViolations.push({ method: req.method, path: req.path, problems: problems.map((p) => `${p.path}: ${p.message}`) });
        throw new SellError(400, 'invalid_param', problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems[0]!.path);
      }
    };
    try {
      if (req.method === 'GET' && parts[0] === 'users' && parts[1] === 'self' && parts.length === 2) return { status: 200, body: one('user', users[0]!) };
      if (req.method === 'GET' && parts.length === 1 && (parts[0] === 'users' || parts[0] === 'stages' || parts[0] === 'pipelines')) {
        refuseQuery(parts[0]!);
        const source = parts[0] === 'users' ? users : parts[0] === 'stages' ? stages : pipelines;
        return list(parts[0]!, source, q, parts[0]!.slice(0, -1));
      }
      if (req.method === 'GET' && parts.length === 2 && parts[1] === 'custom_fields' && (parts[0] === 'contact' || parts[0] === 'deal')) {
        refuseQuery('custom_fields');
        return list(`${parts[0]}/custom_fields`, customFields[parts[0]], q, 'custom_field');
      }
      const resource = parts[0] as Resource;
      if (!(resource in store) || parts.length > 2) return noRoute({ status: 404, body: errorBody(404, 'not_found', 'The requested resource could not be found') });
      const type = TYPE[resource];
      if (parts.length === 1 && req.method === 'GET') {
        refuseQuery(resource);
        return list(resource, [...store[resource].values()], q, type);
      }
      const writeBody = () => {
        const b = req.body as { data?: unknown } | undefined;
        if (!b || typeof b !== 'object' || !b.data || typeof b.data !== 'object' || Array.isArray(b.data)) throw new SellError(400, 'invalid_request', 'The request body must be {"data": {...}}');
        return b.data as Record<string, unknown>;
      };
      const bodyProblems = (data: Record<string, unknown>, create: boolean) => {
        const problems = checkBody(data, create ? BODIES[resource]!.create : BODIES[resource]!.update);
        if (problems.length) {
          contractViolations.push({ method: req.method, path: req.path, problems: problems.map((p) => `${p.path}: ${p.message}`) });
          throw new SellError(422, 'invalid', problems[0]!.message, problems[0]!.path);
        }
      };
      if (parts.length === 1 && req.method === 'POST') {
        const data = writeBody();
        bodyProblems(data, true);
        return { status: 200, body: one(type, insert(resource, validate(resource, data, undefined))) };
      }
      const id = Number(parts[1]);
      const o = store[resource].get(id);
      if (!o) return { status: 404, body: errorBody(404, 'not_found', 'The requested resource could not be found') };
      if (req.method === 'GET') return { status: 200, body: one(type, o) };
      if (req.method === 'PUT') {
        const data = writeBody();
        bodyProblems(data, false);
        return { status: 200, body: one(type, change(resource, id, validate(resource, data, o))) };
      }
      if (req.method === 'DELETE') {
        remove(resource, id);
        return { status: 204 };
      }
      return noRoute({ status: 405, body: errorBody(400, 'invalid_request', 'Method not allowed') });
    } catch (err) {
      if (err instanceof SellError) return { status: err.status, body: errorBody(err.status, err.code, err.message, err.field) };
      throw err;
    }
  }

  const server = await startSimServer({
    clock,
    faults,
    requests,
    maxRequestLog: 20_000,
    describeAuth: (req) => {
      const t = tokenOf(req);
      return t === null ? null : { scheme: 'bearer', label: null, valid: tokens.has(t) };
    },
    faultResponse(fault: ActiveFault) {
      return { status: fault.status!, body: errorBody(fault.status!, fault.status === 429 ? 'rate_limit_exceeded' : 'server_error', `Simulated ${fault.status}`) };
    },
    handle,
    internalError: () => ({ status: 500, body: errorBody(500, 'server_error', 'Internal error') }),
  });

  const sim: ZendeskSellSimulator = {
    url: server.url,
    clock,
    faults,
    requests,
    users,
    stages,
    contractViolations,
    get: (resource, id) => {
      const o = store[resource].get(Number(id));
      return o && structuredClone(o);
    },
    all: (resource) => [...store[resource].values()],
    create: (resource, fields) => insert(resource, validate(resource, fields, undefined)),
    update: (resource, id, patch) => change(resource, Number(id), validate(resource, patch, store[resource].get(Number(id)))),
    remove: (resource, id) => remove(resource, Number(id)),
    addCustomField(resource, def) {
      const f: SellObj = { id: ++seq, name: def.name, type: def.type, for_contact: def.for_contact ?? true, for_organization: def.for_organization ?? true, created_at: stamp(), updated_at: stamp() };
      customFields[resource].push(f);
      return f;
    },
    addToken: (t) => void tokens.add(t),
    close: () => server.close(),
  };
  return sim;
}
