/**
 * Close API simulator (REST `/api/v1`) for integration tests and benchmarks: leads with nested contacts,
 * contacts, opportunities, lead tasks, note/call/meeting activities, users, pipelines with opportunity
 * statuses, custom fields (`custom.cf_…` keys), the event log (`_cursor` pages, newest first), offset lists
 * (`_skip`/`_limit`, `has_more`), HTTP basic auth with the API key as user name, or OAuth bearer tokens.
 * Every request and answer is checked against the shared OpenAPI description when present (see spec.ts).
 */
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
import { loadCloseSpecCheck, type SpecViolation } from './spec';
import { fixedWindow } from '../shared/fixed-window';

import { CloseHookError, CloseHooks } from './hooks';
export type { ActiveFault, FaultSpec, RecordedRequest, SpecViolation };
export { closeHookHeaders } from './hooks';

export type Obj = Record<string, unknown> & { id: string };
export type Kind = 'lead' | 'contact' | 'opportunity' | 'task' | 'note' | 'call' | 'meeting';
export type FieldEntity = 'contact' | 'lead' | 'opportunity';

const PREFIX: Record<Kind, string> = { lead: 'lead', contact: 'cont', opportunity: 'oppo', task: 'task', note: 'acti', call: 'acti', meeting: 'acti' };
/** Event log object types. */
const EVENT_TYPE: Record<Kind, string> = {
  lead: 'lead',
  contact: 'contact',
  opportunity: 'opportunity',
  task: 'task.lead',
  note: 'activity.note',
  call: 'activity.call',
  meeting: 'activity.meeting',
};
/** URL path segment of each kind under /api/v1. */
const ROUTE: Record<string, Kind> = {
  lead: 'lead',
  contact: 'contact',
  opportunity: 'opportunity',
  task: 'task',
  'activity/note': 'note',
  'activity/call': 'call',
  'activity/meeting': 'meeting',
};
const READ_ONLY: Kind[] = ['meeting'];

export interface CloseSimulatorOptions {
  apiKeys?: string[];
  oauthTokens?: string[];
  /** Validate traffic against the OpenAPI description (default true; skipped when the file is absent). */
  validateSpec?: boolean;
  /** Users created up front (default 3). */
  users?: number;
  recordBodies?: boolean;
  /**
   * The per-API-key limit (Close's example: 20 requests a second); `enforce` answers requests over it with 429,
   * Retry-After and `RateLimit: limit=…, remaining=…, reset=…` (seconds), as Close documents.
   */
  rateLimit?: { perWindow?: number; windowSeconds?: number; enforce?: boolean };
}

export interface CloseEventRecord {
  id: string;
  object_type: string;
  object_id: string;
  lead_id: string | null;
  action: 'created' | 'updated' | 'deleted';
  date_created: string;
  date_updated: string;
  /** Milliseconds of date_updated, for filtering. */
  at: number;
  data: Obj | null;
  previous_data: Obj | null;
  changed_fields: string[];
}

export interface CloseSimulator {
  readonly url: string;
  readonly clock: SimClock;
  readonly faults: FaultController;
  readonly requests: RecordedRequest[];
  readonly users: Obj[];
  readonly pipelines: { id: string; name: string; statuses: Obj[] }[];
  readonly events: CloseEventRecord[];
  /** Webhook subscriptions and the deliveries sent to them (test/simulators/close/hooks.ts). */
  readonly hooks: CloseHooks;
  readonly specAvailable: boolean;
  readonly specViolations: SpecViolation[];
  readonly specUndocumented: { method: string; path: string }[];
  /** Answer events without `data` and `previous_data`, as Close does to non-admin keys once an event is an hour old. */
  eventsWithoutData: boolean;
  get(kind: Kind, id: string): Obj | undefined;
  all(kind: Kind): Obj[];
  /** Creates an object as Close would (events included), bypassing HTTP. */
  create(kind: Kind, fields: Record<string, unknown>): Obj;
  /** Changes an object as a person would in Close's UI. */
  update(kind: Kind, id: string, patch: Record<string, unknown>): Obj;
  remove(kind: Kind, id: string): void;
  addCustomField(entity: FieldEntity, def: { name: string; type: string; choices?: string[]; accepts_multiple_values?: boolean }): Obj;
  /** Accepts an OAuth access token (one Close's authorization server issued). */
  addAccessToken(token: string): void;
  close(): Promise<void>;
}

