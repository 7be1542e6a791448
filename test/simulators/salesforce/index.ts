/**
 * Salesforce REST API simulator (`/services/data/v59.0`) for integration tests and benchmarks: sObjects
 * (Account, Contact, Opportunity, OpportunityContactRole, OpportunityStage, Note, Task, Event, User, and the
 * enhanced notes' ContentDocument / ContentVersion / ContentDocumentLink) with
 * describes, record create/read/update/delete, SOQL `query`/`queryAll` (see soql.ts) with `nextRecordsUrl`
 * batches, sObject Collections (create, delete), `limits`, the recycle bin (queryAll answers deleted records
 * with IsDeleted true), custom fields (`…__c`), the daily API request limit (`Sforce-Limit-Info`, 403
 * REQUEST_LIMIT_EXCEEDED) and bearer access tokens. Timestamps keep whole seconds, as Salesforce's do, so
 * SystemModstamp values tie. Traffic is checked against the shared descriptions when present (spec.ts).
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
import { SoqlError, fieldsOf, matches, parseSoql, sortRecords } from './soql';
import { loadSalesforceSpecCheck, type SpecViolation } from './spec';

export type { ActiveFault, FaultSpec, RecordedRequest, SpecViolation };

export type SObject =
  | 'User'
  | 'OpportunityStage'
  | 'Account'
  | 'Contact'
  | 'Opportunity'
  | 'OpportunityContactRole'
  | 'Note'
  | 'Task'
  | 'Event'
  | 'ContentDocument'
  | 'ContentVersion'
  | 'ContentDocumentLink';
export type Rec = Record<string, unknown> & { Id: string };

type FType = 'id' | 'base64' | 'string' | 'textarea' | 'email' | 'phone' | 'url' | 'picklist' | 'multipicklist' | 'reference' | 'boolean' | 'int' | 'double' | 'currency' | 'percent' | 'date' | 'datetime';
export interface SimField {
  name: string;
  type: FType;
  label: string;
  custom: boolean;
  createable: boolean;
  updateable: boolean;
  /** Required on create (nillable false, no default). */
  required?: boolean;
  /** reference: the sObjects it may point at. */
  referenceTo?: SObject[];
  picklist?: () => string[];
}

const API = '/services/data/v59.0';
export const KEY_PREFIX: Record<SObject, string> = {
  Account: '001',
  Note: '002',
  Contact: '003',
  User: '005',
  Opportunity: '006',
  OpportunityContactRole: '00K',
  Task: '00T',
  Event: '00U',
  OpportunityStage: '01J',
  ContentDocument: '069',
  ContentVersion: '068',
  ContentDocumentLink: '06A',
};
const ADDRESS = ['Street', 'City', 'State', 'PostalCode', 'Country'];

export interface SalesforceSimulatorOptions {
  accessTokens?: string[];
  /** Validate traffic against the shared descriptions (default true; skipped when absent). */
  validateSpec?: boolean;
  /** The org has multi-currency on (Opportunity.CurrencyIsoCode). Default false, as the generated description's org. */
  multiCurrency?: boolean;
  /** Largest query batch answered, below Salesforce's 200–2000 (tests that walk several batches). */
  maxBatchSize?: number;
  /** Total API requests per 24 hours (default 15,000, a Developer Edition org). */
  dailyApiRequests?: number;
  users?: number;
  /**
   * Notes are enabled (Setup → Notes Settings, the default of current orgs): the enhanced notes' ContentNote
   * object exists. Off, `describe` of ContentNote answers 404, as for any object the org does not have.
   */
  enhancedNotes?: boolean;
}

export interface SalesforceSimulator {
  readonly url: string;
  readonly clock: SimClock;
  readonly faults: FaultController;
  readonly requests: RecordedRequest[];
  readonly users: Rec[];
  readonly stages: Rec[];
  readonly specAvailable: boolean;
  readonly specViolations: SpecViolation[];
  readonly specUndocumented: { method: string; path: string }[];
  /** API requests counted today (what Sforce-Limit-Info reports). */
  apiUsage: number;
  get(sobject: SObject, id: string): Rec | undefined;
  all(sobject: SObject, opts?: { deleted?: boolean }): Rec[];
  /** Creates a record as a person would in Salesforce (validated, derived fields set), bypassing HTTP. */
  create(sobject: SObject, fields: Record<string, unknown>): Rec;
  update(sobject: SObject, id: string, patch: Record<string, unknown>): Rec;
  /** Deletes a record to the recycle bin (queryAll still answers it, IsDeleted true). */
  remove(sobject: SObject, id: string): void;
  addCustomField(sobject: SObject, def: { name: string; label?: string; type: FType }): SimField;
  addAccessToken(token: string): void;
  /** Every session ends (a timeout, an admin's revocation): calls answer 401 INVALID_SESSION_ID until a new token. */
  expireSessions(): void;
  close(): Promise<void>;
}

/** A Salesforce error: REST answers `[{message, errorCode, fields}]`. */
class SfError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly fields: string[] = [],
  ) {
    super(message);
  }
}

