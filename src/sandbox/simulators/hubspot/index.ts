/**
 * HubSpot CRM API simulator for integration tests and benchmarks.
 *
 * Follows HubSpot's public API reference: CRM objects v3 (basic, batch, search),
 * properties v3, associations v4, owners v3, pipelines v3; private-app bearer tokens;
 * `X-HubSpot-RateLimit-*` headers; error bodies `{status:'error', message, correlationId,
 * category, ...}`.
 *
 * Behaviours worth knowing (all from HubSpot's documentation / observed API behaviour):
 * - every property value is a string; numbers are kept exactly as sent (`"1234.50"`);
 *   datetimes are normalised to ISO 8601, date-only values must be midnight UTC;
 * - unknown / read-only / invalid-option values → 400 `VALIDATION_ERROR` whose message is
 *   `Property values were not valid: [<json list>]` (`PROPERTY_DOESNT_EXIST`, …);
 * - `batch/create` is all-or-nothing: one invalid input rejects the whole batch (400, or
 *   409 for an existing contact email) and nothing is created — unless every input has a
 *   unique `objectWriteTraceId` ("multi-status" mode), then 207 with the valid inputs
 *   created and one error per failed input (`context.objectWriteTraceId`);
 * - `batch/read` / `batch/update` with unknown ids → 207 with an `OBJECT_NOT_FOUND` error
 *   listing them (`batch/read` with none found → 404);
 * - search: ≤ 200 per page, ≤ 5 filter groups × 6 filters (18 total), at most 10,000
 *   results per query (`after` ≥ 10000 → 400), optional index lag;
 * - `DELETE` answers 204 even for unknown ids; archived records 404 on reads unless
 *   `archived=true`.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
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
import {
  ASSOCIATION_TYPES,
  OBJECT_TYPES,
  TYPE_INFO,
  defaultAssociationType,
  resolveObjectType,
  type HubSpotObjectType,
  type Pipeline,
  type PropertyDefinition,
  type PropertyType,
  type FieldType,
} from './model';
import {
  HubSpotStore,
  HubSpotValidationError,
  parseDateValue,
  propertyValuesError,
  type HubSpotOwner,
  type HubSpotRecord,
  type PropertyValidationError,
  type PropertyValues,
} from './store';

import { HubSpotAppWebhooks } from './app-webhooks';
import type { WebhookDelivery } from '../shared/webhook-sender';
export { FaultController, SimClock, HubSpotStore, TYPE_INFO, OBJECT_TYPES, ASSOCIATION_TYPES };
export { HubSpotAppWebhooks, hubspotV3Headers, type HubSpotAppSettings } from './app-webhooks';
export type { ActiveFault, FaultSpec, RecordedRequest, HubSpotObjectType, HubSpotRecord, HubSpotOwner, Pipeline, PropertyDefinition, PropertyValues };

export interface HubSpotRateLimitOptions {
  /** `X-HubSpot-RateLimit-Daily` (private apps only). Default 500 000. */
  daily?: number;
  /** `X-HubSpot-RateLimit-Max` per `intervalMs`. Default 190 (private app, Pro/Enterprise). */
  max?: number;
  /** `X-HubSpot-RateLimit-Interval-Milliseconds`. Default 10 000. */
  intervalMs?: number;
  /** `X-HubSpot-RateLimit-Secondly` (legacy header). Default 19; only enforced when given explicitly. */
  secondly?: number;
  /** Search endpoints: requests per second per token (HubSpot documents 5). Enforced with `enforce`. */
  searchPerSecond?: number;
  /** The search limit's window (default 1 000 ms; longer for time-scaled benchmarks). */
  searchWindowMs?: number;
  /** Answer 429 by itself when a window is exhausted (default false: only faults give 429s). */
  enforce?: boolean;
}

export interface HubSpotSimulatorOptions {
  /** Private-app access tokens accepted as `Authorization: Bearer <token>`. Default `['hs-test-token']`. */
  accessTokens?: string[];
  portalId?: number;
  /** Records modified in the last N ms are not yet visible to the search API (default 0). */
  searchIndexLagMs?: number;
  rateLimit?: HubSpotRateLimitOptions;
  /** Base clock (default `Date.now`); the simulator's `clock` adds offset/freeze on top. */
  now?: () => number;
  /** Seed of the PRNG used by the seeding helpers (default 1). */
  seed?: number;
  /** Number of owners created up front (default 3). */
  owners?: number;
  /** Keep request bodies in `requests` (default true). */
  recordBodies?: boolean;
  /** Keep at most this many entries in `requests` (default: all). */
  maxRequestLog?: number;
  /** How its app webhooks reach their target (default: they reach nothing; see shared/webhook-sender.ts). */
  deliverWebhook?: WebhookDelivery;
  /** Targets per object in one page of v4 association batch reads (default 500, like HubSpot); the rest via `after`. */
  associationPageSize?: number;
  /** Results one search query can page through (default 10,000, like HubSpot); lower it to test the cap quickly. */
  searchResultCap?: number;
}

export interface AccessTokenOptions {
  /** Name recorded in `requests[].auth.label` (the token itself is never recorded). */
  label?: string;
  /** OAuth tokens get no daily rate-limit headers, like HubSpot. Default `private-app`. */
  kind?: 'private-app' | 'oauth';
  /** Epoch ms after which the token is answered with 401 EXPIRED_AUTHENTICATION. */
  expiresAt?: number;
}

export interface SeedOptions {
  /** createdAt of the first seeded record (default: now - 365 days). */
  createdFrom?: number;
  /** createdAt of the last seeded record (default: now - 1 day). */
  createdTo?: number;
  /** Latest modification time handed out (default `createdTo`); each record is modified somewhere between its creation and this. */
  modifiedTo?: number;
  /** Extra / overriding properties per record. */
  properties?: (index: number) => PropertyValues;
}

export interface SeedDealsOptions extends SeedOptions {
  /** Associate every deal with a random live contact (and that contact's company, if any). */
  associateContacts?: boolean;
}

export interface SeedContactsOptions extends SeedOptions {
  /** Associate every contact with a random live company (primary association). */
  associateCompanies?: boolean;
}

export interface HubSpotSimulator {
  readonly url: string;
  readonly portalId: number;
  readonly state: HubSpotStore;
  /** Every request received, in order (credentials redacted). */
  readonly requests: RecordedRequest[];
  readonly faults: FaultController;
  readonly clock: SimClock;
  addAccessToken(token: string, opts?: AccessTokenOptions): void;
  removeAccessToken(token: string): void;
  setSearchIndexLag(ms: number): void;

  seedContacts(count: number, opts?: SeedContactsOptions): HubSpotRecord[];
  seedCompanies(count: number, opts?: SeedOptions): HubSpotRecord[];
  seedDeals(count: number, opts?: SeedDealsOptions): HubSpotRecord[];
  seedEngagements(type: 'notes' | 'tasks' | 'calls' | 'meetings' | 'emails', count: number, opts?: SeedOptions & { associateWith?: HubSpotObjectType }): HubSpotRecord[];

