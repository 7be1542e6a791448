/**
 * Jira Cloud platform REST API v3 simulator for integration tests and benchmarks.
 *
 * `startJiraSimulator()` listens on 127.0.0.1:<random port> (shared HTTP kit: faults, request log
 * without credentials, controllable clock), keeps an in-memory site (state.ts) and, when
 * shared/provider-specs/jira/swagger-v3.v3.json is present, validates every request and JSON response
 * against Atlassian's OpenAPI document (`specViolations`; known deviations in spec.ts).
 *
 * Auth: Basic `{email}:{api_token}` (registered credentials, each acting as a site user) or
 * `Bearer <access token>`; otherwise 401. Every response carries `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining` (`X-RateLimit-NearLimit: true` under 20 %); a 429 adds `Retry-After`,
 * `X-RateLimit-Reset` (ISO minute) and `RateLimit-Reason`.
 *
 * Endpoints (under /rest/api/3):
 *   GET  /myself, /users/search (startAt, maxResults; bare array), /group/bulk, /group/member
 *   GET  /project/search (expand=description,lead), /label, /field
 *   GET  /issue/createmeta/{project}/issuetypes
 *   POST /issue, /issue/bulk (≤ 50; 201 with per-element errors, 400 when all fail), /issue/bulkfetch (≤ 100)
 *   GET|PUT|DELETE /issue/{idOrKey}  (fields=*all|*navigable|names|-name; PUT 204, returnIssue → 200)
 *   GET|POST /issue/{id}/transitions (expand=transitions.fields; Done needs a resolution)
 *   GET|POST /issue/{id}/comment     (startAt, maxResults, orderBy=[-+]created; ADF bodies)
 *   POST /issue/{id}/attachments     (multipart `file` parts; needs X-Atlassian-Token: no-check)
 *   GET|DELETE /attachment/{id}, GET /attachment/content/{id}
 *   GET|POST /search/jql             (JQL subset, nextPageToken; unbounded queries refused)
 *   GET|POST /search                 410 Gone, as on Jira Cloud since the endpoint's removal
 *
 * Atlassian's API gateway, for OAuth 2.0 (3LO) tokens: the same API under `/ex/jira/{cloudId}` (the site's
 * `cloudId`; another id is answered 404), and GET /oauth/token/accessible-resources (the sites a bearer
 * token reaches: `accessibleResources`, by default this site alone).
 *
 * JQL dates are read in the searching user's time zone (the default token owner is in
 * America/Los_Angeles, so a client writing UTC times misses changes). Multipart bodies arrive through
 * the kit as UTF-8 text, so binary uploads are stored as their UTF-8 decoding (text files are exact).
 */
import { createHash } from 'node:crypto';
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
import { JqlError, matches, parseJql, sortIssues, type JqlIssueView } from './jql';
import { JIRA_KNOWN_DEVIATIONS, loadSpecCheck, type KnownDeviation, type SpecViolation } from './spec';
import {
  ISSUE_TYPES,
  JiraInputError,
  JiraState,
  PRIORITIES,
  RESOLUTIONS,
  STATUSES,
  type Obj,
  type SimField,
  type SimGroup,
  type SimIssue,
  type SimProject,
  type SimUser,
} from './state';
import { DYNAMIC_WEBHOOK_LIFE_MS, JiraHooks } from './hooks';

export { FaultController, SimClock, JiraState, JIRA_KNOWN_DEVIATIONS };
export type { ActiveFault, FaultSpec, RecordedRequest, SpecViolation, KnownDeviation, SimIssue, SimUser, SimProject, SimGroup, SimField };

export interface JiraCredential {
  email: string;
  apiToken: string;
}

export { JiraHooks, jiraHookHeaders, jiraDynamicHookHeaders, jiraWebhookJwt, DYNAMIC_WEBHOOK_LIFE_MS, type SimJiraWebhook, type SimDynamicWebhook } from './hooks';

export interface JiraSimulatorOptions {
  /** API-token credentials; default `admin@example.com` / `jira-test-token` (the site admin). Unknown emails become users. */
  credentials?: JiraCredential[];
  /** OAuth 2.0 (3LO) access tokens accepted as `Authorization: Bearer` (acting as the first credential's user). */
  accessTokens?: string[];
  /** The OAuth 2.0 app those tokens belong to: may register dynamic webhooks, which its client secret signs. */
  oauthApp?: { clientId: string; clientSecret: string };
  /** Validate traffic against the OpenAPI document (default true; skipped when the file is absent). */
  validateSpec?: boolean;
  /** The document; default `specPath('jira', 'swagger-v3.v3.json')`; null disables validation. */
  specFile?: string | null;
  knownDeviations?: readonly KnownDeviation[];
  /** Burst limit per window (default 100 per 1000 ms); with `enforce`, requests beyond it get 429. */
  rateLimit?: { limit?: number; windowMs?: number; enforce?: boolean; retryAfterSeconds?: number };
  now?: () => number;
  /** Create the default users, groups, projects, custom fields and two issues. Default true. */
  seedDefaults?: boolean;
  recordBodies?: boolean;
  /** The site's cloud id behind the gateway (`/ex/jira/{cloudId}`); default a fixed UUID. */
  cloudId?: string;
}

/** One entry of GET /oauth/token/accessible-resources. */
export interface AccessibleResource {
  id: string;
  name: string;
  url: string;
  scopes: string[];
  avatarUrl: string;
}

