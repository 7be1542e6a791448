/**
 * In-memory HubSpot portal: CRM records, property definitions, associations, owners and
 * deal pipelines, plus the validation / rendering / search rules of the public API.
 */
import {
  ASSOCIATION_TYPES,
  OBJECT_TYPES,
  TYPE_INFO,
  defaultAssociationType,
  defaultDealPipeline,
  defaultProperties,
  type AssociationTypeInfo,
  type HubSpotObjectType,
  type Pipeline,
  type PropertyDefinition,
} from './model';
import type { SimClock } from '../shared/http-kit';

export type PropertyValues = Record<string, string | null>;

export interface HubSpotRecord {
  id: string;
  type: HubSpotObjectType;
  /** Stored property values (computed ones – id, create/modify dates – are not stored). */
  properties: PropertyValues;
  createdAt: number;
  updatedAt: number;
  archived: boolean;
  archivedAt: number | null;
  /** Snapshots for the lagging search index (only kept while a lag is configured). */
  versions?: IndexedVersion[];
}

interface IndexedVersion {
  at: number;
  properties: PropertyValues;
  createdAt: number;
  updatedAt: number;
  archived: boolean;
}

export interface HubSpotOwner {
  id: string;
  email: string;
  /**
   * `PERSON` for a user; owners v3 answers carry it (https://developers.hubspot.com/docs/api-reference/crm-crm-owners-v3/guide,
   * the example owner has `"type": "PERSON"`); `QUEUE` for a help-desk queue.
   */
  type: 'PERSON' | 'QUEUE';
  firstName: string;
  lastName: string;
  userId: number;
  userIdIncludingInactive: number;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  teams: { id: string; name: string; primary: boolean }[];
}

/** One entry of HubSpot's "Property values were not valid" list. */
export interface PropertyValidationError {
  isValid: false;
  message: string;
  error: string;
  name: string;
  localizedErrorMessage: string;
}

export interface AssociationInput {
  to: { id: string | number };
  types: { associationCategory: string; associationTypeId: number }[];
}

