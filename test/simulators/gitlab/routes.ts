/**
 * The GitLab REST API v4 endpoints the simulator serves, with GitLab's parameter coercion (Grape),
 * pagination headers, permission checks and error bodies.
 */
import type { SimResponse } from '../shared/http-kit';
import type { GitlabHooks } from './hooks';
import type { Serializer } from './serialize';
import {
  ACCESS,
  badParam,
  forbidden,
  GlError,
  ISSUE_TYPES,
  notFound,
  type GitlabState,
  type IssueInput,
  type IssueRecord,
  type IssueType,
  type ProjectRecord,
} from './state';

export interface RouteRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parameters from the JSON or form body, merged over the query string (as Grape does). */
  params: Record<string, unknown>;
  /** The multipart parts, for uploads. */
  files: MultipartPart[];
  /** Path parameters (`:id`, `:iid`, …), still URL-encoded. */
  pathParams: Record<string, string>;
  /** Authenticated user id; 0 for anonymous requests. */
  userId: number;
  /** The token may write (scope `api`); read_api tokens may not. */
  canWrite: boolean;
}

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  content: Buffer;
}

export interface Route {
  method: string;
  regex: RegExp;
  keys: string[];
  /** Anonymous requests are refused with 401. */
  auth: boolean;
  handle(req: RouteRequest): SimResponse;
}

export interface RouteDeps {
  state: GitlabState;
  ser: Serializer;
  baseUrl(): string;
  /** Largest upload (bytes); GitLab's default is 10 MiB… configurable per instance. */
  maxUploadBytes: number;
  tier: 'free' | 'premium' | 'ultimate';
  hooks: GitlabHooks;
}

// ---------------------------------------------------------------- parameter coercion (Grape)

function str(params: Record<string, unknown>, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badParam(`${name} is invalid`);
}

function bool(params: Record<string, unknown>, name: string): boolean | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  if (v === true || v === 'true' || v === 1 || v === '1') return true;
  if (v === false || v === 'false' || v === 0 || v === '0') return false;
  throw badParam(`${name} is invalid`);
}

function int(params: Record<string, unknown>, name: string): number | undefined {
  const v = params[name];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw badParam(`${name} is invalid`);
  return n;
}

/** `Array[String]` with `CommaSeparatedToArray`: a JSON array, or a comma-separated string. */
function stringList(params: Record<string, unknown>, name: string): string[] | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) {
    if (!v.every((x) => typeof x === 'string' || typeof x === 'number')) throw badParam(`${name} is invalid`);
    return v.flatMap((x) => String(x).split(',')).map((s) => s.trim()).filter(Boolean);
  }
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  throw badParam(`${name} is invalid`);
}

/** `Array[Integer]` with `CommaSeparatedToIntegerArray`. */
function intList(params: Record<string, unknown>, name: string): number[] | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  const parts = Array.isArray(v) ? v : typeof v === 'string' ? (v.trim() === '' ? [] : v.split(',')) : typeof v === 'number' ? [v] : null;
  if (!parts) throw badParam(`${name} is invalid`);
  return parts.map((x) => {
    const n = typeof x === 'number' ? x : typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : NaN;
    if (!Number.isSafeInteger(n)) throw badParam(`${name} is invalid`);
    return n;
  });
}

function date(params: Record<string, unknown>, name: string): string | null | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw badParam(`${name} is invalid`);
  // Grape's Date coercion rejects impossible dates such as 2030-02-31.
  if (new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v) throw badParam(`${name} is invalid`);
  return v;
}

function time(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw badParam(`${name} is invalid`);
  return ms;
}

function oneOf<T extends string>(params: Record<string, unknown>, name: string, allowed: readonly T[]): T | undefined {
  const v = str(params, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw badParam(`${name} does not have a valid value`);
  return v as T;
}

const queryParams = (q: URLSearchParams): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const key of new Set(q.keys())) {
    const all = q.getAll(key);
    out[key.replace(/\[\]$/, '')] = key.endsWith('[]') ? all : all[all.length - 1];
  }
  return out;
};

// ---------------------------------------------------------------- pagination

const MAX_PER_PAGE = 100;

export function perPageOf(q: URLSearchParams): { page: number; perPage: number } {
  const params = queryParams(q);
  const page = int(params, 'page') ?? 1;
  let perPage = int(params, 'per_page') ?? 20;
  if (page < 1) throw badParam('page does not have a valid value');
  if (perPage < 1) perPage = 20;
  return { page, perPage: Math.min(perPage, MAX_PER_PAGE) };
}