export interface JiraSimulator {
  /** Base URL, e.g. `http://127.0.0.1:54321` (API under `${url}/rest/api/3`). */
  readonly url: string;
  readonly state: JiraState;
  readonly credentials: readonly JiraCredential[];
  readonly requests: RecordedRequest[];
  readonly faults: FaultController;
  readonly clock: SimClock;
  readonly specAvailable: boolean;
  readonly specFile?: string;
  readonly specViolations: SpecViolation[];
  readonly specDeviations: { violation: SpecViolation; reason: string }[];
  readonly specUndocumented: { method: string; path: string }[];
  /** The user a credential acts as (default: the first credential's). */
  userOf(cred?: JiraCredential): SimUser;
  authHeader(cred?: JiraCredential): string;
  addAccessToken(token: string): void;
  /** Seeded objects by name. */
  project(key: string): SimProject;
  field(name: string): SimField;
  userByEmail(email: string): SimUser;
  /** Issues created directly (no request logged), spread over the past `spacingMs` apart, ending now. */
  seedIssues(n: number, opts?: { projectKey?: string; commentsPerIssue?: number; spacingMs?: number; labels?: (i: number) => string[] }): SimIssue[];
  /** Creates an issue as a person would in Jira's UI (same validation as the API). */
  createIssueRemotely(fields: Obj, actingAccountId?: string): SimIssue;
  /** Edits an issue outside the API under test; bumps `updated`. */
  updateIssueRemotely(idOrKey: string, fields: Obj, actingAccountId?: string): SimIssue;
  /** Moves an issue to a status by name (To Do, In Progress, Blocked, Done). */
  transitionRemotely(idOrKey: string, statusName: string): SimIssue;
  addCommentRemotely(idOrKey: string, text: string, authorAccountId?: string): void;
  /**
   * Deletes a comment outside the API under test. Leaves the issue's `updated` alone: Jira does not document
   * whether a deletion changes it, so tests must not count on it.
   */
  deleteCommentRemotely(idOrKey: string, commentId: string): void;
  deleteIssueRemotely(idOrKey: string): void;
  /** The issue as GET /issue answers it (`*all`), or undefined. */
  issueJson(idOrKey: string): Obj | undefined;
  resetRequests(): void;
  /** Admin webhooks created through `POST /rest/webhooks/1.0/webhook`, and the signed deliveries sent to them. */
  readonly hooks: JiraHooks;
  /** The site's cloud id: its API is also served under `${url}/ex/jira/${cloudId}`. */
  readonly cloudId: string;
  /** What GET /oauth/token/accessible-resources lists (this site first); tests add other sites. */
  accessibleResources: AccessibleResource[];
  close(): Promise<void>;
}

const DEFAULT_CREDENTIAL: JiraCredential = { email: 'admin@example.com', apiToken: 'jira-test-token' };

const errorBody = (messages: string[], errors: Record<string, string> = {}) => ({ errorMessages: messages, errors });
function jiraError(status: number, messages: string[], errors: Record<string, string> = {}, headers?: Record<string, string>): SimResponse {
  return { status, body: errorBody(messages, errors), headers };
}
function fail(status: number, message: string): never {
  throw new SimHttpError(jiraError(status, [message]));
}

const adfText = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

interface Route {
  method: string;
  re: RegExp;
  h: (ctx: { req: SimRequest; params: string[]; user: SimUser }) => SimResponse;
}

