/**
 * GitLab REST API v4 simulator for integration tests and benchmarks (on the shared HTTP kit).
 *
 * `startGitlabSimulator()` listens on 127.0.0.1:<random port> (the API under `${url}/api/v4`), keeps
 * an in-memory instance (users, nested groups, projects, members, labels, issues, notes, uploads)
 * and, when shared/provider-specs/gitlab/gitlab-openapi3.yaml is present, validates every API request
 * and JSON response against it (`specViolations`; documented differences in spec.ts).
 *
 * Auth: `PRIVATE-TOKEN: <token>` or `Authorization: Bearer <token>` (personal access tokens work with
 * both; OAuth tokens only as Bearer). Unknown or expired tokens → 401 `{"message":"401 Unauthorized"}`;
 * `read_api` tokens get 403 `insufficient_scope` on writes; anonymous requests see public projects only.
 * Every authenticated response carries `RateLimit-Limit`, `RateLimit-Observed`, `RateLimit-Remaining`,
 * `RateLimit-Reset` (Unix time) and `RateLimit-ResetTime`; a 429 (enforced limit or injected fault)
 * answers `Retry later` as text with `Retry-After`.
 *
 * Endpoints (offset pagination `page`/`per_page` ≤ 100 with `X-Page`, `X-Per-Page`, `X-Next-Page`,
 * `X-Prev-Page`, `X-Total`, `X-Total-Pages` and `Link`; `X-Total*` dropped above 10,000):
 *   GET    /api/v4/user
 *   GET    /api/v4/projects                       membership, min_access_level, with_issues_enabled, archived, id_after/id_before,
 *                                                 order_by, sort, search, simple, pagination=keyset (order_by=id)
 *   GET    /api/v4/projects/:id                   numeric id or URL-encoded path
 *   GET    /api/v4/projects/:id/members[/all]
 *   GET    /api/v4/groups                         min_access_level, all_available, top_level_only, order_by, sort
 *   GET    /api/v4/groups/:id, /api/v4/groups/:id/members[/all]
 *   GET    /api/v4/projects/:id/labels            include_ancestor_groups (default true)
 *   GET    /api/v4/projects/:id/issues            state, order_by, sort, created_after/before, updated_after/before (inclusive),
 *                                                 labels, iids[], assignee_id, author_id, confidential, issue_type, search
 *   POST   /api/v4/projects/:id/issues            201; labels are created when missing; assignees without access are dropped,
 *                                                 and all but the first on the Free tier; unknown parameters are ignored
 *   GET    /api/v4/projects/:id/issues/:iid
 *   PUT    /api/v4/projects/:id/issues/:iid       state_event close|reopen; system notes for title, description, assignees, due date
 *   DELETE /api/v4/projects/:id/issues/:iid       204, owners only
 *   GET    /api/v4/projects/:id/issues/:iid/notes sort (default desc), order_by; system notes included; internal ones for Planner+
 *   POST   /api/v4/projects/:id/issues/:iid/notes 201; internal (or the deprecated confidential); touches the issue
 *   POST   /api/v4/projects/:id/uploads           multipart `file` → 201 {id, alt, url, full_path, markdown}; 413 above maxUploadBytes
 *   GET    /api/v4/projects/:id/uploads/:secret/:filename and /-/project/:id/uploads/:secret/:filename (the file)
 *   DELETE /api/v4/projects/:id/uploads/:upload_id  204, maintainers
 *   POST   /api/v4/projects/:id/hooks             201, maintainers; GET lists them, DELETE …/hooks/:hook_id 204;
 *                                                 issue and note changes are sent to them signed (hooks.ts)
 *
 * The shared kit reads bodies as UTF-8 text: uploaded binary files are not kept byte for byte.
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
import { GitlabHooks } from './hooks';
import { createRoutes, matchRoute, parseMultipart, type MultipartPart, type RouteRequest } from './routes';
import { Serializer } from './serialize';
import { GITLAB_KNOWN_DEVIATIONS, loadSpecCheck, type KnownDeviation, type SpecViolation } from './spec';
import { ACCESS, GitlabState, GlError, type GroupRecord, type IssueInput, type IssueRecord, type NoteRecord, type ProjectRecord, type UserRecord } from './state';

export { GitlabState, GlError, ACCESS, GITLAB_KNOWN_DEVIATIONS, FaultController, SimClock };
export { GitlabHooks, gitlabHookHeaders, type SimProjectHook } from './hooks';
export type { ActiveFault, FaultSpec, RecordedRequest, SpecViolation, KnownDeviation, UserRecord, GroupRecord, ProjectRecord, IssueRecord, NoteRecord, IssueInput };

export interface GitlabToken {
  token: string;
  userId: number;
  kind?: 'personal' | 'oauth';
  scopes?: Array<'api' | 'read_api'>;
  /** Epoch ms after which the token is refused. */
  expiresAt?: number;
  label?: string;
}