export async function startSalesforceSimulator(opts: SalesforceSimulatorOptions = {}): Promise<SalesforceSimulator> {
  const clock = new SimClock();
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Set(opts.accessTokens ?? ['sf-test-token']);
  const spec = await loadSalesforceSpecCheck({ enabled: opts.validateSpec });
  const dailyLimit = opts.dailyApiRequests ?? 15_000;
  let seq = 0;
  const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  /** 18-character ids: the key prefix, the org's pod, then a counter (ids sort in creation order). */
  const newId = (sobject: SObject) => {
    let n = ++seq;
    let s = '';
    for (let i = 0; i < 10; i++, n = Math.floor(n / 62)) s = B62[n % 62] + s;
    return `${KEY_PREFIX[sobject]}5g00${s}AAA`.slice(0, 18);
  };
  /** Salesforce timestamps: whole seconds, `+0000`. */
  const stamp = (ms = clock.now()) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('Z', '+0000');

  const fieldsBy = new Map<SObject, Map<string, SimField>>();
  const f = (name: string, type: FType, flags = 'cu', extra: Partial<SimField> = {}): SimField => ({
    name,
    type,
    label: name.replace(/([a-z])([A-Z])/g, '$1 $2'),
    custom: false,
    createable: flags.includes('c'),
    updateable: flags.includes('u'),
    required: flags.includes('r'),
    ...extra,
  });
  const common = [f('Id', 'id', ''), f('CreatedDate', 'datetime', ''), f('CreatedById', 'reference', ''), f('LastModifiedDate', 'datetime', ''), f('LastModifiedById', 'reference', ''), f('SystemModstamp', 'datetime', '')];
  const users: Rec[] = [];
  const stages: Rec[] = [];
  const owner = f('OwnerId', 'reference', 'cu', { referenceTo: ['User'] });
  const address = (p: string) => ADDRESS.map((part) => f(`${p}${part}`, part === 'Street' ? 'textarea' : 'string'));
  const define = (sobject: SObject, list: SimField[]) => fieldsBy.set(sobject, new Map([...common, ...list].map((x) => [x.name, x])));
  define('User', [f('Username', 'string', ''), f('FirstName', 'string', ''), f('LastName', 'string', ''), f('Name', 'string', ''), f('Email', 'email', ''), f('IsActive', 'boolean', '')]);
  define('OpportunityStage', [
    f('ApiName', 'string', ''),
    f('MasterLabel', 'string', ''),
    f('IsActive', 'boolean', ''),
    f('IsClosed', 'boolean', ''),
    f('IsWon', 'boolean', ''),
    f('SortOrder', 'int', ''),
    f('DefaultProbability', 'percent', ''),
  ]);
  define('Account', [
    f('IsDeleted', 'boolean', ''),
    f('Name', 'string', 'cur'),
    f('Type', 'picklist'),
    f('Industry', 'picklist'),
    f('NumberOfEmployees', 'int'),
    f('Phone', 'phone'),
    f('Fax', 'phone'),
    f('Website', 'url'),
    f('Description', 'textarea'),
    ...address('Billing'),
    ...address('Shipping'),
    owner,
  ]);
  define('Contact', [
    f('IsDeleted', 'boolean', ''),
    f('AccountId', 'reference', 'cu', { referenceTo: ['Account'] }),
    f('FirstName', 'string'),
    f('LastName', 'string', 'cur'),
    f('Name', 'string', ''),
    f('Title', 'string'),
    f('Email', 'email'),
    f('Phone', 'phone'),
    f('MobilePhone', 'phone'),
    f('HomePhone', 'phone'),
    f('OtherPhone', 'phone'),
    f('Fax', 'phone'),
    ...address('Mailing'),
    ...address('Other'),
    owner,
  ]);
  define('Opportunity', [
    f('IsDeleted', 'boolean', ''),
    f('AccountId', 'reference', 'cu', { referenceTo: ['Account'] }),
    f('Name', 'string', 'cur'),
    f('Description', 'textarea'),
    f('StageName', 'picklist', 'cur', { picklist: () => stages.map((s) => String(s.ApiName)) }),
    f('Amount', 'currency'),
    f('Probability', 'percent', ''),
    f('CloseDate', 'date', 'cur'),
    f('IsClosed', 'boolean', ''),
    f('IsWon', 'boolean', ''),
    ...(opts.multiCurrency ? [f('CurrencyIsoCode', 'picklist', 'cu', { picklist: () => ['USD', 'EUR', 'GBP', 'JPY'] })] : []),
    owner,
  ]);
  define('OpportunityContactRole', [
    f('IsDeleted', 'boolean', ''),
    f('OpportunityId', 'reference', 'cr', { referenceTo: ['Opportunity'] }),
    f('ContactId', 'reference', 'cur', { referenceTo: ['Contact'] }),
    f('Role', 'picklist'),
    f('IsPrimary', 'boolean'),
  ]);
  define('Note', [
    f('IsDeleted', 'boolean', ''),
    f('ParentId', 'reference', 'cr', { referenceTo: ['Account', 'Contact', 'Opportunity'] }),
    f('Title', 'string', 'cur'),
    f('IsPrivate', 'boolean'),
    f('Body', 'textarea'),
    owner,
  ]);
  // Enhanced notes (ContentNote) are Salesforce Files of type SNOTE: a ContentDocument with its versions
  // (ContentVersion) and where it is shared (ContentDocumentLink). A version made with PathOnClient `*.snote` is a
  // note; FirstPublishLocationId links the new document to that record.
  // https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_contentnote.htm
  // https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_contentversion.htm
  define('ContentDocument', [
    f('IsDeleted', 'boolean', ''),
    f('Title', 'string', 'u'),
    f('FileType', 'string', ''),
    f('FileExtension', 'string', ''),
    f('LatestPublishedVersionId', 'reference', '', { referenceTo: ['ContentVersion'] }),
    owner,
  ]);
  define('ContentVersion', [
    f('IsDeleted', 'boolean', ''),
    f('ContentDocumentId', 'reference', 'c', { referenceTo: ['ContentDocument'] }),
    f('Title', 'string', 'cu'),
    f('PathOnClient', 'string', 'cr'),
    f('VersionData', 'base64', 'c'),
    f('FirstPublishLocationId', 'reference', 'c', { referenceTo: ['Account', 'Contact', 'Opportunity', 'User'] }),
    f('IsLatest', 'boolean', ''),
    f('VersionNumber', 'string', ''),
    f('FileType', 'string', ''),
    f('TextPreview', 'string', ''),
    owner,
  ]);
  define('ContentDocumentLink', [
    f('IsDeleted', 'boolean', ''),
    f('ContentDocumentId', 'reference', 'cr', { referenceTo: ['ContentDocument'] }),
    f('LinkedEntityId', 'reference', 'cr', { referenceTo: ['Account', 'Contact', 'Opportunity', 'User'] }),
    f('ShareType', 'picklist', 'cu', { picklist: () => ['V', 'C', 'I'] }),
    f('Visibility', 'picklist', 'cu', { picklist: () => ['AllUsers', 'InternalUsers', 'SharedUsers'] }),
  ]);
  const who = f('WhoId', 'reference', 'cu', { referenceTo: ['Contact'] });
  const what = f('WhatId', 'reference', 'cu', { referenceTo: ['Account', 'Opportunity'] });
  define('Task', [
    f('IsDeleted', 'boolean', ''),
    who,
    what,
    f('Subject', 'string'),
    f('ActivityDate', 'date'),
    f('Status', 'picklist', 'cu', { picklist: () => ['Not Started', 'In Progress', 'Completed', 'Waiting on someone else', 'Deferred'] }),
    f('Priority', 'picklist', 'cu', { picklist: () => ['High', 'Normal', 'Low'] }),
    f('Description', 'textarea'),
    f('AccountId', 'reference', ''),
    f('IsClosed', 'boolean', ''),
    f('CallDurationInSeconds', 'int'),
    f('CallType', 'picklist', 'cu', { picklist: () => ['Internal', 'Inbound', 'Outbound'] }),
    f('TaskSubtype', 'picklist', 'c', { picklist: () => ['Task', 'Email', 'ListEmail', 'Cadence', 'Call', 'LinkedIn'] }),
    f('CompletedDateTime', 'datetime', ''),
    owner,
  ]);
  define('Event', [
    f('IsDeleted', 'boolean', ''),
    who,
    what,
    f('Subject', 'string'),
    f('Location', 'string'),
    f('StartDateTime', 'datetime'),
    f('EndDateTime', 'datetime'),
    f('ActivityDateTime', 'datetime', ''),
    f('DurationInMinutes', 'int', ''),
    f('Description', 'textarea'),
    f('AccountId', 'reference', ''),
    owner,
  ]);

  const store = new Map<SObject, Map<string, Rec>>([...fieldsBy.keys()].map((k) => [k, new Map()]));
  const sobjectOfId = (id: string) => (Object.entries(KEY_PREFIX).find(([, p]) => id.startsWith(p))?.[0] as SObject | undefined);
  const find = (id: unknown): Rec | undefined => {
    if (typeof id !== 'string') return undefined;
    const s = sobjectOfId(id);
    const r = s ? store.get(s)!.get(id) : undefined;
    return r && r.IsDeleted !== true ? r : undefined;
  };

  function raw(sobject: SObject, fields: Record<string, unknown>): Rec {
    const at = stamp();
    const r: Rec = { Id: newId(sobject), CreatedDate: at, CreatedById: users[0]?.Id ?? null, LastModifiedDate: at, LastModifiedById: users[0]?.Id ?? null, SystemModstamp: at, ...fields };
    if (fieldsBy.get(sobject)!.has('IsDeleted')) r.IsDeleted = false;
    store.get(sobject)!.set(r.Id, r);
    return r;
  }
  for (let i = 0; i < (opts.users ?? 3); i++) {
    const [first, last] = [['Ada', 'Admin'], ['Grace', 'Hopper'], ['Alan', 'Turing'], ['Edsger', 'Dijkstra']][i % 4]!;
    users.push(raw('User', { Username: `user${i + 1}@sim.example`, FirstName: first, LastName: last, Name: `${first} ${last}`, Email: `user${i + 1}@sim.example`, IsActive: true }));
  }
  [
    ['Prospecting', 10, false, false],
    ['Qualification', 20, false, false],
    ['Negotiation/Review', 90, false, false],
    ['Closed Won', 100, true, true],
    ['Closed Lost', 0, true, false],
  ].forEach(([name, p, closed, won], i) =>
    stages.push(raw('OpportunityStage', { ApiName: name, MasterLabel: name, IsActive: true, IsClosed: closed, IsWon: won, SortOrder: i + 1, DefaultProbability: p })),
  );

  // ------------------------------------------------------------ writes

  function checkValue(sobject: SObject, def: SimField, v: unknown) {
    if (v === null) return;
    const bad = (code: string, message: string) => new SfError(400, code, message, [def.name]);
    switch (def.type) {
      case 'boolean':
        if (typeof v !== 'boolean') throw bad('JSON_PARSER_ERROR', `Cannot deserialize instance of boolean from ${JSON.stringify(v)}`);
        return;
      case 'int':
      case 'double':
      case 'currency':
      case 'percent':
        if (typeof v !== 'number' || !Number.isFinite(v) || (def.type === 'int' && !Number.isInteger(v))) throw bad('JSON_PARSER_ERROR', `Cannot deserialize instance of ${def.type} from ${JSON.stringify(v)}`);
        return;
      case 'date':
        if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw bad('JSON_PARSER_ERROR', `Cannot deserialize instance of date from VALUE_STRING value ${String(v)}`);
        return;
      case 'datetime':
        if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw bad('JSON_PARSER_ERROR', `Cannot deserialize instance of datetime from VALUE_STRING value ${String(v)}`);
        return;
      case 'base64':
        if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) throw bad('JSON_PARSER_ERROR', `Cannot deserialize instance of base64 from ${JSON.stringify(String(v).slice(0, 20))}`);
        return;
      case 'reference': {
        const target = find(v);
        if (typeof v !== 'string' || !/^[a-zA-Z0-9]{15}([a-zA-Z0-9]{3})?$/.test(v)) throw bad('MALFORMED_ID', `${def.label} ID: id value of incorrect type: ${String(v)}`);
        if (!target || !def.referenceTo?.includes(sobjectOfId(v)!)) throw bad('FIELD_INTEGRITY_EXCEPTION', `${def.label} ID: id value of incorrect type: ${v}`);
        return;
      }
      default:
        if (typeof v !== 'string') throw bad('JSON_PARSER_ERROR', `Cannot deserialize instance of string from ${JSON.stringify(v)}`);
        if (def.type === 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v)) throw bad('INVALID_EMAIL_ADDRESS', `Email: invalid email address: ${v}`);
        if (def.picklist && def.type === 'picklist' && !def.picklist().includes(v)) {
          throw bad('INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST', `${def.label}: bad value for restricted picklist field: ${v}`);
        }
    }
    void sobject;
  }

  /** Fields Salesforce sets itself. */
  function derive(sobject: SObject, r: Rec) {
    if (sobject === 'Contact') r.Name = [r.FirstName, r.LastName].filter(Boolean).join(' ');
    if (sobject === 'Opportunity') {
      const s = stages.find((x) => x.ApiName === r.StageName);
      Object.assign(r, { IsClosed: s?.IsClosed ?? false, IsWon: s?.IsWon ?? false, Probability: s?.DefaultProbability ?? null });
    }
    if (sobject === 'Task' || sobject === 'Event') {
      const w = find(r.WhatId);
      const c = find(r.WhoId);
      r.AccountId = w ? (sobjectOfId(w.Id) === 'Account' ? w.Id : (w.AccountId ?? null)) : (c?.AccountId ?? null);
    }
    if (sobject === 'Task') {
      const closed = r.Status === 'Completed';
      if (closed && !r.IsClosed) r.CompletedDateTime = stamp();
      if (!closed) r.CompletedDateTime = null;
      r.IsClosed = closed;
    }
    if (sobject === 'Event') {
      r.ActivityDateTime = r.StartDateTime ?? null;
      const ms = Date.parse(String(r.EndDateTime)) - Date.parse(String(r.StartDateTime));
      r.DurationInMinutes = Number.isFinite(ms) ? Math.round(ms / 60_000) : null;
    }
  }

  function write(sobject: SObject, id: string | null, body: Record<string, unknown>): Rec {
    const defs = fieldsBy.get(sobject)!;
    if (sobject === 'User' || sobject === 'OpportunityStage') throw new SfError(400, 'CANNOT_INSERT_UPDATE_ACTIVATE_ENTITY', `${sobject} records are not written here`);
    for (const [k, v] of Object.entries(body)) {
      if (k === 'attributes') continue;
      const def = defs.get(k);
      if (!def) throw new SfError(400, 'INVALID_FIELD', `No such column '${k}' on sobject of type ${sobject}`, [k]);
      if (id === null ? !def.createable : !def.updateable) {
        throw new SfError(400, 'INVALID_FIELD_FOR_INSERT_UPDATE', `Unable to ${id === null ? 'create' : 'update'} fields: ${k}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`, [k]);
      }
      checkValue(sobject, def, v);
    }
    const { attributes: _a, ...fields } = body;
    const current = id === null ? undefined : find(id);
    if (id !== null && !current) throw new SfError(404, 'NOT_FOUND', 'The requested resource does not exist');
    const next: Record<string, unknown> = { ...(current ?? {}), ...fields };
    const missing = [...defs.values()].filter((d) => d.required && (next[d.name] === undefined || next[d.name] === null || next[d.name] === '')).map((d) => d.name);
    if (missing.length) throw new SfError(400, 'REQUIRED_FIELD_MISSING', `Required fields are missing: [${missing.join(', ')}]`, missing);
    if (sobject === 'Event' && id === null && (!next.StartDateTime || !next.EndDateTime)) {
      throw new SfError(400, 'REQUIRED_FIELD_MISSING', 'Required fields are missing: [DurationInMinutes]', ['DurationInMinutes']);
    }
    if (sobject === 'ContentDocument' && id === null) throw new SfError(400, 'INVALID_TYPE_FOR_OPERATION', 'entity type cannot be inserted: Content Document');
    if (sobject === 'ContentVersion' && id === null) return newVersion(fields);
    let r: Rec;
    if (current) {
      const at = stamp();
      r = Object.assign(current, fields, { LastModifiedDate: at, SystemModstamp: at });
    } else {
      const dflt: Record<string, unknown> = {};
      for (const d of defs.values()) if (!['Id', 'IsDeleted'].includes(d.name) && !common.includes(d)) dflt[d.name] ??= null;
      if (sobject === 'Task') Object.assign(dflt, { Status: 'Not Started', Priority: 'Normal', TaskSubtype: 'Task' });
      if (defs.has('OwnerId')) dflt.OwnerId = users[0]!.Id;
      r = raw(sobject, { ...dflt, ...fields });
    }
    derive(sobject, r);
    return r;
  }

  /**
   * A ContentVersion insert: without ContentDocumentId a new document (its type from PathOnClient's extension:
   * `.snote` is a note), shared with its owner and with FirstPublishLocationId; with one, the document's next version.
   */
  function newVersion(fields: Record<string, unknown>): Rec {
    const ext = /\.([A-Za-z0-9]+)$/.exec(String(fields.PathOnClient ?? ''))?.[1]?.toLowerCase() ?? '';
    const fileType = ext === 'snote' ? 'SNOTE' : ext.toUpperCase() || 'UNKNOWN';
    const title = fields.Title ?? String(fields.PathOnClient).replace(/\.[^.]*$/, '');
    const text = Buffer.from(String(fields.VersionData ?? ''), 'base64').toString('utf8');
    const preview = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 255);
    let doc = fields.ContentDocumentId ? find(fields.ContentDocumentId) : undefined;
    if (fields.ContentDocumentId && (!doc || sobjectOfId(doc.Id) !== 'ContentDocument')) throw new SfError(400, 'FIELD_INTEGRITY_EXCEPTION', 'Content Document ID: id value of incorrect type', ['ContentDocumentId']);
    const previous = doc ? [...store.get('ContentVersion')!.values()].filter((v) => v.ContentDocumentId === doc!.Id) : [];
    if (!doc) doc = raw('ContentDocument', { Title: title, FileType: fileType, FileExtension: ext || null, OwnerId: users[0]!.Id, LatestPublishedVersionId: null });
    for (const v of previous) v.IsLatest = false;
    const version = raw('ContentVersion', {
      ...fields,
      Title: title,
      ContentDocumentId: doc.Id,
      FirstPublishLocationId: fields.FirstPublishLocationId ?? null,
      IsLatest: true,
      VersionNumber: String(previous.length + 1),
      FileType: doc.FileType,
      TextPreview: preview || null,
      OwnerId: users[0]!.Id,
    });
    const at = stamp();
    Object.assign(doc, { Title: title, LatestPublishedVersionId: version.Id, LastModifiedDate: at, SystemModstamp: at });
    if (previous.length === 0) {
      raw('ContentDocumentLink', { ContentDocumentId: doc.Id, LinkedEntityId: users[0]!.Id, ShareType: 'I', Visibility: 'AllUsers' });
      if (fields.FirstPublishLocationId) raw('ContentDocumentLink', { ContentDocumentId: doc.Id, LinkedEntityId: fields.FirstPublishLocationId, ShareType: 'V', Visibility: 'AllUsers' });
    }
    return version;
  }

  function remove(sobject: SObject, id: string) {
    const r = find(id);
    if (!r || sobjectOfId(id) !== sobject) throw new SfError(404, 'ENTITY_IS_DELETED', 'entity is deleted');
    const at = stamp();
    Object.assign(r, { IsDeleted: true, SystemModstamp: at });
    // Children deleted with their parent, as Salesforce cascades them.
    const children: [SObject, string][] = sobject === 'ContentDocument' ? [['ContentVersion', 'ContentDocumentId'], ['ContentDocumentLink', 'ContentDocumentId']] : sobject === 'Account' ? [['Contact', 'AccountId'], ['Opportunity', 'AccountId']] : sobject === 'Opportunity' ? [['OpportunityContactRole', 'OpportunityId']] : sobject === 'Contact' ? [['OpportunityContactRole', 'ContactId']] : [];
    for (const [child, field] of children) for (const c of store.get(child)!.values()) if (c[field] === id && c.IsDeleted !== true) remove(child, c.Id);
  }

  // ------------------------------------------------------------ views

  const attributes = (sobject: SObject, id: string) => ({ type: sobject, url: `${API}/sobjects/${sobject}/${id}` });
  function view(sobject: SObject, r: Rec, fields?: string[]): Record<string, unknown> {
    const names = fields ?? [...fieldsBy.get(sobject)!.keys()];
    // A base64 field is answered as the address of its blob (GET it for the bytes), as Salesforce does.
    const value = (n: string) => (fieldsBy.get(sobject)!.get(n)?.type === 'base64' && r[n] != null ? `${API}/sobjects/${sobject}/${r.Id}/${n}` : (r[n] ?? null));
    return { attributes: attributes(sobject, r.Id), ...Object.fromEntries(names.map((n) => [n, value(n)])) };
  }

  function describe(sobject: SObject) {
    return {
      name: sobject,
      label: sobject,
      keyPrefix: KEY_PREFIX[sobject],
      custom: false,
      createable: !['User', 'OpportunityStage', 'ContentDocument'].includes(sobject),
      updateable: !['OpportunityStage'].includes(sobject),
      queryable: true,
      fields: [...fieldsBy.get(sobject)!.values()].map((d) => ({
        name: d.name,
        label: d.label,
        type: d.type,
        custom: d.custom,
        createable: d.createable,
        updateable: d.updateable,
        nillable: !d.required && d.name !== 'Id',
        referenceTo: d.referenceTo ?? [],
        picklistValues: (d.picklist?.() ?? []).map((value) => ({ value, label: value, active: true, defaultValue: false })),
      })),
    };
  }

  // ------------------------------------------------------------ SOQL

  const cursors = new Map<string, { sobject: SObject; rows: Record<string, unknown>[]; size: number }>();
  function batchOf(locator: string, from: number) {
    const c = cursors.get(locator);
    if (!c) throw new SfError(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator');
    const rows = c.rows.slice(from, from + c.size);
    const next = from + c.size;
    const done = next >= c.rows.length;
    if (done) cursors.delete(locator);
    return { totalSize: c.rows.length, done, ...(done ? {} : { nextRecordsUrl: `${API}/query/${locator}-${next}` }), records: rows };
  }

  function runQuery(q: string | null, all: boolean, headers: SimRequest['headers']) {
    if (!q) throw new SfError(400, 'MALFORMED_QUERY', 'A query string has to be specified');
    let parsed;
    try {
      parsed = parseSoql(q);
    } catch (err) {
      if (err instanceof SoqlError) throw new SfError(400, err.errorCode, err.message);
      throw err;
    }
    const sobject = parsed.from as SObject;
    const defs = fieldsBy.get(sobject);
    if (!defs) throw new SfError(400, 'INVALID_TYPE', `sObject type '${parsed.from}' is not supported.`);
    // ContentDocumentLink object reference: "You can't run a query without filters against ContentDocumentLink".
    if (sobject === 'ContentDocumentLink' && !/\b(ContentDocumentId|LinkedEntityId)\s*(=|IN\b)/i.test(q)) {
      throw new SfError(400, 'MALFORMED_QUERY', "Implementation restriction: ContentDocumentLink requires a filter by a single Id on ContentDocumentId or LinkedEntityId using the equals operator or multiple Id's using the IN operator.");
    }
    for (const name of fieldsOf(parsed)) if (!defs.has(name)) throw new SfError(400, 'INVALID_FIELD', `No such column '${name}' on entity '${sobject}'.`);
    const rows = sortRecords(
      [...store.get(sobject)!.values()].filter((r) => (all || r.IsDeleted !== true) && matches(r, parsed.where)),
      parsed.orderBy,
    ).slice(0, parsed.limit ?? Infinity);
    const asked = /batchSize=(\d+)/i.exec(String(headers['sforce-query-options'] ?? ''))?.[1];
    const size = Math.min(Math.max(200, Math.min(2000, Number(asked ?? 2000))), opts.maxBatchSize ?? 2000);
    const locator = `01g5g00000${(++seq).toString(36)}`;
    cursors.set(locator, { sobject, rows: rows.map((r) => view(sobject, r, parsed.fields)), size });
    return batchOf(locator, 0);
  }

  // ------------------------------------------------------------ HTTP

  const errorBody = (e: SfError) => [{ message: e.message, errorCode: e.errorCode, fields: e.fields }];
  const saveResult = (fn: () => Rec) => {
    try {
      return { id: fn().Id, success: true, errors: [] };
    } catch (err) {
      if (!(err instanceof SfError)) throw err;
      return { success: false, errors: [{ statusCode: err.errorCode, message: err.message, fields: err.fields }] };
    }
  };

  /**
   * Composite (`POST /composite`): up to 25 subrequests run in order, one API request in the org's count.
   * `@{referenceId.field}` in a later subrequest's URL or body is the value of that field in an earlier
   * answer (`@{new.id}`, `@{q.records[0].Id}`); a reference that cannot be resolved fails the subrequest.
   * With `allOrNone` false each subrequest stands alone (the adapter sends false: no rollback to simulate).
   */
  function composite(req: SimRequest): SimResponse {
    const body = req.body as { allOrNone?: unknown; compositeRequest?: unknown } | undefined;
    const subs = body?.compositeRequest;
    if (!Array.isArray(subs) || subs.length === 0 || subs.length > 25) throw new SfError(400, 'INVALID_FIELD', 'compositeRequest: between 1 and 25 subrequests');
    if (body?.allOrNone === true) throw new SfError(400, 'INVALID_FIELD', 'allOrNone true is not simulated');
    const answers = new Map<string, unknown>();
    const out = subs.map((sub: { method?: string; url?: string; referenceId?: string; body?: unknown }) => {
      const resolve = (text: string) =>
        text.replace(/@\{([A-Za-z0-9_]+)\.([^}]+)\}/g, (_m, ref: string, path: string) => {
          let v: unknown = answers.get(ref);
          for (const part of path.split(/\.|\[(\d+)\]/).filter(Boolean)) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
          if (typeof v !== 'string' && typeof v !== 'number') throw new SfError(400, 'PROCESSING_HALTED', `Invalid reference specified. No value for ${ref}.${path} found in ${ref}.`);
          return String(v);
        });
      const answer = (() => {
        try {
          const url = new URL(resolve(String(sub.url ?? '')), 'http://sim');
          const subBody = sub.body === undefined ? undefined : JSON.parse(resolve(JSON.stringify(sub.body)));
          const inner = { ...req, method: String(sub.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.searchParams, body: subBody };
          // Each subrequest is checked as the request it stands for.
          spec.checkRequest({ method: inner.method, path: inner.path, query: inner.query, headers: { 'content-type': 'application/json' }, body: subBody });
          const res = route(inner);
          if (res.status < 300) spec.checkResponse(inner, res.status, res.body);
          return res;
        } catch (err) {
          if (err instanceof SfError) return { status: err.status, body: errorBody(err) };
          throw err;
        }
      })();
      if (answer.status < 300 && sub.referenceId) answers.set(sub.referenceId, answer.body);
      return { body: answer.body ?? null, httpHeaders: {}, httpStatusCode: answer.status, referenceId: sub.referenceId ?? null };
    });
    return { status: 200, body: { compositeResponse: out } };
  }

  function handle(req: SimRequest): SimResponse {
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
    if (!bearer || !tokens.has(bearer[1]!)) return { status: 401, body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }] };
    sim.apiUsage++;
    if (sim.apiUsage > dailyLimit) return { status: 403, body: [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }] };
    if (req.method === 'POST' && req.path.replace(/\/$/, '') === `${API}/composite`) {
      try {
        return composite(req);
      } catch (err) {
        if (err instanceof SfError) return { status: err.status, body: errorBody(err) };
        throw err;
      }
    }
    return route(req);
  }

  /** One REST request, authenticated and counted already. */
  function route(req: SimRequest): SimResponse {
    if (!req.path.startsWith(`${API}/`)) return { status: 404, body: [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }] };
    const path = req.path.slice(API.length).replace(/\/$/, '');
    const body = req.body as Record<string, unknown> | undefined;
    try {
      if (req.method === 'GET' && path === '/limits') {
        return { status: 200, body: { DailyApiRequests: { Max: dailyLimit, Remaining: Math.max(0, dailyLimit - sim.apiUsage) } } };
      }
      if (req.method === 'GET' && (path === '/query' || path === '/queryAll')) return { status: 200, body: runQuery(req.query.get('q'), path === '/queryAll', req.headers) };
      const more = /^\/query\/(01g[A-Za-z0-9]+)-(\d+)$/.exec(path);
      if (req.method === 'GET' && more) return { status: 200, body: batchOf(more[1]!, Number(more[2])) };
      if (path === '/composite/sobjects' && req.method === 'POST') {
        const records = body?.records;
        if (!Array.isArray(records) || records.length > 200) throw new SfError(400, 'INVALID_FIELD', 'records: between 1 and 200 records');
        const allOrNone = body?.allOrNone === true;
        const results = records.map((r: Record<string, unknown>) => {
          const type = (r.attributes as { type?: string } | undefined)?.type as SObject;
          return saveResult(() => {
            if (!fieldsBy.has(type)) throw new SfError(400, 'INVALID_TYPE', 'Must specify a valid sObject type in attributes');
            return write(type, null, r);
          });
        });
        if (allOrNone && results.some((r) => !r.success)) throw new SfError(400, 'ALL_OR_NONE_OPERATION_ROLLED_BACK', 'Record rolled back because not all records were valid');
        return { status: 200, body: results };
      }
      if (path === '/composite/sobjects' && req.method === 'DELETE') {
        const ids = (req.query.get('ids') ?? '').split(',').filter(Boolean);
        if (ids.length === 0 || ids.length > 200) throw new SfError(400, 'INVALID_FIELD', 'ids: between 1 and 200 ids');
        return { status: 200, body: ids.map((id) => saveResult(() => (remove(sobjectOfId(id)!, id), { Id: id }))) };
      }
      // ContentNote is how Salesforce presents SNOTE documents; it exists only where Notes are enabled.
      if (req.method === 'GET' && path === '/sobjects/ContentNote/describe') {
        if (opts.enhancedNotes === false) return { status: 404, body: [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }] };
        return { status: 200, body: { ...describe('ContentDocument'), name: 'ContentNote', label: 'Note', keyPrefix: KEY_PREFIX.ContentDocument } };
      }
      // sObject Blob Get (REST API reference, resources_sobject_blob_retrieve.htm): the bytes of a base64 field.
      const blob = /^\/sobjects\/(\w+)\/(\w+)\/(\w+)$/.exec(path);
      if (req.method === 'GET' && blob && fieldsBy.get(blob[1] as SObject)?.get(blob[3]!)?.type === 'base64') {
        const r = find(blob[2]);
        if (!r || sobjectOfId(blob[2]!) !== blob[1]) return { status: 404, body: [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }] };
        return { status: 200, body: Buffer.from(String(r[blob[3]!] ?? ''), 'base64').toString('utf8'), headers: { 'content-type': 'application/octetstream' } };
      }
      const m = /^\/sobjects\/(\w+)(?:\/(\w+))?$/.exec(path);
      const sobject = m?.[1] as SObject | undefined;
      if (!m || !fieldsBy.has(sobject!)) return { status: 404, body: [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }] };
      const id = m[2];
      if (id === 'describe' && req.method === 'GET') return { status: 200, body: describe(sobject!) };
      if (!id) {
        if (req.method === 'GET') return { status: 200, body: { objectDescribe: { name: sobject, keyPrefix: KEY_PREFIX[sobject!] }, recentItems: [] } };
        if (req.method === 'POST') {
          if (!body || typeof body !== 'object' || Array.isArray(body)) throw new SfError(400, 'JSON_PARSER_ERROR', 'The request body is not a JSON object');
          return { status: 201, body: { id: write(sobject!, null, body).Id, success: true, errors: [] } };
        }
        return { status: 405, body: [{ errorCode: 'METHOD_NOT_ALLOWED', message: `HTTP Method '${req.method}' not allowed. Allowed are GET,POST` }] };
      }
      const r = find(id);
      if (!r || sobjectOfId(id) !== sobject) return { status: 404, body: [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }] };
      if (req.method === 'GET') {
        const fields = req.query.get('fields')?.split(',').map((s) => s.trim());
        return { status: 200, body: view(sobject!, r, fields) };
      }
      if (req.method === 'PATCH') {
        write(sobject!, id, body ?? {});
        return { status: 204 };
      }
      if (req.method === 'DELETE') {
        remove(sobject!, id);
        return { status: 204 };
      }
      return { status: 405, body: [{ errorCode: 'METHOD_NOT_ALLOWED', message: `HTTP Method '${req.method}' not allowed. Allowed are GET,PATCH,DELETE` }] };
    } catch (err) {
      if (err instanceof SfError) return { status: err.status, body: errorBody(err) };
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
    describeAuth(req) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      return bearer ? { scheme: 'bearer', label: null, valid: tokens.has(bearer[1]!) } : null;
    },
    faultResponse(fault: ActiveFault) {
      if (fault.status === 403) return { status: 403, body: [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }] };
      return { status: fault.status!, body: [{ message: `Simulated ${fault.status}`, errorCode: fault.status! >= 500 ? 'SERVER_UNAVAILABLE' : 'UNKNOWN_EXCEPTION' }] };
    },
    handle: async (req) => handle(req),
    decorate(req, res) {
      res.headers = { 'sforce-limit-info': `api-usage=${sim.apiUsage}/${dailyLimit}`, ...(res.headers ?? {}) };
      if (res.status < 300) spec.checkResponse(req, res.status, res.body);
    },
    internalError: () => ({ status: 500, body: [{ message: 'An unexpected error occurred.', errorCode: 'UNKNOWN_EXCEPTION' }] }),
  });

  const sim: SalesforceSimulator = {
    url: server.url,
    clock,
    faults,
    requests,
    users,
    stages,
    specAvailable: spec.available,
    specViolations: spec.violations,
    specUndocumented: spec.undocumented,
    apiUsage: 0,
    get: (sobject, id) => {
      const r = store.get(sobject)!.get(id);
      return r && (view(sobject, r) as Rec);
    },
    all: (sobject, o = {}) => [...store.get(sobject)!.values()].filter((r) => o.deleted || r.IsDeleted !== true),
    create: (sobject, fields) => write(sobject, null, fields),
    update: (sobject, id, patch) => write(sobject, id, patch),
    remove,
    addCustomField(sobject, def) {
      const field: SimField = { ...f(def.name, def.type), label: def.label ?? def.name.replace(/__c$/, '').replace(/_/g, ' '), custom: true };
      fieldsBy.get(sobject)!.set(field.name, field);
      for (const r of store.get(sobject)!.values()) r[field.name] ??= null;
      return field;
    },
    addAccessToken: (token) => void tokens.add(token),
    expireSessions: () => tokens.clear(),
    close: () => server.close(),
  };
  return sim;
}
