/**
 * Pipedrive API simulator for integration tests and benchmarks.
 *
 * Serves API v2 (`/api/v2/...`: persons, organizations, deals, activities, stages,
 * pipelines, field definitions) and the v1 endpoints v2 lacks (`/v1/...` and
 * `/api/v1/...`: users, notes, field definitions with custom-field creation, and the
 * deprecated activities list). Every request and every simulator response is validated
 * against Pipedrive's published OpenAPI documents when they are present
 * (`specViolations`); see `spec.ts`.
 */
import http from 'node:http';
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
import { ERROR_INFO, type FieldEntity, type PdActivity, type PdDeal, type PdField, type PdFieldType, type PdNote, type PdOrganization, type PdPerson, type PdPipeline, type PdStage, type PdUser } from './model';
import { PdInputError, PipedriveStore, rfc3339, type EntityKind, type EntityOf } from './store';
import { loadSpecCheck, PIPEDRIVE_KNOWN_DEVIATIONS, type KnownDeviation, type SpecViolation } from './spec';
import { PipedriveHooks } from './hooks';

export { FaultController, SimClock, PipedriveStore, PIPEDRIVE_KNOWN_DEVIATIONS };
export { PipedriveHooks, pipedriveHookHeaders, type SimPdWebhook } from './hooks';
export type { ActiveFault, FaultSpec, RecordedRequest, SpecViolation, KnownDeviation, EntityKind, EntityOf, PdPerson, PdOrganization, PdDeal, PdActivity, PdNote, PdUser, PdField, PdPipeline, PdStage, FieldEntity };

export interface PipedriveRateLimitOptions {
  /** `x-ratelimit-limit` for API-token requests per window (default 80: Professional plan). */
  apiTokenLimit?: number;
  /** `x-ratelimit-limit` for OAuth requests per window (default 320: Professional plan). */
  oauthLimit?: number;
  /** Window length (default 2000 ms). */
  windowMs?: number;
  /** Daily POST/PUT/PATCH allowance reported in `x-daily-requests-left` (API tokens; default 10 000). */
  dailyWriteLimit?: number;
  /** Answer 429 by itself when the window is exhausted (default false: only faults give 429s). */
  enforce?: boolean;
}

export interface PipedriveSimulatorOptions {
  /** API tokens (`x-api-token` header or `api_token` query parameter). Default `['pd-test-token']`. */
  apiTokens?: string[];
  /** OAuth access tokens (`Authorization: Bearer`). Default none. */
  oauthTokens?: string[];
  /** Validate traffic against the OpenAPI documents (default true; skipped when the files are absent). */
  validateSpec?: boolean;
  /** Override the document locations (default: shared provider-specs folder). */
  specFiles?: { v1?: string; v2?: string };
  /** Replace the list of accepted spec deviations. */
  knownDeviations?: readonly KnownDeviation[];
  rateLimit?: PipedriveRateLimitOptions;
  now?: () => number;
  /** PRNG seed for seeding helpers and custom-field hashes (default 1). */
  seed?: number;
  /** Users created up front (default 3; user 1 owns the default tokens). */
  users?: number;
  recordBodies?: boolean;
}

export interface TokenOptions {
  label?: string;
  /** The user the token acts as (default 1). */
  userId?: number;
  /** OAuth only: epoch ms after which the token is rejected with 401. */
  expiresAt?: number;
}

export interface SeedOptions {
  addedFrom?: number;
  addedTo?: number;
  /** Latest update time handed out (default `addedTo`). */
  updatedTo?: number;
}

export interface PipedriveSimulator {
  readonly url: string;
  readonly state: PipedriveStore;
  readonly requests: RecordedRequest[];
  readonly faults: FaultController;
  readonly clock: SimClock;
  /** False when the OpenAPI documents were not found (or validation was disabled). */
  readonly specAvailable: boolean;
  /** Spec violations of requests (the client's fault) and of simulator responses. */
  readonly specViolations: SpecViolation[];
  /** Violations explained by a known Pipedrive deviation from its own documents. */
  readonly specDeviations: { violation: SpecViolation; reason: string }[];
  /** Requests to operations the documents do not describe (e.g. the deprecated `/v1/activities`). */
  readonly specUndocumented: { method: string; path: string }[];

  addApiToken(token: string, opts?: TokenOptions): void;
  addOAuthToken(token: string, opts?: TokenOptions): void;
  removeToken(token: string): void;

  seedOrganizations(count: number, opts?: SeedOptions): PdOrganization[];
  seedPersons(count: number, opts?: SeedOptions & { linkOrganizations?: boolean }): PdPerson[];
  seedDeals(count: number, opts?: SeedOptions & { linkPersons?: boolean }): PdDeal[];
  seedActivities(count: number, opts?: SeedOptions & { linkDeals?: boolean }): PdActivity[];
  seedNotes(count: number, opts?: SeedOptions & { linkTo?: 'persons' | 'deals' | 'organizations' }): PdNote[];

  /** Creates an entity as if made in Pipedrive's UI (no validation, no request logged). */
  createEntity<K extends EntityKind>(kind: K, data: Partial<EntityOf<K>>, opts?: { at?: number }): EntityOf<K>;
  /** Changes an entity remotely; bumps `update_time` (default: now). */
  updateEntity<K extends EntityKind>(kind: K, id: number, patch: Partial<EntityOf<K>>, opts?: { at?: number }): EntityOf<K>;
  /** Marks an entity deleted remotely; bumps `update_time`. */
  deleteEntity(kind: EntityKind, id: number, opts?: { at?: number }): void;
  /** Removes an entity for good (as after Pipedrive's 30-day retention). */
  purgeEntity(kind: EntityKind, id: number): void;
  getEntity<K extends EntityKind>(kind: K, id: number): EntityOf<K> | undefined;
  entities<K extends EntityKind>(kind: K, opts?: { includeDeleted?: boolean }): EntityOf<K>[];
  addCustomField(entity: FieldEntity, field: { name: string; field_type: PdFieldType; options?: string[] }): PdField;
  addUser(user?: Partial<PdUser>): PdUser;
  addPipeline(name: string, stageNames: string[]): { pipeline: PdPipeline; stages: PdStage[] };
  resetRequests(): void;
  /** Webhooks created through `POST /v1/webhooks`, and the deliveries sent to them. */
  readonly hooks: PipedriveHooks;
  close(): Promise<void>;
}

interface TokenInfo {
  label: string;
  kind: 'api_token' | 'oauth';
  userId: number;
  expiresAt?: number;
}

type Obj = Record<string, unknown>;

function pdError(status: number, error: string, extra: Obj = {}): SimResponse {
  return { status, body: { success: false, error, ...extra, error_info: ERROR_INFO, data: null, additional_data: null } };
}

