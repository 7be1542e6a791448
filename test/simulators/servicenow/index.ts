/**
 * ServiceNow simulator (an instance's Table API and Attachment API) for integration tests and benchmarks, built on
 * the shared HTTP kit. ServiceNow publishes no machine-readable description; the simulator follows the public
 * REST API reference (contract.ts) and records every request outside it in `contractViolations`, which tests
 * assert stay empty.
 *
 * Auth: HTTP Basic of a registered user name and password, or `Bearer <token>` of a token accepted with
 * `acceptToken` (from the OAuth simulator); otherwise 401 `{"error": {"message": "User Not Authenticated", …}}`.
 * Errors: `{"error": {"message", "detail"}, "status": "failure"}`.
 * Lists: `{"result": [...]}`, `sysparm_limit` (default 10,000), `sysparm_offset`, `X-Total-Count`, and a `Link`
 * header with first, prev, next (while more follow) and last. Datetimes `YYYY-MM-DD HH:mm:ss` UTC to the second.
 * Reference fields: plain sys_ids with `sysparm_exclude_reference_link=true`, else `{link, value}`.
 * Rate limit: an hourly rule (`rateLimit.perHour`); requests it covers carry `X-RateLimit-Limit`,
 * `X-RateLimit-Reset` and `X-RateLimit-Rule`; with `enforce`, beyond it 429 with `Retry-After`.
 *
 * Endpoints:
 *   GET    /api/now/table/{table}                  incident, sys_user, sys_user_group, sys_user_grmember, core_company,
 *                                                   sys_journal_field, sys_audit_delete, sys_dictionary
 *   GET    /api/now/table/{table}/{sys_id}
 *   POST   /api/now/table/incident (201)           PATCH /api/now/table/incident/{sys_id} (journal fields comments, work_notes)
 *   GET    /api/now/attachment                     POST /api/now/attachment/file?table_name&table_sys_id&file_name (201)
 *   GET    /api/now/attachment/{sys_id}/file       the file
 */
