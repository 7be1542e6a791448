/**
 * Attio REST API v2 simulator for integration tests: the standard objects people, companies and deals as
 * records with attribute values (`values.{slug}`: arrays of typed value objects, with `active_from`,
 * `active_until`, `created_by_actor`), `records/query` (limit/offset, sorted), record create/get/patch/delete,
 * attributes (custom ones addable), deal stage statuses, workspace members, notes, tasks, `/v2/self`,
 * bearer tokens and 429s with Retry-After, and webhooks sent on every change (test/simulators/attio/hooks.ts).
 * Every request and answer is checked against the shared OpenAPI description when present (`attio/openapi.json`).
 */
import { randomUUID } from 'node:crypto';
import { FaultController, SimClock, startSimServer, type ActiveFault, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { loadOpenApiCheck, type KnownDeviation, type OpenApiCheck } from '../shared/openapi-check';
import { specPath } from '../../support/provider-specs';
import { fixedWindow } from '../shared/fixed-window';
import { AttioHookError, AttioHooks } from './hooks';

export { attioHookHeaders } from './hooks';

export type AttioObject = 'people' | 'companies' | 'deals';
type AType = 'text' | 'number' | 'checkbox' | 'currency' | 'date' | 'timestamp' | 'status' | 'select' | 'record-reference' | 'actor-reference' | 'location' | 'email-address' | 'phone-number' | 'personal-name';
export interface SimAttribute {
  slug: string;
  title: string;
  type: AType;
  multiselect: boolean;
  system: boolean;
  required: boolean;
  id: string;
  currency?: string;
}
export interface AttioRecord {
  id: string;
  object: AttioObject;
  created_at: string;
  /** Active values by slug (already in the answer's shape). */
  values: Record<string, Record<string, unknown>[]>;
  deleted?: boolean;
}

export interface AttioSimulatorOptions {
  tokens?: string[];
  validateSpec?: boolean;
  /** Currency of the deals' `value` attribute (Attio keeps one per attribute). */
  dealCurrency?: string;
  /**
   * Attio's limits: 100 read and 25 write requests a second (record and entry queries read); `enforce` answers
   * requests over them with 429 and Retry-After as an HTTP date, as Attio documents.
   */
  rateLimit?: { reads?: number; writes?: number; windowSeconds?: number; enforce?: boolean };
  recordBodies?: boolean;
}

export interface AttioSimulator {
  readonly url: string;
  readonly clock: SimClock;
  readonly faults: FaultController;
  readonly requests: RecordedRequest[];
  readonly members: Record<string, unknown>[];
  readonly statuses: Record<string, unknown>[];
  readonly spec: OpenApiCheck;
  /** Webhooks created through the API and the messages sent to them. */
  readonly hooks: AttioHooks;
  /** The standard objects' ids (webhook events name objects by id). */
  readonly objectIds: Readonly<Record<AttioObject, string>>;
  get(object: AttioObject, id: string): AttioRecord | undefined;
  /** Creates a record as a person would in Attio (same value forms as the API). */
  create(object: AttioObject, values: Record<string, unknown>): AttioRecord;
  /** Writes values as a person would in Attio (same forms as the API). */
  update(object: AttioObject, id: string, values: Record<string, unknown>): AttioRecord;
  remove(object: AttioObject, id: string): void;
  addAttribute(object: AttioObject, def: { slug: string; title: string; type: AType }): SimAttribute;
  /** Accepts an OAuth access token (one Attio's authorization server issued). */
  addAccessToken(token: string): void;
  close(): Promise<void>;
}

class AttioError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const COUNTRY = /^[A-Z]{2}$/;

/** Where the description contradicts itself. */
export const ATTIO_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason:
      'attribute config.currency: default_currency_code and display_type are typed ["string", "null"] but their enums omit null, which every attribute that is not a currency has',
    kind: 'response',
    when: (v) => /config\/currency\/(default_currency_code|display_type)/.test(v.message) && v.message.includes('got null'),
  },
];