function fail(status: number, error: string, extra: Obj = {}): never {
  throw new SimHttpError(pdError(status, error, extra));
}

const ok = (data: unknown, additional?: Obj): SimResponse => ({ status: 200, body: additional === undefined ? { success: true, data } : { success: true, data, additional_data: additional } });

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
const LABEL: Record<EntityKind, string> = { persons: 'Person', organizations: 'Organization', deals: 'Deal', activities: 'Activity', notes: 'Note' };

export async function startPipedriveSimulator(opts: PipedriveSimulatorOptions = {}): Promise<PipedriveSimulator> {
  const clock = new SimClock(opts.now);
  const rand = prng(opts.seed ?? 1);
  const store = new PipedriveStore(clock, rand);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Map<string, TokenInfo>();
  (opts.apiTokens ?? ['pd-test-token']).forEach((t, i) => tokens.set(t, { label: i === 0 ? 'default' : `api-token-${i + 1}`, kind: 'api_token', userId: 1 }));
  (opts.oauthTokens ?? []).forEach((t, i) => tokens.set(t, { label: `oauth-${i + 1}`, kind: 'oauth', userId: 1 }));
  const rl = {
    apiTokenLimit: opts.rateLimit?.apiTokenLimit ?? 80,
    oauthLimit: opts.rateLimit?.oauthLimit ?? 320,
    windowMs: opts.rateLimit?.windowMs ?? 2000,
    dailyWriteLimit: opts.rateLimit?.dailyWriteLimit ?? 10_000,
    enforce: opts.rateLimit?.enforce ?? false,
  };
  const windows = new Map<string, { start: number; count: number; day: string; writes: number }>();
  for (let i = 0; i < (opts.users ?? 3); i++) store.addUser({ name: `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`, email: `${FIRST[i % FIRST.length]!.toLowerCase()}@example.com` });
  store.addPipeline('Sales pipeline', ['Lead In', 'Contact Made', 'Demo Scheduled', 'Proposal Made', 'Negotiations Started']);

  const spec = await loadSpecCheck({ enabled: opts.validateSpec, v1File: opts.specFiles?.v1, v2File: opts.specFiles?.v2, deviations: opts.knownDeviations });

  // ------------------------------------------------------------------- auth

  function credential(req: SimRequest): { token: string; scheme: 'api_token' | 'oauth' } | undefined {
    const h = req.headers.authorization;
    const bearer = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h.trim())?.[1] : undefined;
    if (bearer) return { token: bearer, scheme: 'oauth' };
    const header = req.headers['x-api-token'];
    if (typeof header === 'string' && header) return { token: header, scheme: 'api_token' };
    const q = req.query.get('api_token');
    if (q) return { token: q, scheme: 'api_token' };
    return undefined;
  }

  function tokenInfo(req: SimRequest): TokenInfo | undefined {
    const c = credential(req);
    const info = c ? tokens.get(c.token) : undefined;
    // an API token sent as a bearer token (or an OAuth token as x-api-token) is not accepted
    if (!info || info.kind !== c!.scheme) return undefined;
    return info;
  }

  const unauthorized = (): SimResponse => pdError(401, 'unauthorized access', { errorCode: 401 });

  function authenticate(req: SimRequest): TokenInfo {
    const info = tokenInfo(req);
    if (!info || (info.expiresAt !== undefined && clock.now() >= info.expiresAt)) throw new SimHttpError(unauthorized());
    return info;
  }

  // ------------------------------------------------------------ rate limits

  function windowFor(info: TokenInfo) {
    const now = clock.now();
    const start = Math.floor(now / rl.windowMs) * rl.windowMs;
    const day = new Date(now).toISOString().slice(0, 10);
    let w = windows.get(info.label);
    if (!w) windows.set(info.label, (w = { start, count: 0, day, writes: 0 }));
    if (w.start !== start) {
      w.start = start;
      w.count = 0;
    }
    if (w.day !== day) {
      w.day = day;
      w.writes = 0;
    }
    return w;
  }

  function count(info: TokenInfo, method: string): boolean {
    const w = windowFor(info);
    const limit = info.kind === 'oauth' ? rl.oauthLimit : rl.apiTokenLimit;
    const exhausted = w.count >= limit;
    w.count += 1;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') w.writes += 1;
    return exhausted;
  }

  function rateHeaders(info: TokenInfo, zero: boolean): Record<string, string> {
    const w = windowFor(info);
    const limit = info.kind === 'oauth' ? rl.oauthLimit : rl.apiTokenLimit;
    const h: Record<string, string> = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(zero ? 0 : Math.max(0, limit - w.count)),
      // seconds until the current window resets
      'x-ratelimit-reset': String(Math.max(1, Math.ceil((w.start + rl.windowMs - clock.now()) / 1000))),
    };
    // "x-daily-requests-left: POST/PUT requests left today (UTC); applicable only to api_token requests"
    if (info.kind === 'api_token') h['x-daily-requests-left'] = String(Math.max(0, rl.dailyWriteLimit - w.writes));
    return h;
  }

  const tooMany = (): SimResponse => pdError(429, 'Request over limit', { errorCode: 429 });

  // --------------------------------------------------------------- helpers

  function body(req: SimRequest): Obj {
    if (req.bodyError) fail(400, `Invalid JSON body: ${req.bodyError}`);
    if (req.body === undefined) return {};
    if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) fail(400, 'Validation failed: request body must be a JSON object');
    return req.body as Obj;
  }

  function qInt(q: URLSearchParams, name: string): number | undefined {
    const v = q.get(name);
    if (v === null || v === '') return undefined;
    if (!/^-?\d+$/.test(v)) fail(400, `Validation failed: ${name}: must be an integer`);
    return Number(v);
  }

  function qBool(q: URLSearchParams, name: string): boolean | undefined {
    const v = q.get(name);
    if (v === null || v === '') return undefined;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    fail(400, `Validation failed: ${name}: must be a boolean`);
  }

  function qTime(q: URLSearchParams, name: string): number | undefined {
    const v = q.get(name);
    if (v === null || v === '') return undefined;
    // RFC 3339, e.g. 2025-01-01T10:20:00Z
    const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) ? Date.parse(v) : NaN;
    if (Number.isNaN(ms)) fail(400, `Validation failed: ${name}: must be a valid RFC 3339 date-time (e.g. 2025-01-01T10:20:00Z)`);
    return ms;
  }

  function qIds(q: URLSearchParams): Set<number> | undefined {
    const v = q.get('ids');
    if (!v) return undefined;
    const ids = v.split(',').map((s) => s.trim()).filter(Boolean);
    if (ids.length > 100) fail(400, 'Validation failed: ids: at most 100 ids are allowed');
    if (ids.some((s) => !/^\d+$/.test(s))) fail(400, 'Validation failed: ids: must be a comma separated list of integers');
    return new Set(ids.map(Number));
  }

  function renderOpts(q: URLSearchParams) {
    const cf = q.get('custom_fields');
    const only = cf ? cf.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
    if (only && only.length > 15) fail(400, 'Validation failed: custom_fields: a maximum of 15 keys is allowed');
    return { only, optionLabels: q.get('include_option_labels') === 'true' };
  }

  type Cursor = { field: string; fieldValue: number | string; sortDirection: 'asc' | 'desc'; id: number };
  const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
  function decodeCursor(s: string): Cursor {
    try {
      const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Cursor;
      if (typeof c.field !== 'string' || typeof c.id !== 'number') throw new Error('shape');
      return c;
    } catch {
      fail(400, 'Validation failed: cursor: invalid cursor');
    }
  }

  /**
   * API v2 cursor pagination: `limit` (default 100, max 500), `sort_by`, `sort_direction`,
   * `cursor` = the (opaque) marker of the first item of the next page.
   */
  function cursorPage<T extends { id: number }>(items: T[], q: URLSearchParams, keys: Record<string, (x: T) => number | string | null>): { data: T[]; next_cursor: string | null } {
    const limit = qInt(q, 'limit') ?? 100;
    if (limit < 1) fail(400, 'Validation failed: limit: must be greater than or equal to 1');
    if (limit > 500) fail(400, 'Validation failed: limit: must be less than or equal to 500');
    const sortBy = q.get('sort_by') ?? 'id';
    const key = keys[sortBy];
    if (!key) fail(400, `Validation failed: sort_by: must be one of [${Object.keys(keys).join(', ')}]`);
    const dir = (q.get('sort_direction') ?? 'asc') as 'asc' | 'desc';
    if (dir !== 'asc' && dir !== 'desc') fail(400, 'Validation failed: sort_direction: must be one of [asc, desc]');
    const sign = dir === 'asc' ? 1 : -1;
    const cmp = (a: number | string | null, b: number | string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
    const sorted = sortBy === 'id' && dir === 'asc' ? items : [...items].sort((a, b) => sign * (cmp(key(a), key(b)) || a.id - b.id));
    let start = 0;
    const raw = q.get('cursor');
    if (raw) {
      const c = decodeCursor(raw);
      if (c.field !== sortBy || c.sortDirection !== dir) fail(400, 'Validation failed: cursor: the cursor does not match sort_by / sort_direction');
      start = sorted.findIndex((x) => sign * (cmp(key(x), c.fieldValue) || x.id - c.id) >= 0);
      if (start < 0) start = sorted.length;
    }
    const data = sorted.slice(start, start + limit);
    const next = sorted[start + limit];
    return { data, next_cursor: next ? encodeCursor({ field: sortBy, fieldValue: key(next) ?? '', sortDirection: dir, id: next.id }) : null };
  }

  /** API v1 offset pagination: `start`, `limit` → `additional_data.pagination`. */
  function offsetPage<T>(items: T[], q: URLSearchParams, defaultLimit = 100): { data: T[]; pagination: Obj } {
    const start = qInt(q, 'start') ?? 0;
    const limit = Math.min(qInt(q, 'limit') ?? defaultLimit, 500);
    if (start < 0 || limit < 1) fail(400, 'Validation failed: start/limit out of range');
    const data = items.slice(start, start + limit);
    const more = start + limit < items.length;
    return { data, pagination: { start, limit, more_items_in_collection: more, ...(more ? { next_start: start + limit } : {}) } };
  }

  const byTime = {
    id: (x: { id: number }) => x.id,
    update_time: (x: { update_time: number }) => x.update_time,
    add_time: (x: { add_time: number }) => x.add_time,
  };

  function timeFilter(q: URLSearchParams): (x: { update_time: number }) => boolean {
    const since = qTime(q, 'updated_since');
    const until = qTime(q, 'updated_until');
    return (x) => (since === undefined || x.update_time >= since) && (until === undefined || x.update_time < until);
  }

  function find<K extends EntityKind>(kind: K, idRaw: string, opts: { allowDeleted?: boolean } = {}): EntityOf<K> {
    if (!/^\d+$/.test(idRaw)) fail(400, 'Validation failed: id: must be an integer');
    const e = store.map(kind).get(Number(idRaw));
    if (!e || (e.is_deleted && !opts.allowDeleted)) fail(404, `${LABEL[kind]} not found`);
    return e;
  }

  const inputError = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof PdInputError) fail(e.status, e.message, e.extra);
      throw e;
    }
  };

  // ------------------------------------------------------- entity lifecycle

  function defaults<K extends EntityKind>(kind: K, userId: number, at: number): EntityOf<K> {
    const base = { id: store.allocateId(kind), add_time: at, update_time: at, is_deleted: false, delete_time: null };
    const user = store.users.find((u) => u.id === userId) ?? store.users[0]!;
    switch (kind) {
      case 'persons':
        return { ...base, name: '', first_name: null, last_name: null, owner_id: userId, org_id: null, emails: [], phones: [], visible_to: 3, label_ids: [], picture_id: null, custom: {} } as PdPerson as EntityOf<K>;
      case 'organizations':
        return { ...base, name: '', owner_id: userId, address: null, visible_to: 3, label_ids: [], website: null, linkedin: null, industry: null, annual_revenue: null, employee_count: null, custom: {} } as PdOrganization as EntityOf<K>;
      case 'deals': {
        const pipeline = store.pipelines.find((p) => !p.is_deleted)!;
        const stage = store.stages.filter((s) => s.pipeline_id === pipeline.id && !s.is_deleted).sort((a, b) => a.order_nr - b.order_nr)[0]!;
        return {
          ...base,
          title: '',
          owner_id: userId,
          person_id: null,
          org_id: null,
          pipeline_id: pipeline.id,
          stage_id: stage.id,
          value: 0,
          currency: user.default_currency,
          status: 'open',
          probability: null,
          lost_reason: null,
          visible_to: 3,
          close_time: null,
          won_time: null,
          lost_time: null,
          expected_close_date: null,
          label_ids: [],
          stage_change_time: null,
          is_archived: false,
          archive_time: null,
          origin: 'API',
          custom: {},
        } as PdDeal as EntityOf<K>;
      }
      case 'activities':
        return {
          ...base,
          subject: '',
          type: 'task',
          owner_id: userId,
          creator_user_id: userId,
          deal_id: null,
          person_id: null,
          org_id: null,
          lead_id: null,
          project_id: null,
          due_date: null,
          due_time: null,
          duration: null,
          busy: false,
          done: false,
          marked_as_done_time: null,
          note: null,
          public_description: null,
          priority: null,
          location: null,
          participants: [],
        } as PdActivity as EntityOf<K>;
      default:
        return {
          ...base,
          content: '',
          user_id: userId,
          deal_id: null,
          person_id: null,
          org_id: null,
          lead_id: null,
          project_id: null,
          pinned_to_deal_flag: false,
          pinned_to_person_flag: false,
          pinned_to_organization_flag: false,
          pinned_to_lead_flag: false,
          pinned_to_project_flag: false,
          last_update_user_id: null,
        } as PdNote as EntityOf<K>;
    }
  }

  const hooks = new PipedriveHooks(() => 'acme.pipedrive.com');
  /** An entity as a webhook event's `data` / `previous` carries it (computed only when a webhook listens). */
  function eventData(kind: EntityKind, e: EntityOf<EntityKind>): Obj {
    switch (kind) {
      case 'persons':
        return store.renderPerson(e as PdPerson);
      case 'organizations':
        return store.renderOrganization(e as PdOrganization);
      case 'deals':
        return store.renderDeal(e as PdDeal);
      case 'activities':
        return store.renderActivity(e as PdActivity);
      default:
        return store.renderNote(e as PdNote);
    }
  }

  /** Applies a validated patch, with Pipedrive's side effects (status times, stage change time, …); `notify`: a `change` event. */
  function apply<K extends EntityKind>(kind: K, e: EntityOf<K>, patch: Partial<EntityOf<K>>, at: number, notify = true): EntityOf<K> {
    const previous = notify && hooks.webhooks.size ? eventData(kind, e) : null;
    if (kind === 'deals') {
      const d = e as PdDeal;
      const p = patch as Partial<PdDeal>;
      if (p.stage_id !== undefined && p.stage_id !== d.stage_id) d.stage_change_time = at;
      if (p.status !== undefined && p.status !== d.status) {
        d.won_time = p.status === 'won' ? at : null;
        d.lost_time = p.status === 'lost' ? at : null;
        d.close_time = p.status === 'open' ? null : at;
      }
    }
    if (kind === 'activities') {
      const a = e as PdActivity;
      const p = patch as Partial<PdActivity>;
      if (p.done !== undefined && p.done !== a.done) a.marked_as_done_time = p.done ? at : null;
      if (p.person_id !== undefined && p.participants === undefined) a.participants = p.person_id ? [{ person_id: p.person_id, primary: true }] : [];
      // the activity's person is its primary participant (v2 sets `person_id` only this way)
      if (p.participants !== undefined && p.person_id === undefined) p.person_id = p.participants.find((x) => x.primary)?.person_id ?? null;
    }
    Object.assign(e, patch);
    if (kind === 'activities') {
      const a = e as PdActivity;
      if (!a.subject) a.subject = a.type.charAt(0).toUpperCase() + a.type.slice(1);
    }
    e.update_time = at;
    if (previous) hooks.changed(kind, 'change', e.id, eventData(kind, e), previous, 1);
    return e;
  }

  function insert<K extends EntityKind>(kind: K, patch: Partial<EntityOf<K>>, userId: number, at = store.now()): EntityOf<K> {
    const e = defaults(kind, userId, at);
    apply(kind, e, patch, at, false);
    if (kind === 'persons') {
      const p = e as PdPerson;
      if (!p.first_name && p.name) {
        const [first, ...rest] = p.name.trim().split(/\s+/);
        p.first_name = first ?? null;
        p.last_name = rest.join(' ') || null;
      }
    }
    store.map(kind).set(e.id, e);
    if (hooks.webhooks.size) hooks.changed(kind, 'create', e.id, eventData(kind, e), null, userId);
    return e;
  }

  function remove(kind: EntityKind, e: EntityOf<EntityKind>, at = store.now()) {
    const previous = hooks.webhooks.size ? eventData(kind, e) : null;
    e.is_deleted = true;
    e.delete_time = at;
    e.update_time = at;
    if (previous) hooks.changed(kind, 'delete', e.id, null, previous, 1);
  }

  // ----------------------------------------------------------------- routes

  type Ctx = { req: SimRequest; params: string[]; token: TokenInfo };
  const routes: { method: string; re: RegExp; h: (c: Ctx) => SimResponse }[] = [];
  const route = (method: string, pattern: string, h: (c: Ctx) => SimResponse) => {
    const re = new RegExp('^' + pattern.replace(/:[a-zA-Z]+/g, '([^/]+)') + '/?$');
    routes.push({ method, re, h });
  };
  const v1 = (method: string, pattern: string, h: (c: Ctx) => SimResponse) => {
    route(method, `/v1${pattern}`, h);
    route(method, `/api/v1${pattern}`, h);
  };

  // --- API v2 entities
  type V2 = {
    kind: 'persons' | 'organizations' | 'deals' | 'activities';
    render: (e: never, q: URLSearchParams) => Obj;
    input: (b: Obj, cur?: never) => Obj;
    filter: (q: URLSearchParams) => (e: never) => boolean;
    sortKeys: Record<string, (x: never) => number | string | null>;
  };
  const v2: V2[] = [
    {
      kind: 'persons',
      render: (e: PdPerson, q: URLSearchParams) => store.renderPerson(e, renderOpts(q)),
      input: (b: Obj, cur?: PdPerson) => store.personInput(b, cur),
      filter: (q: URLSearchParams) => {
        const owner = qInt(q, 'owner_id');
        const org = qInt(q, 'org_id');
        const dealId = qInt(q, 'deal_id');
        const dealPerson = dealId === undefined ? undefined : (store.deals.get(dealId)?.person_id ?? -1);
        return (p: PdPerson) => (owner === undefined || p.owner_id === owner) && (org === undefined || p.org_id === org) && (dealPerson === undefined || p.id === dealPerson);
      },
      sortKeys: byTime,
    },
    {
      kind: 'organizations',
      render: (e: PdOrganization, q: URLSearchParams) => store.renderOrganization(e, renderOpts(q)),
      input: (b: Obj, cur?: PdOrganization) => store.organizationInput(b, cur),
      filter: (q: URLSearchParams) => {
        const owner = qInt(q, 'owner_id');
        return (o: PdOrganization) => owner === undefined || o.owner_id === owner;
      },
      sortKeys: byTime,
    },
    {
      kind: 'deals',
      render: (e: PdDeal, q: URLSearchParams) => store.renderDeal(e, renderOpts(q)),
      input: (b: Obj, cur?: PdDeal) => store.dealInput(b, cur),
      filter: (q: URLSearchParams) => {
        const f = Object.fromEntries(['owner_id', 'person_id', 'org_id', 'pipeline_id', 'stage_id'].map((k) => [k, qInt(q, k)])) as Record<string, number | undefined>;
        return (d: PdDeal) =>
          (f.owner_id === undefined || d.owner_id === f.owner_id) &&
          (f.person_id === undefined || d.person_id === f.person_id) &&
          (f.org_id === undefined || d.org_id === f.org_id) &&
          (f.pipeline_id === undefined || d.pipeline_id === f.pipeline_id) &&
          (f.stage_id === undefined || d.stage_id === f.stage_id);
      },
      sortKeys: byTime,
    },
    {
      kind: 'activities',
      render: (e: PdActivity) => store.renderActivity(e),
      input: (b: Obj, cur?: PdActivity) => {
        // API v2 treats an activity's `person_id` as read-only: "set indirectly by adding a primary participant"
        // (https://pipedrive.readme.io/docs/pipedrive-api-v2-migration-guide, Activities). The live answer, as
        // reported in https://devcommunity.pipedrive.com/t/api-v1-to-v2-upgrade-post-activities-http-400-responses/19734;
        // the v2 OpenAPI document still lists it as writable, the documentation wins.
        if ('person_id' in b) {
          throw new PdInputError("'person_id' is a read-only field. Add a primary participant to set 'person_id' instead.", 400, { code: 'ERR_BAD_REQUEST' });
        }
        return store.activityInput(b, cur);
      },
      filter: (q: URLSearchParams) => {
        const f = Object.fromEntries(['owner_id', 'deal_id', 'person_id', 'org_id'].map((k) => [k, qInt(q, k)])) as Record<string, number | undefined>;
        const done = qBool(q, 'done');
        return (a: PdActivity) =>
          (f.owner_id === undefined || a.owner_id === f.owner_id) &&
          (f.deal_id === undefined || a.deal_id === f.deal_id) &&
          (f.person_id === undefined || a.person_id === f.person_id) &&
          (f.org_id === undefined || a.org_id === f.org_id) &&
          (done === undefined || a.done === done);
      },
      sortKeys: { ...byTime, due_date: (a: PdActivity) => (a.due_date ? `${a.due_date} ${a.due_time ?? ''}` : null) },
    },
  ] as unknown as V2[];

  for (const def of v2) {
    const { kind } = def;
    const render = def.render as (e: EntityOf<typeof kind>, q: URLSearchParams) => Obj;
    const input = def.input as (b: Obj, cur?: EntityOf<typeof kind>) => Partial<EntityOf<typeof kind>>;
    route('GET', `/api/v2/${kind}`, ({ req }) => {
      const q = req.query;
      const ids = qIds(q);
      const filter = def.filter(q) as (e: EntityOf<typeof kind>) => boolean;
      const inTime = timeFilter(q);
      let status: string | undefined;
      if (kind === 'deals') {
        status = q.get('status') ?? undefined;
        if (status !== undefined && !['open', 'won', 'lost', 'deleted'].includes(status)) fail(400, 'Validation failed: status: must be one of [open, won, lost, deleted]');
      }
      renderOpts(q);
      const items: EntityOf<typeof kind>[] = [];
      for (const e of store.map(kind).values()) {
        if (status === 'deleted' ? !e.is_deleted : e.is_deleted) continue;
        if (status && status !== 'deleted' && (e as PdDeal).status !== status) continue;
        if (ids && !ids.has(e.id)) continue;
        if (!inTime(e) || !filter(e)) continue;
        items.push(e);
      }
      const page = cursorPage(items, q, def.sortKeys as Record<string, (x: EntityOf<typeof kind>) => number | string | null>);
      // `next_cursor` is null on the last page (the document's description; its schema omits nullable)
      return ok(
        page.data.map((e) => render(e, q)),
        { next_cursor: page.next_cursor },
      );
    });
    route('GET', `/api/v2/${kind}/:id`, ({ req, params }) => ok(render(find(kind, params[0]!, { allowDeleted: true }), req.query)));
    route('POST', `/api/v2/${kind}`, ({ req, token }) => {
      const patch = inputError(() => input(body(req)));
      const e = insert(kind, patch, token.userId);
      return ok(render(e, req.query));
    });
    route('PATCH', `/api/v2/${kind}/:id`, ({ req, params }) => {
      const e = find(kind, params[0]!);
      const patch = inputError(() => input(body(req), e));
      apply(kind, e, patch, store.now());
      return ok(render(e, req.query));
    });
    // "Marks a person as deleted. After 30 days, the person will be permanently deleted." (v2 document):
    // deleted entities stay readable by id (is_deleted: true) and leave the lists; `purgeEntity` ends the retention.
    route('DELETE', `/api/v2/${kind}/:id`, ({ params }) => {
      const e = find(kind, params[0]!);
      remove(kind, e);
      return ok({ id: e.id });
    });
  }

  // --- API v2 pipelines & stages
  route('GET', '/api/v2/pipelines', ({ req }) => {
    const page = cursorPage(store.pipelines.filter((p) => !p.is_deleted), req.query, byTime);
    return ok(page.data.map(renderPipeline), { next_cursor: page.next_cursor });
  });
  route('GET', '/api/v2/pipelines/:id', ({ params }) => {
    const p = store.pipelines.find((x) => String(x.id) === params[0]);
    if (!p) fail(404, 'Pipeline not found');
    return ok(renderPipeline(p));
  });
  route('GET', '/api/v2/stages', ({ req }) => {
    const pipelineId = qInt(req.query, 'pipeline_id');
    const list = store.stages.filter((s) => !s.is_deleted && (pipelineId === undefined || s.pipeline_id === pipelineId));
    const page = cursorPage(list, req.query, { ...byTime, order_nr: (s: PdStage) => s.order_nr });
    return ok(page.data.map(renderStage), { next_cursor: page.next_cursor });
  });
  route('GET', '/api/v2/stages/:id', ({ params }) => {
    const s = store.stages.find((x) => String(x.id) === params[0]);
    if (!s) fail(404, 'Stage not found');
    return ok(renderStage(s));
  });

  // --- field definitions (v1 and v2)
  const FIELD_PATHS: Record<string, FieldEntity> = { personFields: 'person', organizationFields: 'organization', dealFields: 'deal', activityFields: 'activity' };
  for (const [segment, entity] of Object.entries(FIELD_PATHS)) {
    route('GET', `/api/v2/${segment}`, ({ req }) => {
      const list = store.fields[entity].filter((f) => f.active);
      const page = cursorPage(list, req.query, { id: (f: PdField) => f.id });
      return ok(page.data.map((f) => store.renderFieldV2(f)), { next_cursor: page.next_cursor });
    });
    v1('GET', `/${segment}`, ({ req }) => {
      const page = offsetPage(store.fields[entity].filter((f) => f.active), req.query, 500);
      return ok(page.data.map((f) => store.renderFieldV1(f)), { pagination: page.pagination });
    });
    v1('GET', `/${segment}/:id`, ({ params }) => {
      const f = store.fields[entity].find((x) => String(x.id) === params[0] && x.active);
      if (!f) fail(404, 'Field not found');
      return ok(store.renderFieldV1(f));
    });
    if (entity !== 'activity') {
      v1('POST', `/${segment}`, ({ req }) => {
        const b = body(req);
        if (typeof b.name !== 'string' || b.name.trim() === '') fail(400, 'Validation failed: name: Parameter is required');
        const types = ['address', 'date', 'daterange', 'double', 'enum', 'monetary', 'org', 'people', 'phone', 'set', 'text', 'time', 'timerange', 'user', 'varchar', 'varchar_auto', 'visible_to'];
        if (typeof b.field_type !== 'string' || !types.includes(b.field_type)) fail(400, `Validation failed: field_type: must be one of [${types.join(', ')}]`);
        const options = b.options;
        if ((b.field_type === 'enum' || b.field_type === 'set') && (!Array.isArray(options) || options.length === 0)) fail(400, 'Validation failed: options: required for enum and set fields');
        const f = store.addField(entity, { name: b.name, field_type: b.field_type as PdFieldType, options: Array.isArray(options) ? (options as { label: string }[]) : undefined });
        return ok(store.renderFieldV1(f));
      });
      v1('DELETE', `/${segment}/:id`, ({ params }) => {
        const f = store.fields[entity].find((x) => String(x.id) === params[0] && x.active);
        if (!f) fail(404, 'Field not found');
        if (!f.custom) fail(403, 'This field cannot be deleted');
        f.active = false;
        return ok({ id: f.id });
      });
    }
  }

  // --- v1 users
  v1('GET', '/users', ({ token }) => ok(store.users.map((u) => store.renderUser(u, token.userId))));
  v1('GET', '/users/me', ({ token }) => {
    const u = store.users.find((x) => x.id === token.userId)!;
    return ok({ ...store.renderUser(u, token.userId), company_id: 1, company_name: 'Omniport Test Co', company_domain: 'omniport-test', company_country: 'EE', company_industry: 'Software', language: { language_code: 'en', country_code: 'US' } });
  });
  v1('GET', '/users/:id', ({ params, token }) => {
    const u = store.users.find((x) => String(x.id) === params[0]);
    if (!u) fail(404, 'User not found');
    return ok(store.renderUser(u, token.userId));
  });

  // --- v1 notes
  function noteInput(b: Obj, current?: PdNote): Partial<PdNote> {
    const out: Partial<PdNote> = {};
    if ('content' in b || !current) {
      if (typeof b.content !== 'string' || b.content === '') fail(400, 'Validation failed: content: Parameter is required');
      out.content = b.content;
    }
    inputError(() => {
      if ('deal_id' in b) out.deal_id = store.refDeal(b.deal_id);
      if ('person_id' in b) out.person_id = store.refPerson(b.person_id);
      if ('org_id' in b) out.org_id = store.refOrg(b.org_id);
      if ('user_id' in b) out.user_id = store.user(b.user_id, 'user_id');
    });
    if ('lead_id' in b) out.lead_id = typeof b.lead_id === 'string' ? b.lead_id : null;
    if ('project_id' in b) out.project_id = typeof b.project_id === 'number' ? b.project_id : null;
    for (const k of ['pinned_to_deal_flag', 'pinned_to_person_flag', 'pinned_to_organization_flag', 'pinned_to_lead_flag', 'pinned_to_project_flag'] as const) {
      if (k in b) out[k] = b[k] === 1 || b[k] === true;
    }
    const merged = { ...current, ...out };
    if (!merged.deal_id && !merged.person_id && !merged.org_id && !merged.lead_id && !merged.project_id) {
      fail(400, 'Validation failed: one of deal_id, person_id, org_id, lead_id or project_id is required');
    }
    return out;
  }

  v1('GET', '/notes', ({ req }) => {
    const q = req.query;
    const f = Object.fromEntries(['user_id', 'deal_id', 'person_id', 'org_id'].map((k) => [k, qInt(q, k)])) as Record<string, number | undefined>;
    const lead = q.get('lead_id');
    const since = qTime(q, 'updated_since');
    const list = [...store.notes.values()].filter(
      (n) =>
        !n.is_deleted &&
        (f.user_id === undefined || n.user_id === f.user_id) &&
        (f.deal_id === undefined || n.deal_id === f.deal_id) &&
        (f.person_id === undefined || n.person_id === f.person_id) &&
        (f.org_id === undefined || n.org_id === f.org_id) &&
        (!lead || n.lead_id === lead) &&
        (since === undefined || n.update_time >= since),
    );
    const sort = q.get('sort');
    if (sort) {
      const m = /^(id|add_time|update_time|content)(?:\s+(ASC|DESC))?$/i.exec(sort.trim());
      if (!m) fail(400, `Validation failed: sort: unsupported sort '${sort}'`);
      const field = m[1]!.toLowerCase() as 'id' | 'add_time' | 'update_time' | 'content';
      const sign = (m[2] ?? 'ASC').toUpperCase() === 'DESC' ? -1 : 1;
      list.sort((a, b) => sign * ((a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0) || a.id - b.id));
    }
    const page = offsetPage(list, q);
    // v1 list endpoints answer `data: null` (not []) when nothing matches
    return ok(page.data.length ? page.data.map((n) => store.renderNote(n)) : null, { pagination: page.pagination });
  });
  // --- v1 webhooks
  const WEBHOOK_ACTIONS = ['create', 'change', 'delete', '*'];
  const WEBHOOK_OBJECTS = ['activity', 'deal', 'lead', 'note', 'organization', 'person', 'pipeline', 'product', 'stage', 'user', '*'];
  v1('GET', '/webhooks', () => ({ status: 200, body: { status: 'ok', success: true, data: [...hooks.webhooks.values()].map((h) => hooks.render(h)) } }));
  v1('POST', '/webhooks', ({ req, token }) => {
    const b = body(req);
    const str = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : null);
    const url = str('subscription_url');
    if (!url || !/^https?:\/\/\S+$/.test(url)) fail(400, 'Validation failed: subscription_url: must be a valid URL');
    if (!WEBHOOK_ACTIONS.includes(str('event_action') ?? '')) fail(400, `Validation failed: event_action: must be one of [${WEBHOOK_ACTIONS.join(', ')}]`);
    if (!WEBHOOK_OBJECTS.includes(str('event_object') ?? '')) fail(400, `Validation failed: event_object: must be one of [${WEBHOOK_OBJECTS.join(', ')}]`);
    const name = str('name');
    if (!name) fail(400, 'Validation failed: name: is required');
    const version = str('version') ?? '2.0';
    if (version !== '1.0' && version !== '2.0') fail(400, 'Validation failed: version: must be one of [1.0, 2.0]');
    if ([...hooks.webhooks.values()].filter((h) => h.user_id === token.userId).length >= 40) fail(400, 'The maximum number of webhooks per user (40) is reached');
    const hook = hooks.create({
      name,
      subscription_url: url,
      event_action: str('event_action') as 'create',
      event_object: str('event_object')!,
      user_id: typeof b.user_id === 'number' ? b.user_id : token.userId,
      http_auth_user: str('http_auth_user'),
      http_auth_password: str('http_auth_password'),
      version,
    });
    return { status: 201, body: { status: 'ok', success: true, data: hooks.render(hook) } };
  });
  v1('DELETE', '/webhooks/:id', ({ params }) => {
    const id = Number(params[0]);
    if (!hooks.webhooks.delete(id)) fail(404, 'Webhook not found');
    return { status: 200, body: { status: 'ok', success: true } };
  });

  v1('GET', '/notes/:id', ({ params }) => ok(store.renderNote(find('notes', params[0]!))));
  v1('POST', '/notes', ({ req, token }) => {
    const patch = noteInput(body(req));
    return ok(store.renderNote(insert('notes', { ...patch, last_update_user_id: token.userId }, token.userId)));
  });
  v1('PUT', '/notes/:id', ({ req, params, token }) => {
    const n = find('notes', params[0]!);
    apply('notes', n, { ...noteInput(body(req), n), last_update_user_id: token.userId }, store.now());
    return ok(store.renderNote(n));
  });
  v1('DELETE', '/notes/:id', ({ params }) => {
    remove('notes', find('notes', params[0]!));
    return ok(true);
  });

  // --- v1 activities (deprecated; not in the current v1 document)
  function v1ActivityInput(b: Obj, cur?: PdActivity): Partial<PdActivity> {
    const mapped: Obj = { ...b };
    if ('user_id' in b) {
      mapped.owner_id = b.user_id;
      delete mapped.user_id;
    }
    if ('done' in b) mapped.done = b.done === 1 || b.done === true || b.done === '1';
    if ('busy_flag' in b) {
      mapped.busy = b.busy_flag === true;
      delete mapped.busy_flag;
    }
    if (typeof b.location === 'string') mapped.location = { value: b.location };
    return inputError(() => store.activityInput(mapped, cur));
  }
  v1('GET', '/activities', ({ req }) => {
    const q = req.query;
    const userId = qInt(q, 'user_id');
    const doneRaw = q.get('done');
    const type = q.get('type');
    const startDate = q.get('start_date');
    const endDate = q.get('end_date');
    const list = [...store.activities.values()].filter(
      (a) =>
        !a.is_deleted &&
        (userId === undefined || userId === 0 || a.owner_id === userId) &&
        (doneRaw === null || a.done === (doneRaw === '1' || doneRaw === 'true')) &&
        (!type || type.split(',').includes(a.type)) &&
        (!startDate || (a.due_date !== null && a.due_date >= startDate)) &&
        (!endDate || (a.due_date !== null && a.due_date <= endDate)),
    );
    const page = offsetPage(list, q);
    return ok(page.data.length ? page.data.map((a) => store.renderActivityV1(a)) : null, { pagination: page.pagination });
  });
  v1('GET', '/activities/:id', ({ params }) => ok(store.renderActivityV1(find('activities', params[0]!))));
  v1('POST', '/activities', ({ req, token }) => ok(store.renderActivityV1(insert('activities', v1ActivityInput(body(req)), token.userId))));
  v1('PUT', '/activities/:id', ({ req, params }) => {
    const a = find('activities', params[0]!);
    apply('activities', a, v1ActivityInput(body(req), a), store.now());
    return ok(store.renderActivityV1(a));
  });
  v1('DELETE', '/activities/:id', ({ params }) => {
    const a = find('activities', params[0]!);
    remove('activities', a);
    return ok({ id: a.id });
  });

  function renderPipeline(p: PdPipeline): Obj {
    return { id: p.id, name: p.name, order_nr: p.order_nr, is_deleted: p.is_deleted, is_deal_probability_enabled: p.is_deal_probability_enabled, add_time: rfc3339(p.add_time), update_time: rfc3339(p.update_time) };
  }
  function renderStage(s: PdStage): Obj {
    return {
      id: s.id,
      order_nr: s.order_nr,
      name: s.name,
      is_deleted: s.is_deleted,
      deal_probability: s.deal_probability,
      pipeline_id: s.pipeline_id,
      is_deal_rot_enabled: s.is_deal_rot_enabled,
      days_to_rotten: s.days_to_rotten,
      add_time: rfc3339(s.add_time),
      update_time: rfc3339(s.update_time),
    };
  }

  // ------------------------------------------------------------ server glue

  const counted = new WeakSet<SimRequest>();
  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    onRequest(req) {
      spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body: req.bodyError ? undefined : req.body });
    },
    describeAuth(req) {
      const c = credential(req);
      if (!c) return null;
      const info = tokens.get(c.token);
      return { scheme: c.scheme, label: info?.label ?? null, valid: Boolean(info && info.kind === c.scheme) };
    },
    faultResponse(fault) {
      const status = fault.status!;
      if (status === 429) return tooMany();
      if (status === 401) return unauthorized();
      if (status === 404) return pdError(404, 'Not found');
      if (status >= 500) return pdError(status, status === 500 ? 'Internal Server Error occurred. Pipedrive staff was notified about this.' : (http.STATUS_CODES[status] ?? 'error'));
      return pdError(status, http.STATUS_CODES[status] ?? 'error');
    },
    handle(req) {
      const token = authenticate(req);
      counted.add(req);
      if (count(token, req.method) && rl.enforce) return tooMany();
      const matching = routes.filter((r) => r.re.test(req.path));
      if (matching.length === 0) return pdError(404, 'Unknown method .');
      const r = matching.find((x) => x.method === req.method);
      if (!r) return pdError(405, `Method ${req.method} not allowed`);
      const res = r.h({ req, params: r.re.exec(req.path)!.slice(1).map(decodeURIComponent), token });
      return res;
    },
    decorate(req, res) {
      if (counted.has(req)) spec.checkResponse(req, res.status, res.body);
      const info = tokenInfo(req);
      if (!info) return;
      if (!counted.has(req)) count(info, req.method); // injected faults still use the budget
      res.headers = { ...(res.headers ?? {}), ...rateHeaders(info, res.status === 429) };
    },
    internalError(err) {
      return pdError(500, `Internal Server Error occurred: ${(err as Error)?.message ?? String(err)}`);
    },
  });

  // ---------------------------------------------------------------- seeding

  function times(count: number, o: SeedOptions): { added: number[]; updated: number[] } {
    const now = store.now();
    const from = o.addedFrom ?? now - 365 * 86_400_000;
    const to = o.addedTo ?? now - 86_400_000;
    const updTo = Math.max(o.updatedTo ?? to, to);
    const sec = (ms: number) => Math.floor(ms / 1000) * 1000;
    const added: number[] = [];
    const updated: number[] = [];
    for (let i = 0; i < count; i++) {
      const a = sec(count === 1 ? from : from + ((to - from) * i) / (count - 1));
      added.push(a);
      updated.push(sec(a + rand() * (updTo - a)));
    }
    return { added, updated };
  }

  function seed<K extends EntityKind>(kind: K, count: number, o: SeedOptions, make: (i: number) => Partial<EntityOf<K>>): EntityOf<K>[] {
    const { added, updated } = times(count, o);
    const out: EntityOf<K>[] = [];
    for (let i = 0; i < count; i++) {
      const e = insert(kind, make(i), 1, added[i]);
      e.update_time = updated[i]!;
      out.push(e);
    }
    return out;
  }

  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const owner = () => pick(store.users).id;
  let serial = 0;

  const sim: PipedriveSimulator = {
    url: server.url,
    state: store,
    requests,
    faults,
    clock,
    specAvailable: spec.available,
    specViolations: spec.violations,
    specDeviations: spec.deviations,
    specUndocumented: spec.undocumented,
    addApiToken(token, o = {}) {
      tokens.set(token, { label: o.label ?? `api-token-${tokens.size + 1}`, kind: 'api_token', userId: o.userId ?? 1 });
    },
    addOAuthToken(token, o = {}) {
      tokens.set(token, { label: o.label ?? `oauth-${tokens.size + 1}`, kind: 'oauth', userId: o.userId ?? 1, expiresAt: o.expiresAt });
    },
    removeToken(token) {
      tokens.delete(token);
    },
    seedOrganizations(n, o = {}) {
      return seed('organizations', n, o, () => {
        const k = ++serial;
        return { name: `${pick(LAST)} Labs ${k}`, owner_id: owner(), website: `https://org${k}.example.com` };
      });
    },
    seedPersons(n, o = {}) {
      const orgs = o.linkOrganizations ? [...store.organizations.values()].filter((x) => !x.is_deleted) : [];
      return seed('persons', n, o, () => {
        const k = ++serial;
        const first = pick(FIRST);
        const last = pick(LAST);
        return {
          name: `${first} ${last}`,
          first_name: first,
          last_name: last,
          owner_id: owner(),
          org_id: orgs.length ? pick(orgs).id : null,
          emails: [{ value: `${first.toLowerCase()}.${last.toLowerCase()}.${k}@example.com`, primary: true, label: 'work' }],
          phones: [{ value: `+372 5${String(k).padStart(7, '0')}`, primary: true, label: 'mobile' }],
        };
      });
    },
    seedDeals(n, o = {}) {
      const persons = o.linkPersons ? [...store.persons.values()].filter((x) => !x.is_deleted) : [];
      const stages = store.stages.filter((s) => !s.is_deleted);
      return seed('deals', n, o, () => {
        const k = ++serial;
        const person = persons.length ? pick(persons) : undefined;
        const stage = pick(stages);
        const status = pick(['open', 'open', 'open', 'won', 'lost'] as const);
        return {
          title: `Deal ${k}`,
          owner_id: owner(),
          person_id: person?.id ?? null,
          org_id: person?.org_id ?? null,
          pipeline_id: stage.pipeline_id,
          stage_id: stage.id,
          value: Math.round(rand() * 10_000_000) / 100,
          currency: 'EUR',
          status,
          expected_close_date: new Date(store.now() + Math.floor(rand() * 90) * 86_400_000).toISOString().slice(0, 10),
        };
      });
    },
    seedActivities(n, o = {}) {
      const deals = o.linkDeals ? [...store.deals.values()].filter((x) => !x.is_deleted) : [];
      return seed('activities', n, o, (i) => {
        const k = ++serial;
        const deal = deals.length ? pick(deals) : undefined;
        const type = pick(['call', 'meeting', 'task', 'email']);
        return {
          subject: `${type} ${k}`,
          type,
          owner_id: owner(),
          deal_id: deal?.id ?? null,
          person_id: deal?.person_id ?? null,
          org_id: deal?.org_id ?? null,
          participants: deal?.person_id ? [{ person_id: deal.person_id, primary: true }] : [],
          due_date: new Date(store.now() + (i % 60) * 86_400_000).toISOString().slice(0, 10),
          due_time: '10:00',
          duration: '00:30',
        };
      });
    },
    seedNotes(n, o = {}) {
      const kind = o.linkTo ?? 'persons';
      const targets = [...store.map(kind).values()].filter((x) => !x.is_deleted);
      if (!targets.length) throw new Error(`seedNotes: seed some ${kind} first`);
      const key = kind === 'persons' ? 'person_id' : kind === 'deals' ? 'deal_id' : 'org_id';
      return seed('notes', n, o, () => ({ content: `<p>Note ${++serial}</p>`, user_id: owner(), [key]: pick(targets).id }) as Partial<PdNote>);
    },
    createEntity(kind, data, o = {}) {
      return insert(kind, data, 1, o.at ?? store.now());
    },
    updateEntity(kind, id, patch, o = {}) {
      const e = store.map(kind).get(id);
      if (!e) throw new Error(`no ${kind} ${id}`);
      return apply(kind, e, patch, o.at ?? store.now());
    },
    deleteEntity(kind, id, o = {}) {
      const e = store.map(kind).get(id);
      if (!e) throw new Error(`no ${kind} ${id}`);
      remove(kind, e, o.at ?? store.now());
    },
    purgeEntity(kind, id) {
      store.map(kind).delete(id);
    },
    getEntity(kind, id) {
      return store.map(kind).get(id);
    },
    entities(kind, o = {}) {
      return [...store.map(kind).values()].filter((e) => o.includeDeleted || !e.is_deleted);
    },
    addCustomField(entity, field) {
      return store.addField(entity, field);
    },
    addUser(user = {}) {
      return store.addUser(user);
    },
    addPipeline(name, stageNames) {
      return store.addPipeline(name, stageNames);
    },
    resetRequests() {
      requests.length = 0;
    },
    hooks,
    async close() {
      hooks.sender.enabled = false;
      await hooks.sender.settle();
      await server.close();
    },
  };
  return sim;
}

