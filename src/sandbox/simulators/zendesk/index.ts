/**
 * Zendesk Support API v2 simulator for integration tests and benchmarks.
 *
 * `startZendeskSimulator()` listens on 127.0.0.1:<random port>, keeps an in-memory account,
 * and (when shared/provider-specs/zendesk/oas.yaml is present) validates every request and
 * JSON response against the official OpenAPI document (`sim.specViolations`; known spec
 * errors are allowlisted in spec-deviations.ts). Every path also answers with a `.json` suffix.
 *
 * Auth: Basic `{email}/token:{api_token}` (registered credentials) or `Bearer <token>`
 * (`sim.addAccessToken`); otherwise 401 {"error":"Couldn't authenticate you"}.
 * Every response carries X-Rate-Limit, X-Rate-Limit-Remaining, ratelimit-limit,
 * ratelimit-remaining, ratelimit-reset (GET /tickets also zendesk-ratelimit-tickets-index).
 *
 * Endpoints (cursor = page[size|after|before] → meta/links; without page[...] → offset
 * pagination page/per_page → next_page/previous_page/count):
 *   GET    /api/v2/tickets                       cursor; sort=[-]id|updated_at|created_at|status, external_id, include=users,groups,organizations
 *   GET    /api/v2/tickets/count
 *   GET    /api/v2/tickets/show_many?ids=
 *   GET    /api/v2/tickets/{id}
 *   POST   /api/v2/tickets                       201 {ticket, audit} + Location
 *   PUT    /api/v2/tickets/{id}                  {ticket, audit}; comment, additional_tags/remove_tags, safe_update → 409
 *   DELETE /api/v2/tickets/{id}                  204, soft delete
 *   GET    /api/v2/deleted_tickets               cursor or offset; sort_by=id|subject|deleted_at, sort_order
 *   POST   /api/v2/tickets/create_many           200 {job_status} (≤100), completes after jobDelayMs
 *   GET    /api/v2/tickets/{id}/comments         cursor; sort=[-]created_at, include=users
 *   GET    /api/v2/job_statuses/{id}, /api/v2/job_statuses/show_many?ids=
 *   GET    /api/v2/incremental/tickets/cursor    start_time | cursor, per_page ≤ 1000, exclude_deleted
 *   GET    /api/v2/incremental/tickets           time-based
 *   GET    /api/v2/incremental/ticket_events     time-based (start_time → end_time, next_page, end_of_stream), include=comment_events;
 *                                                 one event per audit with a comment or field change, seeded tickets included
 *   GET    /api/v2/incremental/users/cursor, /api/v2/incremental/users, /api/v2/incremental/organizations
 *   POST   /api/v2/uploads?filename=&token=      201 {upload}; DELETE /api/v2/uploads/{token}
 *   GET    /api/v2/attachments/{id}; content at GET /attachments/token/{token}/?name= (no auth)
 *   GET    /api/v2/users (role, role[]), /users/{id}, /users/show_many?ids=, /users/me
 *   GET    /api/v2/organizations, /organizations/{id}, /organizations/show_many?ids=
 *   GET    /api/v2/groups, /groups/{id}
 *   GET    /api/v2/tags                          {tags:[{name,count}]}, by popularity
 *   GET    /api/v2/ticket_fields, /ticket_fields/{id}, /api/v2/user_fields, /api/v2/organization_fields
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { MatchedOperation, SpecCheck, SpecViolation } from '../spec-check';
import { HttpError, type Query } from './pagination';
import { createRoutes, type HandlerResult, type RequestContext, type Route } from './routes';
import { Serializer } from './serialize';
import { ZendeskWebhooks } from './webhooks';
import type { WebhookDelivery } from '../shared/webhook-sender';
import {
  ZendeskState,
  type CommentInput,
  type OrganizationRecord,
  type TicketInput,
  type TicketRecord,
  type UserRecord,
} from './state';

export { ZendeskState, RecordInvalid, RecordNotFound } from './state';
export { signedHeaders, ZendeskWebhooks, type SimZendeskWebhook } from './webhooks';
export type {
  TicketRecord,
  CommentRecord,
  UserRecord,
  OrganizationRecord,
  GroupRecord,
  TicketFieldRecord,
  CustomFieldRecord,
  AttachmentRecord,
  JobRecord,
  TicketInput,
  CommentInput,
} from './state';

export interface ZendeskCredential {
  email: string;
  apiToken: string;
}

export interface ZendeskSimulatorOptions {
  /** API-token credentials; default one admin `agent@example.com` / `test-token`. Unknown emails become admins. */
  credentials?: ZendeskCredential[];
  /** OAuth access tokens accepted as `Authorization: Bearer` (acting as the first credential's user). */
  accessTokens?: string[];
  /** Added before every response (ms). */
  latencyMs?: number;
  /** Checks every request and JSON answer against Zendesk's OpenAPI document (tests pass one; none: no checks). */
  spec?: SpecCheck;
  /** Delay before a create_many job completes. Default 25 ms. */
  jobDelayMs?: number;
  /**
   * Real Zendesk leaves out changes of the last minute from incremental exports, ticket events
   * included (and rejects a too-recent start_time). Default 0 so tests see their own writes at
   * once; set 60 to mimic.
   */
  incrementalExportLagSeconds?: number;
  /**
   * Export pages of this many records whatever `per_page` asks (Zendesk: at most 1000). Larger models a
   * provider that answers one huge page (issue 32: 60,000 tickets in one page).
   */
  exportPageSize?: number;
  /** Account rate limit (default 700/min). With `enforce`, requests beyond it get 429 + Retry-After. */
  rateLimit?: {
    perMinute?: number;
    /** The account limit's window (default a minute; shorter for time-scaled benchmarks). */
    windowMs?: number;
    enforce?: boolean;
    /**
     * The incremental exports' own limit (Zendesk: 10 a minute per account): requests to
     * /api/v2/incremental/ beyond `requests` in a window of `windowMs` (default a minute) get 429 + Retry-After.
     */
    exports?: { requests: number; windowMs?: number };
  };
  /** Clock (ms) for record timestamps; default Date.now (kept monotonic). */
  now?: () => number;
  /** Create the default agents, end users, organizations, groups and fields. Default true. */
  seedDefaults?: boolean;
  /** Keep at most this many entries in `requests` (oldest dropped). Default 10 000. */
  maxRequestLog?: number;
  /** How its webhooks reach their endpoints (default: they reach nothing; see shared/webhook-sender.ts). */
  deliverWebhook?: WebhookDelivery;
}