class CloseInputError extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super(`close ${status}`);
  }
}

const fieldError = (field: string, message: string) => new CloseInputError(400, { errors: [], 'field-errors': { [field]: message } });

export async function startCloseSimulator(opts: CloseSimulatorOptions = {}): Promise<CloseSimulator> {
  const clock = new SimClock();
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const apiKeys = new Set(opts.apiKeys ?? ['close-test-key']);
  const oauthTokens = new Set(opts.oauthTokens ?? []);
  const spec = await loadCloseSpecCheck({ enabled: opts.validateSpec });
  const ORG = 'orga_sim1';
  let seq = 0;
  const newId = (prefix: string) => `${prefix}_${(++seq).toString(36).padStart(6, '0')}${Math.random().toString(36).slice(2, 8)}`;
  /** Close's timestamp shape: microseconds and an explicit offset. */
  const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
  let lastMs = 0;
  /** Strictly increasing timestamps, so that `date_updated__gt` never drops a change made the same millisecond. */
  const nowMs = () => (lastMs = Math.max(lastMs + 1, clock.now()));

  const store: Record<Kind, Map<string, Obj>> = {
    lead: new Map(),
    contact: new Map(),
    opportunity: new Map(),
    task: new Map(),
    note: new Map(),
    call: new Map(),
    meeting: new Map(),
  };
  const customFields: Record<FieldEntity, Obj[]> = { contact: [], lead: [], opportunity: [] };
  const events: CloseEventRecord[] = [];
  const users: Obj[] = Array.from({ length: opts.users ?? 3 }, (_, i) => ({
    id: newId('user'),
    first_name: ['Ada', 'Grace', 'Alan', 'Edsger'][i % 4]!,
    last_name: ['Admin', 'Hopper', 'Turing', 'Dijkstra'][i % 4]!,
    email: `user${i + 1}@close.example`,
    image: null,
    date_created: stamp(clock.now()),
    date_updated: stamp(clock.now()),
  }));
  const pipelines = [
    {
      id: newId('pipe'),
      name: 'Sales',
      statuses: [
        { id: newId('stat'), label: 'Active', type: 'active' },
        { id: newId('stat'), label: 'Won', type: 'won' },
        { id: newId('stat'), label: 'Lost', type: 'lost' },
      ] as Obj[],
    },
  ];
  const statusById = (id: string) => pipelines.flatMap((p) => p.statuses.map((s) => ({ p, s }))).find((x) => x.s.id === id);
  const leadStatus = { id: newId('stat'), label: 'Potential' };

  const copy = (o: Obj): Obj => structuredClone(o);
  const hooks = new CloseHooks(newId, () => stamp(clock.now()), () => Math.floor(clock.now() / 1000));
  /** An event as the event log and webhooks show it. */
  const eventView = ({ at: _at, ...e }: CloseEventRecord) => ({ ...e, organization_id: ORG, user_id: users[0]!.id, request_id: null, meta: {} });

  function emit(kind: Kind, action: CloseEventRecord['action'], data: Obj | null, previous: Obj | null, changed: string[] = []) {
    const at = nowMs();
    const obj = (data ?? previous)!;
    const event: CloseEventRecord = {
      id: newId('ev'),
      object_type: EVENT_TYPE[kind],
      object_id: obj.id,
      lead_id: kind === 'lead' ? obj.id : ((obj.lead_id as string | null) ?? null),
      action,
      date_created: stamp(at),
      date_updated: stamp(at),
      at,
      data: data && copy(data),
      previous_data: previous && copy(previous),
      changed_fields: changed,
    };
    events.push(event);
    hooks.deliver(eventView(event));
  }

  // ------------------------------------------------------------ views (what the API answers)

  /** Bumped whenever an object is created, changed or deleted: what is derived from the store can be reused until then. */
  let revision = 0;
  let indexed: { revision: number; contactsByLead: Map<unknown, Obj[]>; lists: Partial<Record<Kind, Obj[]>> } | undefined;
  /** Contacts by lead and each kind's list, rebuilt after a change (a lead's view scanned every contact for its own). */
  function index() {
    if (indexed?.revision !== revision) {
      const contactsByLead = new Map<unknown, Obj[]>();
      for (const c of store.contact.values()) {
        const list = contactsByLead.get(c.lead_id);
        if (list) list.push(c);
        else contactsByLead.set(c.lead_id, [c]);
      }
      indexed = { revision, contactsByLead, lists: {} };
    }
    return indexed;
  }
  /** Every object of a kind in creation order; the caller must not change the array. */
  function listOf(kind: Kind): readonly Obj[] {
    const at = index();
    return (at.lists[kind] ??= [...store[kind].values()]);
  }

  function view(kind: Kind, o: Obj): Obj {
    if (kind === 'lead') {
      const contacts = (index().contactsByLead.get(o.id) ?? []).map((c) => view('contact', c));
      return { ...o, contacts, contact_ids: contacts.map((c) => c.id), display_name: o.name ?? '' };
    }
    if (kind === 'contact') return { ...o, display_name: o.name ?? '' };
    return { ...o };
  }

  // ------------------------------------------------------------ writes

  function checkCustom(kind: Kind, body: Record<string, unknown>) {
    const entity = (['contact', 'lead', 'opportunity'] as const).find((e) => e === kind);
    for (const [k, v] of Object.entries(body)) {
      if (!k.startsWith('custom.')) continue;
      const def = entity ? customFields[entity].find((f) => f.id === k.slice(7)) : undefined;
      if (!def) throw fieldError(k, 'Unknown custom field.');
      if (v === null) continue;
      const ok = (x: unknown) =>
        def.type === 'number' ? typeof x === 'number' : def.type === 'choices' ? (def.choices as string[]).includes(String(x)) : typeof x === 'string';
      const values = def.accepts_multiple_values ? v : [v];
      if (!Array.isArray(values) || !values.every(ok)) throw fieldError(k, `Invalid value for a ${String(def.type)} field.`);
    }
  }

  const str = (v: unknown) => typeof v === 'string';
  function need(cond: boolean, field: string, message: string) {
    if (!cond) throw fieldError(field, message);
  }
  function refLead(body: Record<string, unknown>, required: boolean) {
    if (body.lead_id === undefined && !required) return;
    need(str(body.lead_id) && store.lead.has(body.lead_id as string), 'lead_id', body.lead_id === undefined ? 'This field is required.' : 'Lead not found.');
  }
  function refUser(body: Record<string, unknown>, field: string) {
    if (body[field] === undefined || body[field] === null) return;
    need(users.some((u) => u.id === body[field]), field, 'User not found.');
  }
  function refContact(body: Record<string, unknown>) {
    if (body.contact_id === undefined || body.contact_id === null) return;
    need(store.contact.has(String(body.contact_id)), 'contact_id', 'Contact not found.');
  }

  /** Checks a create or update body and fills what Close fills; answers the stored object. */
  function validate(kind: Kind, body: Record<string, unknown>, create: boolean): Record<string, unknown> {
    checkCustom(kind, body);
    const out: Record<string, unknown> = { ...body };
    switch (kind) {
      case 'lead':
        if (body.addresses !== undefined) need(Array.isArray(body.addresses), 'addresses', 'Must be a list.');
        break;
      case 'contact':
        for (const [f, key] of [['emails', 'email'], ['phones', 'phone']] as const) {
          if (body[f] === undefined) continue;
          need(Array.isArray(body[f]) && (body[f] as Record<string, unknown>[]).every((e) => e && str(e[key])), f, `Each entry needs ${key}.`);
        }
        if (!create) need(body.lead_id === undefined, 'lead_id', 'Use the merge API to move contacts.');
        if (body.lead_id !== undefined) refLead(body, true);
        out.emails = ((body.emails as Obj[] | undefined) ?? undefined)?.map((e) => ({ type: 'office', ...e, is_unsubscribed: false }));
        out.phones = ((body.phones as Obj[] | undefined) ?? undefined)?.map((p) => ({ type: 'office', ...p, phone_formatted: p.phone }));
        if (out.emails === undefined) delete out.emails;
        if (out.phones === undefined) delete out.phones;
        break;
      case 'opportunity': {
        refLead(body, create);
        refUser(body, 'user_id');
        refContact(body);
        if (body.value !== undefined && body.value !== null) need(Number.isSafeInteger(body.value), 'value', 'A valid integer is required.');
        if (body.value_period !== undefined) need(['one_time', 'monthly', 'annual'].includes(String(body.value_period)), 'value_period', 'Invalid choice.');
        if (body.status_id !== undefined) {
          const st = statusById(String(body.status_id));
          need(Boolean(st), 'status_id', 'Status not found.');
          Object.assign(out, { status_label: st!.s.label, status_type: st!.s.type, pipeline_id: st!.p.id, pipeline_name: st!.p.name });
        }
        break;
      }
      case 'task':
        refLead(body, create);
        refUser(body, 'assigned_to');
        if (create) need(body._type === 'lead', '_type', 'Only lead and outgoing_call tasks can be created.');
        if (create) need(str(body.text) && (body.text as string) !== '', 'text', 'This field is required.');
        break;
      case 'note':
      case 'call':
        refLead(body, create);
        refUser(body, 'user_id');
        refContact(body);
        if (kind === 'call' && body.direction !== undefined) need(['inbound', 'outbound'].includes(String(body.direction)), 'direction', 'Invalid choice.');
        break;
      case 'meeting':
        break;
    }
    return out;
  }

  const DEFAULTS: Record<Kind, () => Record<string, unknown>> = {
    lead: () => ({ name: null, description: '', url: null, status_id: leadStatus.id, status_label: leadStatus.label, addresses: [], html_url: '' }),
    contact: () => ({ lead_id: null, name: null, title: null, emails: [], phones: [], urls: [] }),
    opportunity: () => {
      const s = pipelines[0]!.statuses[0]!;
      return {
        lead_id: null,
        contact_id: null,
        user_id: null,
        note: '',
        value: null,
        value_currency: 'USD',
        value_period: 'one_time',
        confidence: 0,
        date_won: null,
        date_lost: null,
        expected_value: null,
        annualized_value: null,
        annualized_expected_value: null,
        status_id: s.id,
        status_label: s.label,
        status_type: s.type,
        pipeline_id: pipelines[0]!.id,
        pipeline_name: pipelines[0]!.name,
      };
    },
    task: () => ({ _type: 'lead', lead_id: null, contact_id: null, assigned_to: null, text: '', date: null, is_complete: false }),
    note: () => ({ _type: 'Note', lead_id: null, contact_id: null, user_id: null, note: '', activity_at: null, users: [] }),
    call: () => ({ _type: 'Call', lead_id: null, contact_id: null, user_id: null, note: '', direction: 'outbound', duration: 0, status: 'completed', source: 'External', outcome_id: null, activity_at: null, users: [] }),
    meeting: () => ({ _type: 'Meeting', lead_id: null, contact_id: null, user_id: null, title: '', note: '', starts_at: null, ends_at: null, attendees: [], activity_at: null, users: [] }),
  };

  function insert(kind: Kind, fields: Record<string, unknown>): Obj {
    const at = stamp(nowMs());
    if (kind === 'contact' && !fields.lead_id) {
      // Close creates a lead for a contact given without one, named after the contact.
      fields = { ...fields, lead_id: insert('lead', { name: fields.name ?? null }).id };
    }
    const o: Obj = {
      ...DEFAULTS[kind](),
      ...fields,
      id: newId(PREFIX[kind]),
      organization_id: ORG,
      created_by: users[0]!.id,
      updated_by: users[0]!.id,
      date_created: at,
      date_updated: at,
    };
    if (kind === 'note' || kind === 'call' || kind === 'meeting') o.activity_at ??= at;
    store[kind].set(o.id, o);
    revision++;
    emit(kind, 'created', o, null);
    return o;
  }

  function change(kind: Kind, id: string, patch: Record<string, unknown>): Obj {
    const o = store[kind].get(id);
    if (!o) throw new CloseInputError(404, { error: `Empty query: ${kind} matching query does not exist.` });
    const before = copy(o);
    Object.assign(o, patch, { date_updated: stamp(nowMs()) });
    revision++;
    emit(kind, 'updated', o, before, Object.keys(patch));
    return o;
  }

  function remove(kind: Kind, id: string) {
    const o = store[kind].get(id);
    if (!o) throw new CloseInputError(404, { error: `Empty query: ${kind} matching query does not exist.` });
    if (kind === 'lead') {
      for (const k of ['contact', 'opportunity', 'task', 'note', 'call', 'meeting'] as Kind[]) {
        for (const child of [...store[k].values()]) if (child.lead_id === id) remove(k, child.id);
      }
    }
    store[kind].delete(id);
    revision++;
    emit(kind, 'deleted', null, o);
  }

  // ------------------------------------------------------------ HTTP

  function authOf(req: SimRequest): RecordedRequest['auth'] {
    const h = req.headers.authorization;
    if (typeof h !== 'string') return null;
    const [scheme, value = ''] = h.split(/\s+/, 2);
    if (/^basic$/i.test(scheme!)) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      const key = i < 0 ? decoded : decoded.slice(0, i);
      return { scheme: 'basic', label: null, valid: apiKeys.has(key) && i >= 0 && decoded.slice(i + 1) === '' };
    }
    if (/^bearer$/i.test(scheme!)) return { scheme: 'bearer', label: null, valid: oauthTokens.has(value) };
    return { scheme: scheme!.toLowerCase(), label: null, valid: false };
  }

  const ok = (body: unknown): SimResponse => ({ status: 200, body });
  const int = (v: string | null, dflt: number, max: number) => {
    const n = v === null ? dflt : Number(v);
    if (!Number.isInteger(n) || n < 0) throw new CloseInputError(400, { error: 'Invalid pagination parameter.' });
    return Math.min(n, max);
  };

  function page<T>(list: readonly T[], q: URLSearchParams) {
    const skip = int(q.get('_skip'), 0, Number.MAX_SAFE_INTEGER);
    const limit = Math.max(1, int(q.get('_limit'), 100, 100));
    return { data: list.slice(skip, skip + limit), has_more: skip + limit < list.length };
  }

  function listEvents(q: URLSearchParams) {
    if (q.has('_skip')) throw new CloseInputError(400, { error: 'The event log does not support _skip; use _cursor.' });
    const type = q.get('object_type');
    const action = q.get('action');
    const gt = q.get('date_updated__gt');
    const gtMs = gt === null ? null : Date.parse(gt.replace(/(\.\d{3})\d+/, '$1'));
    if (gtMs !== null && Number.isNaN(gtMs)) throw new CloseInputError(400, { error: 'Invalid date_updated__gt.' });
    const limit = Math.max(1, int(q.get('_limit'), 50, 50));
    // Newest first; a cursor is the position of the event after which the next page starts.
    const matching = events.filter((e) => (!type || e.object_type === type) && (!action || e.action === action) && (gtMs === null || e.at > gtMs)).reverse();
    const cursor = q.get('_cursor');
    let start = 0;
    if (cursor) {
      const i = matching.findIndex((e) => e.id === Buffer.from(cursor, 'base64url').toString('utf8'));
      if (i < 0) throw new CloseInputError(400, { error: 'Invalid cursor.' });
      start = i + 1;
    }
    const data = matching.slice(start, start + limit);
    const more = start + limit < matching.length;
    return {
      data: data.map((e) => ({ ...eventView(e), ...(sim.eventsWithoutData ? { data: undefined, previous_data: undefined } : {}) })),
      cursor_next: more ? Buffer.from(data[data.length - 1]!.id).toString('base64url') : null,
      cursor_previous: null,
    };
  }

  /** `/webhook/` and `/webhook/{id}/`: subscriptions, validated as Close validates them. */
  function webhookRoute(req: SimRequest, path: string): SimResponse {
    const body = (req.bodyError ? undefined : req.body) as Record<string, unknown> | undefined;
    try {
      if (path === 'webhook') {
        if (req.method === 'GET') return ok({ data: [...hooks.subscriptions.values()].map((h) => hooks.render(h)), has_more: false });
        if (req.method === 'POST') {
          if (!body || typeof body !== 'object' || Array.isArray(body)) return { status: 400, body: { error: 'Invalid JSON body.' } };
          return { status: 201, body: hooks.render(hooks.create(body), true) };
        }
        return { status: 405, body: { error: 'Method not allowed.' } };
      }
      const sub = hooks.subscriptions.get(path.slice('webhook/'.length));
      if (!sub) return { status: 404, body: { error: 'Empty query: webhook subscription matching query does not exist.' } };
      if (req.method === 'GET') return ok(hooks.render(sub));
      if (req.method === 'PUT') return ok(hooks.render(hooks.update(sub, body ?? {})));
      if (req.method === 'DELETE') {
        hooks.subscriptions.delete(sub.id);
        return ok({});
      }
      return { status: 405, body: { error: 'Method not allowed.' } };
    } catch (err) {
      if (err instanceof CloseHookError) return { status: 400, body: err.body };
      throw err;
    }
  }

  const limit = fixedWindow(clock, opts.rateLimit?.perWindow ?? 20, (opts.rateLimit?.windowSeconds ?? 1) * 1000);
  async function handle(req: SimRequest): Promise<SimResponse> {
    const auth = authOf(req);
    if (!auth?.valid) return { status: 401, body: { error: 'The API key or access token is invalid.' } };
    const window = limit.take();
    const reset = Math.max(0.001, window.resetInMs / 1000);
    const ratelimit = `limit=${window.limit}, remaining=${window.remaining}, reset=${+reset.toFixed(3)}`;
    if (opts.rateLimit?.enforce && window.over) {
      return { status: 429, headers: { ratelimit, 'retry-after': String(Math.ceil(reset)) }, body: { error: 'API rate limit exceeded, retry later.' } };
    }
    const res = await route(req);
    res.headers = { ratelimit, ...(res.headers ?? {}) };
    return res;
  }

  async function route(req: SimRequest): Promise<SimResponse> {
    const m = /^\/api\/v1\/(.+?)\/?$/.exec(req.path);
    if (!m) return { status: 404, body: { error: 'Not found.' } };
    const path = m[1]!;
    const q = req.query;
    if (req.method === 'GET' && path === 'me') return ok({ ...users[0], organizations: [{ id: ORG, name: 'Sim Inc.' }] });
    if (req.method === 'GET' && path === 'user') return ok(page(users, q));
    if (req.method === 'GET' && path === 'pipeline') return ok({ data: pipelines, has_more: false });
    if (req.method === 'GET' && path === 'event') return ok(listEvents(q));
    if (path === 'webhook' || path.startsWith('webhook/')) return webhookRoute(req, path);
    const cf = /^custom_field\/(contact|lead|opportunity)$/.exec(path);
    if (cf && req.method === 'GET') return ok(page(customFields[cf[1] as FieldEntity], q));

    const one = /^(.+)\/([a-z]+_[A-Za-z0-9]+)$/.exec(path);
    const kind = ROUTE[one ? one[1]! : path];
    if (!kind) return { status: 404, body: { error: 'Not found.' } };
    const body = (req.bodyError ? undefined : req.body) as Record<string, unknown> | undefined;
    if (req.method !== 'GET' && req.method !== 'DELETE' && (!body || typeof body !== 'object' || Array.isArray(body))) {
      return { status: 400, body: { error: 'Invalid JSON body.' } };
    }
    try {
      if (!one) {
        if (req.method === 'GET') {
          let list = listOf(kind);
          for (const f of ['lead_id', 'contact_id', 'user_id']) if (q.has(f)) list = list.filter((o) => o[f] === q.get(f));
          if (kind === 'task' && q.has('_type')) list = list.filter((o) => o._type === q.get('_type'));
          const p = page(list, q);
          return ok({ ...p, data: p.data.map((o) => view(kind, o)) });
        }
        if (req.method === 'POST' && !READ_ONLY.includes(kind)) {
          const { id: _id, ...fields } = body!;
          return ok(view(kind, insert(kind, validate(kind, fields, true))));
        }
        return { status: 405, body: { error: 'Method not allowed.' } };
      }
      const id = one[2]!;
      if (!store[kind].has(id)) return { status: 404, body: { error: `Empty query: ${kind} matching query does not exist.` } };
      if (req.method === 'GET') return ok(view(kind, store[kind].get(id)!));
      if (req.method === 'PUT' && !READ_ONLY.includes(kind)) {
        const { id: _id, ...fields } = body!;
        return ok(view(kind, change(kind, id, validate(kind, fields, false))));
      }
      if (req.method === 'DELETE') {
        remove(kind, id);
        return ok({});
      }
      return { status: 405, body: { error: 'Method not allowed.' } };
    } catch (err) {
      if (err instanceof CloseInputError) return { status: err.status, body: err.body };
      throw err;
    }
  }

  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    maxRequestLog: 20_000,
    onRequest(req) {
      spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body: req.bodyError ? undefined : req.body });
    },
    describeAuth: authOf,
    faultResponse(fault: ActiveFault) {
      if (fault.status === 429) return { status: 429, body: { error: 'API rate limit exceeded, retry later.' }, headers: { ratelimit: 'limit=20, remaining=0, reset=1' } };
      return { status: fault.status!, body: { error: `Simulated ${fault.status}` } };
    },
    handle,
    decorate(req, res) {
      res.headers = { ratelimit: 'limit=20, remaining=19, reset=1', ...(res.headers ?? {}) };
      if (res.status < 300) spec.checkResponse(req, res.status, res.body);
    },
    internalError: (err) => ({ status: 500, body: { error: err instanceof SimHttpError ? 'error' : 'Internal error' } }),
  });

  const sim: CloseSimulator = {
    url: server.url,
    clock,
    faults,
    requests,
    users,
    pipelines,
    events,
    hooks,
    specAvailable: spec.available,
    specViolations: spec.violations,
    specUndocumented: spec.undocumented,
    eventsWithoutData: false,
    get: (kind, id) => {
      const o = store[kind].get(id);
      return o && view(kind, o);
    },
    all: (kind) => [...store[kind].values()],
    create: (kind, fields) => insert(kind, fields),
    update: (kind, id, patch) => change(kind, id, patch),
    remove,
    addCustomField(entity, def) {
      const f: Obj = { id: newId('cf'), name: def.name, type: def.type, choices: def.choices ?? [], accepts_multiple_values: def.accepts_multiple_values ?? false, description: null };
      customFields[entity].push(f);
      return f;
    },
    addAccessToken: (token) => void oauthTokens.add(token),
    close: () => server.close(),
  };
  return sim;
}