import { createHash } from 'node:crypto';
import { FaultController, SimClock, SimHttpError, startSimServer, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { noRoute } from '../shared/no-route';
import { ATTACHMENT_LIST_PARAMS, ATTACHMENT_UPLOAD_PARAMS, COLUMNS, OPERATORS, READ_ONLY, TABLE_LIST_PARAMS, TABLE_RECORD_PARAMS } from './contract';

export { FaultController, SimClock };

type Row = Record<string, string> & { sys_id: string };

export interface ServiceNowSimulatorOptions {
  /** user_name → password of users that can authenticate (default `admin` / `servicenow-test-password`). */
  users?: Record<string, string>;
  seedDefaults?: boolean;
  rateLimit?: { perHour?: number; enforce?: boolean };
  /** The connection's user may not read sys_audit_delete (403), as on instances that restrict it. */
  denyAuditDelete?: boolean;
  now?: () => number;
  recordBodies?: boolean;
}

export interface ContractViolation { method: string; path: string; problems: string[] }

/** ServiceNow's internal datetime value: UTC to the second. */
export const snDate = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');

const DEFAULT_PASSWORD = 'servicenow-test-password';
const CATEGORIES = ['inquiry', 'software', 'hardware', 'network', 'database'];
/** Default priority lookup: impact × urgency → priority. */
const PRIORITY: Record<string, string> = { '1,1': '1', '1,2': '2', '2,1': '2', '1,3': '3', '2,2': '3', '3,1': '3', '2,3': '4', '3,2': '4', '3,3': '5' };

function fail(status: number, message: string, detail = ''): never {
  throw new SimHttpError({ status, body: { error: { message, detail }, status: 'failure' } });
}

export class ServiceNowState {
  private seq = 0;
  private incidentSeq = 10000;
  readonly tables = new Map<string, Map<string, Row>>();
  readonly files = new Map<string, Buffer>();
  /** Insertion order, to break ties between rows of the same second. */
  readonly order = new Map<string, number>();
  constructor(readonly clock: SimClock) {
    for (const t of [...Object.keys(COLUMNS), 'sys_attachment']) this.tables.set(t, new Map());
  }
  now() { return this.clock.now(); }
  newId(): string {
    const n = ++this.seq;
    const id = createHash('md5').update(`sn-${n}`).digest('hex');
    this.order.set(id, n);
    return id;
  }
  table(name: string) { return this.tables.get(name)!; }
  insert(table: string, values: Record<string, string>, by = 'system', at = this.now()): Row {
    const row = { sys_id: this.newId(), sys_created_on: snDate(at), sys_updated_on: snDate(at), sys_created_by: by, sys_updated_by: by, sys_mod_count: '0', ...values } as Row;
    this.table(table).set(row.sys_id, row);
    return row;
  }
  touch(row: Row, by: string) {
    row.sys_updated_on = snDate(this.now());
    row.sys_updated_by = by;
    row.sys_mod_count = String(Number(row.sys_mod_count ?? 0) + 1);
  }
  nextNumber() { return `INC${String(++this.incidentSeq).padStart(7, '0')}`; }
  journal(incident: Row, element: string, value: string, by: string) {
    this.insert('sys_journal_field', { name: 'incident', element, element_id: incident.sys_id, value }, by);
    this.touch(incident, by);
  }
}

export async function startServiceNowSimulator(opts: ServiceNowSimulatorOptions = {}) {
  const clock = new SimClock(opts.now);
  const state = new ServiceNowState(clock);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const contractViolations: ContractViolation[] = [];
  const passwords = new Map(Object.entries(opts.users ?? { admin: DEFAULT_PASSWORD }));
  const tokens = new Map<string, string>();
  let origin = '';

  // ---------------------------------------------------------------- seed
  const userIdByName = new Map<string, string>();
  const addUser = (user_name: string, name: string, email: string, company = '') => {
    const u = state.insert('sys_user', { user_name, name, first_name: name.split(' ')[0]!, last_name: name.split(' ').slice(1).join(' '), email, phone: '', mobile_phone: '', company, title: '', active: 'true' });
    userIdByName.set(user_name, u.sys_id);
    return u;
  };
  for (const n of passwords.keys()) addUser(n, n === 'admin' ? 'System Administrator' : n, `${n}@example.com`);
  state.insert('sys_dictionary', { name: 'incident', element: 'u_order_number', column_label: 'Order number', internal_type: 'string', max_length: '40', mandatory: 'false' });
  state.insert('sys_dictionary', { name: 'incident', element: 'u_escalated', column_label: 'Escalated', internal_type: 'boolean', max_length: '40', mandatory: 'false' });
  const customColumns = () => [...state.table('sys_dictionary').values()].filter((d) => d.name === 'incident' && (d.element ?? '').startsWith('u_')).map((d) => d.element!);
  let seed: { admin: string; beth: string; fred: string; acme: string; group: string; incident: string } | undefined;
  if (opts.seedDefaults !== false) {
    const acme = state.insert('core_company', { name: 'ACME North America', website: 'https://www.acme.example', customer: 'true', vendor: 'false', phone: '', city: 'Chicago', country: 'USA' });
    const group = state.insert('sys_user_group', { name: 'Service Desk', description: 'First line', manager: '', email: 'desk@example.com', active: 'true' });
    const beth = addUser('beth.anglin', 'Beth Anglin', 'beth.anglin@example.com');
    const fred = addUser('fred.luddy', 'Fred Luddy', 'fred.luddy@acme.example', acme.sys_id);
    state.insert('sys_user_grmember', { user: beth.sys_id, group: group.sys_id });
    const inc = createIncident({ short_description: 'Email server down', description: 'Nobody can send mail.', caller_id: fred.sys_id, assigned_to: beth.sys_id, assignment_group: group.sys_id, company: acme.sys_id, category: 'network', impact: '1', urgency: '2', u_order_number: 'ORD-7' }, 'admin');
    state.journal(inc, 'comments', 'We are looking into it.', 'beth.anglin');
    state.journal(inc, 'work_notes', 'Restarting the exchange node.', 'beth.anglin');
    const file = state.insert('sys_attachment', { file_name: 'trace.log', content_type: 'text/plain', size_bytes: '5', table_name: 'incident', table_sys_id: inc.sys_id, download_link: '' }, 'beth.anglin');
    file.download_link = `${'{origin}'}/api/now/attachment/${file.sys_id}/file`;
    state.files.set(file.sys_id, Buffer.from('trace'));
    seed = { admin: userIdByName.get([...passwords.keys()][0]!)!, beth: beth.sys_id, fred: fred.sys_id, acme: acme.sys_id, group: group.sys_id, incident: inc.sys_id };
  }

  function createIncident(values: Record<string, string>, by: string, at = state.now()): Row {
    const row = state.insert('incident', {
      number: state.nextNumber(), short_description: '', description: '', state: '1', impact: '3', urgency: '3', priority: '5', category: 'inquiry', subcategory: '',
      caller_id: '', assigned_to: '', assignment_group: '', company: '', parent_incident: '', due_date: '', opened_at: snDate(at), resolved_at: '', closed_at: '',
      close_code: '', close_notes: '', hold_reason: '', active: 'true', contact_type: '',
      ...Object.fromEntries(customColumns().map((c) => [c, ''])),
    }, by, at);
    applyIncident(row, values, by, true);
    return row;
  }

  // ---------------------------------------------------------------- rate limit (hourly rule)
  const perHour = opts.rateLimit?.perHour ?? 1_000_000;
  let hourStart = Math.floor(state.now() / 3_600_000) * 3_600_000;
  let used = 0;
  const limitHeaders = () => ({ 'x-ratelimit-limit': String(perHour), 'x-ratelimit-reset': String(Math.floor((hourStart + 3_600_000) / 1000)), 'x-ratelimit-rule': 'b5d0e4b1c3a1' });

  // ---------------------------------------------------------------- contract
  const violation = (req: SimRequest, problems: string[]): never => {
    contractViolations.push({ method: req.method, path: req.path, problems });
    fail(400, 'Invalid request', problems.join('; '));
  };
  const checkParams = (req: SimRequest, allowed: readonly string[]) => {
    const bad = [...req.query.keys()].filter((k) => !allowed.includes(k));
    if (bad.length) violation(req, bad.map((k) => `unknown parameter ${k}`));
    for (const k of ['sysparm_limit', 'sysparm_offset']) {
      const v = req.query.get(k);
      if (v !== null && !/^\d+$/.test(v)) violation(req, [`${k} must be a number`]);
    }
    for (const k of ['sysparm_exclude_reference_link']) {
      const v = req.query.get(k);
      if (v !== null && v !== 'true' && v !== 'false') violation(req, [`${k} must be true or false`]);
    }
    const dv = req.query.get('sysparm_display_value');
    if (dv !== null && !['true', 'false', 'all'].includes(dv)) violation(req, ['sysparm_display_value must be true, false or all']);
  };
  function columnsOf(table: string) {
    return new Set(['sys_id', 'sys_created_on', 'sys_created_by', 'sys_updated_on', 'sys_updated_by', 'sys_mod_count', ...(COLUMNS[table] ?? []), ...(table === 'incident' ? customColumns() : [])]);
  }

  // ---------------------------------------------------------------- encoded queries
  type Cond = { field: string; op: string; value: string };
  const parseQuery = (req: SimRequest, table: string, q: string | null, userId: string) => {
    const conds: Cond[] = [];
    const order: Array<{ field: string; desc: boolean }> = [];
    const cols = table === 'sys_attachment' ? new Set(['sys_id', 'sys_created_on', 'sys_updated_on', 'sys_created_by', 'file_name', 'content_type', 'table_name', 'table_sys_id']) : columnsOf(table);
    for (const part of (q ?? '').split('^').filter(Boolean)) {
      const ob = /^ORDERBY(DESC)?(\w+)$/.exec(part);
      if (ob) {
        if (!cols.has(ob[2]!)) violation(req, [`unknown column ${ob[2]} in ORDERBY`]);
        order.push({ field: ob[2]!, desc: !!ob[1] });
        continue;
      }
      const m = /^(\w+?)(>=|<=|!=|>|<|=|IN|STARTSWITH|LIKE)(.*)$/.exec(part);
      if (!m || !OPERATORS.includes(m[2] as (typeof OPERATORS)[number])) violation(req, [`unsupported condition ${part}`]);
      const [, field, op, raw] = m!;
      if (!cols.has(field!)) violation(req, [`unknown column ${field}`]);
      const value = raw === 'javascript:gs.getUserID()' ? userId : raw!;
      if (raw!.startsWith('javascript:') && value === raw) violation(req, [`unsupported script ${raw}`]);
      if ((field!.endsWith('_on') || field === 'due_date') && ['>=', '<=', '>', '<'].includes(op!) && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)) {
        violation(req, [`${field} needs a date-time value YYYY-MM-DD HH:mm:ss, got ${value}`]);
      }
      conds.push({ field: field!, op: op!, value });
    }
    return { conds, order };
  };
  const matches = (row: Row, c: Cond) => {
    const v = row[c.field] ?? '';
    switch (c.op) {
      case '=': return v === c.value;
      case '!=': return v !== c.value;
      case '>=': return v >= c.value;
      case '<=': return v <= c.value;
      case '>': return v > c.value;
      case '<': return v < c.value;
      case 'IN': return c.value.split(',').includes(v);
      case 'STARTSWITH': return v.startsWith(c.value);
      case 'LIKE': return v.includes(c.value);
      default: return false;
    }
  };

  const refColumns: Record<string, Record<string, string>> = {
    incident: { caller_id: 'sys_user', assigned_to: 'sys_user', assignment_group: 'sys_user_group', company: 'core_company', parent_incident: 'incident' },
    sys_user: { company: 'core_company' },
    sys_user_grmember: { user: 'sys_user', group: 'sys_user_group' },
  };
  const render = (req: SimRequest, table: string, row: Row): Record<string, unknown> => {
    const fields = req.query.get('sysparm_fields')?.split(',').map((f) => f.trim()).filter(Boolean);
    const plain = req.query.get('sysparm_exclude_reference_link') === 'true';
    const refs = refColumns[table] ?? {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      if (fields && !fields.includes(k)) continue;
      if (k === 'comments' || k === 'work_notes') continue;
      out[k] = refs[k] && v && !plain ? { link: `${origin}/api/now/table/${refs[k]}/${v}`, value: v } : v;
    }
    if (fields) for (const f of fields) if (!(f in out) && !columnsOf(table).has(f)) violation(req, [`unknown column ${f} in sysparm_fields`]);
    if (table === 'incident' && (!fields || fields.includes('comments'))) out.comments = '';
    return out;
  };

  const list = (req: SimRequest, table: string, userId: string, rows: Row[]): SimResponse => {
    const { conds, order } = parseQuery(req, table, req.query.get('sysparm_query'), userId);
    let items = rows.filter((r) => conds.every((c) => matches(r, c)));
    const keys = order.length ? order : [{ field: 'sys_id', desc: false }];
    items = items.sort((a, b) => {
      for (const k of keys) {
        const x = a[k.field] ?? '';
        const y = b[k.field] ?? '';
        if (x !== y) return (x < y ? -1 : 1) * (k.desc ? -1 : 1);
      }
      return (state.order.get(a.sys_id)! - state.order.get(b.sys_id)!) * (keys[keys.length - 1]!.desc ? -1 : 1);
    });
    const limit = Number(req.query.get('sysparm_limit') ?? 10_000);
    const offset = Number(req.query.get('sysparm_offset') ?? 0);
    const page = items.slice(offset, offset + limit);
    const link = (off: number, rel: string) => {
      const q = new URLSearchParams(req.query);
      q.set('sysparm_offset', String(off));
      q.set('sysparm_limit', String(limit));
      return `<${origin}${req.path}?${q.toString()}>;rel="${rel}"`;
    };
    const links = [link(0, 'first')];
    if (offset > 0) links.push(link(Math.max(0, offset - limit), 'prev'));
    if (offset + limit < items.length) links.push(link(offset + limit, 'next'));
    links.push(link(Math.max(0, Math.floor(Math.max(0, items.length - 1) / limit) * limit), 'last'));
    return { status: 200, body: { result: page.map((r) => render(req, table, r)) }, headers: { link: links.join(','), 'x-total-count': String(items.length) } };
  };

  // ---------------------------------------------------------------- incidents
  function applyIncident(row: Row, values: Record<string, unknown>, by: string, creating = false) {
    const cols = columnsOf('incident');
    for (const [k, raw] of Object.entries(values)) {
      if (!cols.has(k) || k.startsWith('sys_') || (READ_ONLY as readonly string[]).includes(k)) continue;
      const v = raw === null || raw === undefined ? '' : String(raw);
      if (k === 'comments' || k === 'work_notes') {
        if (v !== '') state.journal(row, k, v, by);
        continue;
      }
      row[k] = v;
    }
    row.priority = PRIORITY[`${row.impact},${row.urgency}`] ?? row.priority ?? "5";
    if (values.state !== undefined) {
      if (row.state === '6' && !row.resolved_at) row.resolved_at = snDate(state.now());
      if (row.state === '7' && !row.closed_at) row.closed_at = snDate(state.now());
      row.active = ["6", "7", "8"].includes(row.state ?? "") ? "false" : "true";
    }
    if (!creating) state.touch(row, by);
  }
  const validateIncident = (req: SimRequest, body: unknown, existing?: Row) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) fail(400, 'Exception while reading request', 'The payload is not valid JSON.');
    const b = body as Record<string, unknown>;
    const cols = columnsOf('incident');
    const unknown = Object.keys(b).filter((k) => !cols.has(k) || (READ_ONLY as readonly string[]).includes(k) || k.startsWith('sys_'));
    if (unknown.length) violation(req, unknown.map((k) => `not a writable incident column: ${k}`));
    const bad = Object.entries(b).filter(([, v]) => v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean');
    if (bad.length) violation(req, bad.map(([k]) => `${k} must be a string`));
    const ref = (k: string, table: string) => {
      const v = b[k];
      if (typeof v === 'string' && v !== '' && !state.table(table).has(v)) fail(400, 'Invalid reference', `${k}: no ${table} record ${v}`);
    };
    ref('caller_id', 'sys_user'); ref('assigned_to', 'sys_user'); ref('assignment_group', 'sys_user_group'); ref('company', 'core_company'); ref('parent_incident', 'incident');
    if (b.state !== undefined && !['1', '2', '3', '6', '7', '8'].includes(String(b.state))) fail(400, 'Invalid state', String(b.state));
    for (const k of ['impact', 'urgency']) if (b[k] !== undefined && !['1', '2', '3'].includes(String(b[k]))) fail(400, `Invalid ${k}`, String(b[k]));
    if (b.category !== undefined && !CATEGORIES.includes(String(b.category))) fail(400, 'Invalid category', String(b.category));
    if (typeof b.due_date === 'string' && b.due_date !== '' && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(b.due_date)) violation(req, ['due_date must be YYYY-MM-DD HH:mm:ss']);
    // Data policies: Resolved and Closed need a resolution code and notes; On Hold a reason.
    const next = { ...(existing ?? {}), ...Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v === null ? '' : String(v)])) } as Record<string, string>;
    if (['6', '7'].includes(next.state ?? '') && (!next.close_code || !next.close_notes)) fail(403, 'Operation Failed', 'Data Policy Exception: the following fields are mandatory: Resolution code, Resolution notes');
    if (next.state === '3' && !next.hold_reason) fail(403, 'Operation Failed', 'Data Policy Exception: the following fields are mandatory: On hold reason');
  };

  // ---------------------------------------------------------------- routes
  const handle = (req: SimRequest, userName: string): SimResponse => {
    const userId = userIdByName.get(userName) ?? '';
    let m = /^\/api\/now\/(?:v[12]\/)?table\/(\w+)(?:\/([0-9a-f]{32}))?\/?$/.exec(req.path);
    if (m) {
      const [, table, id] = m;
      if (!state.tables.has(table!) || table === 'sys_attachment') throw new SimHttpError(noRoute({ status: 400, body: { error: { message: 'Invalid table', detail: `Invalid table ${table}` }, status: 'failure' } }));
      if (table === 'sys_audit_delete' && opts.denyAuditDelete) fail(403, 'User Not Authorized', 'ACL restricts read access to sys_audit_delete');
      const rows = state.table(table!);
      if (req.method === 'GET' && !id) {
        checkParams(req, TABLE_LIST_PARAMS);
        return list(req, table!, userId, [...rows.values()]);
      }
      if (req.method === 'GET') {
        checkParams(req, TABLE_RECORD_PARAMS);
        const row = rows.get(id!) ?? fail(404, 'No Record found', 'Record doesn\'t exist or ACL restricts the record retrieval');
        return { status: 200, body: { result: render(req, table!, row) } };
      }
      if (table !== 'incident') throw new SimHttpError(noRoute({ status: 405, body: { error: { message: 'Method not supported', detail: `${req.method} on ${table} is not simulated` }, status: 'failure' } }));
      checkParams(req, TABLE_RECORD_PARAMS);
      if (req.method === 'POST' && !id) {
        validateIncident(req, req.body);
        const row = createIncident(req.body as Record<string, string>, userName);
        return { status: 201, body: { result: render(req, 'incident', row) }, headers: { location: `${origin}/api/now/table/incident/${row.sys_id}` } };
      }
      if ((req.method === 'PATCH' || req.method === 'PUT') && id) {
        const row = rows.get(id) ?? fail(404, 'No Record found', 'Record doesn\'t exist or ACL restricts the record retrieval');
        validateIncident(req, req.body, row);
        applyIncident(row, req.body as Record<string, unknown>, userName);
        return { status: 200, body: { result: render(req, 'incident', row) } };
      }
      if (req.method === 'DELETE' && id) {
        const row = rows.get(id) ?? fail(404, 'No Record found', '');
        deleteIncident(row, userName);
        return { status: 204 };
      }
      throw new SimHttpError(noRoute({ status: 405, body: { error: { message: 'Method not supported', detail: req.method }, status: 'failure' } }));
    }
    if (req.method === 'GET' && /^\/api\/now\/(?:v1\/)?attachment\/?$/.test(req.path)) {
      checkParams(req, ATTACHMENT_LIST_PARAMS);
      return list(req, 'sys_attachment', userId, [...state.table('sys_attachment').values()]);
    }
    if (req.method === 'POST' && /^\/api\/now\/(?:v1\/)?attachment\/file\/?$/.test(req.path)) {
      checkParams(req, ATTACHMENT_UPLOAD_PARAMS);
      const [fileName, table, tableId] = ['file_name', 'table_name', 'table_sys_id'].map((k) => req.query.get(k));
      if (!fileName || !table || !tableId) fail(400, 'Missing parameter', 'file_name, table_name and table_sys_id are required');
      if (!req.headers['content-type']) violation(req, ['Content-Type is required']);
      if (!state.tables.has(table!) || !state.table(table!).has(tableId!)) fail(404, 'Record not found', `${table} ${tableId}`);
      const row = state.insert('sys_attachment', { file_name: fileName!, content_type: String(req.headers['content-type']), size_bytes: String(req.rawBytes.length), table_name: table!, table_sys_id: tableId!, download_link: '' }, userName);
      row.download_link = `${origin}/api/now/attachment/${row.sys_id}/file`;
      state.files.set(row.sys_id, Buffer.from(req.rawBytes));
      return { status: 201, body: { result: row }, headers: { location: `${origin}/api/now/attachment/${row.sys_id}` } };
    }
    m = /^\/api\/now\/(?:v1\/)?attachment\/([0-9a-f]{32})\/file$/.exec(req.path);
    if (m && req.method === 'GET') {
      const row = state.table('sys_attachment').get(m[1]!) ?? fail(404, 'Record not found', '');
      return { status: 200, body: state.files.get(row.sys_id)?.toString('utf8') ?? '', headers: { 'content-type': row.content_type! } };
    }
    throw new SimHttpError(noRoute({ status: 400, body: { error: { message: 'Requested URI does not represent any resource', detail: req.path }, status: 'failure' } }));
  };

  function deleteIncident(row: Row, by: string) {
    state.table('incident').delete(row.sys_id);
    state.insert('sys_audit_delete', { tablename: 'incident', documentkey: row.sys_id, display_value: row.number!, payload: '' }, by);
    for (const j of [...state.table('sys_journal_field').values()]) if (j.element_id === row.sys_id) state.table('sys_journal_field').delete(j.sys_id);
  }

  const authOf = (req: SimRequest): string | undefined => {
    const h = String(req.headers.authorization ?? '');
    const bearer = /^bearer\s+(\S+)$/i.exec(h);
    if (bearer) return tokens.get(bearer[1]!);
    const basic = /^basic\s+(\S+)$/i.exec(h);
    if (!basic) return undefined;
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    const name = decoded.slice(0, i);
    return passwords.get(name) === decoded.slice(i + 1) ? name : undefined;
  };

  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    describeAuth: (req) => (req.headers.authorization ? { scheme: /^bearer/i.test(String(req.headers.authorization)) ? 'bearer' : 'basic', label: authOf(req) ?? null, valid: authOf(req) !== undefined } : null),
    faultResponse: (fault) => ({
      status: fault.status!,
      body: fault.status === 429 ? { error: { message: 'Rate limit exceeded', detail: 'The rate limit rule was exceeded' }, status: 'failure' } : { error: { message: 'Internal server error', detail: '' }, status: 'failure' },
      headers: fault.status === 429 ? limitHeaders() : {},
    }),
    handle(req) {
      const user = authOf(req);
      if (!user) return { status: 401, body: { error: { message: 'User Not Authenticated', detail: 'Required to provide Auth information' }, status: 'failure' } };
      const hour = Math.floor(state.now() / 3_600_000) * 3_600_000;
      if (hour !== hourStart) {
        hourStart = hour;
        used = 0;
      }
      used++;
      if (opts.rateLimit?.enforce && used > perHour) {
        return { status: 429, body: { error: { message: 'Rate limit exceeded', detail: 'The rate limit rule was exceeded' }, status: 'failure' }, headers: { ...limitHeaders(), 'retry-after': String(Math.ceil((hourStart + 3_600_000 - state.now()) / 1000)) } };
      }
      const res = handle(req, user);
      res.headers = { ...(opts.rateLimit?.perHour ? limitHeaders() : {}), ...(res.headers ?? {}) };
      return res;
    },
    internalError: (err) => ({ status: 500, body: { error: { message: 'Internal error', detail: String(err) }, status: 'failure' } }),
  });
  origin = server.url;
  for (const f of state.table('sys_attachment').values()) f.download_link = f.download_link!.replace('{origin}', origin);

  return {
    url: server.url,
    state,
    seed,
    credentials: { username: [...passwords.keys()][0]!, password: [...passwords.values()][0]! },
    requests,
    faults,
    clock,
    contractViolations,
    /** Accepts a bearer token (from the OAuth simulator) as `user_name`'s. */
    acceptToken(token: string, userName = [...passwords.keys()][0]!) {
      tokens.set(token, userName);
    },
    incident: (id: string) => {
      const row = state.table('incident').get(id);
      return row ? { ...row } : undefined;
    },
    /** A change made in the instance's UI (bumps sys_updated_on). */
    updateIncidentRemotely(id: string, values: Record<string, string>) {
      const row = state.table('incident').get(id) ?? fail(404, 'No Record found', id);
      applyIncident(row, values, 'beth.anglin');
      return row;
    },
    deleteIncidentRemotely(id: string) {
      const row = state.table('incident').get(id) ?? fail(404, 'No Record found', id);
      deleteIncident(row, 'admin');
    },
    /** `n` incidents from one caller, each with `commentsPerIncident` comments, a second apart and a day old. */
    seedIncidents(n: number, o: { commentsPerIncident?: number } = {}) {
      const caller = addUser(`bulk.caller.${state.newId().slice(0, 6)}`, 'Bulk Caller', 'bulk@example.com');
      const ids: string[] = [];
      const start = state.now() - 86_400_000 - n * 1000;
      for (let i = 0; i < n; i++) {
        const at = start + i * 1000;
        const row = createIncident({ short_description: `Incident ${i + 1}`, description: `Body ${i + 1}`, caller_id: caller.sys_id }, 'admin', at);
        for (let j = 0; j < (o.commentsPerIncident ?? 0); j++) state.insert('sys_journal_field', { name: 'incident', element: 'comments', element_id: row.sys_id, value: `Comment ${j + 1}` }, 'admin', at);
        ids.push(row.sys_id);
      }
      return ids;
    },
    close: () => server.close(),
  };
}

export type ServiceNowSimulator = Awaited<ReturnType<typeof startServiceNowSimulator>>;
