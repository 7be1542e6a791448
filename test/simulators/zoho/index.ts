/**
 * Zoho CRM API simulator (REST `/crm/v8`) for integration tests and benchmarks: the Contacts, Accounts,
 * Deals, Notes, Tasks, Calls and Events modules (record lists with mandatory `fields`, `page`/`per_page`,
 * `sort_by`/`sort_order`, `ids` and the `If-Modified-Since` header, answering 204 when empty and 304 when
 * nothing changed; single records; creates of up to 100 records answered one by one; updates; deletes to
 * the recycle bin and the Deleted Records API), users, field definitions (`/settings/fields`, with custom
 * fields and the Deals Stage picklist), multi-currency organizations (Deals Currency), the daily API credit
 * limit (429) and `Zoho-oauthtoken` access tokens. Timestamps keep whole seconds, as Zoho's do, so
 * Modified_Time values tie. Traffic is checked against Zoho's OpenAPI documents when present (spec.ts).
 */
import {
  FaultController,
  SimClock,
  startSimServer,
  type ActiveFault,
  type FaultSpec,
  type RecordedRequest,
  type SimRequest,
  type SimResponse,
} from '../shared/http-kit';
import { loadZohoSpecCheck, type SpecViolation } from './spec';

export type { ActiveFault, FaultSpec, RecordedRequest, SpecViolation };

export type ZModule = 'Contacts' | 'Accounts' | 'Deals' | 'Notes' | 'Tasks' | 'Calls' | 'Events';
export type ZRec = Record<string, unknown> & { id: string };
export const MODULES: ZModule[] = ['Contacts', 'Accounts', 'Deals', 'Notes', 'Tasks', 'Calls', 'Events'];

type DataType = 'text' | 'textarea' | 'email' | 'phone' | 'website' | 'picklist' | 'multiselectpicklist' | 'lookup' | 'ownerlookup' | 'integer' | 'double' | 'currency' | 'boolean' | 'date' | 'datetime' | 'bigint' | 'subform';
export interface SimField {
  api_name: string;
  field_label: string;
  data_type: DataType;
  custom_field: boolean;
  system_mandatory: boolean;
  read_only: boolean;
  /** lookup: the module it points at. */
  lookup?: ZModule;
  pick_list_values?: { display_value: string; actual_value: string; id: string; sequence_number: number }[];
}

export interface ZohoSimulatorOptions {
  accessTokens?: string[];
  validateSpec?: boolean;
  /** The organization has multi-currency on (Deals have Currency). Default false. */
  multiCurrency?: boolean;
  /** Largest `per_page` answered, below Zoho's 200 (tests that walk several pages). */
  maxPageSize?: number;
  /** Records a list answers by `page` before `page_token` is required (Zoho: 2,000; tests lower it). */
  maxRecordsByPage?: number;
  /** API credits per day (default 50,000); once spent, calls answer 429. */
  dailyCredits?: number;
  users?: number;
}

export interface ZohoSimulator {
  readonly url: string;
  readonly clock: SimClock;
  readonly faults: FaultController;
  readonly requests: RecordedRequest[];
  readonly users: ZRec[];
  readonly stages: string[];
  readonly specAvailable: boolean;
  readonly specViolations: SpecViolation[];
  readonly specUndocumented: { method: string; path: string }[];
  /** Credits spent today. */
  creditsUsed: number;
  get(module: ZModule, id: string): ZRec | undefined;
  all(module: ZModule): ZRec[];
  /** Creates a record as a person would in Zoho (validated, system fields set), bypassing HTTP. */
  create(module: ZModule, fields: Record<string, unknown>): ZRec;
  update(module: ZModule, id: string, patch: Record<string, unknown>): ZRec;
  /** Deletes a record to the recycle bin (the Deleted Records API lists it). */
  remove(module: ZModule, id: string): void;
  addCustomField(module: ZModule, def: { api_name: string; field_label?: string; data_type: DataType }): SimField;
  addAccessToken(token: string): void;
  /** Every access token expires (Zoho's last an hour): calls answer 401 INVALID_TOKEN until a new one. */
  expireTokens(): void;
  close(): Promise<void>;
}

