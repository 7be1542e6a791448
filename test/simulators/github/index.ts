/**
 * GitHub REST API simulator (api.github.com, or GitHub Enterprise Server under `/api/v3` with
 * `pathPrefix`) for integration tests and benchmarks, built on the shared HTTP kit.
 *
 * Auth: `Authorization: Bearer <token>` or `token <token>`; a request without a token answers
 * 401 "Requires authentication", an unknown token 401 "Bad credentials"; a request without a
 * User-Agent 403 (as GitHub does). Private repositories the token's user cannot see answer 404.
 * Every response carries `x-ratelimit-limit/remaining/used/reset/resource` (reset in epoch seconds);
 * with `rateLimit.enforce` an exhausted budget answers 403 (or 429) "API rate limit exceeded".
 * Lists use page-based pagination (`per_page` ≤ 100, `page`) with a `Link` header
 * (`rel="next"`, `"last"`, `"first"`, `"prev"`).
 *
 * Endpoints:
 *   GET    /user                                         the authenticated user
 *   GET    /user/repos                                   repositories the user collaborates on (sort, direction, visibility)
 *   GET    /repos/{owner}/{repo}                         with `permissions` of the user
 *   GET    /repos/{owner}/{repo}/assignees
 *   GET    /repos/{owner}/{repo}/labels
 *   GET    /repos/{owner}/{repo}/issues                  issues and pull requests; state, sort, direction, since, labels, assignee, creator
 *   POST   /repos/{owner}/{repo}/issues                  labels/assignees silently dropped without push access (as GitHub)
 *   GET    /repos/{owner}/{repo}/issues/{number}         410 when issues are disabled, 404 when deleted
 *   PATCH  /repos/{owner}/{repo}/issues/{number}         title, body, state, state_reason, labels, assignees
 *   GET    /repos/{owner}/{repo}/issues/comments         every comment of the repository (issues and pull requests); sort, direction, since
 *   GET    /repos/{owner}/{repo}/issues/comments/{id}
 *   GET    /repos/{owner}/{repo}/issues/{number}/comments  since
 *   POST   /repos/{owner}/{repo}/issues/{number}/comments
 * Bodies follow the `Accept` media type: `application/vnd.github.{raw|text|html|full}+json`.
 *
 * When shared/provider-specs/github/api.github.com.issues-trimmed.json exists, every request and
 * every response (injected faults excepted) is validated against it (`specViolations`).
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
import { bodyFormat, Serializer } from './serialize';
import { GithubHooks } from './hooks';
import { GhError, GithubState, ValidationFailed, type Role, type SimComment, type SimIssue, type SimRepo, type SimUser } from './state';
import { loadSpecCheck, GITHUB_KNOWN_DEVIATIONS, type KnownDeviation, type SpecViolation } from './spec';

export { GithubState, FaultController, SimClock, GITHUB_KNOWN_DEVIATIONS };
export { GithubHooks, signedHeaders, type SimHook } from './hooks';
export type { ActiveFault, FaultSpec, RecordedRequest, SpecViolation, KnownDeviation, SimIssue, SimComment, SimRepo, SimUser, Role };

const DOCS = 'https://docs.github.com/rest';
export const SECONDARY_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.';

export interface GithubSimulatorOptions {
  /** `/api/v3` to look like GitHub Enterprise Server; default '' (api.github.com). */
  pathPrefix?: string;
  /** Extra tokens → login (created when missing). The default token `ghp_test_token` acts as `octocat`. */
  tokens?: Record<string, string>;
  /** Create the default users, organisation, repositories, labels, issues and comments. Default true. */
  seedDefaults?: boolean;
  /** Primary rate limit per token and hour (default 5000). With `enforce`, requests beyond it are refused. */
  rateLimit?: {
    limit?: number;
    enforce?: boolean;
    status?: 403 | 429;
    /** The primary window (default an hour; shorter for time-scaled benchmarks). */
    windowMs?: number;
    /** Secondary limit on content creation (POST, PATCH, PUT, DELETE), e.g. 80 a minute; enforced with `enforce`. */
    contentCreation?: { requests: number; windowMs?: number };
  };
  validateSpec?: boolean;
  /** Override the description file; `null` disables validation. */
  specFile?: string | null;
  knownDeviations?: readonly KnownDeviation[];
  now?: () => number;
  recordBodies?: boolean;
}