export interface GitlabSimulatorOptions {
  /** Tokens; default one personal access token `glpat-simulator-token` (scope api) of the seeded user `sam`. */
  tokens?: GitlabToken[];
  /** Seed the default users, groups, projects, labels and issues (see `seedDefaults`). Default true. */
  seedDefaults?: boolean;
  /** Free keeps one assignee and turns test cases into issues; Premium and Ultimate keep several assignees. Default free. */
  tier?: 'free' | 'premium' | 'ultimate';
  /** Authenticated API rate limit per token and minute (GitLab.com: 2,000). With `enforce`, requests beyond it get 429. */
  rateLimit?: { perMinute?: number; enforce?: boolean; /** The window (default a minute; shorter for time-scaled benchmarks). */ windowMs?: number };
  /** Largest upload in bytes (GitLab's default: 10 MiB). */
  maxUploadBytes?: number;
  /** Validate traffic against the OpenAPI document (default true; skipped when absent). */
  validateSpec?: boolean;
  /** The OpenAPI document; default `specPath('gitlab', 'gitlab-openapi3.yaml')`; null disables validation. */
  specFile?: string | null;
  knownDeviations?: readonly KnownDeviation[];
  /** Clock for record timestamps (kept strictly increasing). */
  now?: () => number;
  recordBodies?: boolean;
}

/** What `seedDefaults` creates: ids tests can rely on. */
export interface GitlabFixtures {
  /** The token owner (Maintainer of the support project through the Acme group). */
  sam: UserRecord;
  riley: UserRecord;
  jo: UserRecord;
  /** Not a member of anything the token sees. */
  outsider: UserRecord;
  acme: GroupRecord;
  support: GroupRecord;
  /** acme/support/help-desk: issues, group label `bug`, project label `customer`. */
  helpDesk: ProjectRecord;
  /** acme/website. */
  website: ProjectRecord;
  /** sam/sandbox (a personal project). */
  sandbox: ProjectRecord;
  /** acme/docs-only, issues disabled. */
  docsOnly: ProjectRecord;
  /** other/public-thing, public, the token's user is not a member. */
  publicOther: ProjectRecord;
}

export interface GitlabSimulator {
  /** Base URL (the instance's address; the API is under `/api/v4`). */
  readonly url: string;
  readonly state: GitlabState;
  readonly tokens: readonly GitlabToken[];
  /** The default token (first one). */
  readonly token: string;
  readonly fixtures: GitlabFixtures | undefined;
  readonly requests: RecordedRequest[];
  readonly faults: FaultController;
  readonly clock: SimClock;
  readonly specAvailable: boolean;
  readonly specFile?: string;
  /** Unexplained spec violations of adapter requests and simulator responses. */
  readonly specViolations: SpecViolation[];
  /** Violations explained by a documented difference between GitLab and its generated document. */
  readonly specDeviations: { violation: SpecViolation; reason: string }[];
  /** Requests to operations the document does not describe (Notes, Labels, upload downloads). */
  readonly specUndocumented: { method: string; path: string }[];
  clearSpecFindings(): void;
  clearRequests(): void;