export class HubSpotValidationError extends Error {
  constructor(
    readonly category: string,
    message: string,
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMBER_RE = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function propError(name: string, error: string, message: string): PropertyValidationError {
  return { isValid: false, message, error, name, localizedErrorMessage: message };
}

export function propertyValuesError(errors: PropertyValidationError[]): HubSpotValidationError {
  // HubSpot embeds the JSON list in the message string, e.g.
  // `Property values were not valid: [{"isValid":false,"message":"Property \"x\" does not exist",...}]`
  return new HubSpotValidationError('VALIDATION_ERROR', `Property values were not valid: ${JSON.stringify(errors)}`);
}

/** A change HubSpot sends app webhook events for (`propertyNames`: the properties an update changed). */
export interface HubSpotChange {
  kind: 'creation' | 'propertyChange' | 'deletion' | 'restore';
  record: HubSpotRecord;
  propertyNames: string[];
}

export class HubSpotStore {
  /** Called after each change (the simulator's app webhooks listen). */
  readonly listeners: ((change: HubSpotChange) => void)[] = [];
  readonly objects = {} as Record<HubSpotObjectType, Map<string, HubSpotRecord>>;
  readonly properties = {} as Record<HubSpotObjectType, Map<string, PropertyDefinition>>;
  /** `${type}:${id}` → `${toType}:${toId}` → association type ids (both directions are stored). */
  readonly associations = new Map<string, Map<string, Set<number>>>();
  readonly owners: HubSpotOwner[] = [];
  readonly pipelines: Pipeline[] = [defaultDealPipeline()];
  /** Records modified less than this long ago are not yet visible to the search API. */
  searchIndexLagMs: number;
  private readonly order = {} as Record<HubSpotObjectType, HubSpotRecord[]>;
  private readonly nextId = {} as Record<HubSpotObjectType, number>;
  private readonly emailIndex = new Map<string, string>();
  private nextOwnerId = 101;

  constructor(
    readonly clock: SimClock,
    opts: { searchIndexLagMs?: number } = {},
  ) {
    this.searchIndexLagMs = opts.searchIndexLagMs ?? 0;
    for (const t of OBJECT_TYPES) {
      this.objects[t] = new Map();
      this.properties[t] = defaultProperties(t);
      this.order[t] = [];
      this.nextId[t] = TYPE_INFO[t].idBase;
    }
  }

  /** Every record id handed out from now on is at least `base` (the sandbox's per-start ids, src/sandbox/ids.ts). */
  startIdsFrom(base: number): void {
    for (const t of OBJECT_TYPES) this.nextId[t] = Math.max(this.nextId[t], base);
  }

  // ------------------------------------------------------------------ owners

  addOwner(o: Partial<Omit<HubSpotOwner, 'id'>> & { id?: string } = {}): HubSpotOwner {
    const n = this.nextOwnerId++;
    const at = iso(this.clock.now());
    const owner: HubSpotOwner = {
      id: o.id ?? String(n),
      email: o.email ?? `owner${n}@example.com`,
      type: o.type ?? 'PERSON',
      firstName: o.firstName ?? 'Owner',
      lastName: o.lastName ?? String(n),
      userId: o.userId ?? 9_000 + n,
      userIdIncludingInactive: o.userIdIncludingInactive ?? o.userId ?? 9_000 + n,
      createdAt: o.createdAt ?? at,
      updatedAt: o.updatedAt ?? at,
      archived: o.archived ?? false,
      teams: o.teams ?? [],
    };
    this.owners.push(owner);
    return owner;
  }

  // --------------------------------------------------------------- records

  get(type: HubSpotObjectType, id: string): HubSpotRecord | undefined {
    return this.objects[type].get(id);
  }

  /** Live (not archived) record by id or by a unique property (`idProperty`). */
  findLive(type: HubSpotObjectType, id: string, idProperty?: string): HubSpotRecord | undefined {
    if (idProperty && idProperty !== 'hs_object_id') {
      if (type === 'contacts' && idProperty === 'email') {
        const rid = this.emailIndex.get(id.toLowerCase());
        return rid ? this.objects.contacts.get(rid) : undefined;
      }
      for (const r of this.order[type]) if (!r.archived && r.properties[idProperty] === id) return r;
      return undefined;
    }
    const r = this.objects[type].get(id);
    return r && !r.archived ? r : undefined;
  }

  /** Records in id order (archived included). */
  ordered(type: HubSpotObjectType): readonly HubSpotRecord[] {
    return this.order[type];
  }

  /**
   * Validates and normalises a property map as the write endpoints do. Returns the
   * normalised values, or the list of validation errors.
   */
  validateProperties(type: HubSpotObjectType, input: unknown, current?: HubSpotRecord): { values: PropertyValues; errors: PropertyValidationError[] } {
    const errors: PropertyValidationError[] = [];
    const values: PropertyValues = {};
    if (input === undefined || input === null) return { values, errors };
    if (typeof input !== 'object' || Array.isArray(input)) {
      throw new HubSpotValidationError('VALIDATION_ERROR', 'Invalid input JSON: "properties" must be an object');
    }
    const defs = this.properties[type];
    for (const [name, raw] of Object.entries(input as Record<string, unknown>)) {
      const d = defs.get(name);
      if (!d || d.archived) {
        errors.push(propError(name, 'PROPERTY_DOESNT_EXIST', `Property "${name}" does not exist`));
        continue;
      }
      if (d.modificationMetadata.readOnlyValue) {
        errors.push(propError(name, 'READ_ONLY_VALUE', `${name} is a read only property; its value cannot be set.`));
        continue;
      }
      if (raw !== null && typeof raw === 'object') {
        errors.push(propError(name, 'INVALID_PROPERTY_VALUE', `${JSON.stringify(raw)} is not a valid value for ${name}`));
        continue;
      }
      // HubSpot accepts JSON numbers/booleans and stores every value as a string.
      const v = raw === null || raw === undefined ? '' : String(raw);
      if (v === '') {
        values[name] = null;
        continue;
      }
      const err = this.validateValue(type, d, v, values, current);
      if (typeof err === 'object') errors.push(err);
      else values[name] = err;
    }
    return { values, errors };
  }

  /** Returns the normalised value or an error. */
  private validateValue(type: HubSpotObjectType, d: PropertyDefinition, v: string, pending: PropertyValues, current?: HubSpotRecord): string | PropertyValidationError {
    switch (d.type) {
      case 'number':
        // kept exactly as sent ("1234.56" stays "1234.56")
        return NUMBER_RE.test(v.trim()) ? v : propError(d.name, 'INVALID_DOUBLE', `${v} was not a valid number.`);
      case 'bool':
        return /^(true|false)$/i.test(v) ? v.toLowerCase() : propError(d.name, 'INVALID_BOOLEAN', `${v} was not a valid boolean.`);
      case 'datetime': {
        const ms = parseDateValue(v);
        return ms === undefined ? propError(d.name, 'INVALID_DATE', `${v} was not a valid date/time.`) : iso(ms);
      }
      case 'date': {
        const ms = parseDateValue(v);
        if (ms === undefined) return propError(d.name, 'INVALID_DATE', `${v} was not a valid date.`);
        // HubSpot rejects date-only values that are not at midnight UTC
        if (ms % 86_400_000 !== 0) return propError(d.name, 'INVALID_DATE', `${v} is at ${iso(ms).slice(11, 23)} UTC, not midnight!`);
        return iso(ms).slice(0, 10);
      }
      case 'enumeration': {
        const allowed = this.optionValues(type, d, pending, current);
        const parts = d.fieldType === 'checkbox' ? v.split(';') : [v];
        for (const p of parts) {
          if (!allowed.includes(p)) {
            return propError(d.name, 'INVALID_OPTION', `${p} was not one of the allowed options: [${allowed.join(', ')}]`);
          }
        }
        return v;
      }
      default:
        if (type === 'contacts' && d.name === 'email' && !EMAIL_RE.test(v)) return propError(d.name, 'INVALID_EMAIL', `Email address ${v} is invalid`);
        return v;
    }
  }

  optionValues(type: HubSpotObjectType, d: PropertyDefinition, pending: PropertyValues = {}, current?: HubSpotRecord): string[] {
    switch (d.dynamicOptions) {
      case 'owners':
        return this.owners.filter((o) => !o.archived).map((o) => o.id);
      case 'pipelines':
        return this.pipelines.filter((p) => !p.archived).map((p) => p.id);
      case 'stages': {
        const pipelineId = pending.pipeline ?? current?.properties.pipeline ?? (type === 'deals' ? 'default' : undefined);
        const pipeline = this.pipelines.find((p) => p.id === pipelineId);
        const stages = pipeline ? [pipeline] : this.pipelines;
        return stages.flatMap((p) => p.stages.filter((s) => !s.archived).map((s) => s.id));
      }
      default:
        return d.options.filter((o) => !o.hidden).map((o) => o.value);
    }
  }

  /** Definitions with computed option lists filled in, as `GET /crm/v3/properties` shows them. */
  renderProperty(type: HubSpotObjectType, d: PropertyDefinition): Omit<PropertyDefinition, 'dynamicOptions'> {
    const { dynamicOptions, ...rest } = d;
    if (!dynamicOptions) return rest;
    let options: PropertyDefinition['options'];
    if (dynamicOptions === 'owners') {
      options = this.owners.filter((o) => !o.archived).map((o, i) => ({ label: `${o.firstName} ${o.lastName}`.trim(), value: o.id, displayOrder: i, hidden: false }));
    } else if (dynamicOptions === 'pipelines') {
      options = this.pipelines.map((p) => ({ label: p.label, value: p.id, displayOrder: p.displayOrder, hidden: false }));
    } else {
      options = this.pipelines.flatMap((p) => p.stages.map((s) => ({ label: s.label, value: s.id, displayOrder: s.displayOrder, hidden: false, description: `${p.label} pipeline` })));
    }
    return { ...rest, options };
  }

  /** Unique-value checks done after property validation (409 CONFLICT in HubSpot). */
  checkUnique(type: HubSpotObjectType, values: PropertyValues, selfId?: string): void {
    if (type !== 'contacts' || !values.email) return;
    const existing = this.emailIndex.get(values.email.toLowerCase());
    if (existing && existing !== selfId) {
      throw new HubSpotValidationError('CONFLICT', `Contact already exists. Existing ID: ${existing}`, 409);
    }
  }

  /** Creates a record without validation (seeding / remote changes). */
  insert(type: HubSpotObjectType, values: PropertyValues, opts: { createdAt?: number; updatedAt?: number } = {}): HubSpotRecord {
    const now = this.clock.now();
    const id = String(this.nextId[type]++);
    const properties: PropertyValues = { ...values };
    let createdAt = opts.createdAt ?? now;
    const created = TYPE_INFO[type].createdProp;
    if (properties[created]) {
      createdAt = Date.parse(properties[created]!) || createdAt;
      delete properties[created];
    }
    if (type === 'deals' && !properties.pipeline) properties.pipeline = 'default';
    const rec: HubSpotRecord = {
      id,
      type,
      properties,
      createdAt,
      updatedAt: opts.updatedAt ?? (opts.createdAt !== undefined ? createdAt : now),
      archived: false,
      archivedAt: null,
    };
    this.objects[type].set(id, rec);
    this.order[type].push(rec);
    if (type === 'contacts' && properties.email) this.emailIndex.set(properties.email.toLowerCase(), id);
    this.snapshot(rec);
    this.changed({ kind: 'creation', record: rec, propertyNames: Object.keys(properties) });
    return rec;
  }

  /** Applies property changes and bumps the modification time (when something changed). */
  update(rec: HubSpotRecord, values: PropertyValues, opts: { at?: number; force?: boolean } = {}): HubSpotRecord {
    this.prepareVersions(rec);
    let changed = false;
    const names: string[] = [];
    for (const [k, v] of Object.entries(values)) {
      if (k === TYPE_INFO[rec.type].createdProp) {
        const ms = v ? Date.parse(v) : NaN;
        if (!Number.isNaN(ms) && ms !== rec.createdAt) {
          rec.createdAt = ms;
          changed = true;
        }
        continue;
      }
      if ((rec.properties[k] ?? null) === v) continue;
      if (rec.type === 'contacts' && k === 'email') {
        const old = rec.properties.email;
        if (old) this.emailIndex.delete(old.toLowerCase());
        if (v) this.emailIndex.set(v.toLowerCase(), rec.id);
      }
      if (v === null) delete rec.properties[k];
      else rec.properties[k] = v;
      names.push(k);
      changed = true;
    }
    if (changed || opts.force) {
      rec.updatedAt = opts.at ?? this.clock.now();
      this.snapshot(rec);
    }
    if (names.length) this.changed({ kind: 'propertyChange', record: rec, propertyNames: names });
    return rec;
  }

  archive(rec: HubSpotRecord, at = this.clock.now()): void {
    if (rec.archived) return;
    this.prepareVersions(rec);
    rec.archived = true;
    rec.archivedAt = at;
    rec.updatedAt = at;
    if (rec.type === 'contacts' && rec.properties.email) this.emailIndex.delete(rec.properties.email.toLowerCase());
    this.snapshot(rec);
    this.changed({ kind: 'deletion', record: rec, propertyNames: [] });
  }

  private changed(change: HubSpotChange): void {
    for (const listener of this.listeners) listener(change);
  }

  restore(rec: HubSpotRecord, at = this.clock.now()): void {
    if (!rec.archived) return;
    this.prepareVersions(rec);
    rec.archived = false;
    rec.archivedAt = null;
    rec.updatedAt = at;
    if (rec.type === 'contacts' && rec.properties.email) this.emailIndex.set(rec.properties.email.toLowerCase(), rec.id);
    this.snapshot(rec);
    this.changed({ kind: 'restore', record: rec, propertyNames: [] });
  }

  /** Permanently removes a record (GDPR delete) and its associations. */
  purge(rec: HubSpotRecord): void {
    this.objects[rec.type].delete(rec.id);
    const list = this.order[rec.type];
    const i = list.indexOf(rec);
    if (i >= 0) list.splice(i, 1);
    if (rec.type === 'contacts' && rec.properties.email && this.emailIndex.get(rec.properties.email.toLowerCase()) === rec.id) {
      this.emailIndex.delete(rec.properties.email.toLowerCase());
    }
    const key = `${rec.type}:${rec.id}`;
    for (const other of this.associations.get(key)?.keys() ?? []) this.associations.get(other)?.delete(key);
    this.associations.delete(key);
  }

  // ------------------------------------------------------- search index lag

  private prepareVersions(rec: HubSpotRecord): void {
    if (this.searchIndexLagMs > 0 && !rec.versions) rec.versions = [this.version(rec, rec.updatedAt)];
  }

  /** Records the state just written; it reaches the search index `searchIndexLagMs` after its modification time. */
  private snapshot(rec: HubSpotRecord): void {
    if (this.searchIndexLagMs <= 0) {
      rec.versions = undefined;
      return;
    }
    (rec.versions ??= []).push(this.version(rec, rec.updatedAt));
  }

  private version(rec: HubSpotRecord, at: number): IndexedVersion {
    return { at, properties: { ...rec.properties }, createdAt: rec.createdAt, updatedAt: rec.updatedAt, archived: rec.archived };
  }

  /** The record as the (possibly lagging) search index currently sees it. */
  indexed(rec: HubSpotRecord): HubSpotRecord | undefined {
    if (this.searchIndexLagMs <= 0 || !rec.versions) return rec;
    const cutoff = this.clock.now() - this.searchIndexLagMs;
    let idx = -1;
    for (let i = rec.versions.length - 1; i >= 0; i--) {
      if (rec.versions[i]!.at <= cutoff) {
        idx = i;
        break;
      }
    }
    if (idx < 0) return undefined;
    if (idx > 0) rec.versions.splice(0, idx); // older versions are no longer needed
    const v = rec.versions[0]!;
    if (rec.versions.length === 1 && v.updatedAt === rec.updatedAt && v.archived === rec.archived) return rec;
    return { ...rec, properties: v.properties, createdAt: v.createdAt, updatedAt: v.updatedAt, archived: v.archived };
  }

  // ------------------------------------------------------------ rendering

  /** Value of a property as the API shows it (computed properties included). */
  value(rec: HubSpotRecord, name: string): string | null {
    const info = TYPE_INFO[rec.type];
    if (name === 'hs_object_id') return rec.id;
    if (name === info.createdProp || name === 'createdate' || name === 'hs_createdate') {
      if (this.properties[rec.type].has(name)) return iso(rec.createdAt);
    }
    if (name === info.modifiedProp || name === 'hs_lastmodifieddate' || name === 'lastmodifieddate') {
      if (this.properties[rec.type].has(name)) return iso(rec.updatedAt);
    }
    return rec.properties[name] ?? null;
  }

  render(rec: HubSpotRecord, requested: string[] | undefined, associations?: HubSpotObjectType[], assocNames?: string[]): Record<string, unknown> {
    const info = TYPE_INFO[rec.type];
    const defs = this.properties[rec.type];
    const names = requested && requested.length > 0 ? [...new Set([...info.alwaysProps, ...requested])] : info.defaultProps;
    const properties: Record<string, string | null> = {};
    for (const n of [...names].sort()) {
      if (!defs.has(n)) continue; // unknown names are silently ignored on reads
      properties[n] = this.value(rec, n);
    }
    const out: Record<string, unknown> = {
      id: rec.id,
      properties,
      createdAt: iso(rec.createdAt),
      updatedAt: iso(rec.updatedAt),
      archived: rec.archived,
    };
    if (rec.archived && rec.archivedAt !== null) out.archivedAt = iso(rec.archivedAt);
    if (associations && associations.length > 0) {
      const assoc: Record<string, unknown> = {};
      associations.forEach((toType, i) => {
        const results: { id: string; type: string }[] = [];
        for (const [toKey, typeIds] of this.associationsOf(rec.type, rec.id, toType)) {
          for (const t of [...typeIds].sort((a, b) => a - b)) results.push({ id: toKey, type: ASSOCIATION_TYPES.get(t)?.name ?? String(t) });
        }
        if (results.length > 0) assoc[assocNames?.[i] ?? toType] = { results };
      });
      if (Object.keys(assoc).length > 0) out.associations = assoc;
    }
    return out;
  }

  // --------------------------------------------------------- associations

  /** `[toId, typeIds]` pairs of live records of `toType` associated with the record. */
  associationsOf(type: HubSpotObjectType, id: string, toType: HubSpotObjectType): [string, Set<number>][] {
    const out: [string, Set<number>][] = [];
    const m = this.associations.get(`${type}:${id}`);
    if (!m) return out;
    for (const [key, typeIds] of m) {
      const sep = key.indexOf(':');
      if (key.slice(0, sep) !== toType) continue;
      const toId = key.slice(sep + 1);
      const target = this.objects[toType].get(toId);
      if (!target || target.archived || typeIds.size === 0) continue;
      out.push([toId, typeIds]);
    }
    return out.sort((a, b) => Number(a[0]) - Number(b[0]));
  }

  /** Adds association type(s) in both directions. */
  associate(fromType: HubSpotObjectType, fromId: string, toType: HubSpotObjectType, toId: string, typeIds?: number[]): AssociationTypeInfo[] {
    const types = (typeIds ?? [defaultAssociationType(fromType, toType)?.typeId ?? -1]).map((t) => {
      const info = ASSOCIATION_TYPES.get(t);
      if (!info || info.from !== fromType || info.to !== toType) {
        throw new HubSpotValidationError('VALIDATION_ERROR', `${fromType} to ${toType} association type ${t} is not valid`);
      }
      return info;
    });
    for (const info of types) {
      this.link(`${fromType}:${fromId}`, `${toType}:${toId}`, info.typeId);
      this.link(`${toType}:${toId}`, `${fromType}:${fromId}`, info.inverse);
    }
    return types;
  }

  dissociate(fromType: HubSpotObjectType, fromId: string, toType: HubSpotObjectType, toId: string): void {
    this.associations.get(`${fromType}:${fromId}`)?.delete(`${toType}:${toId}`);
    this.associations.get(`${toType}:${toId}`)?.delete(`${fromType}:${fromId}`);
  }

  private link(a: string, b: string, typeId: number): void {
    let m = this.associations.get(a);
    if (!m) this.associations.set(a, (m = new Map()));
    let s = m.get(b);
    if (!s) m.set(b, (s = new Set()));
    s.add(typeId);
  }

  /** Validates `associations` of a create input; throws like HubSpot on bad targets. */
  validateAssociationInputs(type: HubSpotObjectType, inputs: unknown): { toType: HubSpotObjectType; toId: string; typeIds: number[] }[] {
    if (inputs === undefined || inputs === null) return [];
    if (!Array.isArray(inputs)) throw new HubSpotValidationError('VALIDATION_ERROR', 'Invalid input JSON: "associations" must be an array');
    return inputs.map((a: AssociationInput) => {
      const toId = String(a?.to?.id ?? '');
      const typeIds = (a?.types ?? []).map((t) => Number(t.associationTypeId));
      if (!toId || typeIds.length === 0) throw new HubSpotValidationError('VALIDATION_ERROR', 'Association input needs "to.id" and at least one type');
      const infos = typeIds.map((t) => ASSOCIATION_TYPES.get(t));
      const first = infos[0];
      if (!first || infos.some((i) => !i || i.from !== type || i.to !== first.to)) {
        throw new HubSpotValidationError('VALIDATION_ERROR', `association type id(s) ${typeIds.join(', ')} are not valid from ${TYPE_INFO[type].singular}`);
      }
      if (!this.findLive(first.to, toId)) {
        throw new HubSpotValidationError('VALIDATION_ERROR', `One or more associations are invalid: ${TYPE_INFO[first.to].singular} ${toId} does not exist`);
      }
      return { toType: first.to, toId, typeIds };
    });
  }
}

/** Epoch milliseconds from a HubSpot date value: ms epoch (string/number) or ISO 8601. */
export function parseDateValue(v: string): number | undefined {
  const s = v.trim();
  if (/^-?\d+$/.test(s)) return Number(s);
  if (/^\d{4}-\d{2}-\d{2}/.test(s)) {
    const ms = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