  /** Creates a record as if made in HubSpot's UI (no validation, no request logged). */
  createRecord(type: HubSpotObjectType, properties: PropertyValues, opts?: { createdAt?: number; updatedAt?: number }): HubSpotRecord;
  /** Changes a record remotely; bumps its modification time (default: now). */
  updateRecord(type: HubSpotObjectType, id: string, properties: PropertyValues, opts?: { at?: number }): HubSpotRecord;
  /** Archives (soft-deletes) a record remotely; bumps its modification time. */
  archiveRecord(type: HubSpotObjectType, id: string, opts?: { at?: number }): HubSpotRecord;
  restoreRecord(type: HubSpotObjectType, id: string, opts?: { at?: number }): HubSpotRecord;
  /** Removes a record for good (GDPR delete). */
  purgeRecord(type: HubSpotObjectType, id: string): void;
  associate(fromType: HubSpotObjectType, fromId: string, toType: HubSpotObjectType, toId: string, typeIds?: number[]): void;
  getRecord(type: HubSpotObjectType, id: string): HubSpotRecord | undefined;
  /** Live records (or all with `includeArchived`) in id order. */
  records(type: HubSpotObjectType, opts?: { includeArchived?: boolean }): HubSpotRecord[];
  addOwner(owner?: Partial<HubSpotOwner>): HubSpotOwner;
  /** Adds a custom property definition directly. */
  addProperty(type: HubSpotObjectType, def: { name: string; label?: string; type?: PropertyType; fieldType?: FieldType; groupName?: string; options?: { label: string; value: string }[] }): PropertyDefinition;
  addPipeline(pipeline: { id: string; label: string; stages: { id: string; label: string; probability?: string; isClosed?: boolean }[] }): Pipeline;
  /** Renders a record exactly as `GET /crm/v3/objects/{type}/{id}` would. */
  render(record: HubSpotRecord, properties?: string[]): Record<string, unknown>;
  resetRequests(): void;
  /** The public app's webhook settings (as an app admin sets them) and the signed batches sent. */
  readonly appWebhooks: HubSpotAppWebhooks;
  close(): Promise<void>;
}

interface TokenInfo {
  label: string;
  kind: 'private-app' | 'oauth';
  expiresAt?: number;
}

interface RateBucket {
  day: string;
  dailyUsed: number;
  hits: number[];
}

/** Longest request target (path and query) answered; longer ones get 414. */
const MAX_REQUEST_TARGET = 8_192;
const HS_AUTH_MESSAGE =
  'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

function hsError(status: number, category: string, message: string, extra: Record<string, unknown> = {}): SimResponse {
  return { status, body: { status: 'error', message, correlationId: randomUUID(), category, ...extra } };
}

function fail(status: number, category: string, message: string, extra: Record<string, unknown> = {}): never {
  throw new SimHttpError(hsError(status, category, message, extra));
}

const iso = (ms: number) => new Date(ms).toISOString();

/** mulberry32 */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Margaret', 'Linus', 'Frances', 'Dennis', 'Radia', 'Tim'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Thompson', 'Hamilton', 'Torvalds', 'Allen', 'Ritchie', 'Perlman', 'Berners-Lee'];