/**
 * Offset pagination as GitLab answers it: `x-page`, `x-per-page`, `x-next-page`, `x-prev-page`,
 * `x-total`, `x-total-pages` and a `Link` header with `prev`/`next`/`first`/`last`. Above 10,000
 * records GitLab leaves out `x-total`, `x-total-pages` and the `last` link.
 */
/**
 * The last sort of a list, reused while the same objects come back in the same order with the same sort
 * keys: a walk through a long list asks for every page with the same filter, and re-sorting every issue
 * for each page made the walk quadratic. The answer is the one a fresh sort gives (ties broken by id).
 */
export class SortReuse<T> {
  private last?: { by: string; items: T[]; keys: (number | string)[]; sorted: T[] };

  sorted(by: string, items: T[], key: (x: T) => number | string, compare: (a: T, b: T) => number): T[] {
    const keys = items.map(key);
    const last = this.last;
    if (last && last.by === by && last.items.length === items.length && items.every((x, k) => x === last.items[k] && keys[k] === last.keys[k])) return last.sorted;
    const sorted = [...items].sort(compare);
    this.last = { by, items, keys, sorted };
    return sorted;
  }
}

export function paginate<T>(items: T[], req: Pick<RouteRequest, 'path' | 'query'>, baseUrl: string): { page: T[]; headers: Record<string, string> } {
  const { page, perPage } = perPageOf(req.query);
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const hasNext = page * perPage < total;
  const link = (p: number) => {
    const q = new URLSearchParams(req.query);
    q.set('page', String(p));
    q.set('per_page', String(perPage));
    return `<${baseUrl}${req.path}?${q.toString()}>`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`${link(page - 1)}; rel="prev"`);
  if (hasNext) links.push(`${link(page + 1)}; rel="next"`);
  links.push(`${link(1)}; rel="first"`);
  const headers: Record<string, string> = {
    'x-page': String(page),
    'x-per-page': String(perPage),
    'x-next-page': hasNext ? String(page + 1) : '',
    'x-prev-page': page > 1 ? String(page - 1) : '',
  };
  if (total <= 10_000) {
    links.push(`${link(totalPages)}; rel="last"`);
    headers['x-total'] = String(total);
    headers['x-total-pages'] = String(totalPages);
  }
  headers.link = links.join(', ');
  return { page: slice, headers };
}

// ---------------------------------------------------------------- routes