export async function startAttioSimulator(opts: AttioSimulatorOptions = {}): Promise<AttioSimulator> {
  const clock = new SimClock();
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Set(opts.tokens ?? ['attio-test-token']);
  const spec = await loadOpenApiCheck(specPath('attio', 'openapi.json'), ATTIO_KNOWN_DEVIATIONS, opts.validateSpec !== false);
  const workspace = randomUUID();
  const objectIds: Record<AttioObject, string> = { people: randomUUID(), companies: randomUUID(), deals: randomUUID() };
  const actor = { type: 'api-token', id: randomUUID() };
  const now = () => new Date(clock.now()).toISOString().replace('Z', '000000Z');
  const hooks = new AttioHooks(workspace, now);

  const attrs: Record<AttioObject, SimAttribute[]> = { people: [], companies: [], deals: [] };
  const a = (object: AttioObject, slug: string, type: AType, o: Partial<SimAttribute> = {}) =>
    attrs[object].push({ slug, title: slug.replace(/_/g, ' '), type, multiselect: false, system: true, required: false, id: randomUUID(), ...o });
  a('people', 'name', 'personal-name');
  a('people', 'email_addresses', 'email-address', { multiselect: true });
  a('people', 'phone_numbers', 'phone-number', { multiselect: true });
  a('people', 'primary_location', 'location');
  a('people', 'company', 'record-reference');
  a('people', 'job_title', 'text');
  a('companies', 'name', 'text');
  a('companies', 'description', 'text');
  a('companies', 'primary_location', 'location');
  a('deals', 'name', 'text', { required: true });
  a('deals', 'stage', 'status', { required: true });
  a('deals', 'owner', 'actor-reference', { required: true });
  a('deals', 'value', 'currency', { currency: opts.dealCurrency ?? 'EUR' });
  a('deals', 'associated_people', 'record-reference', { multiselect: true });
  a('deals', 'associated_company', 'record-reference');

  const members = ['Ada Admin', 'Grace Hopper', 'Alan Turing'].map((n, i) => ({
    id: { workspace_id: workspace, workspace_member_id: randomUUID() },
    first_name: n.split(' ')[0]!,
    last_name: n.split(' ')[1]!,
    avatar_url: null,
    email_address: `member${i + 1}@attio.example`,
    created_at: now(),
    access_level: i === 0 ? 'admin' : 'member',
  }));
  const stageAttr = attrs.deals.find((x) => x.slug === 'stage')!;
  const statuses = ['Lead', 'In Progress', 'Won 🎉', 'Lost'].map((title) => ({
    id: { workspace_id: workspace, object_id: objectIds.deals, attribute_id: stageAttr.id, status_id: randomUUID() },
    title,
    is_archived: false,
    celebration_enabled: title.startsWith('Won'),
    target_time_in_status: null,
  }));
  const records = new Map<string, AttioRecord>();
  const notes = new Map<string, Record<string, unknown>>();
  const tasks = new Map<string, Record<string, unknown>>();

  // ------------------------------------------------------------ values

  const bad = (message: string) => new AttioError(400, 'validation_type', message);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);

  /** One input value (Attio takes plain values or objects) as the stored value object. */
  function valueOf(object: AttioObject, def: SimAttribute, input: unknown): Record<string, unknown> {
    const base = { active_from: now(), active_until: null, created_by_actor: actor, attribute_type: def.type };
    const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
    switch (def.type) {
      case 'text':
        if (typeof input !== 'string') throw bad(`Invalid value for ${def.slug}: expected a string.`);
        return { ...base, value: input };
      case 'number':
        if (typeof input !== 'number') throw bad(`Invalid value for ${def.slug}: expected a number.`);
        return { ...base, value: input };
      case 'checkbox':
        if (typeof input !== 'boolean') throw bad(`Invalid value for ${def.slug}: expected a boolean.`);
        return { ...base, value: input };
      case 'date':
      case 'timestamp':
        if (typeof input !== 'string' || Number.isNaN(Date.parse(input))) throw bad(`Invalid value for ${def.slug}: expected a date.`);
        return { ...base, value: input };
      case 'personal-name': {
        const first = str(o.first_name) ?? '';
        const last = str(o.last_name) ?? '';
        return { ...base, first_name: first, last_name: last, full_name: str(o.full_name) ?? [first, last].filter(Boolean).join(' ') };
      }
      case 'email-address': {
        const email = typeof input === 'string' ? input : str(o.email_address);
        const m = email ? /^([^@\s]+)@([^@\s]+\.[^@\s]+)$/.exec(email) : null;
        if (!m) throw bad(`Invalid value for ${def.slug}: "${String(email)}" is not an email address.`);
        const domain = m[2]!.toLowerCase();
        return { ...base, original_email_address: email, email_address: email!.toLowerCase(), email_domain: domain, email_root_domain: domain.split('.').slice(-2).join('.'), email_local_specifier: m[1]! };
      }
      case 'phone-number': {
        const original = typeof input === 'string' ? input : str(o.original_phone_number);
        if (!original || !/^\+\d{6,15}$/.test(original.replace(/[\s()-]/g, ''))) throw bad(`Invalid value for ${def.slug}: a phone number in international form is required.`);
        const country = str(o.country_code) ?? (original.startsWith('+1') ? 'US' : original.startsWith('+372') ? 'EE' : 'GB');
        return { ...base, original_phone_number: original, country_code: country, phone_number: original.replace(/[\s()-]/g, '') };
      }
      case 'location': {
        const country = str(o.country_code);
        if (country !== null && !COUNTRY.test(country)) throw bad(`Invalid value for ${def.slug}: country_code must be an ISO 3166-1 alpha-2 code.`);
        const f = (k: string) => str(o[k]);
        return { ...base, line_1: f('line_1'), line_2: f('line_2'), line_3: f('line_3'), line_4: f('line_4'), locality: f('locality'), region: f('region'), postcode: f('postcode'), country_code: country, latitude: null, longitude: null };
      }
      case 'record-reference': {
        const id = typeof input === 'string' ? input : str(o.target_record_id);
        const target = id ? records.get(id) : undefined;
        if (!target || target.deleted) throw new AttioError(400, 'value_not_found', `Record "${String(id)}" referenced by ${def.slug} was not found.`);
        return { ...base, target_object: target.object, target_record_id: target.id };
      }
      case 'actor-reference': {
        const id = typeof input === 'string' ? input : str(o.referenced_actor_id);
        if (!members.some((m) => m.id.workspace_member_id === id)) throw new AttioError(400, 'value_not_found', `Workspace member "${String(id)}" was not found.`);
        return { ...base, referenced_actor_type: 'workspace-member', referenced_actor_id: id };
      }
      case 'status': {
        const key = typeof input === 'string' ? input : str(o.status);
        const st = statuses.find((s) => s.id.status_id === key || s.title === key);
        if (!st) throw new AttioError(400, 'value_not_found', `Status "${String(key)}" was not found on ${def.slug}.`);
        return { ...base, status: st };
      }
      case 'currency': {
        const n = typeof input === 'number' ? input : typeof o.currency_value === 'number' ? o.currency_value : NaN;
        if (!Number.isFinite(n)) throw bad(`Invalid value for ${def.slug}: expected a number.`);
        if (Math.round(n * 10_000) / 10_000 !== n) throw bad(`Invalid value for ${def.slug}: at most 4 decimal places.`);
        return { ...base, currency_value: n, currency_code: def.currency ?? null };
      }
      default:
        void object;
        throw bad(`Attribute type ${def.type} is not simulated.`);
    }
  }

  function writeValues(object: AttioObject, rec: AttioRecord, values: Record<string, unknown>, create: boolean) {
    if (!values || typeof values !== 'object' || Array.isArray(values)) throw bad('Body payload validation error: data.values must be an object.');
    for (const [slug, raw] of Object.entries(values)) {
      const def = attrs[object].find((x) => x.slug === slug || x.id === slug);
      if (!def) throw new AttioError(404, 'not_found', `Cannot find attribute with slug/ID "${slug}".`);
      const list = raw === null ? [] : Array.isArray(raw) ? raw : [raw];
      if (!def.multiselect && list.length > 1) throw bad(`Attribute ${slug} takes one value.`);
      rec.values[def.slug] = list.map((v) => valueOf(object, def, v));
    }
    if (create) {
      const missing = attrs[object].filter((d) => d.required && !(rec.values[d.slug]?.length));
      if (missing.length) throw new AttioError(400, 'missing_value', `Required attribute "${missing[0]!.slug}" is missing a value.`);
    }
  }

  const view = (r: AttioRecord) => ({
    id: { workspace_id: workspace, object_id: objectIds[r.object], record_id: r.id },
    created_at: r.created_at,
    values: Object.fromEntries(attrs[r.object].map((d) => [d.slug, r.values[d.slug] ?? []])),
  });

  type Actor = { type: string; id: string };
  /** Who changes records outside the API: a person in Attio's app. */
  const person = (): Actor => ({ type: 'workspace-member', id: members[0]!.id.workspace_member_id });
  const recordEvent = (type: string, r: AttioRecord, by: Actor, attributeId?: string) =>
    hooks.emit({ event_type: `record.${type}`, id: { workspace_id: workspace, object_id: objectIds[r.object], record_id: r.id, ...(attributeId ? { attribute_id: attributeId } : {}) }, actor: by });

  function create(object: AttioObject, values: Record<string, unknown>, by: Actor = person()): AttioRecord {
    const rec: AttioRecord = { id: randomUUID(), object, created_at: now(), values: {} };
    writeValues(object, rec, values, true);
    records.set(rec.id, rec);
    recordEvent('created', rec, by);
    return rec;
  }
  /** Writes values; one `record.updated` per attribute written, as Attio sends them. */
  function update(object: AttioObject, rec: AttioRecord, values: Record<string, unknown>, by: Actor = person()): void {
    const next: AttioRecord = { ...rec, values: { ...rec.values } };
    writeValues(object, next, values, false);
    rec.values = next.values;
    for (const slug of Object.keys(values)) recordEvent('updated', rec, by, attrs[object].find((x) => x.slug === slug || x.id === slug)!.id);
  }
  function remove(rec: AttioRecord, by: Actor = person()): void {
    rec.deleted = true;
    recordEvent('deleted', rec, by);
  }
  function live(object: AttioObject, id: string): AttioRecord {
    const r = records.get(id);
    if (!r || r.deleted || r.object !== object) throw new AttioError(404, 'not_found', `Record with ID "${id}" not found.`);
    return r;
  }

  const attributeView = (object: AttioObject, d: SimAttribute) => ({
    id: { workspace_id: workspace, object_id: objectIds[object], attribute_id: d.id },
    title: d.title,
    description: null,
    api_slug: d.slug,
    type: d.type,
    is_system_attribute: d.system,
    is_writable: true,
    is_required: d.required,
    is_unique: false,
    is_multiselect: d.multiselect,
    is_default_value_enabled: false,
    is_archived: false,
    default_value: null,
    relationship: null,
    created_at: now(),
    config: { currency: { default_currency_code: d.currency ?? null, display_type: d.currency ? 'code' : null }, record_reference: { allowed_object_ids: null } },
  });

  // ------------------------------------------------------------ HTTP

  const page = <T>(list: T[], limit: unknown, offset: unknown) => {
    const l = Math.min(500, Math.max(1, Number(limit ?? 500) || 500));
    const o = Math.max(0, Number(offset ?? 0) || 0);
    return list.slice(o, o + l);
  };
  /**
   * The one query filter simulated: `record_id` equal to an id, or `$eq` / `$in` ids (Attio's filtering guide);
   * any other filter is refused rather than ignored, so that a query the simulator would answer wrongly fails.
   */
  const recordIdFilter = (filter: unknown): Set<string> | undefined => {
    if (filter === undefined) return undefined;
    const f = filter as { record_id?: unknown };
    const cond = f && typeof f === 'object' && Object.keys(f).length === 1 ? f.record_id : undefined;
    if (typeof cond === 'string') return new Set([cond]);
    const c = cond as { $eq?: unknown; $in?: unknown } | undefined;
    if (c && typeof c.$eq === 'string') return new Set([c.$eq]);
    if (c && Array.isArray(c.$in) && c.$in.every((x) => typeof x === 'string')) return new Set(c.$in as string[]);
    throw new AttioError(400, 'filter_error', 'Error in filter (only record_id filters are simulated).');
  };
  const objectOf = (s: string): AttioObject => {
    if (s === 'people' || s === 'companies' || s === 'deals') return s;
    throw new AttioError(404, 'not_found', `Object with slug/ID "${s}" not found.`);
  };

  const windowMs = (opts.rateLimit?.windowSeconds ?? 1) * 1000;
  const limits = { read: fixedWindow(clock, opts.rateLimit?.reads ?? 100, windowMs), write: fixedWindow(clock, opts.rateLimit?.writes ?? 25, windowMs) };
  function handle(req: SimRequest): SimResponse {
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
    if (!bearer || !tokens.has(bearer[1]!)) return { status: 401, body: { status_code: 401, type: 'auth_error', code: 'unauthorized', message: 'Invalid or missing access token.' } };
    const window = limits[req.method === 'GET' || req.path.endsWith('/query') ? 'read' : 'write'].take();
    if (opts.rateLimit?.enforce && window.over) {
      return {
        status: 429,
        headers: { 'retry-after': new Date(window.resetAt).toUTCString() },
        body: { status_code: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Rate limit exceeded, please try again later' },
      };
    }
    return route(req);
  }

  function route(req: SimRequest): SimResponse {
    const body = (req.body ?? {}) as { data?: Record<string, unknown>; limit?: number; offset?: number; filter?: unknown };
    const q = req.query;
    const p = req.path;
    let m: RegExpExecArray | null;
    try {
      if (req.method === 'GET' && p === '/v2/self') return { status: 200, body: { active: true, scope: 'record_permission:read-write', client_id: 'sim', token_type: 'Bearer', exp: null, iat: Math.floor(clock.now() / 1000), sub: workspace, aud: 'sim', iss: 'attio.com', authorized_by_workspace_member_id: members[0]!.id.workspace_member_id, workspace_id: workspace, workspace_name: 'Sim Inc.', workspace_slug: 'sim-inc', workspace_logo_url: null } };
      if (req.method === 'GET' && p === '/v2/objects') {
        const nouns: Record<AttioObject, [string, string]> = { people: ['Person', 'People'], companies: ['Company', 'Companies'], deals: ['Deal', 'Deals'] };
        return { status: 200, body: { data: (Object.keys(objectIds) as AttioObject[]).map((o) => ({ id: { workspace_id: workspace, object_id: objectIds[o] }, api_slug: o, singular_noun: nouns[o][0], plural_noun: nouns[o][1], created_at: now() })) } };
      }
      if (req.method === 'GET' && p === '/v2/workspace_members') return { status: 200, body: { data: members } };
      if ((m = /^\/v2\/objects\/(\w+)\/attributes\/stage\/statuses$/.exec(p)) && req.method === 'GET') return { status: 200, body: { data: statuses } };
      if ((m = /^\/v2\/objects\/(\w+)\/attributes$/.exec(p)) && req.method === 'GET') {
        const object = objectOf(m[1]!);
        return { status: 200, body: { data: page(attrs[object].map((d) => attributeView(object, d)), q.get('limit'), q.get('offset')) } };
      }
      if ((m = /^\/v2\/objects\/(\w+)\/records\/query$/.exec(p)) && req.method === 'POST') {
        const object = objectOf(m[1]!);
        const wanted = recordIdFilter(body.filter);
        const list = [...records.values()].filter((r) => r.object === object && !r.deleted && (!wanted || wanted.has(r.id))).sort((x, y) => (x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : x.id < y.id ? -1 : 1));
        return { status: 200, body: { data: page(list, body.limit, body.offset).map(view) } };
      }
      if ((m = /^\/v2\/objects\/(\w+)\/records$/.exec(p)) && req.method === 'POST') {
        return { status: 200, body: { data: view(create(objectOf(m[1]!), (body.data?.values ?? undefined) as Record<string, unknown>, actor)) } };
      }
      if ((m = /^\/v2\/objects\/(\w+)\/records\/([0-9a-f-]{36})$/.exec(p))) {
        const object = objectOf(m[1]!);
        const rec = live(object, m[2]!);
        if (req.method === 'GET') return { status: 200, body: { data: view(rec) } };
        if (req.method === 'PATCH') {
          update(object, rec, (body.data?.values ?? undefined) as Record<string, unknown>, actor);
          return { status: 200, body: { data: view(rec) } };
        }
        if (req.method === 'DELETE') {
          remove(rec, actor);
          return { status: 200, body: {} };
        }
      }
      if (p === '/v2/notes' && req.method === 'GET') return { status: 200, body: { data: page([...notes.values()], q.get('limit'), q.get('offset')) } };
      if (p === '/v2/notes' && req.method === 'POST') {
        const d = body.data ?? {};
        const parent = objectOf(String(d.parent_object));
        live(parent, String(d.parent_record_id));
        if (d.format !== 'plaintext' && d.format !== 'markdown') throw bad('format must be plaintext or markdown.');
        const note = {
          id: { workspace_id: workspace, note_id: randomUUID() },
          parent_object: parent,
          parent_record_id: d.parent_record_id,
          title: String(d.title ?? ''),
          content_plaintext: String(d.content ?? ''),
          content_markdown: String(d.content ?? ''),
          created_by_actor: actor,
          created_at: now(),
        };
        notes.set(note.id.note_id, note);
        hooks.emit({ event_type: 'note.created', id: { workspace_id: workspace, note_id: note.id.note_id }, parent_object_id: objectIds[parent], parent_record_id: String(d.parent_record_id), actor });
        return { status: 200, body: { data: note } };
      }
      if ((m = /^\/v2\/notes\/([0-9a-f-]{36})$/.exec(p)) && req.method === 'GET') {
        const note = notes.get(m[1]!);
        if (!note) throw new AttioError(404, 'not_found', 'Note not found.');
        return { status: 200, body: { data: note } };
      }
      if (p === '/v2/tasks' && req.method === 'GET') return { status: 200, body: { data: page([...tasks.values()], q.get('limit'), q.get('offset')) } };
      const taskFields = (d: Record<string, unknown>, task: Record<string, unknown>) => {
        if (d.deadline_at !== undefined) task.deadline_at = d.deadline_at === null ? null : new Date(String(d.deadline_at)).toISOString().replace('Z', '000000Z');
        if (d.is_completed !== undefined) task.is_completed = d.is_completed === true;
        if (d.linked_records !== undefined) {
          task.linked_records = (d.linked_records as { target_object: string; target_record_id: string }[]).map((l) => {
            live(objectOf(l.target_object), l.target_record_id);
            return { target_object_id: objectIds[objectOf(l.target_object)], target_record_id: l.target_record_id };
          });
        }
        if (d.assignees !== undefined) {
          task.assignees = (d.assignees as { referenced_actor_id: string }[]).map((x) => {
            if (!members.some((mm) => mm.id.workspace_member_id === x.referenced_actor_id)) throw new AttioError(400, 'value_not_found', 'Assignee not found.');
            return { referenced_actor_type: 'workspace-member', referenced_actor_id: x.referenced_actor_id };
          });
        }
      };
      if (p === '/v2/tasks' && req.method === 'POST') {
        const d = body.data ?? {};
        if (typeof d.content !== 'string' || d.format !== 'plaintext') throw bad('content and format (plaintext) are required.');
        const task: Record<string, unknown> = { id: { workspace_id: workspace, task_id: randomUUID() }, content_plaintext: d.content, deadline_at: null, is_completed: false, linked_records: [], assignees: [], created_by_actor: actor, created_at: now() };
        taskFields(d, task);
        tasks.set((task.id as { task_id: string }).task_id, task);
        hooks.emit({ event_type: 'task.created', id: { workspace_id: workspace, task_id: (task.id as { task_id: string }).task_id }, actor });
        return { status: 200, body: { data: task } };
      }
      if ((m = /^\/v2\/tasks\/([0-9a-f-]{36})$/.exec(p))) {
        const task = tasks.get(m[1]!);
        if (!task) throw new AttioError(404, 'not_found', 'Task not found.');
        if (req.method === 'GET') return { status: 200, body: { data: task } };
        if (req.method === 'PATCH') {
          if ((body.data ?? {}).content !== undefined) throw bad('The content of a task cannot be updated.');
          taskFields(body.data ?? {}, task);
          hooks.emit({ event_type: 'task.updated', id: { workspace_id: workspace, task_id: m[1]! }, actor });
          return { status: 200, body: { data: task } };
        }
      }
      if (p === '/v2/webhooks' && req.method === 'GET') return { status: 200, body: { data: page([...hooks.webhooks.values()].map((h) => hooks.render(h)), q.get('limit'), q.get('offset')) } };
      if (p === '/v2/webhooks' && req.method === 'POST') return { status: 200, body: { data: hooks.render(hooks.create(req.body), true) } };
      if ((m = /^\/v2\/webhooks\/([0-9a-f-]{36})$/.exec(p))) {
        const hook = hooks.get(m[1]!);
        if (req.method === 'GET') return { status: 200, body: { data: hooks.render(hook) } };
        if (req.method === 'DELETE') {
          hooks.webhooks.delete(m[1]!);
          return { status: 200, body: {} };
        }
      }
      return { status: 404, body: { status_code: 404, type: 'invalid_request_error', code: 'not_found', message: 'Not found.' } };
    } catch (err) {
      if (err instanceof AttioError || err instanceof AttioHookError) return { status: err.status, body: { status_code: err.status, type: 'invalid_request_error', code: err.code, message: err.message } };
      throw err;
    }
  }

  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    onRequest(req) {
      spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body: req.bodyError ? undefined : req.body });
    },
    describeAuth(req) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      return bearer ? { scheme: 'bearer', label: null, valid: tokens.has(bearer[1]!) } : null;
    },
    faultResponse(fault: ActiveFault) {
      return { status: fault.status!, body: { status_code: fault.status, type: fault.status === 429 ? 'rate_limit_error' : 'api_error', code: fault.status === 429 ? 'rate_limit_exceeded' : 'internal', message: `Simulated ${fault.status}` } };
    },
    handle: async (req) => handle(req),
    decorate(req, res) {
      if (res.status < 300) spec.checkResponse(req, res.status, res.body);
    },
    internalError: () => ({ status: 500, body: { status_code: 500, type: 'api_error', code: 'internal', message: 'Internal error' } }),
  });

  return {
    url: server.url,
    clock,
    faults,
    requests,
    members,
    statuses,
    spec,
    hooks,
    objectIds,
    get: (object, id) => {
      const r = records.get(id);
      return r && !r.deleted && r.object === object ? r : undefined;
    },
    create: (object, values) => create(object, values),
    update(object, id, values) {
      const rec = live(object, id);
      update(object, rec, values);
      return rec;
    },
    remove(object, id) {
      remove(live(object, id));
    },
    addAttribute(object, def) {
      a(object, def.slug, def.type, { title: def.title, system: false });
      return attrs[object].at(-1)!;
    },
    addAccessToken: (token) => void tokens.add(token),
    close: () => server.close(),
  };
}