  addToken(token: GitlabToken): void;
  removeToken(token: string): void;
  /** Creates an issue as if a user did it in GitLab's UI. */
  createIssueRemotely(projectId: number, input: IssueInput, authorId?: number): IssueRecord;
  /** Changes an issue in GitLab's UI (bumps `updated_at`). */
  updateIssueRemotely(projectId: number, iid: number, input: IssueInput, actorId?: number): IssueRecord;
  addNoteRemotely(projectId: number, iid: number, body: string, opts?: { authorId?: number; internal?: boolean }): NoteRecord;
  deleteIssueRemotely(projectId: number, iid: number): void;
  /** The issue as `GET /projects/:id/issues/:iid` renders it, or undefined. */
  issueJson(projectId: number, iid: number): Record<string, unknown> | undefined;
  /** Creates `n` issues in a project (optionally with notes), returns them. */
  seedIssues(projectId: number, n: number, opts?: { notesPerIssue?: number; createdAt?: (i: number) => number }): IssueRecord[];
  /** Project webhooks created through the API, and the deliveries sent to them. */
  readonly hooks: GitlabHooks;
  close(): Promise<void>;
}

export const DEFAULT_TOKEN = 'glpat-simulator-token';

function errorBody(status: number): unknown {
  if (status === 401) return { message: '401 Unauthorized' };
  if (status === 403) return { message: '403 Forbidden' };
  if (status === 404) return { message: '404 Not Found' };
  if (status === 409) return { message: '409 Conflict' };
  if (status === 422) return { message: '422 Unprocessable Entity' };
  if (status === 429) return 'Retry later\n';
  if (status === 502) return '<html><body><h1>502 Bad Gateway</h1>GitLab is not responding.</body></html>';
  if (status === 503) return { message: '503 Service Unavailable' };
  if (status >= 500) return { message: '500 Internal Server Error' };
  return { message: `${status} ${http.STATUS_CODES[status] ?? 'Error'}` };
}

/** The default instance: an Acme group with a Support subgroup, their projects and members, a few issues. */
export function seedDefaults(state: GitlabState): GitlabFixtures {
  const sam = state.addUser({ username: 'sam', name: 'Sam Agent', email: 'sam@example.com' });
  const riley = state.addUser({ username: 'riley', name: 'Riley Dev', email: 'riley@example.com', public_email: 'riley@acme.example' });
  const jo = state.addUser({ username: 'jo', name: 'Jo Reporter', email: 'jo@example.com' });
  const outsider = state.addUser({ username: 'olly', name: 'Olly Outsider', email: 'olly@example.com' });
  const acme = state.addGroup({ name: 'Acme', path: 'acme', description: 'Acme Inc.', members: { [sam.id]: ACCESS.maintainer, [riley.id]: ACCESS.developer } });
  const support = state.addGroup({ name: 'Support', path: 'support', parent_id: acme.id, description: 'Customer support', members: { [jo.id]: ACCESS.reporter } });
  const other = state.addGroup({ name: 'Other', path: 'other', visibility: 'public', members: { [outsider.id]: ACCESS.owner } });
  const helpDesk = state.addProject({ name: 'Help desk', path: 'help-desk', namespace: { kind: 'group', id: support.id }, description: 'Customer tickets' });
  const website = state.addProject({ name: 'Website', path: 'website', namespace: { kind: 'group', id: acme.id } });
  const sandbox = state.addProject({ name: 'Sandbox', path: 'sandbox', namespace: { kind: 'user', id: sam.id } });
  const docsOnly = state.addProject({ name: 'Docs only', path: 'docs-only', namespace: { kind: 'group', id: acme.id }, issues_enabled: false });
  const publicOther = state.addProject({ name: 'Public thing', path: 'public-thing', namespace: { kind: 'group', id: other.id }, visibility: 'public' });
  state.addLabel({ name: 'bug', groupId: acme.id, color: '#dc143c' });
  state.addLabel({ name: 'customer', projectId: helpDesk.id, color: '#6699cc' });
  state.addLabel({ name: 'design', projectId: website.id });

  const first = state.createIssue(helpDesk.id, { title: 'Login page is slow', description: 'Takes 10 s to load.', labels: ['bug', 'customer'], assignee_ids: [riley.id] }, jo.id);
  state.addNote(first, { body: 'Looking into it.' }, riley.id);
  state.updateIssue(first, { assignee_ids: [sam.id] }, riley.id);
  state.addNote(first, { body: 'Internal: the DB index is missing.', internal: true }, sam.id);
  const second = state.createIssue(helpDesk.id, { title: 'Export to CSV', description: 'Customers want CSV exports.', issue_type: 'task' }, sam.id);
  state.updateIssue(second, { state_event: 'close' }, sam.id);
  state.createIssue(website.id, { title: 'Broken footer link', labels: ['design'] }, riley.id);
  state.createIssue(publicOther.id, { title: 'Not ours' }, outsider.id);
  return { sam, riley, jo, outsider, acme, support, helpDesk, website, sandbox, docsOnly, publicOther };
}