export interface RecordedRequest {
  method: string;
  /** Path as requested (with `.json` if sent), without query. */
  path: string;
  query: Query;
  /** Parsed JSON body, `{ bytes, contentType }` for other bodies, undefined when empty. */
  body: unknown;
  /** `basic` | `bearer` | `none` | `other` — credentials themselves are never stored. */
  authScheme: string;
  /** Email of the authenticated user. */
  user?: string;
  /** Response status (0 = connection dropped by a fault); undefined while in flight. */
  status?: number;
  at: number;
}

export interface FaultSpec {
  method?: string;
  /** Tested against the request path (no query). A string must match exactly (with or without `.json`). */
  path?: RegExp | string;
  match?: (req: RecordedRequest) => boolean;
  /** Status to answer with; 0 drops the connection; omitted = only `delayMs`, then normal handling. */
  status?: number;
  /** How many matching requests it affects (default 1; Infinity for all). */
  times?: number;
  /** `Retry-After` header (default 1 for 429). */
  retryAfterSeconds?: number;
  delayMs?: number;
  /** Response body (default a Zendesk-style error for the status). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Fault extends FaultSpec {
  readonly id: number;
  hits: number;
  remaining: number;
}

export interface FaultRegistry {
  add(spec: FaultSpec): Fault;
  remove(fault: Fault): void;
  clear(): void;
  readonly active: readonly Fault[];
}

export interface ZendeskSimulator {
  /** Base URL, e.g. `http://127.0.0.1:54321` (API under `${url}/api/v2`). */
  readonly url: string;
  readonly state: ZendeskState;
  readonly credentials: readonly ZendeskCredential[];
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  readonly faults: FaultRegistry;
  readonly specAvailable: boolean;
  readonly specFile?: string;
  /** Unexplained spec violations (de-duplicated across requests; `count` = occurrences). */
  readonly specViolations: SpecViolation[];
  /** Violations a known deviation of the spec explains (capped at 1000). */
  readonly suppressedSpecViolations: Array<{ violation: SpecViolation; reason: string }>;
  clearSpecViolations(): void;
  /** `Basic ...` header value for a credential (default the first one). */
  authHeader(cred?: ZendeskCredential): string;
  addAccessToken(token: string, userId?: number): void;
  seedTickets(n: number, opts?: { commentsPerTicket?: number; spacingMs?: number; seed?: number; overrides?: (i: number) => Partial<TicketRecord> }): number[];
  /** Creates a ticket as if an agent did it in the UI (channel "web"). Throws RecordInvalid. */
  createTicketRemotely(input: TicketInput, actingUserId?: number): TicketRecord;
  /**
   * Updates a ticket outside the API under test (same rules as PUT, except that closed tickets
   * may change too); always bumps updated_at, so incremental sync sees it. Throws RecordInvalid.
   */
  updateTicketRemotely(id: number, patch: TicketInput, actingUserId?: number): TicketRecord;
  addCommentRemotely(id: number, comment: CommentInput, actingUserId?: number): TicketRecord;
  deleteTicketRemotely(id: number, actingUserId?: number): void;
  addUser(input: Partial<UserRecord> & { name: string; email: string }): UserRecord;
  updateUserRemotely(id: number, patch: Partial<UserRecord>): UserRecord;
  addOrganization(input: Partial<OrganizationRecord> & { name: string }): OrganizationRecord;
  updateOrganizationRemotely(id: number, patch: Partial<OrganizationRecord>): OrganizationRecord;
  /** The ticket as the API renders it (deleted ones with status "deleted"), or undefined. */
  ticketJson(id: number): Record<string, unknown> | undefined;
  /** Resolves once every queued job (create_many) has finished. */
  settleJobs(): Promise<void>;
  /** Webhooks created through the Webhooks API, and the signed requests sent to them. */
  readonly webhooks: ZendeskWebhooks;
  close(): Promise<void>;
}