export function createRoutes(d: RouteDeps): Route[] {
  const { state, ser } = d;
  const routes: Route[] = [];
  const add = (method: string, pattern: string, handle: Route['handle'], opts: { auth?: boolean } = {}) => {
    const keys: string[] = [];
    const regex = new RegExp(
      `^${pattern.replace(/:(\w+)/g, (_m, k: string) => {
        keys.push(k);
        return '([^/]+)';
      })}$`,
    );
    routes.push({ method, regex, keys, auth: opts.auth ?? false, handle });
  };
  const ok = (body: unknown, status = 200, headers?: Record<string, string>): SimResponse => ({ status, body, headers });
  const list = (items: unknown[], req: RouteRequest, render: (x: never) => unknown) => {
    const { page, headers } = paginate(items, req, d.baseUrl());
    return ok(page.map((x) => render(x as never)), 200, headers);
  };
  const requireWrite = (req: RouteRequest) => {
    if (!req.canWrite) {
      throw new GlError(403, {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      });
    }
  };
  const project = (req: RouteRequest) => state.findProject(decodeURIComponent(req.pathParams.id!), req.userId);
  const issueOf = (req: RouteRequest, p: ProjectRecord): IssueRecord => {
    if (!p.issues_enabled) throw forbidden();
    const iid = Number(req.pathParams.iid);
    if (!/^\d+$/.test(req.pathParams.iid ?? '')) throw badParam('issue_iid is invalid');
    const i = state.findIssue(p.id, iid);
    if (!i || !state.canReadIssue(req.userId, i)) throw notFound('Issue');
    return i;
  };
  const levelIn = (req: RouteRequest, p: ProjectRecord) => state.accessLevel(req.userId, p.id);
  const writableProject = (p: ProjectRecord) => {
    if (p.archived) throw forbidden();
  };

  // --- users
  add(
    'GET',
    '/api/v4/user',
    (req) => {
      const u = state.users.get(req.userId)!;
      return ok(ser.currentUser(u));
    },
    { auth: true },
  );

  // --- projects
  add('GET', '/api/v4/projects', (req) => {
    const q = queryParams(req.query);
    const membership = bool(q, 'membership') ?? false;
    const withIssues = bool(q, 'with_issues_enabled') ?? false;
    const archived = bool(q, 'archived');
    const minAccess = int(q, 'min_access_level');
    const idAfter = int(q, 'id_after');
    const idBefore = int(q, 'id_before');
    const search = str(q, 'search')?.toLowerCase();
    const simple = bool(q, 'simple') ?? false;
    const orderBy = oneOf(q, 'order_by', ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const) ?? 'created_at';
    const sort = oneOf(q, 'sort', ['asc', 'desc'] as const) ?? 'desc';
    let items = [...state.projects.values()].filter((p) => {
      if (membership || minAccess !== undefined) {
        const level = state.accessLevel(req.userId, p.id);
        if (membership && level === 0) return false;
        if (minAccess !== undefined && level < minAccess) return false;
      } else if (!state.canReadProject(req.userId, p)) return false;
      if (withIssues && !p.issues_enabled) return false;
      if (archived !== undefined && p.archived !== archived) return false;
      if (idAfter !== undefined && p.id <= idAfter) return false;
      if (idBefore !== undefined && p.id >= idBefore) return false;
      if (search && !p.name.toLowerCase().includes(search) && !p.path.includes(search)) return false;
      return true;
    });
    const key = (p: ProjectRecord): number | string =>
      orderBy === 'id' ? p.id : orderBy === 'name' ? p.name : orderBy === 'path' ? p.path : orderBy === 'updated_at' ? p.updated_at : orderBy === 'last_activity_at' ? p.last_activity_at : p.created_at;
    const sign = sort === 'asc' ? 1 : -1;
    items = items.sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
    const render = (p: ProjectRecord) => ser.project(p, req.userId, { simple });
    if (req.query.get('pagination') === 'keyset') {
      if (orderBy !== 'id') throw new GlError(405, { error: 'Keyset pagination is not supported for this order' });
      const { perPage } = perPageOf(req.query);
      const page = items.slice(0, perPage);
      const headers: Record<string, string> = { 'x-per-page': String(perPage) };
      if (items.length > perPage) {
        const nq = new URLSearchParams(req.query);
        nq.delete(sort === 'asc' ? 'id_before' : 'id_after');
        nq.set(sort === 'asc' ? 'id_after' : 'id_before', String(page[page.length - 1]!.id));
        headers.link = `<${d.baseUrl()}${req.path}?${nq.toString()}>; rel="next"`;
      }
      return ok(page.map(render), 200, headers);
    }
    return list(items, req, render);
  });

  add('GET', '/api/v4/projects/:id', (req) => ok(ser.project(project(req), req.userId)));

  // --- project webhooks (Maintainer and above)
  const maintained = (req: RouteRequest) => {
    const p = project(req);
    if (levelIn(req, p) < ACCESS.maintainer) throw forbidden();
    return p;
  };
  add(
    'POST',
    '/api/v4/projects/:id/hooks',
    (req) => {
      requireWrite(req);
      const p = maintained(req);
      const url = str(req.params, 'url');
      if (!url) throw badParam('url is missing');
      if (!/^https?:\/\/[^\s]+$/.test(url)) throw new GlError(422, { message: { url: ['is blocked: Only allowed schemes are http, https'] } });
      const flag = (name: string, fallback: boolean) => bool(req.params, name) ?? fallback;
      const hook = d.hooks.create(p.id, {
        url,
        token: str(req.params, 'token') ?? '',
        name: str(req.params, 'name') ?? '',
        push_events: flag('push_events', true),
        issues_events: flag('issues_events', false),
        confidential_issues_events: flag('confidential_issues_events', false),
        note_events: flag('note_events', false),
        confidential_note_events: flag('confidential_note_events', false),
        enable_ssl_verification: flag('enable_ssl_verification', true),
      });
      return ok(d.hooks.render(hook), 201);
    },
    { auth: true },
  );
  add('GET', '/api/v4/projects/:id/hooks', (req) => list(d.hooks.ofProject(maintained(req).id), req, (h: Parameters<GitlabHooks['render']>[0]) => d.hooks.render(h)), { auth: true });
  add(
    'DELETE',
    '/api/v4/projects/:id/hooks/:hook_id',
    (req) => {
      requireWrite(req);
      const p = maintained(req);
      const hook = d.hooks.hooks.get(Number(req.pathParams.hook_id));
      if (!hook || hook.projectId !== p.id) throw notFound('Hook');
      d.hooks.hooks.delete(hook.id);
      return { status: 204 };
    },
    { auth: true },
  );

  const members = (req: RouteRequest, all: boolean) => {
    const p = project(req);
    const m = all ? state.projectMembersAll(p.id) : p.members;
    const items = [...m.entries()].filter(([u]) => state.users.has(u)).sort(([a], [b]) => a - b);
    return list(items, req, ([u, rec]: [number, { access_level: number; created_at: number; expires_at: string | null }]) => ser.member(state.users.get(u)!, rec));
  };
  add('GET', '/api/v4/projects/:id/members', (req) => members(req, false));
  add('GET', '/api/v4/projects/:id/members/all', (req) => members(req, true));

  // --- groups
  const visibleGroup = (req: RouteRequest) => {
    const g = state.groups.get(Number(req.pathParams.id));
    if (!g || (g.visibility !== 'public' && state.groupAccessLevel(req.userId, g.id) === 0)) throw notFound('Group');
    return g;
  };
  add('GET', '/api/v4/groups', (req) => {
    const q = queryParams(req.query);
    const minAccess = int(q, 'min_access_level');
    const allAvailable = bool(q, 'all_available') ?? false;
    const topLevel = bool(q, 'top_level_only') ?? false;
    const orderBy = oneOf(q, 'order_by', ['name', 'path', 'id', 'similarity'] as const) ?? 'name';
    const sort = oneOf(q, 'sort', ['asc', 'desc'] as const) ?? 'asc';
    const items = [...state.groups.values()]
      .filter((g) => {
        const level = state.groupAccessLevel(req.userId, g.id);
        if (minAccess !== undefined) return level >= minAccess;
        return level > 0 || (allAvailable && g.visibility === 'public');
      })
      .filter((g) => !topLevel || g.parent_id === null)
      .sort((a, b) => {
        const ka = orderBy === 'id' ? a.id : orderBy === 'path' ? a.path : a.name;
        const kb = orderBy === 'id' ? b.id : orderBy === 'path' ? b.path : b.name;
        return (sort === 'asc' ? 1 : -1) * (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id);
      });
    return list(items, req, (g) => ser.group(g));
  });
  add('GET', '/api/v4/groups/:id', (req) => ok(ser.group(visibleGroup(req))));
  const groupMembers = (req: RouteRequest, all: boolean) => {
    const g = visibleGroup(req);
    const m = all ? state.groupMembersAll(g.id) : g.members;
    const items = [...m.entries()].filter(([u]) => state.users.has(u)).sort(([a], [b]) => a - b);
    return list(items, req, ([u, rec]: [number, { access_level: number; created_at: number; expires_at: string | null }]) => ser.member(state.users.get(u)!, rec));
  };
  add('GET', '/api/v4/groups/:id/members', (req) => groupMembers(req, false));
  add('GET', '/api/v4/groups/:id/members/all', (req) => groupMembers(req, true));

  // --- labels
  add('GET', '/api/v4/projects/:id/labels', (req) => {
    const p = project(req);
    const q = queryParams(req.query);
    const ancestors = bool(q, 'include_ancestor_groups') ?? true;
    const items = state
      .availableLabels(p.id)
      .filter((l) => ancestors || l.projectId === p.id)
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    return list(items, req, (l) => ser.label(l, p.id));
  });

  // --- issues
  const issueOrder = new SortReuse<IssueRecord>();
  add('GET', '/api/v4/projects/:id/issues', (req) => {
    const p = project(req);
    if (!p.issues_enabled) throw forbidden();
    const q = queryParams(req.query);
    const st = oneOf(q, 'state', ['opened', 'closed', 'all'] as const) ?? 'all';
    const orderBy = oneOf(q, 'order_by', ['created_at', 'updated_at', 'title', 'due_date', 'relative_position', 'label_priority', 'milestone_due', 'popularity', 'priority', 'weight'] as const) ?? 'created_at';
    const sort = oneOf(q, 'sort', ['asc', 'desc'] as const) ?? 'desc';
    const createdAfter = time(req.query, 'created_after');
    const createdBefore = time(req.query, 'created_before');
    const updatedAfter = time(req.query, 'updated_after');
    const updatedBefore = time(req.query, 'updated_before');
    const labels = stringList(q, 'labels');
    const iids = intList(q, 'iids');
    const assigneeId = int(q, 'assignee_id');
    const authorId = int(q, 'author_id');
    const confidential = bool(q, 'confidential');
    const issueType = oneOf(q, 'issue_type', ISSUE_TYPES);
    const search = str(q, 'search')?.toLowerCase();
    const names = (i: IssueRecord) => i.labels.map((id) => state.labels.get(id)?.name);
    // The project is readable (project() checked it): each issue's own rule is left.
    const readable = state.issueReader(req.userId, p);
    const items = [...state.issues.values()]
      .filter((i) => i.project_id === p.id && readable(i))
      .filter((i) => st === 'all' || i.state === st)
      // GitLab's finders compare with >= and <= (created_at >= created_after …).
      .filter((i) => createdAfter === undefined || i.created_at >= createdAfter)
      .filter((i) => createdBefore === undefined || i.created_at <= createdBefore)
      .filter((i) => updatedAfter === undefined || i.updated_at >= updatedAfter)
      .filter((i) => updatedBefore === undefined || i.updated_at <= updatedBefore)
      .filter((i) => !labels || (labels.length === 1 && labels[0] === 'None' ? i.labels.length === 0 : labels[0] === 'Any' && labels.length === 1 ? i.labels.length > 0 : labels.every((l) => names(i).includes(l))))
      .filter((i) => !iids || iids.includes(i.iid))
      .filter((i) => assigneeId === undefined || (assigneeId === 0 ? i.assignee_ids.length === 0 : i.assignee_ids.includes(assigneeId)))
      .filter((i) => authorId === undefined || i.author_id === authorId)
      .filter((i) => confidential === undefined || i.confidential === confidential)
      .filter((i) => issueType === undefined || i.issue_type === issueType)
      .filter((i) => !search || i.title.toLowerCase().includes(search) || (i.description ?? '').toLowerCase().includes(search));
    const key = (i: IssueRecord): number | string => (orderBy === 'updated_at' ? i.updated_at : orderBy === 'title' ? i.title.toLowerCase() : orderBy === 'due_date' ? (i.due_date ?? '9999') : i.created_at);
    const sign = sort === 'asc' ? 1 : -1;
    // GitLab breaks ties on id, in the same direction.
    const sorted = issueOrder.sorted(`${orderBy} ${sort}`, items, key, (a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
    return list(sorted, req, (i) => ser.issue(i));
  });

  const issueInput = (req: RouteRequest, p: ProjectRecord, creating: boolean): IssueInput => {
    const b = req.params;
    const input: IssueInput = {};
    const title = str(b, 'title');
    if (title !== undefined) input.title = title;
    else if (creating) throw badParam('title is missing');
    if (b.description !== undefined) input.description = b.description === null ? null : (str(b, 'description') ?? null);
    const labels = stringList(b, 'labels');
    if (labels !== undefined) input.labels = labels;
    const add = stringList(b, 'add_labels');
    if (add !== undefined) input.add_labels = add;
    const remove = stringList(b, 'remove_labels');
    if (remove !== undefined) input.remove_labels = remove;
    const assignees = intList(b, 'assignee_ids');
    const assignee = int(b, 'assignee_id');
    if (assignees !== undefined) input.assignee_ids = assignees;
    else if (assignee !== undefined) input.assignee_ids = assignee === 0 ? [] : [assignee];
    const due = date(b, 'due_date');
    if (due !== undefined) input.due_date = due;
    let type = oneOf(b, 'issue_type', ISSUE_TYPES);
    if (type !== undefined) {
      // Like GitLab, a type the tier or role does not allow falls back to the default, silently.
      const level = levelIn(req, p);
      const allowed: Record<IssueType, boolean> = {
        issue: true,
        task: true,
        incident: level >= ACCESS.reporter,
        test_case: d.tier === 'ultimate',
        requirement: false,
        ticket: false,
      };
      if (!allowed[type]) type = creating ? 'issue' : undefined;
      if (type !== undefined) input.issue_type = type;
    }
    const confidential = bool(b, 'confidential');
    if (confidential !== undefined) input.confidential = confidential;
    const locked = bool(b, 'discussion_locked');
    if (locked !== undefined) input.discussion_locked = locked;
    if (!creating) {
      const ev = oneOf(b, 'state_event', ['close', 'reopen'] as const);
      if (ev !== undefined) input.state_event = ev;
    }
    const createdAt = str(b, 'created_at');
    if (createdAt !== undefined && creating && levelIn(req, p) >= ACCESS.owner) {
      const ms = Date.parse(createdAt);
      if (Number.isNaN(ms)) throw badParam('created_at is invalid');
      input.created_at = ms;
    }
    return input;
  };

  add(
    'POST',
    '/api/v4/projects/:id/issues',
    (req) => {
      requireWrite(req);
      const p = project(req);
      if (!p.issues_enabled) throw forbidden();
      writableProject(p);
      if (p.visibility === 'private' && levelIn(req, p) < ACCESS.guest) throw forbidden();
      const issue = state.createIssue(p.id, issueInput(req, p, true), req.userId);
      return ok(ser.issue(issue), 201);
    },
    { auth: true },
  );

  add('GET', '/api/v4/projects/:id/issues/:iid', (req) => ok(ser.issue(issueOf(req, project(req)))));

  const UPDATABLE = ['title', 'state_event', 'description', 'assignee_ids', 'assignee_id', 'milestone_id', 'labels', 'add_labels', 'remove_labels', 'due_date', 'confidential', 'discussion_locked', 'issue_type', 'weight', 'epic_id', 'epic_iid', 'updated_at'];
  add(
    'PUT',
    '/api/v4/projects/:id/issues/:iid',
    (req) => {
      requireWrite(req);
      const p = project(req);
      const issue = issueOf(req, p);
      writableProject(p);
      if (!UPDATABLE.some((k) => req.params[k] !== undefined)) {
        throw badParam(`${UPDATABLE.join(', ')} are missing, at least one parameter must be provided`);
      }
      const input = issueInput(req, p, false);
      const level = levelIn(req, p);
      const onlyState = Object.keys(input).every((k) => k === 'state_event');
      if (level < ACCESS.planner && !(issue.author_id === req.userId && onlyState)) throw forbidden();
      state.updateIssue(issue, input, req.userId);
      return ok(ser.issue(issue));
    },
    { auth: true },
  );

  add(
    'DELETE',
    '/api/v4/projects/:id/issues/:iid',
    (req) => {
      requireWrite(req);
      const p = project(req);
      const issue = issueOf(req, p);
      if (levelIn(req, p) < ACCESS.owner) throw forbidden();
      state.deleteIssue(issue);
      return { status: 204 };
    },
    { auth: true },
  );

  // --- notes
  add('GET', '/api/v4/projects/:id/issues/:iid/notes', (req) => {
    const p = project(req);
    const issue = issueOf(req, p);
    const q = queryParams(req.query);
    const sort = oneOf(q, 'sort', ['asc', 'desc'] as const) ?? 'desc';
    const orderBy = oneOf(q, 'order_by', ['created_at', 'updated_at'] as const) ?? 'created_at';
    const internalOk = state.canReadInternalNotes(req.userId, p.id);
    const sign = sort === 'asc' ? 1 : -1;
    const items = state
      .notesOf(issue.id)
      .filter((n) => internalOk || !n.internal)
      .sort((a, b) => sign * (a[orderBy] - b[orderBy] || a.id - b.id));
    return list(items, req, (n) => ser.note(n));
  });

  add(
    'POST',
    '/api/v4/projects/:id/issues/:iid/notes',
    (req) => {
      requireWrite(req);
      const p = project(req);
      const issue = issueOf(req, p);
      writableProject(p);
      const body = str(req.params, 'body');
      if (body === undefined) throw badParam('body is missing');
      const internal = bool(req.params, 'internal') ?? bool(req.params, 'confidential') ?? false;
      const level = levelIn(req, p);
      if (internal && level < ACCESS.planner) throw forbidden();
      if (issue.discussion_locked && level < ACCESS.reporter) throw forbidden();
      const createdAt = str(req.params, 'created_at');
      const at = createdAt !== undefined && level >= ACCESS.owner && !Number.isNaN(Date.parse(createdAt)) ? Date.parse(createdAt) : undefined;
      const note = state.addNote(issue, { body, internal }, req.userId, { at });
      return ok(ser.note(note), 201);
    },
    { auth: true },
  );

  // --- uploads
  add(
    'POST',
    '/api/v4/projects/:id/uploads',
    (req) => {
      requireWrite(req);
      const p = project(req);
      writableProject(p);
      if (levelIn(req, p) < ACCESS.guest && p.visibility === 'private') throw forbidden();
      const file = req.files.find((f) => f.name === 'file' && f.filename !== undefined);
      if (!file) throw badParam('file is missing');
      if (file.content.length > d.maxUploadBytes) {
        throw new GlError(413, { message: `File is too big (${(file.content.length / 1048576).toFixed(2)}MiB). Max filesize: ${(d.maxUploadBytes / 1048576).toFixed(0)}MiB.` });
      }
      const u = state.addUpload(p.id, { filename: file.filename!, contentType: file.contentType ?? 'application/octet-stream', content: file.content }, req.userId);
      return ok(ser.upload(u), 201);
    },
    { auth: true },
  );

  const download = (req: RouteRequest): SimResponse => {
    const p = project(req);
    const u = state.findUpload(p.id, req.pathParams.secret!, decodeURIComponent(req.pathParams.filename!));
    if (!u) throw notFound('File');
    return { status: 200, body: u.content.toString('utf8'), headers: { 'content-type': u.content_type, 'content-disposition': `attachment; filename="${u.filename}"` } };
  };
  add('GET', '/api/v4/projects/:id/uploads/:secret/:filename', download);
  // The web address (the upload's `full_path`). In private and internal projects GitLab serves uploads to
  // signed-in members only; images are exempt unless the project requires authentication for media files
  // (https://docs.gitlab.com/ee/security/user_file_uploads.html). A web page sends the anonymous visitor to
  // the sign-in page rather than answering an API error.
  add('GET', '/-/project/:id/uploads/:secret/:filename', (req) => {
    const p = state.projects.get(Number(req.pathParams.id));
    if (req.userId === 0 && p && p.visibility !== 'public') {
      const u = state.findUpload(p.id, req.pathParams.secret!, decodeURIComponent(req.pathParams.filename!));
      const image = u !== undefined && u.content_type.startsWith('image/');
      if (!image || p.enforce_auth_checks_on_uploads) {
        return { status: 302, body: '', headers: { location: `${d.baseUrl()}/users/sign_in`, 'content-type': 'text/html; charset=utf-8' } };
      }
      return { status: 200, body: u.content.toString('utf8'), headers: { 'content-type': u.content_type, 'content-disposition': `attachment; filename="${u.filename}"` } };
    }
    return download(req);
  });

  add(
    'DELETE',
    '/api/v4/projects/:id/uploads/:upload_id',
    (req) => {
      requireWrite(req);
      const p = project(req);
      if (levelIn(req, p) < ACCESS.maintainer) throw forbidden();
      const u = state.uploads.get(Number(req.pathParams.upload_id));
      if (!u || u.project_id !== p.id) throw notFound('Upload');
      state.uploads.delete(u.id);
      return { status: 204 };
    },
    { auth: true },
  );

  return routes;
}

export function matchRoute(routes: Route[], method: string, path: string): { route?: Route; params: Record<string, string>; pathExists: boolean } {
  let pathExists = false;
  for (const r of routes) {
    const m = r.regex.exec(path);
    if (!m) continue;
    pathExists = true;
    if (r.method !== method) continue;
    const params: Record<string, string> = {};
    r.keys.forEach((k, i) => (params[k] = m[i + 1]!));
    return { route: r, params, pathExists };
  }
  return { params: {}, pathExists };
}

/** Parses a `multipart/form-data` body (latin1 keeps bytes as they came). */
export function parseMultipart(raw: Buffer, contentType: string): MultipartPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2];
  if (!b) return [];
  const text = raw.toString('latin1');
  const parts: MultipartPart[] = [];
  for (const chunk of text.split(`--${b}`)) {
    if (chunk === '' || chunk.startsWith('--')) continue;
    const body = chunk.replace(/^\r\n/, '');
    const sep = body.indexOf('\r\n\r\n');
    if (sep < 0) continue;
    const head = body.slice(0, sep);
    let content = body.slice(sep + 4);
    if (content.endsWith('\r\n')) content = content.slice(0, -2);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) continue;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim();
    parts.push({
      name,
      ...(filename !== undefined ? { filename: Buffer.from(filename, 'latin1').toString('utf8') } : {}),
      ...(type ? { contentType: type } : {}),
      content: Buffer.from(content, 'latin1'),
    });
  }
  return parts;
}