export async function startJiraSimulator(opts: JiraSimulatorOptions = {}): Promise<JiraSimulator> {
  const clock = new SimClock(opts.now);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  let baseUrl = '';
  const state = new JiraState(clock, () => baseUrl);
  const credentials = (opts.credentials?.length ? opts.credentials : [DEFAULT_CREDENTIAL]).map((c) => ({ ...c }));
  const spec = await loadSpecCheck({ enabled: opts.validateSpec, file: opts.specFile, deviations: opts.knownDeviations });

  // ------------------------------------------------------------------- seed
  const admin = state.addUser({ displayName: 'Ada Admin', emailAddress: 'admin@example.com', timeZone: 'America/Los_Angeles' });
  const byEmail = new Map<string, SimUser>([['admin@example.com', admin]]);
  if (opts.seedDefaults !== false) {
    const sam = state.addUser({ displayName: 'Sam Support', emailAddress: 'sam@example.com', timeZone: 'Europe/Berlin' });
    const dev = state.addUser({ displayName: 'Dana Former', emailAddress: null, active: false });
    const bot = state.addUser({ displayName: 'Automation for Jira', accountType: 'app', emailAddress: null });
    state.addUser({ displayName: 'Casey Customer', accountType: 'customer', emailAddress: 'casey@customer.example' });
    byEmail.set('sam@example.com', sam);
    state.addGroup('jira-software-users', [admin.accountId, sam.accountId, dev.accountId]);
    state.addGroup('support-team', [admin.accountId, sam.accountId]);
    state.addGroup('site-admins', [admin.accountId]);
    void bot;
    const sup = state.addProject({ key: 'SUP', name: 'Support', description: 'Customer support requests', leadAccountId: admin.accountId });
    state.addProject({ key: 'ENG', name: 'Engineering', description: '', leadAccountId: sam.accountId, issueTypeIds: ['10001', '10002', '10003', '10004', '10005'] });
    state.addCustomField({ name: 'Order number', type: 'textfield' });
    state.addCustomField({ name: 'Story points', type: 'float' });
    state.addCustomField({ name: 'Customer tier', type: 'select', options: ['Gold', 'Silver', 'Bronze'] });
    state.addCustomField({ name: 'Root cause', type: 'textarea' });
    state.addCustomField({ name: 'Go-live', type: 'datepicker' });
    const first = state.createIssue({ project: { id: sup.id }, issuetype: { id: '10002' }, summary: 'Login page is slow', description: adfText('Takes 10 seconds.'), labels: ['legacy', 'web'] }, sam.accountId);
    state.addComment(first, adfText('Looking into it.'), admin.accountId);
    state.createIssue({ project: { id: sup.id }, issuetype: { id: '10001' }, summary: 'Renew certificate', assignee: { accountId: admin.accountId } }, admin.accountId);
  }
  for (const c of credentials) {
    if (!byEmail.has(c.email)) byEmail.set(c.email, state.addUser({ displayName: c.email.split('@')[0]!, emailAddress: c.email }));
  }
  const accessTokens = new Set(opts.accessTokens ?? []);

  // ------------------------------------------------------------------- auth
  function identify(req: SimRequest): { scheme: string; label: string | null; user: SimUser | undefined } | null {
    const h = req.headers.authorization;
    if (typeof h !== 'string') return null;
    const basic = /^Basic\s+(.+)$/i.exec(h.trim());
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      const email = decoded.slice(0, i);
      const cred = credentials.find((c) => c.email === email && c.apiToken === decoded.slice(i + 1));
      return { scheme: 'basic', label: cred ? email : null, user: cred ? byEmail.get(email) : undefined };
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(h.trim());
    if (bearer) {
      const ok = accessTokens.has(bearer[1]!);
      return { scheme: 'bearer', label: ok ? 'oauth' : null, user: ok ? byEmail.get(credentials[0]!.email) : undefined };
    }
    return { scheme: 'other', label: null, user: undefined };
  }
  const unauthorized = (): SimResponse =>
    jiraError(401, ['Client must be authenticated to access this resource.'], {}, { 'www-authenticate': 'Basic realm="protected-area"', 'x-seraph-loginreason': 'AUTHENTICATED_FAILED' });

  // ------------------------------------------------------------ rate limits
  const rl = { limit: opts.rateLimit?.limit ?? 100, windowMs: opts.rateLimit?.windowMs ?? 1000, enforce: opts.rateLimit?.enforce ?? false, retryAfter: opts.rateLimit?.retryAfterSeconds ?? 1 };
  let window = { start: 0, count: 0 };
  const tick = (): boolean => {
    const now = clock.now();
    const start = Math.floor(now / rl.windowMs) * rl.windowMs;
    if (window.start !== start) window = { start, count: 0 };
    window.count++;
    return window.count > rl.limit;
  };
  const tooMany = (): SimResponse => {
    const reset = new Date(clock.now() + rl.retryAfter * 1000).toISOString().slice(0, 16) + 'Z';
    return jiraError(429, ['Rate limit exceeded.'], {}, { 'retry-after': String(rl.retryAfter), 'x-ratelimit-reset': reset, 'ratelimit-reason': 'jira-burst-based' });
  };

  // ---------------------------------------------------------------- helpers
  const qInt = (q: URLSearchParams, name: string, dflt: number, max?: number): number => {
    const v = q.get(name);
    if (v === null || v === '') return dflt;
    if (!/^-?\d+$/.test(v)) fail(400, `The '${name}' parameter must be an integer.`);
    const n = Number(v);
    if (n < 0) fail(400, `The '${name}' parameter must not be negative.`);
    return max !== undefined ? Math.min(n, max) : n;
  };
  const jsonBody = (req: SimRequest): Obj => {
    if (req.bodyError) fail(400, `Unexpected character: ${req.bodyError}`);
    const ct = String(req.headers['content-type'] ?? '');
    if (req.body !== undefined && !ct.includes('application/json')) throw new SimHttpError({ status: 415, body: 'Unsupported Media Type' });
    if (req.body === undefined || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) fail(400, 'Request body is required and must be a JSON object.');
    return req.body as Obj;
  };
  const issueOr404 = (idOrKey: string): SimIssue => {
    const i = state.issue(idOrKey);
    if (!i) fail(404, 'Issue does not exist or you do not have permission to see it.');
    return i;
  };
  const inputErrors = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof JiraInputError) throw new SimHttpError({ status: e.status, body: e.body });
      throw e;
    }
  };
  const fieldsParam = (v: unknown): string[] | undefined => {
    if (v === undefined || v === null) return undefined;
    const list = Array.isArray(v) ? v : [v];
    return list.flatMap((x) => String(x).split(',')).map((s) => s.trim()).filter(Boolean);
  };
  const pageBean = (path: string, q: URLSearchParams, values: unknown[], startAt: number, maxResults: number): Obj => {
    const page = values.slice(startAt, startAt + maxResults);
    const isLast = startAt + page.length >= values.length;
    const params = new URLSearchParams(q);
    params.set('startAt', String(startAt + maxResults));
    params.set('maxResults', String(maxResults));
    return {
      self: `${baseUrl}${path}?${q.toString()}`,
      ...(isLast ? {} : { nextPage: `${baseUrl}${path}?${params.toString()}` }),
      maxResults,
      startAt,
      total: values.length,
      isLast,
      values: page,
    };
  };

  // ------------------------------------------------------------------ search
  const view = (i: SimIssue): JqlIssueView => {
    const p = state.projects.get(i.projectId)!;
    const s = state.status(i.statusId);
    return {
      id: i.id,
      key: i.key,
      created: i.created,
      updated: i.updated,
      duedate: i.duedate ? Date.parse(`${i.duedate}T00:00:00Z`) : null,
      project: { id: p.id, key: p.key, name: p.name },
      labels: i.labels,
      assignee: i.assigneeId,
      reporter: i.reporterId,
      status: s.name,
      statusCategory: { new: 'To Do', indeterminate: 'In Progress', done: 'Done' }[s.category],
      issuetype: ISSUE_TYPES.find((t) => t.id === i.issueTypeId)!.name,
      summary: i.summary,
      parent: i.parentId ? (state.issues.get(i.parentId)?.key ?? i.parentId) : null,
      priority: PRIORITIES.find((x) => x.id === i.priorityId)?.name ?? null,
      resolution: RESOLUTIONS.find((r) => r.id === i.resolutionId)?.name ?? null,
    };
  };
  const tokenHash = (jql: string) => createHash('sha256').update(jql).digest('hex').slice(0, 16);
  let lastSearch: { key: string; hits: SimIssue[] } | undefined;
  function search(user: SimUser, p: { jql?: unknown; nextPageToken?: unknown; maxResults?: unknown; fields?: unknown }): Obj {
    const jql = typeof p.jql === 'string' ? p.jql : '';
    let query;
    try {
      query = parseJql(jql);
    } catch (e) {
      if (e instanceof JqlError) fail(400, e.message);
      throw e;
    }
    if (!query.where) fail(400, 'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.');
    const fields = fieldsParam(p.fields);
    const onlyIds = !fields || fields.every((f) => f === 'id' || f === 'key');
    const max = Math.max(1, Math.min(Number(p.maxResults ?? 50) || 50, onlyIds ? 5000 : 100));
    let offset = 0;
    if (p.nextPageToken !== undefined && p.nextPageToken !== null) {
      try {
        const t = JSON.parse(Buffer.from(String(p.nextPageToken), 'base64url').toString('utf8')) as { o: number; h: string };
        if (t.h !== tokenHash(jql) || !Number.isInteger(t.o)) throw new Error('mismatch');
        offset = t.o;
      } catch {
        fail(400, 'The provided next page token is invalid or expired.');
      }
    }
    // The pages of one query over unchanged issues reuse its hits (relative dates such as -5m depend on the clock).
    const key = `${state.revision}\n${user.accountId}\n${user.timeZone}\n${jql}`;
    let hits = /[-+]\s*\d+\s*[mhdw]\b|\(\s*\)/i.test(jql) ? undefined : lastSearch?.key === key ? lastSearch.hits : undefined;
    try {
      if (!hits) {
        const ctx = { timeZone: user.timeZone, now: clock.now(), accountId: user.accountId };
        const views = [...state.issues.values()].map((i) => ({ ...view(i), issue: i }));
        hits = sortIssues(views.filter((v) => matches(query.where!, v, ctx)), query.orderBy).map((v) => v.issue);
        lastSearch = { key, hits };
      }
    } catch (e) {
      if (e instanceof JqlError) fail(400, e.message);
      throw e;
    }
    const page = hits.slice(offset, offset + max);
    const more = offset + page.length < hits.length;
    return {
      issues: page.map((i) => state.renderIssue(i, fields, 'id')),
      ...(more ? { nextPageToken: Buffer.from(JSON.stringify({ o: offset + page.length, h: tokenHash(jql) })).toString('base64url') } : {}),
      isLast: !more,
    };
  }

  // ------------------------------------------------------------ multipart
  function multipartFiles(req: SimRequest): { filename: string; mimeType: string; content: Buffer }[] {
    const ct = String(req.headers['content-type'] ?? '');
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(ct);
    if (!ct.toLowerCase().startsWith('multipart/form-data') || !boundary) throw new SimHttpError({ status: 415, body: 'Unsupported Media Type' });
    const b = `--${boundary[1] ?? boundary[2]}`;
    const files: { filename: string; mimeType: string; content: Buffer }[] = [];
    for (const part of req.rawBody.split(b).slice(1)) {
      if (part.startsWith('--')) break;
      const split = part.indexOf('\r\n\r\n');
      if (split < 0) continue;
      const head = part.slice(0, split);
      const content = part.slice(split + 4).replace(/\r\n$/, '');
      const disp = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(head)?.[1] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disp)?.[1];
      const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1];
      if (name !== 'file' || filename === undefined) continue;
      const mimeType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
      files.push({ filename: decodeURIComponent(filename.replace(/%(?![0-9a-f]{2})/gi, '%25')), mimeType, content: Buffer.from(content, 'utf8') });
    }
    return files;
  }

  // ------------------------------------------------------------------ routes
  const routes: Route[] = [];
  const route = (method: string, path: string, h: Route['h']) =>
    routes.push({ method, re: new RegExp(`^/rest/api/3${path.replace(/\{[^}]+\}/g, '([^/]+)')}$`), h });
  const ok = (body: unknown, status = 200): SimResponse => ({ status, body });

  // Admin webhooks (the webhooks REST API, outside /rest/api/3).
  const hooks = new JiraHooks(state, () => baseUrl);
  hooks.oauthApp = opts.oauthApp ?? null;
  const WEBHOOKS = '/rest/webhooks/1.0/webhook';
  routes.push({
    method: 'POST',
    re: new RegExp(`^${WEBHOOKS}$`),
    h: ({ req }) => {
      const b = (req.body ?? {}) as Obj;
      if (typeof b.url !== 'string' || !/^https?:\/\//.test(b.url)) return jiraError(400, ['The webhook URL is invalid.']);
      const events = Array.isArray(b.events) ? b.events.map(String) : [];
      if (!events.length) return jiraError(400, ['At least one event is required.']);
      const filters = (b.filters ?? {}) as Obj;
      const hook = hooks.create({
        name: typeof b.name === 'string' ? b.name : '',
        url: b.url,
        events,
        secret: typeof b.secret === 'string' && b.secret ? b.secret : null,
        excludeBody: b.excludeBody === true,
        jqlFilter: typeof filters['issue-related-events-section'] === 'string' ? (filters['issue-related-events-section'] as string) : '',
      });
      return ok(hooks.render(hook), 201);
    },
  });
  routes.push({ method: 'GET', re: new RegExp(`^${WEBHOOKS}$`), h: () => ok([...hooks.webhooks.values()].map((h) => hooks.render(h))) });
  routes.push({
    method: 'DELETE',
    re: new RegExp(`^${WEBHOOKS}/(\\d+)$`),
    h: ({ params }) => (hooks.webhooks.delete(Number(params[0])) ? { status: 204 } : jiraError(404, ['Webhook not found.'])),
  });

  // Dynamic webhooks: only OAuth 2.0 (and Connect) apps may manage them; an API token is refused with 403.
  const asApp = (req: SimRequest) => identify(req)?.scheme === 'bearer' && hooks.oauthApp !== null;
  const notAnApp = () => jiraError(403, ['Only Connect and OAuth 2.0 apps can use this operation.']);
  route('POST', '/webhook', ({ req }) => {
    if (!asApp(req)) return notAnApp();
    const b = (req.body ?? {}) as { url?: unknown; webhooks?: { events?: unknown; jqlFilter?: unknown }[] };
    if (typeof b.url !== 'string' || !/^https?:\/\//.test(b.url) || !Array.isArray(b.webhooks)) return jiraError(400, ['The request is invalid.']);
    const url = b.url;
    // One URL per app: another URL replaces the app's webhooks of this site.
    for (const h of [...hooks.dynamic.values()]) if (h.url !== url) hooks.dynamic.delete(h.id);
    const now = clock.now();
    return ok({
      webhookRegistrationResult: b.webhooks.map((w) =>
        Array.isArray(w.events) && w.events.length && typeof w.jqlFilter === 'string' ? hooks.registerDynamic(url, w.events.map(String), w.jqlFilter, now) : { errors: ['events and jqlFilter are required'] },
      ),
    });
  });
  route('GET', '/webhook', ({ req }) => {
    if (!asApp(req)) return notAnApp();
    const values = [...hooks.dynamic.values()].map((h) => ({ id: h.id, events: h.events, jqlFilter: h.jqlFilter, expirationDate: h.expiresAt }));
    return ok({ isLast: true, maxResults: 100, startAt: 0, total: values.length, values });
  });
  route('DELETE', '/webhook', ({ req }) => {
    if (!asApp(req)) return notAnApp();
    const ids = (req.body as { webhookIds?: unknown } | undefined)?.webhookIds;
    if (!Array.isArray(ids)) return jiraError(400, ['The list of webhook IDs is missing.']);
    for (const id of ids) hooks.dynamic.delete(Number(id));
    return { status: 202 };
  });
  route('PUT', '/webhook/refresh', ({ req }) => {
    if (!asApp(req)) return notAnApp();
    const ids = (req.body as { webhookIds?: unknown } | undefined)?.webhookIds;
    if (!Array.isArray(ids)) return jiraError(400, ['The list of webhook IDs is missing.']);
    const expirationDate = clock.now() + DYNAMIC_WEBHOOK_LIFE_MS;
    // Unknown ids (gone, or another app's) are ignored.
    for (const id of ids) {
      const h = hooks.dynamic.get(Number(id));
      if (h) h.expiresAt = expirationDate;
    }
    return ok({ expirationDate });
  });

  route('GET', '/myself', ({ user }) => ok(state.renderUser(user, { full: true })));

  route('GET', '/users/search', ({ req }) => {
    const startAt = qInt(req.query, 'startAt', 0);
    const max = qInt(req.query, 'maxResults', 50, 1000);
    return ok([...state.users.values()].slice(startAt, startAt + max).map((u) => state.renderUser(u)));
  });

  route('GET', '/group/bulk', ({ req }) => {
    const startAt = qInt(req.query, 'startAt', 0);
    const max = qInt(req.query, 'maxResults', 50, 50);
    const values = [...state.groups.values()].sort((a, b) => a.name.localeCompare(b.name)).map((g) => ({ groupId: g.groupId, name: g.name }));
    return ok(pageBean('/rest/api/3/group/bulk', req.query, values, startAt, max));
  });

  route('GET', '/group/member', ({ req }) => {
    const id = req.query.get('groupId');
    const name = req.query.get('groupname');
    if (!id && !name) fail(400, 'You must specify a group name or a group ID.');
    const g = [...state.groups.values()].find((x) => x.groupId === id || (name !== null && x.name === name));
    if (!g) fail(404, `Group not found.`);
    const inactive = req.query.get('includeInactiveUsers') === 'true';
    const members = [...g.members].map((a) => state.users.get(a)!).filter((u) => u && (inactive || u.active)).map((u) => state.renderUser(u));
    return ok(pageBean('/rest/api/3/group/member', req.query, members, qInt(req.query, 'startAt', 0), qInt(req.query, 'maxResults', 50, 50)));
  });

  route('GET', '/project/search', ({ req }) => {
    const expand = (req.query.get('expand') ?? '').split(',').map((s) => s.trim());
    const values = [...state.projects.values()].filter((p) => !p.deleted).sort((a, b) => a.key.localeCompare(b.key)).map((p) => state.renderProject(p, expand));
    return ok(pageBean('/rest/api/3/project/search', req.query, values, qInt(req.query, 'startAt', 0), qInt(req.query, 'maxResults', 50, 100)));
  });

  route('GET', '/project/{id}', ({ req, params }) => {
    const expand = (req.query.get('expand') ?? '').split(',').map((s) => s.trim());
    const p = [...state.projects.values()].find((x) => !x.deleted && (x.id === params[0] || x.key === params[0]));
    if (!p) fail(404, `No project could be found with key '${params[0]}'.`);
    return ok(state.renderProject(p!, expand));
  });

  route('GET', '/user', ({ req }) => {
    const u = state.users.get(req.query.get('accountId') ?? '');
    if (!u) fail(404, 'Specified user does not exist or you do not have required permissions');
    return ok(state.renderUser(u!));
  });

  route('GET', '/label', ({ req }) => ok(pageBean('/rest/api/3/label', req.query, state.labels(), qInt(req.query, 'startAt', 0), qInt(req.query, 'maxResults', 1000, 1000))));

  route('GET', '/field', () => ok(state.fields.map((f) => state.renderField(f))));

  route('GET', '/issue/createmeta/{p}/issuetypes', ({ req, params }) => {
    const p = state.project(params[0]!);
    if (!p) fail(404, 'No project could be found with key or id.');
    const max = qInt(req.query, 'maxResults', 50);
    if (max > 200) throw new SimHttpError({ status: 400, body: { errorMessages: ["Parameter 'maxResults' must not exceed the limit '200'"], errors: {} } });
    const startAt = qInt(req.query, 'startAt', 0);
    const types = p.issueTypeIds.map((id) => ISSUE_TYPES.find((t) => t.id === id)!).map((t) => state.renderIssueType(t));
    return ok({ issueTypes: types.slice(startAt, startAt + max), maxResults: max, startAt, total: types.length });
  });

  route('POST', '/issue', ({ req, user }) => {
    const b = jsonBody(req);
    if (!b.fields || typeof b.fields !== 'object') fail(400, 'Issue must have fields.');
    const issue = inputErrors(() => state.createIssue(b.fields as Obj, user.accountId));
    return ok({ id: issue.id, key: issue.key, self: `${baseUrl}/rest/api/3/issue/${issue.id}` }, 201);
  });

  route('POST', '/issue/bulk', ({ req, user }) => {
    const b = jsonBody(req);
    const updates = Array.isArray(b.issueUpdates) ? (b.issueUpdates as Obj[]) : [];
    if (updates.length > 50) fail(400, 'Bulk operation is limited to 50 issues.');
    const issues: Obj[] = [];
    const errors: Obj[] = [];
    updates.forEach((u, n) => {
      try {
        const issue = state.createIssue((u?.fields ?? {}) as Obj, user.accountId);
        issues.push({ id: issue.id, key: issue.key, self: `${baseUrl}/rest/api/3/issue/${issue.id}` });
      } catch (e) {
        if (!(e instanceof JiraInputError)) throw e;
        errors.push({ status: e.status, elementErrors: e.body, failedElementNumber: n });
      }
    });
    return ok({ issues, errors }, issues.length === 0 && updates.length > 0 ? 400 : 201);
  });

  route('POST', '/issue/bulkfetch', ({ req }) => {
    const b = jsonBody(req);
    const ids = Array.isArray(b.issueIdsOrKeys) ? b.issueIdsOrKeys.map(String) : fail(400, 'issueIdsOrKeys is required.');
    if (ids.length > 100) fail(400, 'The number of issues requested exceeds the maximum of 100.');
    const fields = fieldsParam(b.fields);
    const found = ids.map((id) => state.issue(id)).filter((i): i is SimIssue => Boolean(i));
    return ok({ issues: found.map((i) => state.renderIssue(i, fields, '*all')), issueErrors: [] });
  });

  route('GET', '/issue/{id}', ({ req, params }) => ok(state.renderIssue(issueOr404(params[0]!), fieldsParam(req.query.getAll('fields').length ? req.query.getAll('fields') : undefined), '*all')));

  route('PUT', '/issue/{id}', ({ req, params, user }) => {
    const issue = issueOr404(params[0]!);
    const b = jsonBody(req);
    if (b.update !== undefined) fail(400, 'The simulator supports `fields` only.');
    inputErrors(() => state.editIssue(issue, (b.fields ?? {}) as Obj, user.accountId));
    if (req.query.get('returnIssue') === 'true') return ok(state.renderIssue(issue, undefined, '*all'));
    return { status: 204 };
  });

  route('DELETE', '/issue/{id}', ({ params }) => {
    state.deleteIssue(issueOr404(params[0]!).id);
    return { status: 204 };
  });

  route('GET', '/issue/{id}/transitions', ({ req, params }) => {
    const issue = issueOr404(params[0]!);
    const withFields = (req.query.get('expand') ?? '').split(',').includes('transitions.fields');
    const transitions = state.transitionsOf(issue).map((t) => ({
      id: t.id,
      name: t.name,
      to: state.renderStatus(state.status(t.to)),
      hasScreen: t.requires !== undefined,
      isGlobal: true,
      isInitial: false,
      isAvailable: true,
      isConditional: false,
      isLooped: false,
      ...(withFields
        ? {
            fields:
              t.requires === 'resolution'
                ? {
                    resolution: {
                      required: true,
                      schema: { type: 'resolution', system: 'resolution' },
                      name: 'Resolution',
                      key: 'resolution',
                      hasDefaultValue: false,
                      operations: ['set'],
                      allowedValues: RESOLUTIONS.map((r) => ({ self: `${baseUrl}/rest/api/3/resolution/${r.id}`, id: r.id, name: r.name, description: r.description })),
                    },
                  }
                : {},
          }
        : {}),
    }));
    return ok({ expand: 'transitions', transitions });
  });

  route('POST', '/issue/{id}/transitions', ({ req, params }) => {
    const issue = issueOr404(params[0]!);
    const b = jsonBody(req);
    const t = b.transition as Obj | undefined;
    if (!t?.id) fail(400, 'Missing transition id.');
    inputErrors(() => state.doTransition(issue, t.id, b.fields as Obj | undefined));
    return { status: 204 };
  });

  route('GET', '/issue/{id}/comment', ({ req, params }) => {
    const issue = issueOr404(params[0]!);
    const startAt = qInt(req.query, 'startAt', 0);
    const max = qInt(req.query, 'maxResults', 100, 100);
    const order = req.query.get('orderBy') ?? 'created';
    if (!['created', '-created', '+created'].includes(order)) fail(400, `Invalid orderBy: ${order}`);
    const list = order === '-created' ? [...issue.comments].reverse() : issue.comments;
    return ok({ comments: list.slice(startAt, startAt + max).map((c) => state.renderComment(c)), maxResults: max, total: list.length, startAt });
  });

  route('POST', '/issue/{id}/comment', ({ req, params, user }) => {
    const issue = issueOr404(params[0]!);
    const b = jsonBody(req);
    return ok(state.renderComment(inputErrors(() => state.addComment(issue, b.body, user.accountId, b.visibility))), 201);
  });

  route('POST', '/issue/{id}/attachments', ({ req, params, user }) => {
    if (String(req.headers['x-atlassian-token'] ?? '').toLowerCase() !== 'no-check') throw new SimHttpError({ status: 403, body: 'XSRF check failed' });
    const issue = issueOr404(params[0]!);
    const files = multipartFiles(req);
    if (files.length === 0) fail(400, 'No file attached.');
    return ok(files.map((f) => state.renderAttachment(state.addAttachment(issue, f, user.accountId))));
  });

  route('GET', '/attachment/{id}', ({ params }) => {
    const a = state.attachments.get(params[0]!);
    if (!a) fail(404, 'The attachment with id ' + params[0] + ' does not exist.');
    return ok(state.renderAttachment(a));
  });

  route('DELETE', '/attachment/{id}', ({ params }) => {
    if (!state.removeAttachment(params[0]!)) fail(404, `The attachment with id ${params[0]} does not exist.`);
    return { status: 204 };
  });

  route('GET', '/attachment/content/{id}', ({ params }) => {
    const a = state.attachments.get(params[0]!);
    if (!a) fail(404, `The attachment with id ${params[0]} does not exist.`);
    return { status: 200, body: a.content.toString('utf8'), headers: { 'content-type': a.mimeType } };
  });

  route('POST', '/search/jql', ({ req, user }) => {
    const b = jsonBody(req);
    const allowed = new Set(['jql', 'nextPageToken', 'maxResults', 'fields', 'expand', 'properties', 'fieldsByKeys', 'reconcileIssues']);
    const unknown = Object.keys(b).find((k) => !allowed.has(k));
    if (unknown) fail(400, `Unrecognized field "${unknown}"`);
    return ok(search(user, b));
  });
  route('GET', '/search/jql', ({ req, user }) =>
    ok(search(user, { jql: req.query.get('jql') ?? undefined, nextPageToken: req.query.get('nextPageToken') ?? undefined, maxResults: req.query.get('maxResults') ?? undefined, fields: req.query.getAll('fields').length ? req.query.getAll('fields') : undefined })),
  );
  const gone = (): SimResponse =>
    jiraError(410, ['The requested API has been removed. Please migrate to the /rest/api/3/search/jql API. A full migration guideline is available at https://developer.atlassian.com/changelog/#CHANGE-2046']);
  route('GET', '/search', gone);
  route('POST', '/search', gone);

  // ------------------------------------------------------------ server glue
  const handled = new WeakSet<SimRequest>();
  const cloudId = opts.cloudId ?? '5b1e3c7a-0d2f-4e8b-9a61-3f2c7d9e4b10';
  const RESOURCES = '/oauth/token/accessible-resources';
  /** Requests through the gateway, with the cloud id they named. */
  const viaGateway = new WeakMap<SimRequest, string>();
  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    onRequest(req) {
      // The gateway serves the site's API under its cloud id: routed (and checked) as the path that follows.
      const gateway = /^\/ex\/jira\/([^/]+)(\/.*)$/.exec(req.path);
      if (gateway) {
        viaGateway.set(req, decodeURIComponent(gateway[1]!));
        req.path = gateway[2]!;
      }
      if (req.path === RESOURCES) return;
      const ct = String(req.headers['content-type'] ?? '');
      let body: unknown = req.bodyError ? undefined : req.body;
      if (ct.startsWith('multipart/form-data')) {
        try {
          body = multipartFiles(req).map((f) => ({ name: 'file', originalFilename: f.filename, contentType: f.mimeType, size: f.content.length }));
        } catch {
          body = undefined;
        }
      }
      spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body });
    },
    describeAuth(req) {
      const id = identify(req);
      return id ? { scheme: id.scheme, label: id.label, valid: Boolean(id.user) } : null;
    },
    faultResponse(fault) {
      const status = fault.status!;
      if (status === 429) return tooMany();
      if (status === 401) return unauthorized();
      if (status === 404) return jiraError(404, ['Issue does not exist or you do not have permission to see it.']);
      if (status === 503) return jiraError(503, ['Service Unavailable']);
      if (status >= 500) return jiraError(status, ['Internal server error']);
      return jiraError(status, ['Request failed']);
    },
    handle(req) {
      const id = identify(req);
      if (req.path === RESOURCES && req.method === 'GET') {
        // Only OAuth access tokens have sites to list; the gateway answers in its own error shape.
        if (id?.scheme !== 'bearer' || !id.user) return { status: 401, body: { code: 401, message: 'Unauthorized' } };
        return ok(sim.accessibleResources);
      }
      const site = viaGateway.get(req);
      if (site !== undefined && site !== cloudId) return { status: 404, body: { code: 404, message: 'Not Found' } };
      if (!id?.user) return unauthorized();
      handled.add(req);
      if (tick() && rl.enforce) return tooMany();
      const matching = routes.filter((r) => r.re.test(req.path));
      if (matching.length === 0) return jiraError(404, ['null for uri: ' + baseUrl + req.path]);
      const r = matching.find((x) => x.method === req.method);
      if (!r) return { status: 405, body: '' };
      return r.h({ req, params: r.re.exec(req.path)!.slice(1).map(decodeURIComponent), user: id.user });
    },
    decorate(req, res) {
      if (handled.has(req) && res.body !== undefined && typeof res.body !== 'string') spec.checkResponse(req, res.status, res.body);
      const remaining = Math.max(0, rl.limit - window.count);
      res.headers = {
        ...(res.headers ?? {}),
        'x-arequestid': `sim-${requests.length}`,
        'x-ratelimit-limit': String(rl.limit),
        'x-ratelimit-remaining': String(res.status === 429 ? 0 : remaining),
        ...(remaining < rl.limit * 0.2 ? { 'x-ratelimit-nearlimit': 'true' } : {}),
      };
    },
    internalError(err) {
      return jiraError(500, [`Internal server error: ${(err as Error)?.message ?? String(err)}`]);
    },
  });
  baseUrl = server.url;

  // ---------------------------------------------------------------- control
  const userOf = (cred: JiraCredential = credentials[0]!) => byEmail.get(cred.email)!;
  const mustIssue = (idOrKey: string) => {
    const i = state.issue(idOrKey);
    if (!i) throw new Error(`no issue ${idOrKey}`);
    return i;
  };

  const sim: JiraSimulator = {
    url: server.url,
    state,
    credentials,
    requests,
    faults,
    clock,
    specAvailable: spec.available,
    specFile: spec.file,
    specViolations: spec.violations,
    specDeviations: spec.deviations,
    specUndocumented: spec.undocumented,
    userOf,
    authHeader(cred = credentials[0]!) {
      return `Basic ${Buffer.from(`${cred.email}:${cred.apiToken}`).toString('base64')}`;
    },
    addAccessToken(token) {
      accessTokens.add(token);
    },
    project(key) {
      const p = state.project(key);
      if (!p) throw new Error(`no project ${key}`);
      return p;
    },
    field(name) {
      const f = state.fields.find((x) => x.name === name);
      if (!f) throw new Error(`no field ${name}`);
      return f;
    },
    userByEmail(email) {
      const u = byEmail.get(email) ?? [...state.users.values()].find((x) => x.emailAddress === email);
      if (!u) throw new Error(`no user ${email}`);
      return u;
    },
    seedIssues(n, o = {}) {
      const project = state.project(o.projectKey ?? 'SUP') ?? [...state.projects.values()][0]!;
      const spacing = o.spacingMs ?? 1000;
      const start = clock.now() - n * spacing;
      const out: SimIssue[] = [];
      for (let i = 0; i < n; i++) {
        const issue = state.createIssue(
          { project: { id: project.id }, issuetype: { id: '10001' }, summary: `Seeded issue ${i + 1}`, description: adfText(`Body of seeded issue ${i + 1}.`), labels: o.labels?.(i) ?? [] },
          admin.accountId,
        );
        for (let c = 0; c < (o.commentsPerIssue ?? 0); c++) state.addComment(issue, adfText(`Comment ${c + 1} on issue ${i + 1}`), admin.accountId);
        const at = start + i * spacing;
        issue.created = at;
        issue.updated = at + Math.max(0, (o.commentsPerIssue ?? 0) - 1);
        issue.statusCategoryChanged = at;
        for (const c of issue.comments) c.created = c.updated = at;
        out.push(issue);
      }
      return out;
    },
    createIssueRemotely(fields, acting = admin.accountId) {
      return state.createIssue(fields, acting);
    },
    updateIssueRemotely(idOrKey, fields, acting = admin.accountId) {
      const issue = mustIssue(idOrKey);
      state.editIssue(issue, fields, acting);
      return issue;
    },
    transitionRemotely(idOrKey, statusName) {
      const issue = mustIssue(idOrKey);
      const status = STATUSES.find((s) => s.name.toLowerCase() === statusName.toLowerCase());
      const t = state.transitionsOf(issue).find((x) => x.to === status?.id);
      if (!t) throw new Error(`no transition to ${statusName}`);
      state.doTransition(issue, t.id, t.requires ? { resolution: { name: 'Done' } } : undefined);
      return issue;
    },
    addCommentRemotely(idOrKey, text, author = admin.accountId) {
      state.addComment(mustIssue(idOrKey), adfText(text), author);
    },
    deleteCommentRemotely(idOrKey, commentId) {
      const issue = mustIssue(idOrKey);
      issue.comments = issue.comments.filter((c) => c.id !== commentId);
    },
    deleteIssueRemotely(idOrKey) {
      state.deleteIssue(mustIssue(idOrKey).id);
    },
    issueJson(idOrKey) {
      const i = state.issue(idOrKey);
      return i ? state.renderIssue(i, undefined, '*all') : undefined;
    },
    resetRequests() {
      requests.length = 0;
    },
    hooks,
    cloudId,
    accessibleResources: [
      {
        id: cloudId,
        name: 'Simulated Jira',
        url: server.url,
        scopes: ['read:jira-work', 'write:jira-work', 'read:jira-user', 'manage:jira-webhook'],
        avatarUrl: 'https://site-admin-avatar-cdn.prod.public.atl-paas.net/avatars/240/rocket.png',
      },
    ],
    async close() {
      hooks.sender.enabled = false;
      await hooks.sender.settle();
      await server.close();
    },
  };
  return sim;
}