export async function startGitlabSimulator(opts: GitlabSimulatorOptions = {}): Promise<GitlabSimulator> {
  const clock = new SimClock(opts.now);
  const tier = opts.tier ?? 'free';
  const state = new GitlabState({ now: () => clock.now(), multipleAssignees: tier !== 'free' });
  const fixtures = opts.seedDefaults === false ? undefined : seedDefaults(state);
  const tokens = new Map<string, GitlabToken>();
  const defaultOwner = fixtures?.sam.id ?? 1;
  for (const t of opts.tokens ?? [{ token: DEFAULT_TOKEN, userId: defaultOwner, kind: 'personal' as const, scopes: ['api' as const], label: 'default' }]) {
    tokens.set(t.token, { kind: 'personal', scopes: ['api'], ...t });
  }
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const spec = await loadSpecCheck({ enabled: opts.validateSpec, file: opts.specFile, deviations: opts.knownDeviations });
  const perMinute = opts.rateLimit?.perMinute ?? 2000;
  const windowMs = opts.rateLimit?.windowMs ?? 60_000;
  const windows = new Map<string, { start: number; count: number }>();
  let baseUrl = '';
  const ser = new Serializer(state, () => baseUrl);
  const hooks = new GitlabHooks(state, ser, () => baseUrl);
  const routes = createRoutes({ state, ser, baseUrl: () => baseUrl, maxUploadBytes: opts.maxUploadBytes ?? 10 * 1024 * 1024, tier, hooks });

  // ------------------------------------------------------------------ auth

  function presented(req: SimRequest): { token: string; scheme: 'private-token' | 'bearer' } | undefined {
    const pt = req.headers['private-token'];
    if (typeof pt === 'string' && pt) return { token: pt, scheme: 'private-token' };
    const h = req.headers.authorization;
    const bearer = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h.trim())?.[1] : undefined;
    return bearer ? { token: bearer, scheme: 'bearer' } : undefined;
  }

  type Auth = { kind: 'anonymous' } | { kind: 'invalid'; reason: 'unknown' | 'expired' } | { kind: 'ok'; token: GitlabToken };
  function authenticate(req: SimRequest): Auth {
    const p = presented(req);
    if (!p) return { kind: 'anonymous' };
    const t = tokens.get(p.token);
    // OAuth tokens are only accepted as Bearer; personal tokens either way.
    if (!t || (t.kind === 'oauth' && p.scheme !== 'bearer') || !state.users.has(t.userId)) return { kind: 'invalid', reason: 'unknown' };
    if (t.expiresAt !== undefined && clock.now() >= t.expiresAt) return { kind: 'invalid', reason: 'expired' };
    return { kind: 'ok', token: t };
  }

  // ------------------------------------------------------------------ rate limits

  function windowOf(label: string) {
    const now = clock.now();
    const start = Math.floor(now / windowMs) * windowMs;
    let w = windows.get(label);
    if (!w || w.start !== start) windows.set(label, (w = { start, count: 0 }));
    return w;
  }
  function rateHeaders(label: string, exhausted: boolean): Record<string, string> {
    const w = windowOf(label);
    const reset = Math.ceil((w.start + windowMs) / 1000);
    return {
      'ratelimit-limit': String(perMinute),
      'ratelimit-observed': String(w.count),
      'ratelimit-remaining': String(exhausted ? 0 : Math.max(0, perMinute - w.count)),
      'ratelimit-reset': String(reset),
      'ratelimit-resettime': new Date(reset * 1000).toUTCString(),
    };
  }
  const tooMany = (label: string): SimResponse => {
    const w = windowOf(label);
    return {
      status: 429,
      body: 'Retry later\n',
      headers: { 'content-type': 'text/plain', 'retry-after': String(Math.max(1, Math.ceil((w.start + windowMs - clock.now()) / 1000))) },
    };
  };
  const labelOf = (req: SimRequest) => {
    const a = authenticate(req);
    return a.kind === 'ok' ? (a.token.label ?? `token-${a.token.userId}`) : undefined;
  };

  // ------------------------------------------------------------------ request parsing

  function paramsOf(req: SimRequest): { params: Record<string, unknown>; files: MultipartPart[] } {
    const params: Record<string, unknown> = {};
    for (const key of new Set(req.query.keys())) {
      const all = req.query.getAll(key);
      params[key.replace(/\[\]$/, '')] = key.endsWith('[]') ? all : all[all.length - 1];
    }
    const type = String(req.headers['content-type'] ?? '').toLowerCase();
    let files: MultipartPart[] = [];
    if (req.rawBody.length > 0) {
      if (type.startsWith('multipart/form-data')) {
        files = parseMultipart(Buffer.from(req.rawBody, 'utf8'), type.includes('boundary') ? String(req.headers['content-type']) : type);
        for (const f of files) if (f.filename === undefined) params[f.name] = f.content.toString('utf8');
      } else if (type.startsWith('application/x-www-form-urlencoded')) {
        for (const [k, v] of new URLSearchParams(req.rawBody)) params[k.replace(/\[\]$/, '')] = k.endsWith('[]') ? [...((params[k.replace(/\[\]$/, '')] as string[]) ?? []), v] : v;
      } else {
        if (req.bodyError) throw new SimHttpError({ status: 400, body: { error: 'The provided content-type \'application/json\' is not supported or the body is not valid JSON' } });
        if (req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body)) Object.assign(params, req.body);
        else throw new SimHttpError({ status: 400, body: { error: 'The request body must be a JSON object' } });
      }
    }
    return { params, files };
  }

  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    onRequest(req) {
      // The shared kit redacts Authorization but not GitLab's PRIVATE-TOKEN header.
      const entry = requests[requests.length - 1];
      if (entry && entry.headers['private-token'] !== undefined) entry.headers['private-token'] = '[redacted]';
      let body: unknown = req.body;
      const type = String(req.headers['content-type'] ?? '');
      if (/^multipart\/form-data/i.test(type)) {
        // Validate the form fields (the document declares the upload's `file` field as a JSON body).
        const parts = parseMultipart(Buffer.from(req.rawBody, 'utf8'), type);
        body = Object.fromEntries(parts.map((p) => [p.name, p.filename ?? p.content.toString('utf8')]));
        if (entry) entry.body = { multipart: parts.map((p) => ({ name: p.name, filename: p.filename, contentType: p.contentType, bytes: p.content.length })) };
      }
      spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body });
    },
    describeAuth(req) {
      const p = presented(req);
      if (!p) return null;
      const a = authenticate(req);
      return { scheme: p.scheme, label: a.kind === 'ok' ? (a.token.label ?? `token-${a.token.userId}`) : null, valid: a.kind === 'ok' };
    },
    faultResponse(fault: ActiveFault, req) {
      const label = labelOf(req);
      if (fault.status === 429) {
        const r = label ? tooMany(label) : { status: 429, body: 'Retry later\n', headers: { 'content-type': 'text/plain', 'retry-after': '60' } };
        if (fault.retryAfterSeconds === undefined) r.headers!['retry-after'] = '1';
        return r;
      }
      return { status: fault.status!, body: errorBody(fault.status!) };
    },
    handle(req) {
      const auth = authenticate(req);
      const label = auth.kind === 'ok' ? (auth.token.label ?? `token-${auth.token.userId}`) : undefined;
      if (label) {
        const w = windowOf(label);
        w.count += 1;
        if (opts.rateLimit?.enforce && w.count > perMinute) return tooMany(label);
      }
      const isApi = req.path.startsWith('/api/v4/') || req.path.startsWith('/-/');
      const { route, params } = matchRoute(routes, req.method, req.path);
      if (!route) {
        return isApi ? { status: 404, body: { error: '404 Not Found' } } : { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } };
      }
      if (auth.kind === 'invalid') {
        return auth.reason === 'expired'
          ? { status: 401, body: { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' } }
          : { status: 401, body: { message: '401 Unauthorized' } };
      }
      if (route.auth && auth.kind !== 'ok') return { status: 401, body: { message: '401 Unauthorized' } };
      const { params: p, files } = paramsOf(req);
      const rr: RouteRequest = {
        method: req.method,
        path: req.path,
        query: req.query,
        params: p,
        files,
        pathParams: params,
        userId: auth.kind === 'ok' ? auth.token.userId : 0,
        canWrite: auth.kind === 'ok' && (auth.token.scopes ?? ['api']).includes('api'),
      };
      try {
        return route.handle(rr);
      } catch (err) {
        if (err instanceof GlError) return { status: err.status, body: err.body };
        throw err;
      }
    },
    decorate(req, res) {
      const label = labelOf(req);
      res.headers = { ...(res.headers ?? {}), ...(label ? rateHeaders(label, res.status === 429) : {}) };
      if (res.body !== undefined && typeof res.body === 'object') res.headers['content-type'] ??= 'application/json';
      res.headers['x-request-id'] = `01${Math.random().toString(36).slice(2, 12).toUpperCase()}`;
      res.headers['x-runtime'] = '0.012345';
      res.headers['cache-control'] = 'max-age=0, private, must-revalidate';
      if (typeof res.body === 'object' || res.body === undefined) spec.checkResponse(req, res.status, res.body);
    },
    internalError(err) {
      return { status: 500, body: { message: `500 Internal Server Error: ${(err as Error)?.message ?? String(err)}` } };
    },
  });
  baseUrl = server.url;

  const issueOrThrow = (projectId: number, iid: number) => {
    const i = state.findIssue(projectId, iid);
    if (!i) throw new Error(`no issue ${projectId}#${iid}`);
    return i;
  };
  const owner = (): number => {
    const first = [...tokens.values()][0];
    return first?.userId ?? defaultOwner;
  };

  const sim: GitlabSimulator = {
    url: server.url,
    state,
    get tokens() {
      return [...tokens.values()];
    },
    token: [...tokens.keys()][0]!,
    fixtures,
    requests,
    faults,
    clock,
    specAvailable: spec.available,
    specFile: spec.specFile,
    specViolations: spec.violations,
    specDeviations: spec.deviations,
    specUndocumented: spec.undocumented,
    clearSpecFindings: () => spec.clear(),
    clearRequests() {
      requests.length = 0;
    },
    addToken(t) {
      tokens.set(t.token, { kind: 'personal', scopes: ['api'], ...t });
    },
    removeToken(t) {
      tokens.delete(t);
    },
    createIssueRemotely(projectId, input, authorId) {
      return state.createIssue(projectId, input, authorId ?? owner());
    },
    updateIssueRemotely(projectId, iid, input, actorId) {
      const i = issueOrThrow(projectId, iid);
      state.updateIssue(i, input, actorId ?? owner(), { touch: true });
      return i;
    },
    addNoteRemotely(projectId, iid, body, o = {}) {
      return state.addNote(issueOrThrow(projectId, iid), { body, internal: o.internal }, o.authorId ?? owner());
    },
    deleteIssueRemotely(projectId, iid) {
      state.deleteIssue(issueOrThrow(projectId, iid));
    },
    issueJson(projectId, iid) {
      const i = state.findIssue(projectId, iid);
      return i ? ser.issue(i) : undefined;
    },
    seedIssues(projectId, n, o = {}) {
      const out: IssueRecord[] = [];
      for (let k = 0; k < n; k++) {
        const i = state.createIssue(projectId, { title: `Seeded issue ${k + 1}`, description: `Body ${k + 1}`, created_at: o.createdAt?.(k) }, owner());
        for (let j = 0; j < (o.notesPerIssue ?? 0); j++) state.addNote(i, { body: `Note ${j + 1} on ${k + 1}` }, owner());
        out.push(i);
      }
      return out;
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