/** A per-record write error, as Zoho answers it in `data`. */
class RecordError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
  toJSON() {
    return { code: this.code, details: this.details, message: this.message, status: 'error' };
  }
}

/** A request-level error: `{code, details, message, status: "error"}`. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export async function startZohoSimulator(opts: ZohoSimulatorOptions = {}): Promise<ZohoSimulator> {
  const clock = new SimClock();
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Set(opts.accessTokens ?? ['zoho-test-token']);
  const spec = await loadZohoSpecCheck({ enabled: opts.validateSpec });
  const dailyCredits = opts.dailyCredits ?? 50_000;
  const maxPage = Math.min(200, opts.maxPageSize ?? 200);
  const byPage = opts.maxRecordsByPage ?? 2000;
  let seq = 0;
  /** Zoho ids: long numbers (19 digits), growing. */
  const newId = () => String(5_725_767_000_000_000_000n + BigInt(++seq) * 1_000n + 17n);
  /** Zoho date-times: whole seconds with an offset. */
  const stamp = (ms = clock.now()) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const secondOf = (v: unknown) => Math.floor(Date.parse(String(v)) / 1000) * 1000;

  const users: ZRec[] = Array.from({ length: opts.users ?? 2 }, (_, i) => {
    const [first, last] = [['Ada', 'Admin'], ['Grace', 'Hopper'], ['Alan', 'Turing']][i % 3]!;
    return { id: newId(), first_name: first, last_name: last, full_name: `${first} ${last}`, email: `user${i + 1}@zoho.example`, status: 'active', role: { name: 'CEO', id: '1' }, profile: { name: 'Administrator', id: '2' }, created_time: stamp(), Modified_Time: stamp() };
  });
  const stages = ['Qualification', 'Needs Analysis', 'Proposal/Price Quote', 'Closed Won', 'Closed Lost'];

  // ------------------------------------------------------------ field definitions
  const fieldsBy = new Map<ZModule, Map<string, SimField>>();
  const f = (api_name: string, data_type: DataType, extra: Partial<SimField> = {}): SimField => ({
    api_name,
    field_label: api_name.replace(/_/g, ' '),
    data_type,
    custom_field: false,
    system_mandatory: false,
    read_only: false,
    ...extra,
  });
  const mandatory = { system_mandatory: true };
  const ro = { read_only: true };
  const system = [f('Owner', 'ownerlookup'), f('Created_Time', 'datetime', ro), f('Modified_Time', 'datetime', ro), f('Created_By', 'ownerlookup', ro), f('Modified_By', 'ownerlookup', ro)];
  const address = (p: string, zip: string) => ['Street', 'City', 'State', zip, 'Country'].map((part) => f(`${p}_${part}`, part === 'Street' ? 'textarea' : 'text'));
  const define = (m: ZModule, list: SimField[]) => fieldsBy.set(m, new Map([...system, ...list].map((x) => [x.api_name, x])));
  define('Accounts', [f('Account_Name', 'text', mandatory), f('Industry', 'picklist'), f('Employees', 'integer'), f('Phone', 'phone'), f('Fax', 'phone'), f('Website', 'website'), f('Description', 'textarea'), ...address('Billing', 'Code'), ...address('Shipping', 'Code')]);
  define('Contacts', [
    f('First_Name', 'text'),
    f('Last_Name', 'text', mandatory),
    f('Title', 'text'),
    f('Email', 'email'),
    f('Secondary_Email', 'email'),
    ...['Phone', 'Mobile', 'Home_Phone', 'Other_Phone', 'Fax'].map((p) => f(p, 'phone')),
    ...address('Mailing', 'Zip'),
    ...address('Other', 'Zip'),
    f('Account_Name', 'lookup', { lookup: 'Accounts' }),
  ]);
  define('Deals', [
    f('Deal_Name', 'text', mandatory),
    f('Description', 'textarea'),
    f('Amount', 'currency'),
    f('Stage', 'picklist', { ...mandatory, pick_list_values: stages.map((s, i) => ({ display_value: s, actual_value: s, id: String(4_000 + i), sequence_number: i + 1 })) }),
    f('Closing_Date', 'date', mandatory),
    f('Account_Name', 'lookup', { lookup: 'Accounts' }),
    f('Contact_Name', 'lookup', { lookup: 'Contacts' }),
    ...(opts.multiCurrency ? [f('Currency', 'picklist', { pick_list_values: ['USD', 'EUR', 'GBP'].map((c, i) => ({ display_value: c, actual_value: c, id: String(5_000 + i), sequence_number: i + 1 })) })] : []),
  ]);
  define('Notes', [f('Note_Title', 'text'), f('Note_Content', 'textarea', mandatory), f('Parent_Id', 'lookup', mandatory)]);
  const activity = [f('Description', 'textarea'), f('Who_Id', 'lookup', { lookup: 'Contacts' }), f('What_Id', 'lookup')];
  define('Tasks', [f('Subject', 'text', mandatory), f('Status', 'picklist'), f('Due_Date', 'date'), f('Closed_Time', 'datetime', ro), ...activity]);
  define('Calls', [f('Subject', 'text', mandatory), f('Call_Type', 'picklist', mandatory), f('Call_Start_Time', 'datetime', mandatory), f('Call_Duration', 'text'), f('Call_Duration_in_seconds', 'integer', ro), ...activity]);
  define('Events', [f('Event_Title', 'text', mandatory), f('Start_DateTime', 'datetime', mandatory), f('End_DateTime', 'datetime', mandatory), f('Participants', 'subform'), ...activity]);

  // ------------------------------------------------------------ records
  const store = new Map<ZModule, Map<string, ZRec>>(MODULES.map((m) => [m, new Map()]));
  const deleted = new Map<ZModule, { id: string; display_name: string; type: 'recycle' | 'permanent'; deleted_time: string; at: number }[]>(MODULES.map((m) => [m, []]));
  const byId = (id: string) => {
    for (const m of MODULES) {
      const r = store.get(m)!.get(id);
      if (r) return { module: m, record: r };
    }
    return undefined;
  };
  const minUser = (u: ZRec) => ({ id: u.id, name: u.full_name, email: u.email });
  const nameOf = (m: ZModule, r: ZRec): string =>
    String(
      m === 'Contacts' ? [r.First_Name, r.Last_Name].filter(Boolean).join(' ') : m === 'Accounts' ? r.Account_Name : m === 'Deals' ? r.Deal_Name : m === 'Events' ? r.Event_Title : m === 'Notes' ? (r.Note_Title ?? r.Note_Content) : r.Subject,
    );

  /** Checks one record's fields and answers them as stored (lookups as {id, name}, derived fields set). */
  function validate(m: ZModule, input: Record<string, unknown>, current: ZRec | undefined): Record<string, unknown> {
    const defs = fieldsBy.get(m)!;
    const out: Record<string, unknown> = {};
    const invalid = (api_name: string, expected: string) => new RecordError('INVALID_DATA', 'invalid data', { api_name, expected_data_type: expected });
    for (const [k, v] of Object.entries(input)) {
      if (k === '$se_module') {
        if (v !== null && !['Accounts', 'Deals'].includes(String(v))) throw invalid(k, 'module');
        out[k] = v;
        continue;
      }
      if (k === 'id') continue;
      const def = defs.get(k);
      if (!def) throw new RecordError('INVALID_DATA', 'the field is not available', { api_name: k });
      if (def.read_only) throw new RecordError('INVALID_DATA', 'read only field', { api_name: k });
      if (v === null) {
        out[k] = null;
        continue;
      }
      switch (def.data_type) {
        case 'email':
          if (typeof v !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v)) throw invalid(k, 'email');
          out[k] = v;
          break;
        case 'integer':
        case 'bigint':
          if (!Number.isSafeInteger(v)) throw invalid(k, 'integer');
          out[k] = v;
          break;
        case 'double':
        case 'currency':
          if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(k, def.data_type);
          // Currency fields keep two decimals.
          if (def.data_type === 'currency' && Math.round(v * 100) / 100 !== v) throw invalid(k, 'currency');
          out[k] = v;
          break;
        case 'boolean':
          if (typeof v !== 'boolean') throw invalid(k, 'boolean');
          out[k] = v;
          break;
        case 'date':
          if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw invalid(k, 'date');
          out[k] = v;
          break;
        case 'datetime':
          if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/.test(v)) throw invalid(k, 'datetime');
          out[k] = stamp(Date.parse(v));
          break;
        case 'picklist':
          if (typeof v !== 'string' || (def.pick_list_values && !def.pick_list_values.some((p) => p.actual_value === v))) throw invalid(k, 'picklist');
          out[k] = v;
          break;
        case 'multiselectpicklist':
          if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw invalid(k, 'multiselectpicklist');
          out[k] = v;
          break;
        case 'ownerlookup': {
          const id = (v as { id?: unknown })?.id ?? v;
          const u = users.find((x) => x.id === id);
          if (!u) throw invalid(k, 'ownerlookup');
          out[k] = minUser(u);
          break;
        }
        case 'lookup': {
          if (k === 'Parent_Id') {
            const p = v as { id?: string; module?: { api_name?: string } };
            const found = typeof p?.id === 'string' ? byId(p.id) : undefined;
            if (!found || found.module !== p.module?.api_name || !['Contacts', 'Accounts', 'Deals'].includes(found.module)) throw invalid(k, 'lookup');
            if (current) throw new RecordError('INVALID_DATA', 'the parent of a note cannot change', { api_name: k });
            out[k] = { module: { api_name: found.module, id: String(MODULES.indexOf(found.module) + 1) }, id: p.id, name: nameOf(found.module, found.record) };
            break;
          }
          const id = (v as { id?: unknown })?.id ?? v;
          const target = def.lookup ?? (((input.$se_module ?? current?.$se_module) as ZModule | undefined) || undefined);
          const r = target && typeof id === 'string' ? store.get(target)?.get(id) : undefined;
          if (!r || !target) throw invalid(k, 'lookup');
          out[k] = { id: r.id, name: nameOf(target, r) };
          break;
        }
        case 'subform':
          // Events Participants: [{type: contact|lead|user|email, participant}]
          if (!Array.isArray(v) || !v.every((p) => p && typeof p.participant === 'string' && ['contact', 'lead', 'user', 'email'].includes(p.type))) throw invalid(k, 'subform');
          for (const p of v as { type: string; participant: string }[]) if (p.type === 'contact' && !store.get('Contacts')!.has(p.participant)) throw invalid(k, 'subform');
          out[k] = (v as { type: string; participant: string }[]).map((p) => ({ type: p.type, participant: p.participant, name: p.type === 'contact' ? nameOf('Contacts', store.get('Contacts')!.get(p.participant)!) : p.participant, Email: null, invited: false, status: 'not_known' }));
          break;
        default:
          if (typeof v !== 'string') throw invalid(k, def.data_type);
          out[k] = v;
      }
    }
    if (!current) {
      for (const def of defs.values()) {
        if (def.system_mandatory && (out[def.api_name] === undefined || out[def.api_name] === null || out[def.api_name] === '')) {
          throw new RecordError('MANDATORY_NOT_FOUND', 'required field not found', { api_name: def.api_name });
        }
      }
    }
    if (m === 'Calls' && out.Call_Duration !== undefined) {
      const d = /^(\d+):([0-5]\d)$/.exec(String(out.Call_Duration ?? ''));
      if (out.Call_Duration !== null && !d) throw invalid('Call_Duration', 'text');
      out.Call_Duration_in_seconds = d ? Number(d[1]) * 60 + Number(d[2]) : null;
    }
    if (m === 'Tasks' && out.Status !== undefined) out.Closed_Time = out.Status === 'Completed' ? stamp() : null;
    return out;
  }

  const DEFAULTS: Record<ZModule, () => Record<string, unknown>> = {
    Contacts: () => ({ Account_Name: null, Email: null, Secondary_Email: null, First_Name: null }),
    Accounts: () => ({ Industry: null, Employees: null }),
    Deals: () => ({ Amount: null, Account_Name: null, Contact_Name: null, Description: null, ...(opts.multiCurrency ? { Currency: 'USD', Exchange_Rate: 1 } : {}) }),
    Notes: () => ({ Note_Title: null }),
    Tasks: () => ({ Status: 'Not Started', Due_Date: null, Closed_Time: null, Who_Id: null, What_Id: null, $se_module: null, Description: null }),
    Calls: () => ({ Call_Duration: null, Call_Duration_in_seconds: null, Who_Id: null, What_Id: null, $se_module: null, Description: null }),
    Events: () => ({ Participants: [], Who_Id: null, What_Id: null, $se_module: null, Description: null }),
  };

  function insert(m: ZModule, fields: Record<string, unknown>): ZRec {
    const now = stamp();
    const r: ZRec = { ...DEFAULTS[m](), Owner: minUser(users[0]!), ...fields, id: newId(), Created_Time: now, Modified_Time: now, Created_By: minUser(users[0]!), Modified_By: minUser(users[0]!) };
    store.get(m)!.set(r.id, r);
    return r;
  }
  function change(m: ZModule, id: string, patch: Record<string, unknown>): ZRec {
    const r = store.get(m)!.get(id);
    if (!r) throw new ApiError(404, 'INVALID_DATA', 'the related id given seems to be invalid', { id });
    Object.assign(r, patch, { Modified_Time: stamp() });
    return r;
  }
  function remove(m: ZModule, id: string) {
    const r = store.get(m)!.get(id);
    if (!r) throw new ApiError(404, 'INVALID_DATA', 'the related id given seems to be invalid', { id });
    store.get(m)!.delete(id);
    deleted.get(m)!.unshift({ id, display_name: nameOf(m, r), type: 'recycle', deleted_time: stamp(), at: clock.now() });
  }

  // ------------------------------------------------------------ HTTP
  const credits = { used: 0, day: Math.floor(clock.now() / 86_400_000) };
  function authOf(req: SimRequest): RecordedRequest['auth'] {
    const h = req.headers.authorization;
    if (typeof h !== 'string') return null;
    const [scheme, value = ''] = h.split(/\s+/, 2);
    return { scheme: scheme!.toLowerCase(), label: null, valid: scheme === 'Zoho-oauthtoken' && tokens.has(value) };
  }
  const fail = (status: number, code: string, message: string, details: Record<string, unknown> = {}): SimResponse => ({ status, body: { code, details, message, status: 'error' } });
  const int = (v: string | null, dflt: number, name: string) => {
    const n = v === null ? dflt : Number(v);
    if (!Number.isInteger(n) || n < 1) throw new ApiError(400, 'INVALID_DATA', `invalid ${name}`, { param_name: name });
    return n;
  };

  function ifModifiedSince(req: SimRequest): number | null {
    const h = req.headers['if-modified-since'];
    if (typeof h !== 'string') return null;
    const ms = Date.parse(h);
    if (Number.isNaN(ms)) throw new ApiError(400, 'INVALID_DATA', 'invalid If-Modified-Since', { param_name: 'If-Modified-Since' });
    return ms;
  }

  /**
   * A page of a list: by `page` up to 2,000 records, then by `page_token` (the previous answer's
   * `next_page_token`, which encodes where the same query goes on).
   */
  function page<T>(list: T[], q: URLSearchParams, key = 'data', tokens = false): SimResponse {
    const per = Math.min(int(q.get('per_page'), 200, 'per_page'), maxPage);
    let from: number;
    let p: number;
    const token = q.get('page_token');
    if (token !== null) {
      if (q.has('page')) throw new ApiError(400, 'INVALID_DATA', 'page and page_token cannot be given together', { param_name: 'page_token' });
      from = Number(/^zt(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'))?.[1] ?? NaN);
      if (!Number.isSafeInteger(from)) throw new ApiError(400, 'INVALID_DATA', 'invalid page_token', { param_name: 'page_token' });
      p = Math.floor(from / per) + 1;
    } else {
      p = int(q.get('page'), 1, 'page');
      if (tokens && p * per > byPage) throw new ApiError(400, 'LIMIT_EXCEEDED', `you can fetch at most ${byPage} records with page; use page_token`, { limit: byPage });
      from = (p - 1) * per;
    }
    const data = list.slice(from, from + per);
    if (data.length === 0) return { status: 204 };
    const more = from + per < list.length;
    const next = tokens && more ? { next_page_token: Buffer.from(`zt${from + per}`).toString('base64url') } : {};
    return { status: 200, body: { [key]: data, info: { per_page: per, count: data.length, page: p, more_records: more, ...next } } };
  }

  function project(r: ZRec, fields: string[] | null): ZRec {
    if (!fields) return structuredClone(r);
    const out: ZRec = { id: r.id };
    for (const k of fields) if (k in r) out[k] = structuredClone(r[k]);
    if ('$se_module' in r) out.$se_module = r.$se_module;
    return out;
  }

  function listRecords(m: ZModule, req: SimRequest): SimResponse {
    const q = req.query;
    const raw = q.get('fields');
    if (!raw) throw new ApiError(400, 'REQUIRED_PARAM_MISSING', 'One of the expected parameter is missing', { param: 'fields' });
    const fields = raw.split(',').map((s) => s.trim());
    for (const k of fields) if (!fieldsBy.get(m)!.has(k)) throw new ApiError(400, 'INVALID_DATA', 'the field is not available', { api_name: k });
    if (fields.length > 50) throw new ApiError(400, 'LIMIT_EXCEEDED', 'at most 50 fields', { limit: 50 });
    let list = [...store.get(m)!.values()];
    if (q.has('ids')) {
      const ids = q.get('ids')!.split(',');
      list = ids.map((id) => store.get(m)!.get(id)).filter((r): r is ZRec => Boolean(r));
    }
    const since = m === 'Notes' ? null : ifModifiedSince(req);
    if (since !== null) {
      list = list.filter((r) => secondOf(r.Modified_Time) > since);
      if (list.length === 0) return { status: 304 };
    }
    const sortBy = q.get('sort_by') ?? 'id';
    if (!['id', 'Created_Time', 'Modified_Time'].includes(sortBy)) throw new ApiError(400, 'INVALID_DATA', 'invalid sort_by', { param_name: 'sort_by' });
    const desc = q.get('sort_order') === 'desc';
    // Sorted by the field's second, then by id (ids are 19 digits: compared as text of one length).
    const keyed = list.map((r) => ({ r, t: sortBy === 'id' ? 0 : secondOf(r[sortBy]), id: r.id.padStart(25, '0') }));
    keyed.sort((a, b) => (a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * (desc ? -1 : 1));
    list = keyed.map((k) => k.r);
    return page(list.map((r) => project(r, fields)), q, 'data', true);
  }

  function writeRecords(m: ZModule, body: unknown, id: string | null): SimResponse {
    const data = (body as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.length === 0) throw new ApiError(400, 'INVALID_DATA', 'data is missing', { param: 'data' });
    if (data.length > 100) throw new ApiError(400, 'LIMIT_EXCEEDED', 'at most 100 records', { limit: 100 });
    if (id !== null && data.length !== 1) throw new ApiError(400, 'INVALID_DATA', 'one record', {});
    const results = data.map((input) => {
      try {
        if (!input || typeof input !== 'object' || Array.isArray(input)) throw new RecordError('INVALID_DATA', 'invalid data', {});
        const current = id !== null ? store.get(m)!.get(id) : undefined;
        const r = current ? change(m, id!, validate(m, input as Record<string, unknown>, current)) : insert(m, validate(m, input as Record<string, unknown>, undefined));
        return {
          code: 'SUCCESS',
          details: { Modified_Time: r.Modified_Time, Modified_By: r.Modified_By, Created_Time: r.Created_Time, id: r.id, Created_By: r.Created_By },
          message: current ? 'record updated' : 'record added',
          status: 'success',
        };
      } catch (err) {
        if (err instanceof RecordError) return err.toJSON();
        throw err;
      }
    });
    const ok = results.filter((r) => r.status === 'success').length;
    return { status: ok === results.length ? (id === null ? 201 : 200) : ok === 0 ? 400 : 207, body: { data: results } };
  }

  async function handle(req: SimRequest): Promise<SimResponse> {
    const auth = authOf(req);
    if (!auth?.valid) return fail(401, 'INVALID_TOKEN', 'invalid oauth token');
    const day = Math.floor(clock.now() / 86_400_000);
    if (day !== credits.day) Object.assign(credits, { day, used: 0 });
    if (credits.used >= dailyCredits) return fail(429, 'TOO_MANY_REQUESTS', 'You have exceeded the API credits allotted for the day', {});
    credits.used++;
    const m = /^\/crm\/v8\/(.+?)\/?$/.exec(req.path);
    if (!m) return fail(404, 'INVALID_URL_PATTERN', 'Please check if the URL trying to access is a correct one');
    const parts = m[1]!.split('/');
    const q = req.query;
    try {
      if (parts[0] === 'users' && parts.length === 1 && req.method === 'GET') {
        const type = q.get('type') ?? 'AllUsers';
        const list = type === 'CurrentUser' ? users.slice(0, 1) : type === 'ActiveUsers' || type === 'AllUsers' ? users : null;
        if (!list) throw new ApiError(400, 'INVALID_DATA', 'invalid type', { param_name: 'type' });
        return page(list, q, 'users');
      }
      if (parts[0] === 'settings' && parts[1] === 'fields' && parts.length === 2 && req.method === 'GET') {
        const module = q.get('module') as ZModule;
        const defs = fieldsBy.get(module);
        if (!defs) throw new ApiError(400, 'INVALID_MODULE', 'the module name given seems to be invalid', { param_name: 'module' });
        return {
          status: 200,
          body: {
            fields: [...defs.values()].map((d) => ({
              api_name: d.api_name,
              field_label: d.field_label,
              display_label: d.field_label,
              data_type: d.data_type,
              custom_field: d.custom_field,
              system_mandatory: d.system_mandatory,
              read_only: d.read_only,
              id: String(100_000 + [...defs.keys()].indexOf(d.api_name)),
              ...(d.pick_list_values ? { pick_list_values: d.pick_list_values } : {}),
            })),
          },
        };
      }
      const module = parts[0] as ZModule;
      if (!store.has(module)) throw new ApiError(400, 'INVALID_MODULE', 'the module name given seems to be invalid', { param_name: 'module_api_name' });
      if (parts.length === 1) {
        if (req.method === 'GET') return listRecords(module, req);
        if (req.method === 'POST') return writeRecords(module, req.body, null);
        return fail(405, 'INVALID_REQUEST_METHOD', 'The http request method type is not a valid one');
      }
      if (parts.length === 2 && parts[1] === 'deleted' && req.method === 'GET') {
        const type = q.get('type') ?? 'all';
        if (!['all', 'recycle', 'permanent'].includes(type)) throw new ApiError(400, 'INVALID_DATA', 'invalid type', { param_name: 'type' });
        const since = ifModifiedSince(req);
        const list = deleted.get(module)!.filter((d) => (type === 'all' || d.type === type) && (since === null || secondOf(d.deleted_time) > since));
        if (since !== null && list.length === 0) return { status: 304 };
        const deletedBy = minUser(users[0]!);
        return page(list.map(({ at: _at, ...d }) => ({ ...d, deleted_by: deletedBy, created_by: deletedBy })), q);
      }
      if (parts.length === 2 && /^\d+$/.test(parts[1]!)) {
        const id = parts[1]!;
        const r = store.get(module)!.get(id);
        if (req.method === 'GET') {
          const asked = q.get('fields');
          return r ? { status: 200, body: { data: [project(r, asked ? asked.split(',').map((x) => x.trim()) : null)] } } : { status: 204 };
        }
        if (!r) throw new ApiError(400, 'INVALID_DATA', 'the related id given seems to be invalid', { id });
        if (req.method === 'PUT') return writeRecords(module, req.body, id);
        if (req.method === 'DELETE') {
          remove(module, id);
          return { status: 200, body: { data: [{ code: 'SUCCESS', details: { id }, message: 'record deleted', status: 'success' }] } };
        }
      }
      return fail(404, 'INVALID_URL_PATTERN', 'Please check if the URL trying to access is a correct one');
    } catch (err) {
      if (err instanceof ApiError) return fail(err.status, err.code, err.message, err.details);
      throw err;
    }
  }

  const server = await startSimServer({
    clock,
    faults,
    requests,
    maxRequestLog: 20_000,
    onRequest(req) {
      spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body: req.bodyError ? undefined : req.body });
    },
    describeAuth: authOf,
    faultResponse(fault: ActiveFault) {
      if (fault.status === 429) return { status: 429, body: { code: 'TOO_MANY_REQUESTS', details: {}, message: 'Too many requests', status: 'error' } };
      return { status: fault.status!, body: { code: 'INTERNAL_ERROR', details: {}, message: `Simulated ${fault.status}`, status: 'error' } };
    },
    handle,
    decorate(req, res) {
      if (res.status < 300) spec.checkResponse(req, res.status, res.body);
    },
    internalError: () => ({ status: 500, body: { code: 'INTERNAL_ERROR', details: {}, message: 'Internal error', status: 'error' } }),
  });

  const sim: ZohoSimulator = {
    url: server.url,
    clock,
    faults,
    requests,
    users,
    stages,
    specAvailable: spec.available,
    specViolations: spec.violations,
    specUndocumented: spec.undocumented,
    get creditsUsed() {
      return credits.used;
    },
    set creditsUsed(n: number) {
      credits.used = n;
    },
    get: (module, id) => {
      const r = store.get(module)!.get(id);
      return r && structuredClone(r);
    },
    all: (module) => [...store.get(module)!.values()],
    create: (module, fields) => insert(module, validate(module, fields, undefined)),
    update: (module, id, patch) => change(module, id, validate(module, patch, store.get(module)!.get(id))),
    remove,
    addCustomField(module, def) {
      const field: SimField = { api_name: def.api_name, field_label: def.field_label ?? def.api_name, data_type: def.data_type, custom_field: true, system_mandatory: false, read_only: false };
      fieldsBy.get(module)!.set(field.api_name, field);
      return field;
    },
    addAccessToken: (token) => void tokens.add(token),
    expireTokens: () => tokens.clear(),
    close: () => server.close(),
  };
  return sim;
}
