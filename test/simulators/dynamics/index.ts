/**
 * Microsoft Dataverse Web API simulator (`/api/data/v9.2`, Dynamics 365 Sales tables) for integration
 * tests and benchmarks, after the contract transcribed in docs/providers/dynamics.md: tables systemuser,
 * account, contact, opportunity, task, annotation, phonecall, appointment and transactioncurrency; create
 * (`POST`, `Prefer: return=representation` → 201 with the row, else 204 with OData-EntityId), update
 * (`PATCH`, `If-Match: *` → 404 for a missing row), delete; lookups written as `<navigation
 * property>@odata.bind` and read as `_<column>_value` (with the lookuplogicalname annotation when asked);
 * `$select`; paging with `Prefer: odata.maxpagesize` and `@odata.nextLink`; change tracking (`Prefer:
 * odata.track-changes` → `@odata.deltaLink` on the last page; a delta link answers the rows changed since and
 * `$deletedEntity` entries for the deleted ones); table metadata (columns, option sets); custom columns;
 * WhoAmI; deletes that take the notes and activities regarding a row with it and clear other lookups to it;
 * bearer tokens; the service protection limit (429 with Retry-After).
 */
import { randomUUID } from 'node:crypto';
import { FaultController, SimClock, startSimServer, type ActiveFault, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { noRoute } from '../shared/no-route';

export type { RecordedRequest };
export type Table = 'systemuser' | 'account' | 'contact' | 'opportunity' | 'task' | 'annotation' | 'phonecall' | 'appointment' | 'transactioncurrency';
export type Row = Record<string, unknown>;

const API = '/api/data/v9.2';
const SETS: Record<string, Table> = {
  systemusers: 'systemuser',
  accounts: 'account',
  contacts: 'contact',
  opportunities: 'opportunity',
  tasks: 'task',
  annotations: 'annotation',
  phonecalls: 'phonecall',
  appointments: 'appointment',
  transactioncurrencies: 'transactioncurrency',
};
const KEY: Record<Table, string> = {
  systemuser: 'systemuserid',
  account: 'accountid',
  contact: 'contactid',
  opportunity: 'opportunityid',
  task: 'activityid',
  annotation: 'annotationid',
  phonecall: 'activityid',
  appointment: 'activityid',
  transactioncurrency: 'transactioncurrencyid',
};
const ACTIVITIES: Table[] = ['task', 'phonecall', 'appointment'];

type ColType = 'Virtual' | 'String' | 'Memo' | 'Integer' | 'Money' | 'Boolean' | 'DateTime' | 'Picklist' | 'State' | 'Status' | 'Lookup' | 'Owner' | 'Customer' | 'Uniqueidentifier' | 'Decimal' | 'Double' | 'BigInt';
export interface SimColumn {
  LogicalName: string;
  AttributeType: ColType;
  IsCustomAttribute: boolean;
  DisplayName: string;
  /** Set by the server only. */
  readOnly?: boolean;
}

/** Navigation property → the lookup column it writes and the tables it may point at. */
interface Nav {
  column: string;
  targets: Table[];
}

const address = (n: number) => ['line1', 'line2', 'city', 'stateorprovince', 'postalcode', 'country'].map((p) => `address${n}_${p}`);

export interface DynamicsSimulatorOptions {
  accessTokens?: string[];
  /** Largest page answered, below what `odata.maxpagesize` asks (tests that walk several pages). */
  maxPageSize?: number;
  /** Service protection: requests per user in a 5-minute window (default 6,000). */
  requestsPerFiveMinutes?: number;
  /** The service protection window, scaled for tests (default 5 minutes). */
  serviceProtectionWindowMs?: number;
  /** Keep request bodies in the log (default true). */
  recordBodies?: boolean;
  users?: number;
}

export interface DynamicsSimulator {
  readonly url: string;
  readonly clock: SimClock;
  readonly faults: FaultController;
  readonly requests: RecordedRequest[];
  /** The requests inside `$batch` bodies, as they were run (for the contract check: test/contracts). */
  readonly batchParts: RecordedRequest[];
  readonly users: Row[];
  readonly currencies: Row[];
  readonly salesStages: { value: number; label: string }[];
  get(table: Table, id: string): Row | undefined;
  all(table: Table): Row[];
  /** Creates a row as a person would in Dynamics, bypassing HTTP (columns and lookups as stored: `_x_value`). */
  create(table: Table, columns: Row): Row;
  update(table: Table, id: string, columns: Row): Row;
  remove(table: Table, id: string): void;
  addColumn(table: Table, def: { LogicalName: string; AttributeType: ColType; DisplayName?: string }): SimColumn;
  addAccessToken(token: string): void;
  /** Every access token stops working (expired or revoked): calls answer 401 until a new one. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

class DvError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** No route of the simulator serves the request (contract probes: test/contracts). */
    readonly unrouted = false,
  ) {
    super(message);
  }
}