export async function startHubSpotSimulator(opts: HubSpotSimulatorOptions = {}): Promise<HubSpotSimulator> {
  const clock = new SimClock(opts.now);
  const store = new HubSpotStore(clock, { searchIndexLagMs: opts.searchIndexLagMs });
  const searchCap = opts.searchResultCap ?? 10_000;
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Map<string, TokenInfo>();
  (opts.accessTokens ?? ['hs-test-token']).forEach((t, i) => tokens.set(t, { label: i === 0 ? 'default' : `token-${i + 1}`, kind: 'private-app' }));
  const portalId = opts.portalId ?? 62_515;
  const appWebhooks = new HubSpotAppWebhooks(portalId, opts.deliverWebhook);
  store.listeners.push((change) => appWebhooks.changed(change));
  const rl = {
    daily: opts.rateLimit?.daily ?? 500_000,
    max: opts.rateLimit?.max ?? 190,
    intervalMs: opts.rateLimit?.intervalMs ?? 10_000,
    secondly: opts.rateLimit?.secondly ?? 19,
    enforceSecondly: opts.rateLimit?.secondly !== undefined,
    searchPerSecond: opts.rateLimit?.searchPerSecond ?? 5,
    searchWindowMs: opts.rateLimit?.searchWindowMs ?? 1000,
    enforce: opts.rateLimit?.enforce ?? false,
  };
  const searchHits = new Map<string, number[]>();
  const buckets = new Map<string, RateBucket>();
  const rand = prng(opts.seed ?? 1);
  for (let i = 0; i < (opts.owners ?? 3); i++) {
    store.addOwner({ firstName: FIRST[i % FIRST.length], lastName: LAST[i % LAST.length], email: `${FIRST[i % FIRST.length]!.toLowerCase()}@example.com` });
  }
  let baseUrl = '';

  // ----------------------------------------------------------------- auth

  function tokenOf(req: SimRequest): string | undefined {
    const h = req.headers.authorization;
    const m = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
    return m?.[1];
  }

  function authenticate(req: SimRequest): TokenInfo {
    const t = tokenOf(req);
    const info = t ? tokens.get(t) : undefined;
    if (!info) fail(401, 'INVALID_AUTHENTICATION', HS_AUTH_MESSAGE);
    if (info.expiresAt !== undefined && clock.now() >= info.expiresAt) {
      const ago = clock.now() - info.expiresAt;
      const [n, unit] = ago >= 3_600_000 ? [Math.floor(ago / 3_600_000), 'hour'] : ago >= 60_000 ? [Math.floor(ago / 60_000), 'minute'] : [Math.floor(ago / 1000), 'second'];
      fail(401, 'EXPIRED_AUTHENTICATION', `The OAuth token used to make this call expired ${n} ${unit}(s) ago.`);
    }
    return info;
  }

  // ---------------------------------------------------------- rate limits

  function bucketFor(label: string): RateBucket {
    const day = iso(clock.now()).slice(0, 10);
    let b = buckets.get(label);
    if (!b || b.day !== day) buckets.set(label, (b = { day, dailyUsed: b?.day === day ? b.dailyUsed : 0, hits: [] }));
    return b;
  }

  /** Requests of the bucket in the rolling interval and in the last second (hits are kept sorted). */
  function windowCounts(b: RateBucket, now: number): { inInterval: number; inSecond: number } {
    let drop = 0;
    while (drop < b.hits.length && b.hits[drop]! <= now - rl.intervalMs) drop++;
    if (drop > 0) b.hits.splice(0, drop);
    let lo = 0;
    let hi = b.hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b.hits[mid]! <= now - 1000) lo = mid + 1;
      else hi = mid;
    }
    return { inInterval: b.hits.length, inSecond: b.hits.length - lo };
  }

  /** Counts the request; returns the policy that is exhausted (for `enforce`), if any. */
  function countRequest(label: string): 'DAILY' | 'TEN_SECONDLY_ROLLING' | 'SECONDLY' | undefined {
    const b = bucketFor(label);
    const now = clock.now();
    const { inInterval, inSecond } = windowCounts(b, now);
    const exhausted =
      b.dailyUsed >= rl.daily ? 'DAILY' : inInterval >= rl.max ? 'TEN_SECONDLY_ROLLING' : rl.enforceSecondly && inSecond >= rl.secondly ? 'SECONDLY' : undefined;
    b.dailyUsed += 1;
    // keep the list sorted even if the clock was moved backwards
    if (b.hits.length && b.hits[b.hits.length - 1]! > now) b.hits.length = 0;
    b.hits.push(now);
    return exhausted;
  }

  /** The search API's own per-second limit. */
  function countSearch(label: string): 'SECONDLY' | undefined {
    const now = clock.now();
    const hits = (searchHits.get(label) ?? []).filter((t) => t > now - rl.searchWindowMs && t <= now);
    const exhausted = hits.length >= rl.searchPerSecond ? 'SECONDLY' : undefined;
    hits.push(now);
    searchHits.set(label, hits);
    return exhausted;
  }

  function rateHeaders(info: TokenInfo, forceZero: boolean): Record<string, string> {
    const b = bucketFor(info.label);
    const { inInterval, inSecond } = windowCounts(b, clock.now());
    const h: Record<string, string> = {
      'x-hubspot-ratelimit-interval-milliseconds': String(rl.intervalMs),
      'x-hubspot-ratelimit-max': String(rl.max),
      'x-hubspot-ratelimit-remaining': String(forceZero ? 0 : Math.max(0, rl.max - inInterval)),
      'x-hubspot-ratelimit-secondly': String(rl.secondly),
      'x-hubspot-ratelimit-secondly-remaining': String(forceZero ? 0 : Math.max(0, rl.secondly - inSecond)),
    };
    // OAuth calls carry no daily headers (HubSpot changelog "Rate limit headers will now appear for OAuth authenticated calls").
    if (info.kind === 'private-app') {
      h['x-hubspot-ratelimit-daily'] = String(rl.daily);
      h['x-hubspot-ratelimit-daily-remaining'] = String(Math.max(0, rl.daily - b.dailyUsed));
    }
    return h;
  }

  function rateLimitBody(policy: string): Record<string, unknown> {
    const label = policy === 'TEN_SECONDLY_ROLLING' ? 'ten_secondly_rolling' : policy.toLowerCase();
    return {
      status: 'error',
      message: `You have reached your ${label} limit.`,
      errorType: 'RATE_LIMIT',
      correlationId: randomUUID(),
      policyName: policy,
      requestId: randomUUID(),
    };
  }

  // ------------------------------------------------------------ helpers

  function objectType(s: string): HubSpotObjectType {
    const t = resolveObjectType(decodeURIComponent(s));
    if (!t) fail(400, 'VALIDATION_ERROR', `Unable to infer object type from: ${decodeURIComponent(s)}`);
    return t;
  }

  function listParam(q: URLSearchParams, name: string): string[] | undefined {
    const all = q.getAll(name);
    if (all.length === 0) return undefined;
    return all.flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  }

  function associationTypesParam(q: URLSearchParams): { types: HubSpotObjectType[]; names: string[] } {
    const names = listParam(q, 'associations') ?? [];
    return { types: names.map((n) => objectType(n)), names };
  }

  function intParam(v: string | null | undefined, name: string): number | undefined {
    if (v === null || v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n)) fail(400, 'VALIDATION_ERROR', `Invalid value for ${name}: ${v}`);
    return n;
  }

  function bodyObject(req: SimRequest): Record<string, unknown> {
    if (req.bodyError) fail(400, 'VALIDATION_ERROR', `Invalid input JSON on line 1, column 1: ${req.bodyError}`);
    const b = req.body;
    if (b === undefined || b === null || typeof b !== 'object' || Array.isArray(b)) {
      fail(400, 'VALIDATION_ERROR', 'Invalid input JSON on line 1, column 1: Cannot deserialize request body');
    }
    return b as Record<string, unknown>;
  }

  function inputsOf(body: Record<string, unknown>, max = 100): Record<string, unknown>[] {
    const inputs = body.inputs;
    if (!Array.isArray(inputs)) fail(400, 'VALIDATION_ERROR', 'Invalid input JSON: "inputs" must be an array');
    if (inputs.length > max) fail(400, 'VALIDATION_ERROR', `Batch input size ${inputs.length} exceeds the maximum of ${max} inputs.`);
    return inputs.map((i) => (i && typeof i === 'object' ? (i as Record<string, unknown>) : {}));
  }

  function notFound(): never {
    fail(404, 'OBJECT_NOT_FOUND', 'resource not found');
  }

  const wrapValidation = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof HubSpotValidationError) fail(e.status, e.category, e.message, e.extra);
      throw e;
    }
  };

  /** Full create-input validation; returns what to insert or an error description. */
  function checkCreateInput(
    type: HubSpotObjectType,
    input: Record<string, unknown>,
    batchEmails?: Map<string, number>,
  ): { ok: true; values: PropertyValues; assoc: ReturnType<HubSpotStore['validateAssociationInputs']> } | { ok: false; propErrors: PropertyValidationError[]; error?: HubSpotValidationError } {
    try {
      const { values, errors } = store.validateProperties(type, input.properties ?? {});
      if (TYPE_INFO[type].engagement && !values.hs_timestamp && !errors.some((e) => e.name === 'hs_timestamp')) {
        errors.push({ isValid: false, message: 'hs_timestamp is required', error: 'REQUIRED_PROPERTY', name: 'hs_timestamp', localizedErrorMessage: 'hs_timestamp is required' });
      }
      if (errors.length > 0) return { ok: false, propErrors: errors };
      store.checkUnique(type, values);
      if (batchEmails && type === 'contacts' && values.email) {
        const key = values.email.toLowerCase();
        if (batchEmails.has(key)) throw new HubSpotValidationError('VALIDATION_ERROR', `Duplicate emails found in batch input: [${values.email}]`);
        batchEmails.set(key, 1);
      }
      const assoc = store.validateAssociationInputs(type, input.associations);
      return { ok: true, values, assoc };
    } catch (e) {
      if (e instanceof HubSpotValidationError) return { ok: false, propErrors: [], error: e };
      throw e;
    }
  }

  function createChecked(type: HubSpotObjectType, values: PropertyValues, assoc: ReturnType<HubSpotStore['validateAssociationInputs']>): HubSpotRecord {
    const rec = store.insert(type, values);
    for (const a of assoc) store.associate(type, rec.id, a.toType, a.toId, a.typeIds);
    return rec;
  }

  const writtenProps = (values: PropertyValues) => Object.keys(values);

  // ------------------------------------------------------------- routes

  type Handler = (req: SimRequest, p: string[]) => SimResponse;
  const routes: { method: string; re: RegExp; h: Handler }[] = [];
  const route = (method: string, pattern: string, h: Handler) => {
    const re = new RegExp('^' + pattern.replace(/:[a-zA-Z]+/g, '([^/]+)') + '/?$');
    routes.push({ method, re, h });
  };

  // --- CRM objects v3: batch (before the `/{id}` routes)
  route('POST', '/crm/v3/objects/:type/batch/read', (req, [t]) => {
    const type = objectType(t!);
    const body = bodyObject(req);
    const inputs = inputsOf(body);
    const props = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    const idProperty = typeof body.idProperty === 'string' ? body.idProperty : undefined;
    const archived = req.query.get('archived') === 'true';
    const startedAt = iso(clock.now());
    const results: unknown[] = [];
    const missing: string[] = [];
    for (const input of inputs) {
      const id = String(input.id ?? '');
      const rec = archived ? store.get(type, id) : store.findLive(type, id, idProperty);
      if (!rec || rec.archived !== archived) missing.push(id);
      else results.push(store.render(rec, props));
    }
    if (missing.length === 0) return { status: 200, body: { status: 'COMPLETE', results, startedAt, completedAt: iso(clock.now()) } };
    const error = {
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      message: `Could not get some ${TYPE_INFO[type].singular.toUpperCase()} objects, they may be deleted or not exist. Check that ids are valid.`,
      context: { ids: missing },
    };
    // Nothing found at all: HubSpot answers 404 with the error; otherwise 207 Multi-Status.
    if (results.length === 0) return { status: 404, body: { ...error, correlationId: randomUUID() } };
    return { status: 207, body: { status: 'COMPLETE', results, numErrors: 1, errors: [error], startedAt, completedAt: iso(clock.now()) } };
  });

  route('POST', '/crm/v3/objects/:type/batch/create', (req, [t]) => {
    const type = objectType(t!);
    const inputs = inputsOf(bodyObject(req));
    const startedAt = iso(clock.now());
    const emails = new Map<string, number>();
    const checked = inputs.map((input) => ({ input, r: checkCreateInput(type, input, emails) }));
    const bad = checked.filter((c) => !c.r.ok);
    // Multi-status mode: HubSpot only reports per-input failures (207) when every input
    // carries a unique `objectWriteTraceId`; otherwise one invalid input fails the whole
    // batch and nothing is created.
    const traceIds = inputs.map((i) => (typeof i.objectWriteTraceId === 'string' ? i.objectWriteTraceId : undefined));
    const multiStatus = traceIds.every((x) => x !== undefined) && new Set(traceIds).size === traceIds.length;
    if (bad.length > 0 && !multiStatus) {
      const propErrors = bad.flatMap((c) => (c.r.ok ? [] : c.r.propErrors));
      if (propErrors.length > 0) throw new SimHttpError(hsError(400, 'VALIDATION_ERROR', propertyValuesError(propErrors).message));
      const first = bad[0]!.r;
      const e = !first.ok && first.error ? first.error : new HubSpotValidationError('VALIDATION_ERROR', 'Invalid input');
      fail(e.status, e.category, e.message, e.extra);
    }
    const results: Record<string, unknown>[] = [];
    const errors: Record<string, unknown>[] = [];
    for (const { input, r } of checked) {
      if (r.ok) {
        const rec = createChecked(type, r.values, r.assoc);
        const out = store.render(rec, writtenProps(r.values));
        if (multiStatus) out.objectWriteTraceId = input.objectWriteTraceId;
        results.push(out);
      } else {
        const e = r.propErrors.length > 0 ? propertyValuesError(r.propErrors) : r.error!;
        errors.push({ status: 'error', category: e.category, message: e.message, context: { objectWriteTraceId: [String(input.objectWriteTraceId)] } });
      }
    }
    const completedAt = iso(clock.now());
    if (errors.length > 0) return { status: 207, body: { status: 'COMPLETE', results, numErrors: errors.length, errors, startedAt, completedAt } };
    return { status: 201, body: { status: 'COMPLETE', results, startedAt, completedAt } };
  });

  route('POST', '/crm/v3/objects/:type/batch/update', (req, [t]) => {
    const type = objectType(t!);
    const inputs = inputsOf(bodyObject(req));
    const startedAt = iso(clock.now());
    const ids = inputs.map((i) => String(i.id ?? ''));
    const dupes = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    if (dupes.length > 0) fail(400, 'VALIDATION_ERROR', `Duplicate IDs found in batch input: [${dupes.join(', ')}]. IDs must be unique`);
    const missing: string[] = [];
    const planned: { rec: HubSpotRecord; values: PropertyValues }[] = [];
    const propErrors: PropertyValidationError[] = [];
    for (const input of inputs) {
      const idProperty = typeof input.idProperty === 'string' ? input.idProperty : undefined;
      const rec = store.findLive(type, String(input.id ?? ''), idProperty);
      if (!rec) {
        missing.push(String(input.id ?? ''));
        continue;
      }
      const { values, errors } = wrapValidation(() => store.validateProperties(type, input.properties ?? {}, rec));
      propErrors.push(...errors);
      planned.push({ rec, values });
    }
    // property errors reject the whole batch, like batch/create
    if (propErrors.length > 0) fail(400, 'VALIDATION_ERROR', propertyValuesError(propErrors).message);
    wrapValidation(() => planned.forEach((p) => store.checkUnique(type, p.values, p.rec.id)));
    const results = planned.map((p) => store.render(store.update(p.rec, p.values), writtenProps(p.values)));
    const completedAt = iso(clock.now());
    if (missing.length === 0) return { status: 200, body: { status: 'COMPLETE', results, startedAt, completedAt } };
    const error = {
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      message: `Could not get some ${TYPE_INFO[type].singular.toUpperCase()} objects, they may be deleted or not exist. Check that ids are valid.`,
      context: { ids: missing },
    };
    return { status: 207, body: { status: 'COMPLETE', results, numErrors: 1, errors: [error], startedAt, completedAt } };
  });

  route('POST', '/crm/v3/objects/:type/batch/archive', (req, [t]) => {
    const type = objectType(t!);
    for (const input of inputsOf(bodyObject(req))) {
      const rec = store.findLive(type, String(input.id ?? ''));
      if (rec) store.archive(rec);
    }
    return { status: 204 };
  });

  // --- search
  route('POST', '/crm/v3/objects/:type/search', (req, [t]) => search(objectType(t!), bodyObject(req)));

  // --- basic
  route('GET', '/crm/v3/objects/:type', (req, [t]) => {
    const type = objectType(t!);
    // HubSpot caps list pages at 100 records.
    const limit = Math.min(Math.max(intParam(req.query.get('limit'), 'limit') ?? 10, 1), 100);
    const afterRaw = req.query.get('after');
    const after = afterRaw ? Number(afterRaw) : undefined;
    if (afterRaw && !Number.isFinite(after)) fail(400, 'VALIDATION_ERROR', `Invalid after value: ${afterRaw}`);
    const archived = req.query.get('archived') === 'true';
    const props = listParam(req.query, 'properties');
    const { types, names } = associationTypesParam(req.query);
    const list = store.ordered(type);
    let i = after === undefined ? 0 : lowerBound(list, after);
    const results: unknown[] = [];
    let next: HubSpotRecord | undefined;
    for (; i < list.length; i++) {
      const rec = list[i]!;
      if (rec.archived !== archived) continue;
      if (results.length === limit) {
        next = rec;
        break;
      }
      results.push(store.render(rec, props, types, names));
    }
    const body: Record<string, unknown> = { results };
    if (next) {
      const q = new URLSearchParams(req.query);
      q.set('after', next.id);
      body.paging = { next: { after: next.id, link: `${baseUrl}${req.path}?${q.toString()}` } };
    }
    return { status: 200, body };
  });

  route('POST', '/crm/v3/objects/:type', (req, [t]) => {
    const type = objectType(t!);
    const r = checkCreateInput(type, bodyObject(req));
    if (!r.ok) {
      if (r.propErrors.length > 0) fail(400, 'VALIDATION_ERROR', propertyValuesError(r.propErrors).message);
      fail(r.error!.status, r.error!.category, r.error!.message, r.error!.extra);
    }
    const rec = createChecked(type, r.values, r.assoc);
    return { status: 201, body: store.render(rec, writtenProps(r.values)) };
  });

  route('GET', '/crm/v3/objects/:type/:id', (req, [t, id]) => {
    const type = objectType(t!);
    const archived = req.query.get('archived') === 'true';
    const idProperty = req.query.get('idProperty') ?? undefined;
    const rec = archived ? store.get(type, decodeURIComponent(id!)) : store.findLive(type, decodeURIComponent(id!), idProperty);
    if (!rec || rec.archived !== archived) notFound();
    const { types, names } = associationTypesParam(req.query);
    return { status: 200, body: store.render(rec, listParam(req.query, 'properties'), types, names) };
  });

  route('PATCH', '/crm/v3/objects/:type/:id', (req, [t, id]) => {
    const type = objectType(t!);
    const body = bodyObject(req);
    const rec = store.findLive(type, decodeURIComponent(id!), req.query.get('idProperty') ?? undefined);
    if (!rec) notFound();
    const { values, errors } = wrapValidation(() => store.validateProperties(type, body.properties ?? {}, rec));
    if (errors.length > 0) fail(400, 'VALIDATION_ERROR', propertyValuesError(errors).message);
    wrapValidation(() => store.checkUnique(type, values, rec.id));
    store.update(rec, values);
    return { status: 200, body: store.render(rec, writtenProps(values)) };
  });

  route('DELETE', '/crm/v3/objects/:type/:id', (_req, [t, id]) => {
    const type = objectType(t!);
    const rec = store.findLive(type, decodeURIComponent(id!));
    if (rec) store.archive(rec);
    // HubSpot answers 204 even when the record does not exist.
    return { status: 204 };
  });

  // --- properties v3
  route('GET', '/crm/v3/properties/:type', (req, [t]) => {
    const type = objectType(t!);
    const archived = req.query.get('archived') === 'true';
    const results = [...store.properties[type].values()].filter((d) => d.archived === archived).map((d) => store.renderProperty(type, d));
    return { status: 200, body: { results } };
  });

  route('GET', '/crm/v3/properties/:type/:name', (_req, [t, name]) => {
    const type = objectType(t!);
    const d = store.properties[type].get(decodeURIComponent(name!));
    if (!d) fail(404, 'OBJECT_NOT_FOUND', `Unable to find property ${decodeURIComponent(name!)} for object type ${TYPE_INFO[type].objectTypeId}`);
    return { status: 200, body: store.renderProperty(type, d) };
  });

  route('POST', '/crm/v3/properties/:type', (req, [t]) => {
    const type = objectType(t!);
    const b = bodyObject(req);
    const missing = ['name', 'label', 'type', 'fieldType', 'groupName'].filter((k) => typeof b[k] !== 'string' || b[k] === '');
    if (missing.length > 0) fail(400, 'VALIDATION_ERROR', `Invalid input JSON: missing required field(s) ${missing.join(', ')}`);
    const name = b.name as string;
    if (!/^[a-z][a-z0-9_]*$/.test(name)) fail(400, 'VALIDATION_ERROR', `Property name ${name} is invalid: it must start with a lowercase letter and contain only lowercase letters, numbers and underscores`);
    if (!['string', 'number', 'date', 'datetime', 'enumeration', 'bool'].includes(b.type as string)) fail(400, 'VALIDATION_ERROR', `Invalid property type: ${String(b.type)}`);
    if (store.properties[type].has(name)) fail(409, 'OBJECT_ALREADY_EXISTS', `Property named '${name}' already exists.`);
    const d = addProperty(type, {
      name,
      label: b.label as string,
      type: b.type as PropertyType,
      fieldType: b.fieldType as FieldType,
      groupName: b.groupName as string,
      description: typeof b.description === 'string' ? b.description : '',
      options: Array.isArray(b.options) ? (b.options as { label: string; value: string }[]) : [],
      hasUniqueValue: b.hasUniqueValue === true,
    });
    return { status: 201, body: store.renderProperty(type, d) };
  });

  // --- associations v4
  route('PUT', '/crm/v4/objects/:from/:fromId/associations/default/:to/:toId', (_req, [f, fromId, tt, toId]) => {
    const from = objectType(f!);
    const to = objectType(tt!);
    requireLive(from, fromId!);
    requireLive(to, toId!);
    const info = defaultAssociationType(from, to);
    if (!info) fail(400, 'VALIDATION_ERROR', `No default association type from ${from} to ${to}`);
    store.associate(from, fromId!, to, toId!, [info.typeId]);
    const spec = (typeId: number) => ({ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: typeId });
    const now = iso(clock.now());
    return {
      status: 200,
      body: {
        status: 'COMPLETE',
        results: [
          { from: { id: fromId }, to: { id: toId }, associationSpec: spec(info.typeId) },
          { from: { id: toId }, to: { id: fromId }, associationSpec: spec(info.inverse) },
        ],
        startedAt: now,
        completedAt: now,
      },
    };
  });

  route('PUT', '/crm/v4/objects/:from/:fromId/associations/:to/:toId', (req, [f, fromId, tt, toId]) => {
    const from = objectType(f!);
    const to = objectType(tt!);
    requireLive(from, fromId!);
    requireLive(to, toId!);
    if (req.bodyError || !Array.isArray(req.body)) fail(400, 'VALIDATION_ERROR', 'Invalid input JSON: expected an array of association specs');
    const typeIds = (req.body as { associationTypeId?: unknown }[]).map((s) => Number(s?.associationTypeId));
    const infos = wrapValidation(() => store.associate(from, fromId!, to, toId!, typeIds));
    return {
      status: 201,
      body: {
        fromObjectTypeId: TYPE_INFO[from].objectTypeId,
        fromObjectId: Number(fromId),
        toObjectTypeId: TYPE_INFO[to].objectTypeId,
        toObjectId: Number(toId),
        labels: infos.map((i) => i.label).filter((l): l is string => l !== null),
      },
    };
  });

  route('DELETE', '/crm/v4/objects/:from/:fromId/associations/:to/:toId', (_req, [f, fromId, tt, toId]) => {
    store.dissociate(objectType(f!), fromId!, objectType(tt!), toId!);
    return { status: 204 };
  });

  route('GET', '/crm/v4/objects/:from/:fromId/associations/:to', (req, [f, fromId, tt]) => {
    const from = objectType(f!);
    const to = objectType(tt!);
    const limit = Math.min(Math.max(intParam(req.query.get('limit'), 'limit') ?? 500, 1), 500);
    const offset = decodeAfter(req.query.get('after'));
    const all = store.associationsOf(from, fromId!, to);
    const page = all.slice(offset, offset + limit).map(([toObjectId, typeIds]) => v4Target(toObjectId, typeIds));
    const body: Record<string, unknown> = { results: page };
    if (offset + limit < all.length) {
      const after = encodeAfter(offset + limit);
      body.paging = { next: { after, link: `${baseUrl}${req.path}?after=${encodeURIComponent(after)}&limit=${limit}` } };
    }
    return { status: 200, body };
  });

  route('POST', '/crm/v4/associations/:from/:to/batch/read', (req, [f, tt]) => {
    const from = objectType(f!);
    const to = objectType(tt!);
    const inputs = inputsOf(bodyObject(req), 1000);
    const startedAt = iso(clock.now());
    const results: unknown[] = [];
    const errors: unknown[] = [];
    const pageSize = opts.associationPageSize ?? 500;
    for (const input of inputs) {
      const id = String(input.id ?? '');
      const all = store.findLive(from, id) ? store.associationsOf(from, id, to) : [];
      // Each object pages on its own: `after` (an offset here) in the input, `paging.next.after` in its result.
      const start = typeof input.after === 'string' && /^\d+$/.test(input.after) ? Number(input.after) : 0;
      const targets = all.slice(start, start + pageSize);
      if (targets.length === 0) {
        errors.push({
          status: 'error',
          category: 'OBJECT_NOT_FOUND',
          subCategory: 'crm.associations.NO_ASSOCIATIONS_FOUND',
          message: `No ${TYPE_INFO[to].singular} is associated with ${TYPE_INFO[from].singular} ${id}.`,
          context: { fromObjectId: [id] },
        });
        continue;
      }
      const more = start + pageSize < all.length;
      results.push({
        from: { id },
        to: targets.map(([toObjectId, typeIds]) => v4Target(toObjectId, typeIds)),
        ...(more ? { paging: { next: { after: String(start + pageSize), link: null } } } : {}),
      });
    }
    const completedAt = iso(clock.now());
    if (errors.length === 0) return { status: 200, body: { status: 'COMPLETE', results, startedAt, completedAt } };
    return { status: 207, body: { status: 'COMPLETE', results, numErrors: errors.length, errors, startedAt, completedAt } };
  });

  // --- owners v3
  // The account the token belongs to (HubSpot's account information API).
  route('GET', '/account-info/v3/details', () => ({
    status: 200,
    body: { portalId, accountType: 'STANDARD', timeZone: 'US/Eastern', companyCurrency: 'USD', additionalCurrencies: [], utcOffset: '-05:00', utcOffsetMilliseconds: -18_000_000, uiDomain: 'app.hubspot.com', dataHostingLocation: 'na1' },
  }));

  route('GET', '/crm/v3/owners', (req) => {
    const limit = Math.min(Math.max(intParam(req.query.get('limit'), 'limit') ?? 100, 1), 500);
    const archived = req.query.get('archived') === 'true';
    const email = req.query.get('email');
    const owners = store.owners.filter((o) => o.archived === archived && (!email || o.email.toLowerCase() === email.toLowerCase()));
    const offset = decodeAfter(req.query.get('after'));
    const body: Record<string, unknown> = { results: owners.slice(offset, offset + limit) };
    if (offset + limit < owners.length) {
      const after = encodeAfter(offset + limit);
      body.paging = { next: { after, link: `${baseUrl}/crm/v3/owners/?after=${encodeURIComponent(after)}&limit=${limit}` } };
    }
    return { status: 200, body };
  });

  route('GET', '/crm/v3/owners/:ownerId', (req, [ownerId]) => {
    const byUser = req.query.get('idProperty') === 'userId';
    const o = store.owners.find((x) => (byUser ? String(x.userId) : x.id) === ownerId);
    if (!o) fail(404, 'OBJECT_NOT_FOUND', `No owner found with id ${ownerId}`);
    return { status: 200, body: o };
  });

  // --- pipelines v3 (deals)
  const pipelinesFor = (t: string): Pipeline[] => {
    const type = objectType(t);
    if (type !== 'deals') fail(400, 'VALIDATION_ERROR', `Pipelines are not supported for object type ${type}`);
    return store.pipelines;
  };
  const findPipeline = (t: string, id: string): Pipeline => {
    const p = pipelinesFor(t).find((x) => x.id === decodeURIComponent(id));
    if (!p) fail(404, 'OBJECT_NOT_FOUND', `Unable to find pipeline ${id}`);
    return p;
  };
  route('GET', '/crm/v3/pipelines/:type', (_req, [t]) => ({ status: 200, body: { results: pipelinesFor(t!).filter((p) => !p.archived) } }));
  route('GET', '/crm/v3/pipelines/:type/:pipelineId', (_req, [t, id]) => ({ status: 200, body: findPipeline(t!, id!) }));
  route('GET', '/crm/v3/pipelines/:type/:pipelineId/stages', (_req, [t, id]) => ({ status: 200, body: { results: findPipeline(t!, id!).stages } }));
  route('GET', '/crm/v3/pipelines/:type/:pipelineId/stages/:stageId', (_req, [t, id, stageId]) => {
    const s = findPipeline(t!, id!).stages.find((x) => x.id === stageId);
    if (!s) fail(404, 'OBJECT_NOT_FOUND', `Unable to find stage ${stageId}`);
    return { status: 200, body: s };
  });

  function requireLive(type: HubSpotObjectType, id: string): HubSpotRecord {
    const rec = store.findLive(type, id);
    if (!rec) fail(404, 'OBJECT_NOT_FOUND', `${TYPE_INFO[type].singular} ${id} not found`);
    return rec;
  }

  function v4Target(toObjectId: string, typeIds: Set<number>) {
    return {
      toObjectId: Number(toObjectId),
      associationTypes: [...typeIds]
        .sort((a, b) => a - b)
        .map((t) => ({ category: 'HUBSPOT_DEFINED', typeId: t, label: ASSOCIATION_TYPES.get(t)?.label ?? null })),
    };
  }

  // ------------------------------------------------------------ search

  type Filter = { propertyName?: string; operator?: string; value?: unknown; highValue?: unknown; values?: unknown[] };

  function search(type: HubSpotObjectType, body: Record<string, unknown>): SimResponse {
    const groups = (Array.isArray(body.filterGroups) ? body.filterGroups : []) as { filters?: Filter[] }[];
    if (groups.length > 5) fail(400, 'VALIDATION_ERROR', `Too many filter groups (${groups.length}); the maximum is 5.`);
    let total = 0;
    for (const g of groups) {
      const n = Array.isArray(g?.filters) ? g.filters.length : 0;
      if (n > 6) fail(400, 'VALIDATION_ERROR', `Too many filters in a filter group (${n}); the maximum is 6.`);
      total += n;
    }
    if (total > 18) fail(400, 'VALIDATION_ERROR', `Too many filters (${total}); the maximum is 18.`);
    const limit = body.limit === undefined ? 10 : Number(body.limit);
    if (!Number.isInteger(limit) || limit < 0) fail(400, 'VALIDATION_ERROR', `Invalid limit: ${String(body.limit)}`);
    if (limit > 200) fail(400, 'VALIDATION_ERROR', `limit must be less than or equal to 200, but was ${limit}`);
    const after = body.after === undefined || body.after === null || body.after === '' ? 0 : Number(body.after);
    if (!Number.isInteger(after) || after < 0) fail(400, 'VALIDATION_ERROR', `Invalid after value: ${String(body.after)}`);
    // The search API never returns more than 10,000 results for a query; paging to or
    // beyond the 10,000th result is rejected with a 400 (HubSpot search guide, "Limitations").
    if (after >= searchCap) fail(400, 'VALIDATION_ERROR', `There was a problem with the request. Search results are limited to ${searchCap.toLocaleString('en-US')} records; "after" must be less than ${searchCap}.`);
    const defs = store.properties[type];
    const filters = groups.map((g) => (g.filters ?? []).map((f) => compileFilter(type, f)));
    const sorts = (Array.isArray(body.sorts) ? body.sorts : []).map((s: unknown) => {
      if (typeof s === 'string') return { prop: s.replace(/^-/, ''), desc: s.startsWith('-') };
      const o = s as { propertyName?: string; direction?: string };
      return { prop: String(o.propertyName ?? ''), desc: String(o.direction ?? 'ASCENDING').toUpperCase() === 'DESCENDING' };
    }).map((x) => ({ ...x, prop: aliasProperty(type, x.prop) }));
    for (const s of sorts) if (!defs.has(s.prop)) fail(400, 'VALIDATION_ERROR', `Property "${s.prop}" does not exist`);
    const query = typeof body.query === 'string' ? body.query.trim().toLowerCase() : '';
    const matches: HubSpotRecord[] = [];
    for (const live of store.ordered(type)) {
      const rec = store.indexed(live);
      if (!rec || rec.archived) continue;
      if (filters.length > 0 && !filters.some((g) => g.every((f) => f(rec)))) continue;
      if (query && !TYPE_INFO[type].queryProps.some((p) => (store.value(rec, p) ?? '').toLowerCase().includes(query))) continue;
      matches.push(rec);
    }
    const sort = sorts[0];
    if (sort) {
      const kind = defs.get(sort.prop)!.type;
      matches.sort((a, b) => {
        const c = compareValues(kind, store.value(a, sort.prop), store.value(b, sort.prop));
        return (sort.desc ? -c : c) || Number(a.id) - Number(b.id);
      });
    }
    const end = Math.min(after + limit, matches.length, searchCap);
    const props = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    const results = matches.slice(after, end).map((r) => store.render(r, props));
    const out: Record<string, unknown> = { total: matches.length, results };
    // Like HubSpot, the cursor keeps advancing up to 10,000 — the next call then fails.
    if (after + limit < matches.length) out.paging = { next: { after: String(after + limit) } };
    return { status: 200, body: out };
  }

  function compileFilter(type: HubSpotObjectType, f: Filter): (rec: HubSpotRecord) => boolean {
    const name = aliasProperty(type, String(f.propertyName ?? ''));
    const d = store.properties[type].get(name);
    if (!d) fail(400, 'VALIDATION_ERROR', `Property "${name}" does not exist for object type ${TYPE_INFO[type].singular}`);
    const op = String(f.operator ?? 'EQ').toUpperCase();
    const kind = d.type;
    const norm = (v: unknown) => normalizeFilterValue(kind, v);
    const get = (rec: HubSpotRecord) => store.value(rec, name);
    switch (op) {
      case 'HAS_PROPERTY':
        return (r) => get(r) !== null && get(r) !== '';
      case 'NOT_HAS_PROPERTY':
        return (r) => get(r) === null || get(r) === '';
      case 'EQ':
      case 'NEQ':
      case 'LT':
      case 'LTE':
      case 'GT':
      case 'GTE': {
        if (f.value === undefined || f.value === null) fail(400, 'VALIDATION_ERROR', `Filter on ${name} with operator ${op} requires a value`);
        const target = norm(f.value);
        if (target === undefined) fail(400, 'VALIDATION_ERROR', `Invalid value ${String(f.value)} for property ${name} of type ${kind}`);
        return (r) => {
          const v = get(r);
          if (v === null || v === '') return op === 'NEQ';
          const c = compareNormalized(normalizeStored(kind, v), target);
          if (c === undefined) return op === 'NEQ';
          return op === 'EQ' ? c === 0 : op === 'NEQ' ? c !== 0 : op === 'LT' ? c < 0 : op === 'LTE' ? c <= 0 : op === 'GT' ? c > 0 : c >= 0;
        };
      }
      case 'BETWEEN': {
        const lo = norm(f.value);
        const hi = norm(f.highValue);
        if (lo === undefined || hi === undefined) fail(400, 'VALIDATION_ERROR', `BETWEEN on ${name} requires value and highValue`);
        return (r) => {
          const v = get(r);
          if (v === null) return false;
          const s = normalizeStored(kind, v);
          return (compareNormalized(s, lo) ?? -1) >= 0 && (compareNormalized(s, hi) ?? 1) <= 0;
        };
      }
      case 'IN':
      case 'NOT_IN': {
        const vals = (Array.isArray(f.values) ? f.values : []).map(norm);
        return (r) => {
          const v = get(r);
          const hit = v !== null && vals.some((x) => x !== undefined && compareNormalized(normalizeStored(kind, v), x) === 0);
          return op === 'IN' ? hit : !hit;
        };
      }
      case 'CONTAINS_TOKEN':
      case 'NOT_CONTAINS_TOKEN': {
        const pattern = String(f.value ?? '').toLowerCase();
        const re = new RegExp('^' + pattern.split('*').map(escapeRe).join('.*') + '$');
        return (r) => {
          const v = (get(r) ?? '').toLowerCase();
          const hit = pattern.includes('*') ? re.test(v) || v.split(/[\s@.,;]+/).some((tok) => re.test(tok)) : v.split(/[\s@.,;]+/).includes(pattern) || v === pattern;
          return op === 'CONTAINS_TOKEN' ? hit : !hit;
        };
      }
      default:
        fail(400, 'VALIDATION_ERROR', `Unknown filter operator: ${op}`);
    }
  }

  /**
   * Lenient aliasing of the create/modify date names across object types
   * (`lastmodifieddate` ↔ `hs_lastmodifieddate`, `createdate` ↔ `hs_createdate`).
   */
  function aliasProperty(type: HubSpotObjectType, name: string): string {
    const defs = store.properties[type];
    if (defs.has(name)) return name;
    const info = TYPE_INFO[type];
    if (name === 'lastmodifieddate' || name === 'hs_lastmodifieddate') return info.modifiedProp;
    if (name === 'createdate' || name === 'hs_createdate') return info.createdProp;
    return name;
  }

  // -------------------------------------------------------- server glue

  function addProperty(type: HubSpotObjectType, d: { name: string; label?: string; type?: PropertyType; fieldType?: FieldType; groupName?: string; description?: string; options?: { label: string; value: string }[]; hasUniqueValue?: boolean }): PropertyDefinition {
    const now = iso(clock.now());
    const ptype = d.type ?? 'string';
    const def: PropertyDefinition = {
      name: d.name,
      label: d.label ?? d.name,
      type: ptype,
      fieldType: d.fieldType ?? (ptype === 'number' ? 'number' : ptype === 'enumeration' ? 'select' : ptype === 'bool' ? 'booleancheckbox' : ptype === 'string' ? 'text' : 'date'),
      groupName: d.groupName ?? `${TYPE_INFO[type].singular}information`,
      description: d.description ?? '',
      options: (d.options ?? []).map((o, i) => ({ label: o.label, value: o.value, displayOrder: i, hidden: false })),
      displayOrder: -1,
      calculated: false,
      externalOptions: false,
      hasUniqueValue: d.hasUniqueValue ?? false,
      hidden: false,
      formField: true,
      modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
      createdAt: now,
      updatedAt: now,
      archived: false,
    };
    store.properties[type].set(def.name, def);
    return def;
  }

  const counted = new WeakSet<SimRequest>();
  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    maxRequestLog: opts.maxRequestLog,
    describeAuth(req) {
      const t = tokenOf(req);
      if (t === undefined) return null;
      const info = tokens.get(t);
      return { scheme: 'bearer', label: info?.label ?? null, valid: Boolean(info) };
    },
    faultResponse(fault, req) {
      const status = fault.status!;
      if (status === 429) return { status, body: rateLimitBody(/\/search\/?$/.test(req.path) ? 'SECONDLY' : 'TEN_SECONDLY_ROLLING') };
      if (status === 401) return hsError(401, 'INVALID_AUTHENTICATION', HS_AUTH_MESSAGE);
      if (status === 403) return hsError(403, 'MISSING_SCOPES', 'This app hasn\'t been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.');
      if (status === 404) return hsError(404, 'OBJECT_NOT_FOUND', 'resource not found');
      if (status >= 500) return { status, body: { status: 'error', message: status === 500 ? 'internal error' : (http.STATUS_CODES[status] ?? 'error'), correlationId: randomUUID() } };
      return hsError(status, 'VALIDATION_ERROR', http.STATUS_CODES[status] ?? 'error');
    },
    handle(req) {
      // Real HubSpot refuses long request lines (a GET naming hundreds of properties) with 414; modelled at 8 KB.
      const target = req.path.length + req.query.toString().length + 1;
      if (target > MAX_REQUEST_TARGET) return { status: 414, body: { status: 'error', message: 'URI Too Long', correlationId: randomUUID() } };
      const info = authenticate(req);
      counted.add(req);
      const exhausted = countRequest(info.label) ?? (/\/search\/?$/.test(req.path) ? countSearch(info.label) : undefined);
      if (exhausted && rl.enforce) return { status: 429, body: rateLimitBody(exhausted) };
      const candidates = routes.filter((r) => r.re.test(req.path));
      if (candidates.length === 0) return { status: 404, body: { status: 'error', message: `Unable to route ${req.method} ${req.path}`, correlationId: randomUUID() } };
      const r = candidates.find((c) => c.method === req.method);
      if (!r) return { status: 405, body: { status: 'error', message: `HTTP ${req.method} is not supported by this URL`, correlationId: randomUUID() } };
      const m = r.re.exec(req.path)!;
      return r.h(req, m.slice(1));
    },
    decorate(req, res) {
      const t = tokenOf(req);
      const info = t ? tokens.get(t) : undefined;
      if (!info) return;
      // faulted requests never reached `handle`; they still consume the budget
      if (!counted.has(req)) countRequest(info.label);
      res.headers = { ...(res.headers ?? {}), ...rateHeaders(info, res.status === 429) };
    },
    internalError(err) {
      return { status: 500, body: { status: 'error', message: `internal error: ${(err as Error)?.message ?? String(err)}`, correlationId: randomUUID() } };
    },
  });
  baseUrl = server.url;

  // ------------------------------------------------------------ seeding

  function spread(count: number, o: SeedOptions): { created: number[]; modified: number[] } {
    const now = clock.now();
    const from = o.createdFrom ?? now - 365 * 86_400_000;
    const to = o.createdTo ?? now - 86_400_000;
    const modTo = Math.max(o.modifiedTo ?? to, to);
    const created: number[] = [];
    const modified: number[] = [];
    for (let i = 0; i < count; i++) {
      const c = count === 1 ? from : Math.round(from + ((to - from) * i) / (count - 1));
      created.push(c);
      modified.push(Math.round(c + rand() * (modTo - c)));
    }
    return { created, modified };
  }

  function seedMany(type: HubSpotObjectType, count: number, o: SeedOptions, make: (i: number) => PropertyValues): HubSpotRecord[] {
    const { created, modified } = spread(count, o);
    const out: HubSpotRecord[] = [];
    for (let i = 0; i < count; i++) {
      out.push(store.insert(type, { ...make(i), ...(o.properties?.(i) ?? {}) }, { createdAt: created[i], updatedAt: modified[i] }));
    }
    return out;
  }

  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const ownerId = () => (store.owners.length ? pick(store.owners).id : null);
  let seedSerial = 0;

  const sim: HubSpotSimulator = {
    url: server.url,
    portalId,
    state: store,
    requests,
    faults,
    clock,
    addAccessToken(token, o = {}) {
      tokens.set(token, { label: o.label ?? `token-${tokens.size + 1}`, kind: o.kind ?? 'private-app', expiresAt: o.expiresAt });
    },
    removeAccessToken(token) {
      tokens.delete(token);
    },
    setSearchIndexLag(ms) {
      store.searchIndexLagMs = ms;
    },
    seedContacts(count, o = {}) {
      const companies = o.associateCompanies ? store.ordered('companies').filter((c) => !c.archived) : [];
      const recs = seedMany('contacts', count, o, () => {
        const n = ++seedSerial;
        const first = pick(FIRST);
        const last = pick(LAST);
        return {
          email: `${first.toLowerCase()}.${last.toLowerCase()}.${n}@example.com`,
          firstname: first,
          lastname: last,
          phone: `+1-555-${String(n % 10_000).padStart(4, '0')}`,
          lifecyclestage: pick(['lead', 'subscriber', 'customer', 'opportunity']),
          hubspot_owner_id: ownerId(),
        };
      });
      if (companies.length) for (const r of recs) store.associate('contacts', r.id, 'companies', pick(companies).id, [1, 279]);
      return recs;
    },
    seedCompanies(count, o = {}) {
      return seedMany('companies', count, o, () => {
        const n = ++seedSerial;
        return { name: `${pick(LAST)} Labs ${n}`, domain: `company${n}.example.com`, industry: pick(['COMPUTER_SOFTWARE', 'RETAIL', 'FINANCIAL_SERVICES']), hubspot_owner_id: ownerId() };
      });
    },
    seedDeals(count, o = {}) {
      const contacts = o.associateContacts ? store.ordered('contacts').filter((c) => !c.archived) : [];
      const stages = store.pipelines[0]!.stages.map((s) => s.id);
      const recs = seedMany('deals', count, o, () => {
        const n = ++seedSerial;
        return {
          dealname: `Deal ${n}`,
          amount: `${Math.floor(rand() * 100_000)}.${String(Math.floor(rand() * 100)).padStart(2, '0')}`,
          pipeline: store.pipelines[0]!.id,
          dealstage: pick(stages),
          closedate: iso(clock.now() + Math.floor(rand() * 90) * 86_400_000),
          hubspot_owner_id: ownerId(),
        };
      });
      if (contacts.length) {
        for (const r of recs) {
          const c = pick(contacts);
          store.associate('deals', r.id, 'contacts', c.id, [3]);
          const company = store.associationsOf('contacts', c.id, 'companies')[0];
          if (company) store.associate('deals', r.id, 'companies', company[0], [5, 341]);
        }
      }
      return recs;
    },
    seedEngagements(type, count, o = {}) {
      const targets = o.associateWith ? store.ordered(o.associateWith).filter((c) => !c.archived) : [];
      const recs = seedMany(type, count, o, (i) => {
        const n = ++seedSerial;
        const base: PropertyValues = { hs_timestamp: iso(clock.now() - i * 60_000), hubspot_owner_id: ownerId() };
        if (type === 'notes') base.hs_note_body = `Note ${n}`;
        if (type === 'tasks') Object.assign(base, { hs_task_subject: `Task ${n}`, hs_task_status: 'NOT_STARTED' });
        if (type === 'calls') Object.assign(base, { hs_call_title: `Call ${n}`, hs_call_direction: 'OUTBOUND' });
        if (type === 'meetings') Object.assign(base, { hs_meeting_title: `Meeting ${n}` });
        if (type === 'emails') Object.assign(base, { hs_email_subject: `Email ${n}`, hs_email_direction: 'EMAIL' });
        return base;
      });
      if (targets.length && o.associateWith) {
        for (const r of recs) store.associate(type, r.id, o.associateWith, pick(targets).id);
      }
      return recs;
    },
    createRecord(type, properties, o = {}) {
      return store.insert(type, properties, o);
    },
    updateRecord(type, id, properties, o = {}) {
      const rec = store.get(type, id);
      if (!rec) throw new Error(`no ${type} ${id}`);
      return store.update(rec, properties, { at: o.at, force: true });
    },
    archiveRecord(type, id, o = {}) {
      const rec = store.get(type, id);
      if (!rec) throw new Error(`no ${type} ${id}`);
      store.archive(rec, o.at);
      return rec;
    },
    restoreRecord(type, id, o = {}) {
      const rec = store.get(type, id);
      if (!rec) throw new Error(`no ${type} ${id}`);
      store.restore(rec, o.at);
      return rec;
    },
    purgeRecord(type, id) {
      const rec = store.get(type, id);
      if (rec) store.purge(rec);
    },
    associate(fromType, fromId, toType, toId, typeIds) {
      store.associate(fromType, fromId, toType, toId, typeIds);
    },
    getRecord(type, id) {
      return store.get(type, id);
    },
    records(type, o = {}) {
      return store.ordered(type).filter((r) => o.includeArchived || !r.archived);
    },
    addOwner(owner = {}) {
      return store.addOwner(owner);
    },
    addProperty(type, d) {
      return addProperty(type, d);
    },
    addPipeline(p) {
      const now = iso(clock.now());
      const pipeline: Pipeline = {
        id: p.id,
        label: p.label,
        displayOrder: store.pipelines.length,
        createdAt: now,
        updatedAt: now,
        archived: false,
        stages: p.stages.map((s, i) => ({
          id: s.id,
          label: s.label,
          displayOrder: i,
          metadata: { isClosed: String(s.isClosed ?? false), probability: s.probability ?? '0.5' },
          createdAt: now,
          updatedAt: now,
          archived: false,
          writePermissions: 'CRM_PERMISSIONS_ENFORCEMENT',
        })),
      };
      store.pipelines.push(pipeline);
      return pipeline;
    },
    render(record, properties) {
      return store.render(record, properties);
    },
    resetRequests() {
      requests.length = 0;
    },
    appWebhooks,
    async close() {
      appWebhooks.stop();
      await appWebhooks.sender.settle();
      await server.close();
    },
  };
  return sim;
}