const DEFAULT_CREDENTIAL: ZendeskCredential = { email: 'agent@example.com', apiToken: 'test-token' };

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function parseQuery(search: string): Query {
  const out: Query = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

function defaultErrorBody(status: number): unknown {
  if (status === 429) return { error: 'APIRateLimitExceeded', description: 'Number of allowed API requests per minute exceeded' };
  if (status === 401) return { error: "Couldn't authenticate you" };
  if (status === 404) return { error: 'RecordNotFound', description: 'Not found' };
  if (status === 503) return { error: 'ServiceUnavailable', description: 'Service temporarily unavailable' };
  if (status >= 500) return { error: 'InternalServerError', description: 'Something went wrong' };
  return { error: http.STATUS_CODES[status] ?? 'Error', description: http.STATUS_CODES[status] ?? 'Error' };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startZendeskSimulator(opts: ZendeskSimulatorOptions = {}): Promise<ZendeskSimulator> {
  const credentials = (opts.credentials?.length ? opts.credentials : [DEFAULT_CREDENTIAL]).map((c) => ({ ...c }));
  const state = new ZendeskState({ now: opts.now, credentials, seedDefaults: opts.seedDefaults ?? true });
  const userOfCredential = (c: ZendeskCredential) => state.findUserByEmail(c.email)!;
  const accessTokens = new Map<string, number>();
  for (const t of opts.accessTokens ?? []) accessTokens.set(t, userOfCredential(credentials[0]!).id);

  const validator = opts.spec?.validator;

  let baseUrl = '';
  const ser = new Serializer(state, () => baseUrl);
  const timers = new Set<NodeJS.Timeout>();
  const pendingJobs = new Set<Promise<void>>();
  const schedule = (fn: () => void, ms: number) => {
    let done!: () => void;
    const p = new Promise<void>((r) => (done = r));
    pendingJobs.add(p);
    const t = setTimeout(() => {
      timers.delete(t);
      try {
        fn();
      } finally {
        pendingJobs.delete(p);
        done();
      }
    }, ms);
    timers.add(t);
  };
  const webhooks = new ZendeskWebhooks(state, opts.deliverWebhook);
  const routes: Route[] = [
    ...createRoutes({
      state,
      ser,
      baseUrl: () => baseUrl,
      jobDelayMs: opts.jobDelayMs ?? 25,
      incrementalLagSeconds: opts.incrementalExportLagSeconds ?? 0,
      exportPageSize: opts.exportPageSize,
      schedule,
    }),
    ...webhooks.routes(),
  ];

  const requests: RecordedRequest[] = [];
  const maxLog = opts.maxRequestLog ?? 10_000;
  const specViolations: SpecViolation[] = [];
  const violationIndex = new Map<string, SpecViolation>();
  const suppressed: Array<{ violation: SpecViolation; reason: string }> = [];
  const record = (violations: SpecViolation[]) => {
    if (!violations.length) return;
    const { kept, suppressed: s } = opts.spec!.filter(violations);
    for (const x of s) if (suppressed.length < 1000) suppressed.push(x);
    for (const v of kept) {
      const key = `${v.kind}|${v.operationId}|${v.status}|${v.location}|${v.pointer}|${v.keyword}|${v.message}`;
      const prev = violationIndex.get(key);
      if (prev) prev.count += v.count;
      else {
        violationIndex.set(key, v);
        specViolations.push(v);
      }
    }
  };

  // faults
  let faultSeq = 0;
  const faultList: Fault[] = [];
  const faults: FaultRegistry = {
    add(spec) {
      const f: Fault = { ...spec, id: ++faultSeq, hits: 0, remaining: spec.times ?? 1 };
      faultList.push(f);
      return f;
    },
    remove(f) {
      const i = faultList.indexOf(f);
      if (i >= 0) faultList.splice(i, 1);
    },
    clear() {
      faultList.length = 0;
    },
    get active() {
      return faultList;
    },
  };
  const takeFault = (rec: RecordedRequest): Fault | undefined => {
    for (const f of faultList) {
      if (f.remaining <= 0) continue;
      if (f.method && f.method.toUpperCase() !== rec.method) continue;
      if (f.path !== undefined) {
        if (typeof f.path === 'string') {
          if (f.path !== rec.path && f.path !== rec.path.replace(/\.json$/, '')) continue;
        } else if (!f.path.test(rec.path)) continue;
      }
      if (f.match && !f.match(rec)) continue;
      f.remaining--;
      f.hits++;
      if (f.remaining <= 0) faults.remove(f);
      return f;
    }
    return undefined;
  };

  let exportWindow = { start: Date.now(), count: 0 };

  // rate limit window
  const perMinute = opts.rateLimit?.perMinute ?? 700;
  const accountWindowMs = opts.rateLimit?.windowMs ?? 60_000;
  let windowStart = Date.now();
  let windowCount = 0;
  const rateHeaders = (): { headers: Record<string, string>; exceeded: boolean; reset: number } => {
    const now = Date.now();
    if (now - windowStart >= accountWindowMs) {
      windowStart = now;
      windowCount = 0;
    }
    windowCount++;
    const remaining = Math.max(0, perMinute - windowCount);
    const reset = Math.max(1, Math.ceil((windowStart + accountWindowMs - now) / 1000));
    return {
      headers: {
        'X-Rate-Limit': String(perMinute),
        'X-Rate-Limit-Remaining': String(remaining),
        'ratelimit-limit': String(perMinute),
        'ratelimit-remaining': String(remaining),
        'ratelimit-reset': String(reset),
      },
      exceeded: windowCount > perMinute,
      reset,
    };
  };

  const authenticate = (header: string | undefined): { user?: UserRecord; scheme: string } => {
    if (!header) return { scheme: 'none' };
    const m = /^(\w+)\s+(.+)$/.exec(header.trim());
    if (!m) return { scheme: 'other' };
    const scheme = m[1]!.toLowerCase();
    if (scheme === 'basic') {
      const decoded = Buffer.from(m[2]!, 'base64').toString('utf8');
      const idx = decoded.indexOf(':');
      const login = idx >= 0 ? decoded.slice(0, idx) : decoded;
      const secret = idx >= 0 ? decoded.slice(idx + 1) : '';
      const tm = /^(.+)\/token$/.exec(login);
      if (!tm) return { scheme };
      const cred = credentials.find((c) => c.email.toLowerCase() === tm[1]!.toLowerCase() && c.apiToken === secret);
      const user = cred ? userOfCredential(cred) : undefined;
      return { scheme, user: user && user.active && !user.suspended ? user : undefined };
    }
    if (scheme === 'bearer') {
      const id = accessTokens.get(m[2]!.trim());
      return { scheme, user: id === undefined ? undefined : state.users.get(id) };
    }
    return { scheme };
  };

  const findRoute = (method: string, p: string): { route?: Route; params: Record<string, string> } => {
    for (const r of routes) {
      if (r.method !== method) continue;
      const m = r.regex.exec(p);
      if (!m) continue;
      const params: Record<string, string> = {};
      r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? '')));
      return { route: r, params };
    }
    return { params: {} };
  };

  const send = (res: ServerResponse, result: HandlerResult, base: Record<string, string>) => {
    const headers: Record<string, string> = { ...base, 'X-Zendesk-API-Version': 'v2', 'X-Zendesk-Request-Id': randomBytes(8).toString('hex'), ...(result.headers ?? {}) };
    if (result.raw) {
      headers['Content-Type'] = result.raw.contentType;
      res.writeHead(result.status, headers);
      res.end(result.raw.data);
      return;
    }
    if (result.body === undefined || result.status === 204) {
      res.writeHead(result.status, headers);
      res.end();
      return;
    }
    headers['Content-Type'] = 'application/json; charset=utf-8';
    res.writeHead(result.status, headers);
    res.end(JSON.stringify(result.body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const rawBody = await readBody(req);
    const contentType = String(req.headers['content-type'] ?? '');
    const isApi = url.pathname.startsWith('/api/v2/');
    const apiPath = isApi ? url.pathname.replace(/\.json$/, '') : url.pathname;
    const query = parseQuery(url.search);

    let body: unknown;
    let bodyError: string | undefined;
    const looksJson = /json/i.test(contentType) || (!contentType && /^\s*[[{]/.test(rawBody.toString('utf8', 0, Math.min(rawBody.length, 64))));
    if (rawBody.length && looksJson) {
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch (e) {
        bodyError = (e as Error).message;
      }
    }
    const auth = authenticate(req.headers.authorization);
    const rec: RecordedRequest = {
      method,
      path: url.pathname,
      query,
      body: body !== undefined ? body : rawBody.length ? { bytes: rawBody.length, contentType: contentType || undefined } : undefined,
      authScheme: auth.scheme,
      user: auth.user?.email,
      at: Date.now(),
    };
    requests.push(rec);
    if (requests.length > maxLog) requests.splice(0, requests.length - maxLog);

    let operation: MatchedOperation | undefined;
    if (validator && isApi) {
      const headers: Record<string, string | string[] | undefined> = { ...req.headers };
      delete headers.authorization;
      const r = validator.validateRequest({
        method,
        path: apiPath,
        query,
        headers,
        body: bodyError !== undefined ? rawBody.toString('utf8') : body,
      });
      operation = r.operation;
      record(r.violations.filter((v) => v.keyword !== 'route'));
    }

    const finish = (result: HandlerResult, base: Record<string, string>) => {
      rec.status = result.status;
      if (validator && operation && result.raw === undefined) {
        record(validator.validateResponse({ method, path: apiPath, operation, status: result.status, body: result.status === 204 ? undefined : result.body }));
      }
      send(res, result, base);
    };

    if (opts.latencyMs) await sleep(opts.latencyMs);
    const rate = rateHeaders();

    const fault = takeFault(rec);
    if (fault) {
      if (fault.delayMs) await sleep(fault.delayMs);
      if (fault.status === 0) {
        rec.status = 0;
        req.socket.destroy();
        return;
      }
      if (fault.status !== undefined) {
        const headers: Record<string, string> = { ...(fault.headers ?? {}) };
        const retryAfter = fault.retryAfterSeconds ?? (fault.status === 429 ? 1 : undefined);
        if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
        const base = { ...rate.headers };
        if (fault.status === 429) {
          base['X-Rate-Limit-Remaining'] = '0';
          base['ratelimit-remaining'] = '0';
        }
        finish({ status: fault.status, body: fault.body === undefined ? defaultErrorBody(fault.status) : fault.body, headers }, base);
        return;
      }
    }

    const exportLimit = opts.rateLimit?.exports;
    if (exportLimit && apiPath.startsWith('/api/v2/incremental/')) {
      const windowMs = exportLimit.windowMs ?? 60_000;
      const now = Date.now();
      if (now - exportWindow.start >= windowMs) exportWindow = { start: now, count: 0 };
      if (++exportWindow.count > exportLimit.requests) {
        const retryAfter = Math.max(1, Math.ceil((exportWindow.start + windowMs - now) / 1000));
        finish({ status: 429, body: defaultErrorBody(429), headers: { 'Retry-After': String(retryAfter) } }, rate.headers);
        return;
      }
    }

    if (opts.rateLimit?.enforce && rate.exceeded) {
      finish({ status: 429, body: defaultErrorBody(429), headers: { 'Retry-After': String(rate.reset) } }, rate.headers);
      return;
    }

    const { route, params } = findRoute(method, apiPath);
    if (!route) {
      finish({ status: 404, body: isApi ? { error: 'InvalidEndpoint', description: 'Not found' } : undefined, raw: isApi ? undefined : { data: Buffer.from('Not Found'), contentType: 'text/plain' } }, rate.headers);
      return;
    }
    if (route.auth && !auth.user) {
      finish({ status: 401, body: { error: "Couldn't authenticate you" }, headers: { 'WWW-Authenticate': 'Basic realm="Web Password"' } }, rate.headers);
      return;
    }
    if (route.adminOnly && auth.user?.role !== 'admin') {
      finish(
        { status: 403, body: { error: 'Forbidden', description: 'You do not have access to this page. Please contact the account owner of this help desk for further help.' } },
        rate.headers,
      );
      return;
    }
    if (bodyError !== undefined && !route.rawBody) {
      finish({ status: 400, body: { error: 'InvalidJSON', description: `The request body is not valid JSON: ${bodyError}` } }, rate.headers);
      return;
    }
    const ctx: RequestContext = { method, path: apiPath, query, body, rawBody, headers: req.headers, params, user: auth.user };
    let result: HandlerResult;
    try {
      result = await route.handler(ctx);
    } catch (e) {
      if (e instanceof HttpError) result = { status: e.status, body: e.body, headers: e.headers };
      else {
        result = { status: 500, body: { error: 'InternalServerError', description: String((e as Error)?.stack ?? e) } };
      }
    }
    finish(result, rate.headers);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: 'InternalServerError', description: String((e as Error)?.message ?? e) }));
      }
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const actingUser = (id?: number): UserRecord => {
    const u = id !== undefined ? state.users.get(id) : userOfCredential(credentials[0]!);
    if (!u) throw new Error(`unknown user ${id}`);
    return u;
  };

  const sim: ZendeskSimulator = {
    url: baseUrl,
    state,
    credentials,
    requests,
    clearRequests() {
      requests.length = 0;
    },
    faults,
    specAvailable: !!validator,
    specFile: validator?.specFile,
    specViolations,
    suppressedSpecViolations: suppressed,
    clearSpecViolations() {
      specViolations.length = 0;
      violationIndex.clear();
      suppressed.length = 0;
    },
    authHeader(cred = credentials[0]!) {
      return `Basic ${Buffer.from(`${cred.email}/token:${cred.apiToken}`).toString('base64')}`;
    },
    addAccessToken(token, userId) {
      accessTokens.set(token, userId ?? userOfCredential(credentials[0]!).id);
    },
    seedTickets(n, o) {
      return state.seedTickets(n, o);
    },
    createTicketRemotely(input, actingUserId) {
      return state.createTicket(input, actingUser(actingUserId), 'web').ticket;
    },
    updateTicketRemotely(id, patch, actingUserId) {
      return state.updateTicket(id, patch, actingUser(actingUserId), 'web', { allowClosed: true, forceTouch: true }).ticket;
    },
    addCommentRemotely(id, comment, actingUserId) {
      return state.updateTicket(id, { comment }, actingUser(actingUserId), 'web', { allowClosed: true, forceTouch: true }).ticket;
    },
    deleteTicketRemotely(id, actingUserId) {
      state.deleteTicket(id, actingUser(actingUserId), 'web');
    },
    addUser: (input) => state.addUser(input),
    updateUserRemotely: (id, patch) => state.updateUser(id, patch),
    addOrganization: (input) => state.addOrganization(input),
    updateOrganizationRemotely: (id, patch) => state.updateOrganization(id, patch),
    ticketJson(id) {
      const t = state.tickets.get(id);
      return t ? ser.ticket(t, { exportStatus: true }) : undefined;
    },
    async settleJobs() {
      while (pendingJobs.size) await Promise.all([...pendingJobs]);
    },
    webhooks,
    async close() {
      webhooks.sender.enabled = false;
      await webhooks.sender.settle();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return sim;
}