export async function startDynamicsSimulator(opts: DynamicsSimulatorOptions = {}): Promise<DynamicsSimulator> {
  const clock = new SimClock();
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const batchParts: RecordedRequest[] = [];
  const tokens = new Set(opts.accessTokens ?? ['dv-test-token']);
  const limit = opts.requestsPerFiveMinutes ?? 6000;
  const windowMs = opts.serviceProtectionWindowMs ?? 300_000;
  const spent = new Map<string, number[]>();
  /** A change number per write (the row's versionnumber); delta tokens are change numbers. */
  let version = 1000;
  const stamp = () => new Date(Math.floor(clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

  const col = (LogicalName: string, AttributeType: ColType, readOnly = false): SimColumn => ({ LogicalName, AttributeType, IsCustomAttribute: false, DisplayName: LogicalName, readOnly });
  const common = [col('createdon', 'DateTime', true), col('modifiedon', 'DateTime', true), col('versionnumber', 'BigInt', true), col('ownerid', 'Owner')];
  const text = (...names: string[]) => names.map((n) => col(n, 'String'));
  const columns = new Map<Table, Map<string, SimColumn>>();
  const define = (t: Table, list: SimColumn[]) => columns.set(t, new Map([col(KEY[t], 'Uniqueidentifier', true), ...common, ...list].map((c) => [c.LogicalName, c])));
  define('systemuser', [...text('fullname', 'firstname', 'lastname', 'internalemailaddress'), col('isdisabled', 'Boolean')]);
  define('transactioncurrency', [...text('isocurrencycode', 'currencyname', 'currencysymbol')]);
  const emailsPhones = text('emailaddress1', 'emailaddress2', 'emailaddress3', 'telephone1', 'telephone2', 'telephone3', 'fax');
  define('account', [...text('name', 'websiteurl'), col('description', 'Memo'), col('industrycode', 'Picklist'), col('numberofemployees', 'Integer'), ...emailsPhones, ...text(...address(1), ...address(2))]);
  define('contact', [...text('firstname', 'lastname', 'fullname', 'jobtitle', 'mobilephone'), ...emailsPhones, ...text(...address(1), ...address(2)), col('parentcustomerid', 'Customer')]);
  define('opportunity', [
    col('name', 'String'),
    col('description', 'Memo'),
    col('estimatedvalue', 'Money'),
    col('estimatedclosedate', 'DateTime'),
    col('salesstage', 'Picklist'),
    col('stepname', 'String'),
    col('statecode', 'State'),
    col('statuscode', 'Status'),
    col('transactioncurrencyid', 'Lookup'),
    col('parentaccountid', 'Lookup'),
    col('parentcontactid', 'Lookup'),
  ]);
  define('annotation', [...text('subject', 'objecttypecode'), col('notetext', 'Memo'), col('objectid', 'Lookup')]);
  const activity = [col('subject', 'String'), col('description', 'Memo'), col('scheduledstart', 'DateTime'), col('scheduledend', 'DateTime'), col('actualend', 'DateTime'), col('statecode', 'State'), col('statuscode', 'Status'), col('regardingobjectid', 'Lookup'), col('activitytypecode', 'String', true)];
  define('task', activity);
  define('phonecall', [...activity, col('directioncode', 'Boolean'), col('actualdurationminutes', 'Integer')]);
  define('appointment', [...activity, col('location', 'String')]);

  const nav = (t: Table): Record<string, Nav> => {
    const n: Record<string, Nav> = { ownerid: { column: 'ownerid', targets: ['systemuser'] } };
    if (t === 'contact') n.parentcustomerid_account = { column: 'parentcustomerid', targets: ['account'] };
    if (t === 'contact') n.parentcustomerid_contact = { column: 'parentcustomerid', targets: ['contact'] };
    if (t === 'opportunity') Object.assign(n, { parentaccountid: { column: 'parentaccountid', targets: ['account'] }, parentcontactid: { column: 'parentcontactid', targets: ['contact'] }, transactioncurrencyid: { column: 'transactioncurrencyid', targets: ['transactioncurrency'] } });
    if (t === 'annotation') for (const x of ['contact', 'account', 'opportunity'] as Table[]) n[`objectid_${x}`] = { column: 'objectid', targets: [x] };
    if (ACTIVITIES.includes(t)) for (const x of ['contact', 'account', 'opportunity'] as Table[]) n[`regardingobjectid_${x}_${t}`] = { column: 'regardingobjectid', targets: [x] };
    return n;
  };

  const salesStages = [
    { value: 0, label: 'Qualify' },
    { value: 1, label: 'Develop' },
    { value: 2, label: 'Propose' },
    { value: 3, label: 'Close' },
  ];
  const industries = ['Accounting', 'Agriculture and Non-petrol Natural Resource Extraction', 'Broadcasting Printing and Publishing', 'Brokers', 'Building Supply Retail', 'Business Services', 'Consulting'].map((label, i) => ({ value: i + 1, label }));
  const optionSets: Record<string, { value: number; label: string }[]> = { 'opportunity.salesstage': salesStages, 'account.industrycode': industries };

  const store = new Map<Table, Map<string, Row>>([...columns.keys()].map((t) => [t, new Map()]));
  const deletions = new Map<Table, { id: string; version: number }[]>([...columns.keys()].map((t) => [t, []]));

  function raw(t: Table, values: Row): Row {
    const at = stamp();
    const id = randomUUID();
    const r: Row = { [KEY[t]]: id, createdon: at, modifiedon: at, versionnumber: ++version };
    for (const c of columns.get(t)!.values()) if (!(c.LogicalName in r)) r[c.AttributeType === 'Lookup' || c.AttributeType === 'Owner' || c.AttributeType === 'Customer' ? `_${c.LogicalName}_value` : c.LogicalName] = null;
    Object.assign(r, values);
    store.get(t)!.set(id, r);
    return r;
  }
  const users: Row[] = [];
  for (let i = 0; i < (opts.users ?? 3); i++) {
    const [first, last] = [['Ada', 'Admin'], ['Grace', 'Hopper'], ['Alan', 'Turing']][i % 3]!;
    users.push(raw('systemuser', { firstname: first, lastname: last, fullname: `${first} ${last}`, internalemailaddress: `user${i + 1}@sim.onmicrosoft.com`, isdisabled: false }));
  }
  const currencies = [
    ['USD', 'US Dollar', '$'],
    ['EUR', 'Euro', '€'],
    ['GBP', 'Pound Sterling', '£'],
  ].map(([isocurrencycode, currencyname, currencysymbol]) => raw('transactioncurrency', { isocurrencycode, currencyname, currencysymbol }));
  for (const u of [...users, ...currencies]) u._ownerid_value = users[0]![KEY.systemuser] ?? null;

  // ------------------------------------------------------------ writes

  function checkValue(t: Table, c: SimColumn, v: unknown) {
    if (v === null) return;
    const bad = () => new DvError(400, '0x80048d19', `Error identified in Payload provided by the user for Entity :'${t}s', Cause of the error: Cannot convert the literal '${String(v)}' to the expected type 'Edm.${c.AttributeType}'.`);
    switch (c.AttributeType) {
      case 'Boolean':
        if (typeof v !== 'boolean') throw bad();
        return;
      case 'Integer':
      case 'Picklist':
      case 'State':
      case 'Status':
      case 'BigInt':
        if (typeof v !== 'number' || !Number.isInteger(v)) throw bad();
        if (c.AttributeType === 'Picklist' && optionSets[`${t}.${c.LogicalName}`] && !optionSets[`${t}.${c.LogicalName}`]!.some((o) => o.value === v)) {
          throw new DvError(400, '0x8004431a', `A validation error occurred. The value ${v} of '${c.LogicalName}' on record of type '${t}' is outside the valid range.`);
        }
        return;
      case 'Money':
      case 'Decimal':
      case 'Double':
        if (typeof v !== 'number' || !Number.isFinite(v)) throw bad();
        return;
      case 'DateTime':
        if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw bad();
        return;
      default:
        if (typeof v !== 'string') throw bad();
    }
  }

  function write(t: Table, id: string | null, body: Row, asPerson = false): Row {
    if (t === 'systemuser' || t === 'transactioncurrency') {
      if (!asPerson) throw new DvError(403, '0x80040220', `${t} rows are not written here`);
    }
    const defs = columns.get(t)!;
    const navs = nav(t);
    const values: Row = {};
    for (const [k, v] of Object.entries(body)) {
      const bindKey = /^(.+)@odata\.bind$/.exec(k)?.[1];
      if (bindKey) {
        const n = navs[bindKey];
        if (!n) throw new DvError(400, '0x80060888', `An undeclared property '${bindKey}' which only has property annotations in the payload but no property value was found in the payload.`);
        if (v === null) {
          values[`_${n.column}_value`] = null;
          values[`_${n.column}_value@Microsoft.Dynamics.CRM.lookuplogicalname`] = null;
          continue;
        }
        const m = /^\/?(\w+)\(([0-9a-f-]{36})\)$/i.exec(String(v));
        const target = m ? SETS[m[1]!] : undefined;
        if (!m || !target || !n.targets.includes(target)) throw new DvError(400, '0x80060891', `A URI '${String(v)}' for the navigation property '${bindKey}' is not valid.`);
        if (!store.get(target)!.has(m[2]!.toLowerCase())) throw new DvError(404, '0x80040217', `${target} With Id = ${m[2]} Does Not Exist`);
        values[`_${n.column}_value`] = m[2]!.toLowerCase();
        values[`_${n.column}_value@Microsoft.Dynamics.CRM.lookuplogicalname`] = target;
        continue;
      }
      if (asPerson && (k.startsWith('_') || k === KEY[t])) {
        values[k] = v;
        continue;
      }
      const c = defs.get(k);
      if (!c || ['Lookup', 'Owner', 'Customer'].includes(c.AttributeType)) throw new DvError(400, '0x80060888', `The property '${k}' does not exist on type 'Microsoft.Dynamics.CRM.${t}'. Make sure to only use property names that are defined by the type or mark the type as open type.`);
      if (c.readOnly && !asPerson) throw new DvError(400, '0x80060888', `The property '${k}' cannot be set: it is read only.`);
      checkValue(t, c, v);
      values[k] = v;
    }
    let r: Row;
    if (id !== null) {
      const current = store.get(t)!.get(id);
      if (!current) throw new DvError(404, '0x80040217', `${t} With Id = ${id} Does Not Exist`);
      r = Object.assign(current, values, { modifiedon: stamp(), versionnumber: ++version });
    } else {
      const dflt: Row = { _ownerid_value: users[0]![KEY.systemuser], '_ownerid_value@Microsoft.Dynamics.CRM.lookuplogicalname': 'systemuser' };
      if (t === 'opportunity') Object.assign(dflt, { statecode: 0, statuscode: 1, salesstage: 0, _transactioncurrencyid_value: currencies[0]!.transactioncurrencyid, '_transactioncurrencyid_value@Microsoft.Dynamics.CRM.lookuplogicalname': 'transactioncurrency' });
      if (ACTIVITIES.includes(t)) Object.assign(dflt, { statecode: 0, statuscode: t === 'task' ? 2 : 1, activitytypecode: t });
      r = raw(t, { ...dflt, ...values });
    }
    if (t === 'contact') r.fullname = [r.firstname, r.lastname].filter(Boolean).join(' ');
    if (ACTIVITIES.includes(t) && r.statecode === 1 && !r.actualend) r.actualend = stamp();
    if (t === 'annotation') r.objecttypecode = r['_objectid_value@Microsoft.Dynamics.CRM.lookuplogicalname'] ?? null;
    return r;
  }

  /**
   * Deletes a row, as Dataverse's relationship behaviours do: the notes and activities regarding it are
   * deleted with it (cascade), other rows' lookups to it are cleared (remove link), a change of theirs.
   */
  function remove(t: Table, id: string) {
    if (!store.get(t)!.delete(id)) throw new DvError(404, '0x80040217', `${t} With Id = ${id} Does Not Exist`);
    deletions.get(t)!.push({ id, version: ++version });
    for (const [other, rows] of store) {
      for (const r of [...rows.values()]) {
        const links = Object.keys(r).filter((k) => /^_\w+_value$/.test(k) && r[k] === id);
        if (links.length === 0) continue;
        if ((other === 'annotation' && links.includes('_objectid_value')) || (ACTIVITIES.includes(other) && links.includes('_regardingobjectid_value'))) {
          remove(other, String(r[KEY[other]]));
          continue;
        }
        for (const k of links) Object.assign(r, { [k]: null, [`${k}@Microsoft.Dynamics.CRM.lookuplogicalname`]: null });
        Object.assign(r, { modifiedon: stamp(), versionnumber: ++version });
      }
    }
  }

  // ------------------------------------------------------------ reads

  const wantsAnnotations = (req: SimRequest) => /odata\.include-annotations="?[^"]*(\*|lookuplogicalname|FormattedValue)/i.test(String(req.headers.prefer ?? ''));
  function view(t: Table, r: Row, select: string[] | null, req: SimRequest): Row {
    const annotations = wantsAnnotations(req);
    const prefer = String(req.headers.prefer ?? '');
    const names = select ?? [...columns.get(t)!.values()].map((c) => (['Lookup', 'Owner', 'Customer'].includes(c.AttributeType) ? `_${c.LogicalName}_value` : c.LogicalName));
    const out: Row = { '@odata.etag': `W/"${String(r.versionnumber)}"` };
    for (const n of names) {
      out[n] = r[n] ?? null;
      if (annotations && n.startsWith('_') && r[n] && /lookuplogicalname|\*/.test(prefer)) out[`${n}@Microsoft.Dynamics.CRM.lookuplogicalname`] = r[`${n}@Microsoft.Dynamics.CRM.lookuplogicalname`];
      const options = optionSets[`${t}.${n}`];
      if (annotations && options && typeof r[n] === 'number' && /FormattedValue|\*/.test(prefer)) out[`${n}@OData.Community.Display.V1.FormattedValue`] = options.find((o) => o.value === r[n])?.label;
    }
    out[KEY[t]] = r[KEY[t]];
    return out;
  }

  function selectOf(t: Table, q: URLSearchParams): string[] | null {
    const s = q.get('$select');
    if (!s) return null;
    const names = s.split(',').map((x) => x.trim());
    for (const n of names) {
      const lookup = /^_(\w+)_value$/.exec(n)?.[1];
      const c = columns.get(t)!.get(lookup ?? n);
      if (!c || (lookup && !['Lookup', 'Owner', 'Customer'].includes(c.AttributeType))) throw new DvError(400, '0x80060888', `Could not find a property named '${n}' on type 'Microsoft.Dynamics.CRM.${t}'.`);
    }
    return names;
  }

  const pageSizeOf = (req: SimRequest) => {
    const asked = Number(/odata\.maxpagesize=(\d+)/i.exec(String(req.headers.prefer ?? ''))?.[1] ?? 5000);
    return Math.max(1, Math.min(asked, 5000, opts.maxPageSize ?? 5000));
  };
  /** Result sets being paged: `$skiptoken` names one and the offset. */
  const cursors = new Map<string, { rows: Row[]; delta: string | null }>();
  let cursorSeq = 0;

  function collection(req: SimRequest, set: string, t: Table): SimResponse {
    const q = req.query;
    const size = pageSizeOf(req);
    const skip = q.get('$skiptoken');
    const track = /odata\.track-changes/i.test(String(req.headers.prefer ?? ''));
    const selectParam = q.get('$select');
    let state: { rows: Row[]; delta: string | null };
    let offset = 0;
    if (skip) {
      const m = /^(\d+)-(\d+)$/.exec(skip);
      const found = m ? cursors.get(m[1]!) : undefined;
      if (!m || !found) throw new DvError(400, '0x80040203', 'Invalid paging cookie');
      state = found;
      offset = Number(m[2]);
    } else {
      const select = selectOf(t, q);
      const deltatoken = q.get('$deltatoken');
      if ((q.get('$filter') || q.get('$orderby') || q.get('$expand')) && (track || deltatoken)) throw new DvError(400, '0x80060888', 'Change tracking supports $select only.');
      let rows: Row[];
      if (deltatoken) {
        const since = Number(/^(\d+)!/.exec(deltatoken)?.[1]);
        if (!Number.isFinite(since) || since > version) throw new DvError(400, '0x80044352', 'The delta token is not valid or has expired.');
        const changed = [...store.get(t)!.values()].filter((r) => Number(r.versionnumber) > since).sort((a, b) => Number(a.versionnumber) - Number(b.versionnumber));
        const gone = deletions.get(t)!.filter((d) => d.version > since);
        rows = [...changed.map((r) => view(t, r, select, req)), ...gone.map((d) => ({ '@odata.context': `${server.url}${API}/$metadata#${set}/$deletedEntity`, id: d.id, reason: 'deleted' }))];
      } else {
        let list = [...store.get(t)!.values()];
        const filter = q.get('$filter');
        if (filter) {
          const m = /^(\w+) eq '([^']*)'$/.exec(filter);
          if (!m) throw new DvError(400, '0x80060888', `The $filter ${filter} is not simulated`);
          list = list.filter((r) => String(r[m[1]!]) === m[2]);
        }
        rows = list.map((r) => view(t, r, select, req));
      }
      const delta = track || deltatoken ? `${server.url}${API}/${set}?${selectParam ? `$select=${encodeURIComponent(selectParam)}&` : ''}$deltatoken=${version}!${encodeURIComponent(stamp())}` : null;
      state = { rows, delta };
      if (rows.length > size) cursors.set(String(++cursorSeq), state);
    }
    const page = state.rows.slice(offset, offset + size);
    const nextOffset = offset + size;
    const more = nextOffset < state.rows.length;
    const body: Row = { '@odata.context': `${server.url}${API}/$metadata#${set}${state.delta ? '/$delta' : ''}`, value: page };
    if (more) {
      const id = skip ? /^(\d+)-/.exec(skip)![1]! : String(cursorSeq);
      body['@odata.nextLink'] = `${server.url}${API}/${set}?${selectParam ? `$select=${encodeURIComponent(selectParam)}&` : ''}$skiptoken=${id}-${nextOffset}`;
    } else if (state.delta) body['@odata.deltaLink'] = state.delta;
    return { status: 200, body, headers: { 'odata-version': '4.0', 'preference-applied': [/track-changes/.test(String(req.headers.prefer)) ? 'odata.track-changes' : '', `odata.maxpagesize=${size}`].filter(Boolean).join(',') } };
  }

  function metadata(req: SimRequest, path: string): SimResponse | undefined {
    const attrs = /^\/EntityDefinitions\(LogicalName='(\w+)'\)\/Attributes$/.exec(path);
    if (attrs && req.method === 'GET') {
      const t = attrs[1] as Table;
      if (!columns.has(t)) throw new DvError(404, '0x80040217', `Could not find entity with name '${t}'`);
      return { status: 200, body: { value: [...columns.get(t)!.values()].map((c) => ({ LogicalName: c.LogicalName, AttributeType: c.AttributeType, IsCustomAttribute: c.IsCustomAttribute, IsValidForRead: true, DisplayName: { UserLocalizedLabel: { Label: c.DisplayName, LanguageCode: 1033 } } })) } };
    }
    const pick = /^\/EntityDefinitions\(LogicalName='(\w+)'\)\/Attributes\(LogicalName='(\w+)'\)\/Microsoft\.Dynamics\.CRM\.PicklistAttributeMetadata$/.exec(path);
    if (pick && req.method === 'GET') {
      const options = optionSets[`${pick[1]}.${pick[2]}`];
      if (!options) throw new DvError(404, '0x80040217', `Could not find attribute '${pick[2]}'`);
      return { status: 200, body: { LogicalName: pick[2], OptionSet: { Options: options.map((o) => ({ Value: o.value, Label: { UserLocalizedLabel: { Label: o.label, LanguageCode: 1033 } } })) } } };
    }
    return undefined;
  }

  const errorBody = (e: DvError) => ({ error: { code: e.code, message: e.message } });

  function route(req: SimRequest): SimResponse {
    const path = decodeURIComponent(req.path.slice(API.length)).replace(/\/$/, '');
    const body = req.body as Row | undefined;
    const prefer = String(req.headers.prefer ?? '');
    const represent = /return=representation/.test(prefer);
    if (req.method === 'GET' && path === '/WhoAmI') return { status: 200, body: { BusinessUnitId: randomUUID(), UserId: users[0]![KEY.systemuser], OrganizationId: '00000000-0000-0000-0000-00000000c0de' } };
    const meta = metadata(req, path);
    if (meta) return meta;
    const pointer = /^\/activitypointers\(([0-9a-f-]{36})\)$/i.exec(path);
    if (pointer && req.method === 'GET') {
      const id = pointer[1]!.toLowerCase();
      const t = ACTIVITIES.find((a) => store.get(a)!.has(id));
      if (!t) throw new DvError(404, '0x80040217', `activitypointer With Id = ${id} Does Not Exist`);
      return { status: 200, body: { activityid: id, activitytypecode: t } };
    }
    const m = /^\/(\w+)(?:\(([0-9a-f-]{36})\))?$/i.exec(path);
    const t = m ? SETS[m[1]!] : undefined;
    if (!m || !t) throw new DvError(404, '0x80060888', `Resource not found for the segment '${path.split('/')[1] ?? ''}'.`, true);
    const set = m[1]!;
    const id = m[2]?.toLowerCase();
    if (!id) {
      if (req.method === 'GET') return collection(req, set, t);
      if (req.method === 'POST') {
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DvError(400, '0x80040333', 'The request body is not a JSON object');
        const select = selectOf(t, req.query);
        const r = write(t, null, body);
        const entityId = `${server.url}${API}/${set}(${String(r[KEY[t]])})`;
        return represent ? { status: 201, body: view(t, r, select, req), headers: { 'odata-entityid': entityId } } : { status: 204, headers: { 'odata-entityid': entityId } };
      }
      throw new DvError(405, '0x80060888', `The HTTP method ${req.method} is not allowed here`, true);
    }
    if (req.method === 'GET') {
      const r = store.get(t)!.get(id);
      if (!r) throw new DvError(404, '0x80040217', `${t} With Id = ${id} Does Not Exist`);
      return { status: 200, body: view(t, r, selectOf(t, req.query), req) };
    }
    if (req.method === 'PATCH') {
      const select = selectOf(t, req.query);
      // Without If-Match a PATCH to a missing row is an upsert; the adapter always sends If-Match: *.
      if (!store.get(t)!.has(id) && req.headers['if-match'] !== '*') throw new DvError(400, '0x80060888', 'Upsert is not simulated: send If-Match: *');
      const r = write(t, id, body ?? {});
      return represent ? { status: 200, body: view(t, r, select, req) } : { status: 204, headers: { 'odata-entityid': `${server.url}${API}/${set}(${id})` } };
    }
    if (req.method === 'DELETE') {
      remove(t, id);
      return { status: 204 };
    }
    throw new DvError(405, '0x80060888', `The HTTP method ${req.method} is not allowed here`, true);
  }

  /** Splits a MIME part into its headers (lower-cased names) and body. */
  function mimePart(text: string): { headers: Record<string, string>; body: string } {
    const m = /\r?\n\r?\n/.exec(text);
    const headers: Record<string, string> = {};
    for (const line of (m ? text.slice(0, m.index) : text).split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    return { headers, body: m ? text.slice(m.index + m[0].length) : '' };
  }
  function mimeParts(text: string, boundary: string): string[] {
    const out: string[] = [];
    const lines = text.split(/\r?\n/);
    let current: string[] | null = null;
    for (const line of lines) {
      if (line === `--${boundary}` || line === `--${boundary}--`) {
        if (current) out.push(current.join('\r\n'));
        current = line.endsWith('--') && line !== `--${boundary}` ? null : [];
        continue;
      }
      current?.push(line);
    }
    return out;
  }
  const boundaryOf = (type: string | undefined) => /boundary="?([^";]+)"?/i.exec(type ?? '')?.[1];

  /** One `application/http` request of a batch, run as if sent alone. */
  function batchRequest(text: string, outer: SimRequest): SimResponse {
    const first = /^(GET|POST|PATCH|DELETE|PUT) (\S+) HTTP\/1\.1\r?\n/.exec(text);
    if (!first) return { status: 400, body: errorBody(new DvError(400, '0x80060888', 'A request in the batch has no request line')) };
    const { headers, body } = mimePart(text.slice(first[0].length));
    const url = new URL(first[2]!, server.url);
    let json: unknown;
    try {
      json = body.trim() ? JSON.parse(body) : undefined;
    } catch {
      return { status: 400, body: errorBody(new DvError(400, '0x80040333', 'The request body is not valid JSON')) };
    }
    const inner: SimRequest = { ...outer, method: first[1]!, path: url.pathname, query: url.searchParams, headers, body: json, rawBody: body };
    let res: SimResponse;
    try {
      res = route(inner);
    } catch (err) {
      if (!(err instanceof DvError)) throw err;
      res = { status: err.status, body: errorBody(err) };
    }
    const at = clock.now();
    batchParts.push({ seq: batchParts.length + 1, at, method: inner.method, path: inner.path, query: Object.fromEntries(url.searchParams), headers, body: json, auth: null, status: res.status, faultId: null, durationMs: 0 });
    return res;
  }

  /**
   * `POST $batch`: `multipart/mixed` parts, each a request or a change set (simulated with one request,
   * which is then all or nothing by itself). Stops at the first failure unless `Prefer:
   * odata.continue-on-error`.
   */
  function batch(req: SimRequest): SimResponse {
    const boundary = boundaryOf(String(req.headers['content-type'] ?? ''));
    if (!boundary || !/^multipart\/mixed/i.test(String(req.headers['content-type']))) throw new DvError(400, '0x80060888', 'The batch request must be multipart/mixed with a boundary');
    const continueOnError = /odata\.continue-on-error/i.test(String(req.headers.prefer ?? ''));
    const parts = mimeParts(req.rawBody, boundary);
    if (parts.length > 1000) throw new DvError(400, '0x80060888', 'The number of requests in a batch cannot exceed 1000');
    const answer = `batchresponse_${randomUUID()}`;
    const out: string[] = [];
    const httpPart = (res: SimResponse, contentId?: string) =>
      ['Content-Type: application/http', 'Content-Transfer-Encoding: binary', ...(contentId ? [`Content-ID: ${contentId}`] : []), '', `HTTP/1.1 ${res.status} ${res.status < 300 ? 'OK' : 'Error'}`, 'Content-Type: application/json; odata.metadata=minimal', 'OData-Version: 4.0', ...Object.entries(res.headers ?? {}).map(([k, v]) => `${k}: ${v}`), '', res.body === undefined ? '' : JSON.stringify(res.body)].join('\r\n');
    for (const part of parts) {
      const { headers, body } = mimePart(part);
      const type = headers['content-type'] ?? '';
      let res: SimResponse;
      if (/^multipart\/mixed/i.test(type)) {
        const inner = mimeParts(body, boundaryOf(type) ?? '');
        if (inner.length !== 1) throw new DvError(400, '0x80060888', 'Change sets of more than one request are not simulated');
        const one = mimePart(inner[0]!);
        res = batchRequest(one.body, req);
        if (res.status < 300) {
          const cs = `changesetresponse_${randomUUID()}`;
          out.push(`--${answer}\r\nContent-Type: multipart/mixed; boundary=${cs}\r\n\r\n--${cs}\r\n${httpPart(res, one.headers['content-id'])}\r\n--${cs}--`);
        } else out.push(`--${answer}\r\n${httpPart(res)}`);
      } else {
        res = batchRequest(body, req);
        out.push(`--${answer}\r\n${httpPart(res)}`);
      }
      if (res.status >= 400 && !continueOnError) break;
    }
    return { status: 200, body: `${out.join('\r\n')}\r\n--${answer}--\r\n`, headers: { 'content-type': `multipart/mixed; boundary=${answer}` } };
  }

  function handle(req: SimRequest): SimResponse {
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
    if (!bearer || !tokens.has(bearer[1]!)) {
      return { status: 401, headers: { 'www-authenticate': `Bearer authorization_uri=https://login.microsoftonline.com/00000000-0000-0000-0000-0000000ten4/oauth2/authorize, resource_id=${server.url}/` } };
    }
    // Service protection: requests per user in a sliding 5-minute window.
    const now = clock.now();
    const window = (spent.get(bearer[1]!) ?? []).filter((at) => at > now - windowMs);
    if (window.length >= limit) {
      const retry = Math.max(1, Math.ceil((window[0]! + windowMs - now) / 1000));
      return { status: 429, headers: { 'retry-after': String(retry) }, body: { error: { code: '0x80072322', message: `Number of requests exceeded the limit of ${limit} over time window of ${windowMs / 1000} seconds.` } } };
    }
    window.push(now);
    spent.set(bearer[1]!, window);
    if (!req.path.startsWith(`${API}/`)) return noRoute({ status: 404, body: { error: { code: '0x80060888', message: 'Resource not found' } } });
    try {
      if (req.method === 'POST' && req.path === `${API}/$batch`) return batch(req);
      return route(req);
    } catch (err) {
      if (err instanceof DvError) return err.unrouted ? noRoute({ status: err.status, body: errorBody(err) }) : { status: err.status, body: errorBody(err) };
      throw err;
    }
  }

  const server = await startSimServer({
    clock,
    faults,
    requests,
    maxRequestLog: 20_000,
    recordBodies: opts.recordBodies,
    describeAuth(req) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      return bearer ? { scheme: 'bearer', label: null, valid: tokens.has(bearer[1]!) } : null;
    },
    faultResponse(fault: ActiveFault) {
      if (fault.status === 429) return { status: 429, body: { error: { code: '0x80072322', message: 'Number of requests exceeded the limit of 6000 over time window of 300 seconds.' } } };
      return { status: fault.status!, body: { error: { code: '0x80040216', message: `Simulated ${fault.status}` } } };
    },
    handle: async (req) => handle(req),
    decorate(_req, res) {
      res.headers = { 'odata-version': '4.0', ...(res.headers ?? {}) };
    },
    internalError: () => ({ status: 500, body: { error: { code: '0x80040216', message: 'An unexpected error occurred.' } } }),
  });

  return {
    url: server.url,
    clock,
    faults,
    requests,
    batchParts,
    users,
    currencies,
    salesStages,
    get: (t, id) => store.get(t)!.get(id.toLowerCase()),
    all: (t) => [...store.get(t)!.values()],
    create: (t, values) => write(t, null, values, true),
    update: (t, id, values) => write(t, id.toLowerCase(), values, true),
    remove: (t, id) => remove(t, id.toLowerCase()),
    addColumn(t, def) {
      const c: SimColumn = { LogicalName: def.LogicalName, AttributeType: def.AttributeType, IsCustomAttribute: true, DisplayName: def.DisplayName ?? def.LogicalName };
      columns.get(t)!.set(c.LogicalName, c);
      for (const r of store.get(t)!.values()) r[c.LogicalName] ??= null;
      return c;
    },
    addAccessToken: (token) => void tokens.add(token),
    expireAccessTokens: () => tokens.clear(),
    close: () => server.close(),
  };
}