// ---------------------------------------------------------------- utilities

function lowerBound(list: readonly HubSpotRecord[], id: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Number(list[mid]!.id) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function encodeAfter(offset: number): string {
  return Buffer.from(String(offset)).toString('base64');
}

function decodeAfter(after: string | null): number {
  if (!after) return 0;
  const n = Number(Buffer.from(after, 'base64').toString('utf8'));
  if (!Number.isInteger(n) || n < 0) fail(400, 'VALIDATION_ERROR', `Invalid after value: ${after}`);
  return n;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Normalized = { kind: 'num'; v: number } | { kind: 'str'; v: string };

function normalizeFilterValue(kind: PropertyType, v: unknown): Normalized | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v);
  if (kind === 'datetime' || kind === 'date') {
    const ms = parseDateValue(s);
    return ms === undefined ? undefined : { kind: 'num', v: ms };
  }
  if (kind === 'number') {
    const n = Number(s);
    return Number.isNaN(n) ? undefined : { kind: 'num', v: n };
  }
  return { kind: 'str', v: s.toLowerCase() };
}

function normalizeStored(kind: PropertyType, v: string): Normalized | undefined {
  return normalizeFilterValue(kind, v);
}

function compareNormalized(a: Normalized | undefined, b: Normalized): number | undefined {
  if (!a || a.kind !== b.kind) return undefined;
  if (a.kind === 'num') return a.v - (b.v as number);
  return a.v < (b.v as string) ? -1 : a.v > (b.v as string) ? 1 : 0;
}

function compareValues(kind: PropertyType, a: string | null, b: string | null): number {
  if (a === null || a === '') return b === null || b === '' ? 0 : 1; // empty values sort last
  if (b === null || b === '') return -1;
  const na = normalizeFilterValue(kind, a);
  const nb = normalizeFilterValue(kind, b);
  if (!na || !nb) return a < b ? -1 : a > b ? 1 : 0;
  return compareNormalized(na, nb) ?? 0;
}