export interface GithubSimulator {
  /** The base URL to connect to (with the prefix), e.g. `http://127.0.0.1:5123` or `…/api/v3`. */
  readonly url: string;
  readonly state: GithubState;
  /** The default token and its user. */
  readonly token: string;
  readonly viewer: SimUser;
  readonly requests: RecordedRequest[];
  readonly faults: FaultController;
  readonly clock: SimClock;
  readonly specAvailable: boolean;
  readonly specFile?: string;
  readonly specViolations: SpecViolation[];
  readonly specDeviations: { violation: SpecViolation; reason: string }[];
  readonly specUndocumented: { method: string; path: string }[];
  /** Schemas of the description rewritten so that it compiles (see spec.ts `compilableSpec`). */
  readonly specLoadFixes: string[];
  clearSpecViolations(): void;
  clearRequests(): void;
  addToken(token: string, login: string): void;
  repo(fullName: string): SimRepo;
  issue(fullName: string, number: number): SimIssue | undefined;
  /** The issue as `GET /repos/{owner}/{repo}/issues/{number}` answers it (undefined once deleted). */
  issueJson(fullName: string, number: number): Record<string, unknown> | undefined;
  /** Creates an issue (or, with `pull: true`, a pull request) as someone would in GitHub's UI. */
  createIssueRemotely(fullName: string, input: { title: string; body?: string; labels?: string[]; assignees?: string[]; pull?: boolean; author?: string; state?: 'open' | 'closed' }): SimIssue;
  updateIssueRemotely(fullName: string, number: number, patch: Parameters<GithubState['updateIssue']>[2], actor?: string): SimIssue;
  addCommentRemotely(fullName: string, number: number, body: string, author?: string): SimComment;
  deleteIssueRemotely(fullName: string, number: number): void;
  /** `n` issues (every `prEvery`-th a pull request), `commentsPerIssue` comments each. */
  seedIssues(fullName: string, n: number, opts?: { commentsPerIssue?: number; prEvery?: number; author?: string }): SimIssue[];
  /** The next `times` requests exhaust the primary limit: 403 (or 429), `x-ratelimit-remaining: 0`, reset in `resetInSeconds`. */
  primaryRateLimit(times: number, opts?: { status?: 403 | 429; resetInSeconds?: number }): ActiveFault;
  /** The next `times` requests hit a secondary limit: 403 (or 429) with `retry-after` (none when `retryAfterSeconds: null`). */
  secondaryRateLimit(times: number, opts?: { status?: 403 | 429; retryAfterSeconds?: number | null }): ActiveFault;
  /** Repository webhooks created through the API, and the signed deliveries sent to them. */
  readonly hooks: GithubHooks;
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;

const errorBody = (message: string, extra: Obj = {}) => ({ message, documentation_url: DOCS, ...extra });

function fail(status: number, message: string, extra: Obj = {}): never {
  throw new SimHttpError({ status, body: errorBody(message, extra) });
}

function defaultFaultBody(status: number): unknown {
  if (status === 401) return errorBody('Bad credentials');
  if (status === 403) return errorBody('Resource not accessible by personal access token');
  if (status === 404) return errorBody('Not Found');
  if (status === 410) return errorBody('Issues are disabled for this repo');
  if (status === 422) return errorBody('Validation Failed', { errors: [] });
  if (status === 429) return errorBody(SECONDARY_LIMIT_MESSAGE);
  if (status === 503) return errorBody('Service Unavailable');
  if (status >= 500) return errorBody('Server Error');
  return errorBody(http.STATUS_CODES[status] ?? 'Error');
}

interface Route {
  method: string;
  regex: RegExp;
  keys: string[];
  handler: (req: SimRequest, params: Record<string, string>, viewer: SimUser) => SimResponse;
}

function route(method: string, pattern: string, handler: Route['handler']): Route {
  const keys: string[] = [];
  const regex = new RegExp(
    `^${pattern.replace(/\{(\w+)\}/g, (_m, k: string) => {
      keys.push(k);
      return '([^/]+)';
    })}$`,
  );
  return { method, regex, keys, handler };
}

const DEFAULT_TOKEN = 'ghp_test_token';

export async function startGithubSimulator(opts: GithubSimulatorOptions = {}): Promise<GithubSimulator> {
  const prefix = (opts.pathPrefix ?? '').replace(/\/+$/, '');
  const clock = new SimClock(opts.now);
  const state = new GithubState(clock);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const spec = await loadSpecCheck({ enabled: opts.validateSpec, file: opts.specFile, deviations: opts.knownDeviations });
  let origin = '';
  const apiBase = () => `${origin}${prefix}`;
  const ser = new Serializer(state, apiBase);

  const tokens = new Map<string, string>();
  const viewer = state.addUser({ login: 'octocat', name: 'The Octocat', email: 'octocat@github.example' });
  tokens.set(DEFAULT_TOKEN, viewer.login);
  for (const [t, login] of Object.entries(opts.tokens ?? {})) {
    if (!state.user(login)) state.addUser({ login });
    tokens.set(t, state.user(login)!.login);
  }
  if (opts.seedDefaults !== false) seed(state, viewer);

  // ---------------------------------------------------------------- rate limits (per token, one hour)
  const limit = opts.rateLimit?.limit ?? 5000;
  const windowMs = opts.rateLimit?.windowMs ?? 3_600_000;
  // `reset` in epoch milliseconds; the header says it in epoch seconds, as GitHub does.
  const windows = new Map<string, { reset: number; used: number }>();
  const budget = (key: string) => {
    const now = clock.now();
    let w = windows.get(key);
    if (!w || w.reset <= now) {
      w = { reset: now + windowMs, used: 0 };
      windows.set(key, w);
    }
    return w;
  };
  const rateHeaders = (w: { reset: number; used: number }) => ({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - w.used)),
    'x-ratelimit-used': String(w.used),
    'x-ratelimit-reset': String(Math.ceil(w.reset / 1000)),
    'x-ratelimit-resource': 'core',
  });
  // Secondary limit on content creation: a sliding window of the writes' times, per token.
  const writes = new Map<string, number[]>();
  const contentCreationExceeded = (key: string, method: string): boolean => {
    const cc = opts.rateLimit?.contentCreation;
    if (!cc || !['POST', 'PATCH', 'PUT', 'DELETE'].includes(method)) return false;
    const now = clock.now();
    const recent = (writes.get(key) ?? []).filter((t) => t > now - (cc.windowMs ?? 60_000));
    const exceeded = recent.length >= cc.requests;
    if (!exceeded) recent.push(now);
    writes.set(key, recent);
    return exceeded;
  };

  // ---------------------------------------------------------------- auth
  const tokenOf = (req: SimRequest): string | undefined => {
    const h = req.headers.authorization;
    const m = typeof h === 'string' ? /^(?:bearer|token)\s+(\S+)\s*$/i.exec(h) : null;
    return m?.[1];
  };
  const viewerOf = (req: SimRequest): SimUser | undefined => {
    const t = tokenOf(req);
    const login = t ? tokens.get(t) : undefined;
    return login ? state.user(login) : undefined;
  };

  // ---------------------------------------------------------------- helpers
  const visibleRepo = (params: Record<string, string>, v: SimUser): SimRepo => {
    const repo = state.repoByName(params.owner!, params.repo!);
    if (!repo || !state.canSee(repo, v.login)) fail(404, 'Not Found');
    return repo;
  };
  const issuesEnabled = (repo: SimRepo) => {
    if (!repo.has_issues) fail(410, 'Issues are disabled for this repo');
  };
  const writable = (repo: SimRepo) => {
    if (repo.archived) fail(403, 'Repository was archived so is read-only.');
  };
  const issueOf = (repo: SimRepo, n: string): SimIssue => {
    const number = Number(n);
    const issue = Number.isSafeInteger(number) ? state.issue(repo, number) : undefined;
    if (!issue) fail(404, 'Not Found');
    return issue;
  };
  const intParam = (q: URLSearchParams, name: string, dflt: number): number => {
    const raw = q.get(name);
    if (raw === null) return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n)) fail(422, 'Validation Failed', { errors: [{ resource: 'Search', field: name, code: 'invalid' }] });
    return n;
  };
  const sinceParam = (q: URLSearchParams): number | undefined => {
    const raw = q.get('since');
    if (raw === null) return undefined;
    const t = Date.parse(raw);
    if (Number.isNaN(t)) fail(422, 'Validation Failed', { errors: [{ resource: 'Issue', field: 'since', code: 'invalid' }] });
    return t;
  };

  /** One page of `items` and its Link header. */
  const paginate = <T>(req: SimRequest, items: T[]): { page: T[]; headers: Record<string, string> } => {
    const perPage = Math.min(100, Math.max(1, intParam(req.query, 'per_page', 30)));
    const page = Math.max(1, intParam(req.query, 'page', 1));
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (p: number) => {
      const q = new URLSearchParams(req.query);
      q.set('per_page', String(perPage));
      q.set('page', String(p));
      return `${origin}${req.path}?${q.toString()}`;
    };
    const rels: string[] = [];
    if (page > 1) rels.push(`<${link(page - 1)}>; rel="prev"`);
    if (page < last) rels.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
    if (page > 1) rels.push(`<${link(1)}>; rel="first"`);
    return { page: items.slice((page - 1) * perPage, page * perPage), headers: rels.length ? { link: rels.join(', ') } : {} };
  };
  const list = <T>(req: SimRequest, items: T[], render: (x: T) => unknown): SimResponse => {
    const { page, headers } = paginate(req, items);
    return { status: 200, body: page.map(render), headers };
  };
  const byTime =
    (key: 'updated_at' | 'created_at', dir: string) =>
    <T extends { id: number; updated_at: string; created_at: string }>(a: T, b: T) => {
      const d = a[key].localeCompare(b[key]) || a.id - b.id;
      return dir === 'asc' ? d : -d;
    };
  const stringArray = (v: unknown, field: string, resource = 'Issue'): string[] | undefined => {
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) fail(422, 'Invalid request.', { errors: [{ resource, field, code: 'invalid' }] });
    return v.map((x) => (x && typeof x === 'object' ? String((x as Obj).name) : String(x)));
  };

  const hooks = new GithubHooks(state, ser);
  // Hooks are a repository admin's: others get 404, as from GitHub.
  const administered = (p: Record<string, string>, v: SimUser) => {
    const repo = visibleRepo(p, v);
    if (!state.atLeast(repo, v.login, 'admin')) fail(404, 'Not Found');
    return repo;
  };

  // ---------------------------------------------------------------- routes
  const routes: Route[] = [
    route('POST', '/repos/{owner}/{repo}/hooks', (req, p, v) => {
      const repo = administered(p, v);
      const b = (req.body ?? {}) as Obj;
      const config = (b.config ?? {}) as Obj;
      if (typeof config.url !== 'string' || !/^https?:\/\//.test(config.url)) {
        fail(422, 'Validation Failed', { errors: [{ resource: 'Hook', code: 'custom', message: 'Config must contain URL for webhooks' }] });
      }
      const events = Array.isArray(b.events) ? b.events.map(String) : ['push'];
      const hook = hooks.create(repo, { url: config.url, secret: typeof config.secret === 'string' ? config.secret : '', events, active: b.active !== false }, v);
      return { status: 201, body: hooks.render(hook, repo), headers: { location: `${apiBase()}/repos/${state.fullName(repo)}/hooks/${hook.id}` } };
    }),
    route('GET', '/repos/{owner}/{repo}/hooks', (req, p, v) => {
      const repo = administered(p, v);
      return list(req, hooks.ofRepo(repo), (h) => hooks.render(h, repo));
    }),
    route('DELETE', '/repos/{owner}/{repo}/hooks/{id}', (_req, p, v) => {
      const repo = administered(p, v);
      const hook = hooks.hooks.get(Number(p.id));
      if (!hook || hook.repoId !== repo.id) fail(404, 'Not Found');
      hooks.hooks.delete(hook.id);
      return { status: 204 };
    }),
    route('GET', '/user', (_req, _p, v) => ({ status: 200, body: ser.privateUser(v) })),

    route('GET', '/user/repos', (req, _p, v) => {
      const q = req.query;
      const visibility = q.get('visibility') ?? 'all';
      const sort = q.get('sort') ?? 'full_name';
      const direction = q.get('direction') ?? (sort === 'full_name' ? 'asc' : 'desc');
      let repos = [...state.repos.values()].filter((r) => state.roleOf(r, v.login) !== undefined);
      if (visibility !== 'all') repos = repos.filter((r) => (visibility === 'private') === r.private);
      const key = (r: SimRepo) => (sort === 'full_name' ? state.fullName(r).toLowerCase() : sort === 'created' ? r.created_at : sort === 'pushed' ? r.pushed_at : r.updated_at);
      repos.sort((a, b) => (direction === 'asc' ? 1 : -1) * (key(a).localeCompare(key(b)) || a.id - b.id));
      return list(req, repos, (r) => ser.repository(r, v.login));
    }),

    route('GET', '/repos/{owner}/{repo}', (_req, p, v) => ({ status: 200, body: ser.repository(visibleRepo(p, v), v.login) })),

    route('GET', '/repos/{owner}/{repo}/assignees', (req, p, v) => {
      const repo = visibleRepo(p, v);
      return list(req, state.assignees(repo), (u) => ser.simpleUser(u));
    }),

    route('GET', '/repos/{owner}/{repo}/labels', (req, p, v) => {
      const repo = visibleRepo(p, v);
      return list(req, [...repo.labels.values()].sort((a, b) => a.id - b.id), (l) => ser.label(repo, l));
    }),

    route('GET', '/repos/{owner}/{repo}/labels/{name}', (_req, p, v) => {
      const repo = visibleRepo(p, v);
      const label = [...repo.labels.values()].find((l) => l.name.toLowerCase() === decodeURIComponent(p.name!).toLowerCase());
      if (!label) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/issues/labels#get-a-label' } };
      return { status: 200, body: ser.label(repo, label) };
    }),

    route('GET', '/repos/{owner}/{repo}/issues', (req, p, v) => {
      const repo = visibleRepo(p, v);
      issuesEnabled(repo);
      const q = req.query;
      const st = q.get('state') ?? 'open';
      const sort = q.get('sort') ?? 'created';
      const direction = q.get('direction') ?? 'desc';
      const since = sinceParam(q);
      const labels = q.get('labels')?.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) ?? [];
      const assignee = q.get('assignee');
      const creator = q.get('creator');
      let items = state.issuesOf(repo).filter((i) => st === 'all' || i.state === st);
      if (since !== undefined) items = items.filter((i) => Date.parse(i.updated_at) >= since);
      if (labels.length) items = items.filter((i) => labels.every((l) => i.labelIds.includes(repo.labels.get(l)?.id ?? -1)));
      if (assignee === 'none') items = items.filter((i) => i.assignees.length === 0);
      else if (assignee === '*') items = items.filter((i) => i.assignees.length > 0);
      else if (assignee) items = items.filter((i) => i.assignees.some((a) => a.toLowerCase() === assignee.toLowerCase()));
      if (creator) items = items.filter((i) => i.user.toLowerCase() === creator.toLowerCase());
      if (sort === 'comments') items.sort((a, b) => (direction === 'asc' ? 1 : -1) * (state.commentsOf(a).length - state.commentsOf(b).length || a.id - b.id));
      else items.sort(byTime(sort === 'updated' ? 'updated_at' : 'created_at', direction));
      const format = bodyFormat(req.headers.accept);
      return list(req, items, (i) => ser.issue(i, format));
    }),

    route('POST', '/repos/{owner}/{repo}/issues', (req, p, v) => {
      const repo = visibleRepo(p, v);
      issuesEnabled(repo);
      writable(repo);
      const b = (req.body ?? {}) as Obj;
      if (req.body === undefined || typeof req.body !== 'object' || Array.isArray(req.body)) fail(400, 'Problems parsing JSON');
      if (b.title === undefined || b.title === null) fail(422, 'Invalid request.\n\n"title" wasn\'t supplied.', { errors: [] });
      const push = state.atLeast(repo, v.login, 'write');
      const issue = state.createIssue(repo, v.login, {
        title: String(b.title),
        body: typeof b.body === 'string' ? b.body : null,
        // Without push access GitHub drops labels and assignees silently.
        labels: push ? stringArray(b.labels, 'labels') : undefined,
        assignees: push ? stringArray(b.assignees, 'assignees') : undefined,
      });
      return { status: 201, body: ser.issue(issue, bodyFormat(req.headers.accept)), headers: { location: `${apiBase()}/repos/${state.fullName(repo)}/issues/${issue.number}` } };
    }),

    route('GET', '/repos/{owner}/{repo}/issues/comments', (req, p, v) => {
      const repo = visibleRepo(p, v);
      issuesEnabled(repo);
      const q = req.query;
      const sort = q.get('sort') ?? 'created';
      const direction = q.get('direction') ?? 'asc';
      const since = sinceParam(q);
      let items = [...state.comments.values()].filter((c) => c.repoId === repo.id);
      if (since !== undefined) items = items.filter((c) => Date.parse(c.updated_at) >= since);
      items.sort(byTime(sort === 'updated' ? 'updated_at' : 'created_at', direction));
      const format = bodyFormat(req.headers.accept);
      return list(req, items, (c) => ser.comment(c, format));
    }),

    route('GET', '/repos/{owner}/{repo}/issues/comments/{id}', (req, p, v) => {
      const repo = visibleRepo(p, v);
      const c = state.comments.get(Number(p.id));
      if (!c || c.repoId !== repo.id) fail(404, 'Not Found');
      return { status: 200, body: ser.comment(c, bodyFormat(req.headers.accept)) };
    }),

    route('GET', '/repos/{owner}/{repo}/issues/{number}', (req, p, v) => {
      const repo = visibleRepo(p, v);
      issuesEnabled(repo);
      return { status: 200, body: ser.issue(issueOf(repo, p.number!), bodyFormat(req.headers.accept)) };
    }),

    route('PATCH', '/repos/{owner}/{repo}/issues/{number}', (req, p, v) => {
      const repo = visibleRepo(p, v);
      issuesEnabled(repo);
      writable(repo);
      const issue = issueOf(repo, p.number!);
      if (req.body === undefined || typeof req.body !== 'object' || Array.isArray(req.body)) fail(400, 'Problems parsing JSON');
      const b = req.body as Obj;
      const isAuthor = issue.user.toLowerCase() === v.login.toLowerCase();
      if (!isAuthor && !state.atLeast(repo, v.login, 'triage')) fail(403, 'Must have admin rights to Repository.');
      if (b.state !== undefined && b.state !== 'open' && b.state !== 'closed') {
        fail(422, 'Validation Failed', { errors: [{ resource: 'Issue', field: 'state', code: 'invalid' }] });
      }
      if (b.state_reason !== undefined && b.state_reason !== null && !['completed', 'not_planned', 'reopened'].includes(String(b.state_reason))) {
        fail(422, 'Validation Failed', { errors: [{ resource: 'Issue', field: 'state_reason', code: 'invalid' }] });
      }
      const push = state.atLeast(repo, v.login, 'write');
      state.updateIssue(issue, v.login, {
        title: b.title === undefined ? undefined : (b.title as string),
        body: b.body === undefined ? undefined : b.body === null ? null : String(b.body),
        state: b.state as 'open' | 'closed' | undefined,
        state_reason: b.state_reason as 'completed' | 'not_planned' | 'reopened' | null | undefined,
        labels: push ? stringArray(b.labels, 'labels') : undefined,
        assignees: push ? stringArray(b.assignees, 'assignees') : undefined,
      });
      return { status: 200, body: ser.issue(issue, bodyFormat(req.headers.accept)) };
    }),

    route('GET', '/repos/{owner}/{repo}/issues/{number}/comments', (req, p, v) => {
      const repo = visibleRepo(p, v);
      issuesEnabled(repo);
      const issue = issueOf(repo, p.number!);
      const since = sinceParam(req.query);
      const items = state.commentsOf(issue).filter((c) => since === undefined || Date.parse(c.updated_at) >= since);
      const format = bodyFormat(req.headers.accept);
      return list(req, items, (c) => ser.comment(c, format));
    }),

    route('POST', '/repos/{owner}/{repo}/issues/{number}/comments', (req, p, v) => {
      const repo = visibleRepo(p, v);
      issuesEnabled(repo);
      writable(repo);
      const issue = issueOf(repo, p.number!);
      if (req.body === undefined || typeof req.body !== 'object' || Array.isArray(req.body)) fail(400, 'Problems parsing JSON');
      const b = req.body as Obj;
      if (issue.locked && !state.atLeast(repo, v.login, 'write')) fail(403, 'Unable to create comment because issue is locked.');
      if (typeof b.body !== 'string') fail(422, 'Invalid request.\n\n"body" wasn\'t supplied.', { errors: [] });
      const c = state.addComment(issue, v.login, b.body);
      return { status: 201, body: ser.comment(c, bodyFormat(req.headers.accept)), headers: { location: `${apiBase()}/repos/${state.fullName(repo)}/issues/comments/${c.id}` } };
    }),
  ];

  const dispatch = (req: SimRequest, path: string): SimResponse => {
    if (!req.headers['user-agent']) {
      fail(403, 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.');
    }
    const v = viewerOf(req);
    if (!v) fail(401, tokenOf(req) ? 'Bad credentials' : 'Requires authentication');
    if (req.bodyError) fail(400, 'Problems parsing JSON');
    for (const r of routes) {
      if (r.method !== req.method) continue;
      const m = r.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? '')));
      try {
        return r.handler(req, params, v);
      } catch (err) {
        if (err instanceof ValidationFailed) return { status: 422, body: errorBody('Validation Failed', { errors: err.errors }) };
        if (err instanceof GhError) return { status: err.status, body: errorBody(err.message) };
        throw err;
      }
    }
    return { status: 404, body: errorBody('Not Found') };
  };

  const specPathOf = (p: string) => (prefix && p.startsWith(`${prefix}/`) ? p.slice(prefix.length) : prefix ? undefined : p);

  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    describeAuth: (req) => {
      const t = tokenOf(req);
      if (!t) return null;
      const login = tokens.get(t);
      return { scheme: /^token\s/i.test(String(req.headers.authorization)) ? 'token' : 'bearer', label: login ?? null, valid: Boolean(login) };
    },
    onRequest: (req) => {
      const p = specPathOf(req.path);
      if (p !== undefined) spec.checkRequest({ method: req.method, path: p, query: req.query, headers: req.headers, body: req.body });
    },
    faultResponse: (fault) => ({ status: fault.status!, body: defaultFaultBody(fault.status!) }),
    handle: (req) => {
      const p = specPathOf(req.path);
      if (p === undefined) return { status: 404, body: errorBody('Not Found') };
      const key = tokenOf(req) ?? 'anonymous';
      const w = budget(key);
      let res: SimResponse;
      if (opts.rateLimit?.enforce && contentCreationExceeded(key, req.method)) {
        // GitHub's secondary limit: 403 (or 429) with its message, retry-after when it gives one.
        res = { status: opts.rateLimit.status ?? 403, body: errorBody(SECONDARY_LIMIT_MESSAGE), headers: { ...rateHeaders(w), 'retry-after': '60' } };
      } else if (opts.rateLimit?.enforce && w.used >= limit) {
        res = {
          status: opts.rateLimit.status ?? 403,
          body: errorBody(`API rate limit exceeded for user ID ${viewerOf(req)?.id ?? 0}.`, { documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' }),
          headers: rateHeaders(w),
        };
      } else {
        w.used++;
        try {
          res = dispatch(req, p);
        } catch (err) {
          if (!(err instanceof SimHttpError)) throw err;
          res = err.response;
        }
        res.headers = { ...rateHeaders(w), ...(res.headers ?? {}) };
      }
      spec.checkResponse({ method: req.method, path: p }, res.status, res.body);
      return res;
    },
    decorate: (req, res) => {
      const w = budget(tokenOf(req) ?? 'anonymous');
      res.headers = {
        ...rateHeaders(w),
        'x-github-media-type': 'github.v3; format=json',
        'x-github-api-version-selected': '2022-11-28',
        'x-github-request-id': `SIM:${Math.random().toString(16).slice(2, 10).toUpperCase()}`,
        ...(res.headers ?? {}),
      };
    },
    internalError: (err) => ({ status: 500, body: errorBody(`Server Error: ${(err as Error)?.message ?? String(err)}`) }),
  });
  origin = server.url;

  const repoNamed = (fullName: string): SimRepo => {
    const [owner, name] = fullName.split('/');
    const repo = owner && name ? state.repoByName(owner, name) : undefined;
    if (!repo) throw new Error(`no repository ${fullName}`);
    return repo;
  };
  const issueNamed = (fullName: string, number: number): SimIssue => {
    const issue = state.issue(repoNamed(fullName), number);
    if (!issue) throw new Error(`no issue ${fullName}#${number}`);
    return issue;
  };

  return {
    url: apiBase(),
    state,
    token: DEFAULT_TOKEN,
    viewer,
    requests,
    faults,
    clock,
    specAvailable: spec.available,
    specFile: spec.file,
    specViolations: spec.violations,
    specDeviations: spec.deviations,
    specUndocumented: spec.undocumented,
    specLoadFixes: spec.loadFixes,
    clearSpecViolations: () => spec.clear(),
    clearRequests: () => void (requests.length = 0),
    addToken(token, login) {
      if (!state.user(login)) state.addUser({ login });
      tokens.set(token, state.user(login)!.login);
    },
    repo: repoNamed,
    issue: (fullName, number) => state.issue(repoNamed(fullName), number),
    issueJson(fullName, number) {
      const issue = state.issue(repoNamed(fullName), number);
      return issue ? (ser.issue(issue, 'full') as Record<string, unknown>) : undefined;
    },
    createIssueRemotely(fullName, input) {
      const { author, ...rest } = input;
      return state.createIssue(repoNamed(fullName), author ?? viewer.login, rest);
    },
    updateIssueRemotely(fullName, number, patch, actor) {
      return state.updateIssue(issueNamed(fullName, number), actor ?? viewer.login, patch);
    },
    addCommentRemotely(fullName, number, body, author) {
      return state.addComment(issueNamed(fullName, number), author ?? viewer.login, body);
    },
    deleteIssueRemotely(fullName, number) {
      state.deleteIssue(issueNamed(fullName, number));
    },
    seedIssues(fullName, n, o = {}) {
      const repo = repoNamed(fullName);
      const out: SimIssue[] = [];
      for (let i = 0; i < n; i++) {
        const pull = o.prEvery ? (i + 1) % o.prEvery === 0 : false;
        const issue = state.createIssue(repo, o.author ?? viewer.login, { title: `${pull ? 'PR' : 'Issue'} ${i + 1}`, body: `Body ${i + 1}`, pull });
        for (let c = 0; c < (o.commentsPerIssue ?? 0); c++) state.addComment(issue, o.author ?? viewer.login, `Comment ${c + 1} on ${issue.number}`);
        out.push(issue);
      }
      return out;
    },
    primaryRateLimit(times, o = {}) {
      const reset = Math.floor(clock.now() / 1000) + (o.resetInSeconds ?? 3600);
      return faults.add({
        status: o.status ?? 403,
        times,
        body: errorBody(`API rate limit exceeded for user ID ${viewer.id}.`, { documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' }),
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-used': String(limit), 'x-ratelimit-reset': String(reset) },
      });
    },
    secondaryRateLimit(times, o = {}) {
      return faults.add({ status: o.status ?? 403, times, retryAfterSeconds: o.retryAfterSeconds === null ? undefined : (o.retryAfterSeconds ?? 60), body: errorBody(SECONDARY_LIMIT_MESSAGE) });
    },
    hooks,
    async close() {
      hooks.sender.enabled = false;
      await hooks.sender.settle();
      await server.close();
    },
  };
}

/**
 * The default account: `octocat` (the token's user) in organisation `octo-org`, with
 *  - octo-org/helpdesk (private; octocat admin, hubot write, mona triage): issues #1 (bug, assigned
 *    to hubot, two comments), #2 a pull request with a comment, #3 closed as completed;
 *  - octo-org/website (public; octocat and mona write): issue #1;
 *  - octocat/dotfiles (issues disabled), octo-org/legacy (archived, octocat read),
 *    octo-org/secret (private, octocat has no access).
 */
function seed(state: GithubState, viewer: SimUser) {
  state.addUser({ login: 'hubot', name: 'Hubot', email: null });
  state.addUser({ login: 'mona', name: 'Mona Lisa', email: 'mona@github.example' });
  state.addUser({ login: 'outsider', name: null, email: null });
  state.addUser({ login: 'octo-org', type: 'Organization', name: 'Octo Org' });
  const helpdesk = state.addRepo({
    owner: 'octo-org',
    name: 'helpdesk',
    description: 'Customer support tickets',
    collaborators: { [viewer.login]: 'admin', hubot: 'write', mona: 'triage' },
  });
  const website = state.addRepo({ owner: 'octo-org', name: 'website', private: false, collaborators: { [viewer.login]: 'write', mona: 'write' } });
  state.addRepo({ owner: viewer.login, name: 'dotfiles', private: false, has_issues: false });
  state.addRepo({ owner: 'octo-org', name: 'legacy', archived: true, collaborators: { [viewer.login]: 'read' } });
  state.addRepo({ owner: 'octo-org', name: 'secret', collaborators: { hubot: 'admin' } });
  state.addLabel(helpdesk, { name: 'customer', color: '0e8a16', description: 'Reported by a customer' });

  const login = state.createIssue(helpdesk, 'outsider', { title: 'Login page broken', body: 'I cannot **log in** since this morning.', labels: ['bug', 'customer'], assignees: ['hubot'] });
  state.addComment(login, 'outsider', 'Still broken.');
  state.addComment(login, viewer.login, 'We are looking into it.');
  const pr = state.createIssue(helpdesk, 'hubot', { title: 'Fix login', body: 'Fixes #1', pull: true });
  state.addComment(pr, viewer.login, 'LGTM');
  const dark = state.createIssue(helpdesk, 'mona', { title: 'Add dark mode', labels: ['enhancement'] });
  state.updateIssue(dark, viewer.login, { state: 'closed', state_reason: 'completed' });
  state.createIssue(website, 'mona', { title: 'Typo on homepage', body: 'It says "teh".' });
}
