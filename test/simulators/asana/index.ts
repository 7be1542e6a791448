/**
 * Asana REST API simulator (https://app.asana.com/api/1.0, served at the root) for integration tests and
 * benchmarks, built on the shared HTTP kit. When ../shared/provider-specs/asana/asana_oas.yaml (Asana/openapi)
 * exists, every request and every answer (injected faults excepted) is checked against it (`specViolations`,
 * `specUndocumented`), with the known deviations below.
 *
 * Auth: `Authorization: Bearer <token>` of a registered token; otherwise 401.
 * Bodies: requests and answers in the `{"data": …}` envelope; lists `{"data": [...], "next_page": {offset, path, uri} | null}`
 * (`limit` 1–100, opaque `offset`). Errors: `{"errors": [{"message", "help"}]}`.
 * Events: each project keeps its event log; `GET /events?resource=<project>` without a sync token, or with one
 * too old (`expireSyncTokens()`), answers 412 with a fresh token; otherwise at most 100 events and `has_more`.
 * Rate limit: per-minute window (default 1,500); with `rateLimit.enforce` a spent window answers 429 with Retry-After.
 *
 * Endpoints: GET /users/me, /workspaces/{gid}, /users, /workspaces/{gid}/teams, /projects, /workspaces/{gid}/tags
 * (and POST), /workspaces/{gid}/custom_fields, /events; GET/POST /tasks, GET/PUT/DELETE /tasks/{gid},
 * POST /tasks/{gid}/addTag and /removeTag, GET/POST /tasks/{gid}/stories, GET/POST /attachments (multipart upload),
 * POST /batch (at most 10 actions, each answered with its own status and body; the actions themselves are not
 * checked against the description, only the batch request and answer).
 * Webhooks (hooks.ts): POST /webhooks (with the handshake), GET /webhooks, GET/DELETE /webhooks/{gid}; each
 * project event is sent to the webhooks watching the project, signed as Asana signs them.
 */
import { specPath } from '../../support/provider-specs';
import { FaultController, SimClock, SimHttpError, startSimServer, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { compilableSpec } from '../shared/compilable-spec';
import { boundaryOf, parseMultipart } from '../shared/multipart';
import { loadOpenApiCheck, type KnownDeviation } from '../shared/openapi-check';
import { AsanaHooks } from './hooks';

export { AsanaHooks, asanaHookHeaders, type SimAsanaWebhook } from './hooks';

type Obj = Record<string, unknown>;

export const ASANA_SPEC_FILE = 'asana_oas.yaml';

export const ASANA_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason: 'Error answers (400, 401, 403, 404, 412, 429, 5xx) come from every operation in the `{"errors": [...]}` shape (Errors guide); the description documents a subset per operation.',
    kind: 'response',
    keyword: 'status',
    status: (s) => s >= 400,
  },
  {
    reason: 'An event without a parent has `parent: null` — the EventResponse schema\'s own description says so ("When an assignee is set on the task, Event.parent will be null") — but types `parent` as an object only.',
    kind: 'response',
    operationId: 'getEvents',
    when: (v) => /\/parent\b/.test(`${v.pointer ?? ''} ${v.message}`) && /null/.test(v.message),
  },
  {
    reason: 'A webhook that never delivered has `last_success_at`, `last_failure_at` and `last_failure_content` null — the createWebhook description\'s own example answers them so — but WebhookResponse types them as strings only.',
    kind: 'response',
    operationId: /^(createWebhook|getWebhook|getWebhooks)$/,
    when: (v) => /\/last_(success_at|failure_at|failure_content)$/.test(v.pointer ?? '') && /null/.test(v.message),
  },
];

export interface SimUser { gid: string; name: string; email: string }
export interface SimProject { gid: string; name: string; notes: string; teamGid: string; createdAt: number; modifiedAt: number }
export interface SimField { gid: string; name: string; subtype: 'text' | 'number' | 'enum' | 'date'; options: Array<{ gid: string; name: string }> }
export interface SimTask {
  gid: string; name: string; notes: string; subtype: string; completed: boolean; completedAt: number | null;
  dueAt: string | null; assignee: string | null; parent: string | null; projects: string[]; tags: string[];
  fields: Record<string, unknown>; createdAt: number; modifiedAt: number;
}
export interface SimStory { gid: string; task: string; text: string; html: string; author: string; subtype: string; createdAt: number }
export interface SimAttachment { gid: string; task: string; name: string; content: Buffer; createdAt: number }
interface SimEvent { seq: number; body: Obj }

export interface AsanaSeed { me: string; robin: string; team: string; support: string; backlog: string; orderField: string; tierField: string; task: string; bugTag: string }

export interface AsanaSimulatorOptions {
  tokens?: string[];
  seedDefaults?: boolean;
  rateLimit?: { perMinute?: number; enforce?: boolean; /** Window length (default 60 s; shorter for scaled budget runs). */ windowSeconds?: number };
  /** Check traffic against the OpenAPI description when present (default true). */
  validateSpec?: boolean;
  now?: () => number;
  recordBodies?: boolean;
}

function err(status: number, message: string): never {
  throw new SimHttpError({ status, body: { errors: [{ message, help: 'For more information on API status codes and how to handle them, read the docs on errors: https://developers.asana.com/docs/errors' }] } });
}

export async function startAsanaSimulator(opts: AsanaSimulatorOptions = {}) {
  const clock = new SimClock(opts.now);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Set(opts.tokens?.length ? opts.tokens : ['asana-test-token']);
  const file = opts.validateSpec === false ? undefined : specPath('asana', ASANA_SPEC_FILE);
  // The description says `nullable` beside `allOf` without a `type` on most object references: checked on its compilable copy.
  const spec = await loadOpenApiCheck(file ? (await compilableSpec(file, 'asana')).file : undefined, ASANA_KNOWN_DEVIATIONS);
  let seq = 1_200_000_000_000_000;
  const gid = () => String(++seq);
  const iso = (ms: number) => new Date(ms).toISOString();
  const hooks = new AsanaHooks(gid, () => clock.now());

  const ws = { gid: gid(), name: 'Acme', isOrganization: true };
  const users = new Map<string, SimUser>();
  const teams = new Map<string, { gid: string; name: string; description: string }>();
  const projects = new Map<string, SimProject>();
  const tags = new Map<string, { gid: string; name: string }>();
  const fields = new Map<string, SimField>();
  const tasks = new Map<string, SimTask>();
  const stories = new Map<string, SimStory>();
  const attachments = new Map<string, SimAttachment>();
  // Each task's stories and attachments in the order they were added: a task's listing reads its own, not every one.
  const storiesOf = new Map<string, SimStory[]>();
  const attachmentsOf = new Map<string, SimAttachment[]>();
  const addTo = <T>(index: Map<string, T[]>, task: string, item: T) => {
    const list = index.get(task);
    if (list) list.push(item);
    else index.set(task, [item]);
  };
  const events = new Map<string, SimEvent[]>();
  let eventSeq = 0;
  /** Tokens minted in an earlier generation are too old (412). */
  let generation = 0;

  const addUser = (name: string, email: string) => {
    const u = { gid: gid(), name, email };
    users.set(u.gid, u);
    return u;
  };
  const me = addUser('Alex Asana', 'alex@acme.example');
  const addProject = (name: string, teamGid: string) => {
    const p = { gid: gid(), name, notes: `${name} work`, teamGid, createdAt: clock.now(), modifiedAt: clock.now() };
    projects.set(p.gid, p);
    events.set(p.gid, []);
    return p;
  };

  // ---------------------------------------------------------------- events
  const ref = (type: string, g: string, name?: string) => ({ gid: g, resource_type: type, ...(name !== undefined ? { name } : {}) });
  const emit = (projectGids: string[], e: { action: string; resource: Obj; parent: Obj | null; change?: Obj }) => {
    for (const p of projectGids) {
      const body = { user: ref('user', me.gid, me.name), created_at: iso(clock.now()), type: e.resource.resource_type, action: e.action, resource: e.resource, parent: e.parent, ...(e.change ? { change: e.change } : {}) };
      events.get(p)?.push({ seq: ++eventSeq, body });
      hooks.deliver(p, body);
    }
  };
  const touch = (t: SimTask, field: string) => {
    t.modifiedAt = clock.now();
    emit(t.projects, { action: 'changed', resource: ref('task', t.gid, t.name), parent: null, change: { field, action: 'changed' } });
  };
  const tokenFor = (project: string, at: number) => Buffer.from(JSON.stringify({ p: project, s: at, g: generation })).toString('base64url');

  // ---------------------------------------------------------------- writes shared by routes and remote changes
  const newTask = (init: Partial<SimTask> & { name: string; projects: string[] }): SimTask => {
    const t: SimTask = { gid: gid(), notes: '', subtype: 'default_task', completed: false, completedAt: null, dueAt: null, assignee: null, parent: null, tags: [], fields: {}, createdAt: clock.now(), modifiedAt: clock.now(), ...init };
    tasks.set(t.gid, t);
    for (const p of t.projects) emit([p], { action: 'added', resource: ref('task', t.gid, t.name), parent: ref('project', p, projects.get(p)?.name) });
    return t;
  };
  const addStory = (t: SimTask, text: string, html: string, author = me.gid, subtype = 'comment_added') => {
    const s = { gid: gid(), task: t.gid, text, html, author, subtype, createdAt: clock.now() };
    stories.set(s.gid, s);
    addTo(storiesOf, t.gid, s);
    t.modifiedAt = clock.now();
    emit(t.projects, { action: 'added', resource: ref('story', s.gid), parent: ref('task', t.gid, t.name) });
    return s;
  };
  const deleteTask = (t: SimTask) => {
    tasks.delete(t.gid);
    emit(t.projects, { action: 'deleted', resource: ref('task', t.gid, t.name), parent: null });
  };

  let seed: AsanaSeed | undefined;
  if (opts.seedDefaults !== false) {
    const robin = addUser('Robin Lead', 'robin@acme.example');
    const team = { gid: gid(), name: 'Support', description: 'Front line' };
    teams.set(team.gid, team);
    const support = addProject('Support queue', team.gid);
    const backlog = addProject('Backlog', team.gid);
    const bug = { gid: gid(), name: 'bug' };
    tags.set(bug.gid, bug);
    const order: SimField = { gid: gid(), name: 'Order number', subtype: 'text', options: [] };
    const tier: SimField = { gid: gid(), name: 'Tier', subtype: 'enum', options: [{ gid: gid(), name: 'Gold' }, { gid: gid(), name: 'Silver' }] };
    fields.set(order.gid, order);
    fields.set(tier.gid, tier);
    const task = newTask({ name: 'Refund for order 7', notes: 'The parcel never came.', projects: [support.gid], assignee: robin.gid, tags: [bug.gid], fields: { [order.gid]: 'ORD-7' } });
    addStory(task, 'Any news?', '<body>Any news?</body>', robin.gid);
    addStory(task, 'Robin Lead assigned to you', '', robin.gid, 'assigned');
    seed = { me: me.gid, robin: robin.gid, team: team.gid, support: support.gid, backlog: backlog.gid, orderField: order.gid, tierField: tier.gid, task: task.gid, bugTag: bug.gid };
  }

  // ---------------------------------------------------------------- serialisation
  const userRef = (g: string | null) => (g && users.get(g) ? ref('user', g, users.get(g)!.name) : null);
  const wsRef = () => ref('workspace', ws.gid, ws.name);
  const fieldJson = (f: SimField, value?: unknown): Obj => {
    const base: Obj = { gid: f.gid, resource_type: 'custom_field', name: f.name, resource_subtype: f.subtype, type: f.subtype, enabled: true, is_formula_field: false };
    if (value === undefined) return { ...base, ...(f.subtype === 'enum' ? { enum_options: f.options.map((o) => ({ gid: o.gid, resource_type: 'enum_option', name: o.name, enabled: true, color: 'blue' })) } : {}) };
    switch (f.subtype) {
      case 'text':
        return { ...base, text_value: value as string | null, display_value: value as string | null };
      case 'number':
        return { ...base, number_value: value as number | null, display_value: value === null ? null : String(value) };
      case 'enum': {
        const o = f.options.find((x) => x.gid === value);
        return { ...base, enum_value: o ? { gid: o.gid, resource_type: 'enum_option', name: o.name, enabled: true, color: 'blue' } : null, display_value: o?.name ?? null };
      }
      case 'date':
        return { ...base, date_value: value ? { date: value as string, date_time: null } : null, display_value: (value as string | null) ?? null };
    }
  };
  const taskJson = (t: SimTask): Obj => ({
    gid: t.gid, resource_type: 'task', resource_subtype: t.subtype, name: t.name, notes: t.notes,
    completed: t.completed, completed_at: t.completedAt ? iso(t.completedAt) : null, created_at: iso(t.createdAt), modified_at: iso(t.modifiedAt),
    due_at: t.dueAt, due_on: t.dueAt ? t.dueAt.slice(0, 10) : null,
    assignee: userRef(t.assignee), parent: t.parent ? ref('task', t.parent, tasks.get(t.parent)?.name ?? '') : null,
    projects: t.projects.map((p) => ref('project', p, projects.get(p)?.name ?? '')),
    tags: t.tags.map((g) => ref('tag', g, tags.get(g)?.name ?? '')),
    workspace: wsRef(), permalink_url: `https://app.asana.com/0/0/${t.gid}`,
    custom_fields: [...fields.values()].map((f) => fieldJson(f, t.fields[f.gid] ?? null)),
  });
  const storyJson = (s: SimStory): Obj => ({
    gid: s.gid, resource_type: 'story', resource_subtype: s.subtype, type: s.subtype === 'comment_added' ? 'comment' : 'system',
    created_at: iso(s.createdAt), created_by: userRef(s.author), text: s.text, ...(s.subtype === 'comment_added' ? { html_text: s.html } : {}),
  });
  const attachmentJson = (a: SimAttachment): Obj => ({
    gid: a.gid, resource_type: 'attachment', resource_subtype: 'asana', name: a.name, created_at: iso(a.createdAt), host: 'asana',
    download_url: `${origin}/files/${a.gid}/${encodeURIComponent(a.name)}`, permanent_url: `https://app.asana.com/app/asana/-/get_asset?asset_id=${a.gid}`, view_url: null,
    parent: { ...ref('task', a.task, tasks.get(a.task)?.name ?? ''), resource_subtype: 'default_task' }, size: a.content.length,
  });
  const projectJson = (p: SimProject): Obj => ({
    gid: p.gid, resource_type: 'project', name: p.name, notes: p.notes, archived: false, team: ref('team', p.teamGid, teams.get(p.teamGid)?.name ?? ''),
    created_at: iso(p.createdAt), modified_at: iso(p.modifiedAt),
  });

  // ---------------------------------------------------------------- pages
  let origin = '';
  const page = <T>(req: SimRequest, items: T[], json: (x: T) => Obj): SimResponse => {
    const limitText = req.query.get('limit');
    const limit = limitText === null ? 100 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) err(400, 'limit: Must be between 1 and 100');
    const offsetText = req.query.get('offset');
    let start = 0;
    if (offsetText !== null) {
      const decoded = /^o(\d+)$/.exec(Buffer.from(offsetText, 'base64url').toString('utf8'));
      if (!decoded) err(400, 'offset: Your pagination token is invalid.');
      start = Number(decoded[1]);
    }
    const more = start + limit < items.length;
    const next = more ? Buffer.from(`o${start + limit}`).toString('base64url') : null;
    const q = new URLSearchParams(req.query);
    if (next) q.set('offset', next);
    return {
      status: 200,
      body: { data: items.slice(start, start + limit).map(json), next_page: next ? { offset: next, path: `${req.path}?${q}`, uri: `${origin}${req.path}?${q}` } : null },
    };
  };

  const data = (req: SimRequest): Obj => {
    const b = req.body as { data?: unknown } | undefined;
    if (!b || typeof b !== 'object' || !b.data || typeof b.data !== 'object' || Array.isArray(b.data)) err(400, 'data: Missing input');
    return b.data as Obj;
  };
  const taskOf = (g: string) => tasks.get(g) ?? err(404, `task: Unknown object: ${g}`);
  const checkUser = (g: unknown, field: string) => {
    if (g !== null && (typeof g !== 'string' || !users.has(g))) err(400, `${field}: Not a recognized ID: ${String(g)}`);
  };
  const applyFields = (t: SimTask, cf: unknown) => {
    if (cf === undefined) return;
    if (!cf || typeof cf !== 'object') err(400, 'custom_fields: Must be an object');
    for (const [k, v] of Object.entries(cf as Obj)) {
      const f = fields.get(k) ?? err(400, `custom_fields: Custom field with ID ${k} is not on given object`);
      const ok =
        v === null ||
        (f.subtype === 'text' && typeof v === 'string') ||
        (f.subtype === 'number' && typeof v === 'number') ||
        (f.subtype === 'enum' && typeof v === 'string' && f.options.some((o) => o.gid === v)) ||
        (f.subtype === 'date' && typeof v === 'object' && typeof (v as Obj).date === 'string');
      if (!ok) err(400, `custom_fields: Invalid value for custom field ${f.name}`);
      t.fields[k] = f.subtype === 'date' && v ? (v as Obj).date : v;
    }
  };
  const applyTaskData = (t: SimTask, d: Obj) => {
    if (d.name !== undefined) t.name = String(d.name);
    if (d.notes !== undefined) t.notes = String(d.notes);
    if (d.completed !== undefined) {
      if (typeof d.completed !== 'boolean') err(400, 'completed: Must be a boolean');
      t.completedAt = d.completed ? (t.completedAt ?? clock.now()) : null;
      t.completed = d.completed;
    }
    if (d.assignee !== undefined) {
      checkUser(d.assignee, 'assignee');
      t.assignee = d.assignee as string | null;
    }
    if (d.due_at !== undefined) {
      if (d.due_at !== null && (typeof d.due_at !== 'string' || Number.isNaN(Date.parse(d.due_at)))) err(400, 'due_at: Must be a date-time');
      t.dueAt = d.due_at === null ? null : new Date(d.due_at as string).toISOString();
    }
    applyFields(t, d.custom_fields);
  };

  // ---------------------------------------------------------------- routes
  const handle = (req: SimRequest): SimResponse => {
    const m = req.method;
    const p = req.path;
    const q = req.query;
    let r: RegExpExecArray | null;
    if (m === 'GET' && p === '/users/me') return { status: 200, body: { data: { gid: me.gid, resource_type: 'user', name: me.name, email: me.email, workspaces: [wsRef()] } } };
    if (m === 'GET' && (r = /^\/workspaces\/(\d+)$/.exec(p))) {
      if (r[1] !== ws.gid) err(404, `workspace: Unknown object: ${r[1]}`);
      return { status: 200, body: { data: { ...wsRef(), is_organization: ws.isOrganization } } };
    }
    const needWorkspace = (g: string | null) => {
      if (g !== ws.gid) err(g ? 404 : 400, g ? `workspace: Unknown object: ${g}` : 'workspace: Missing input');
    };
    if (m === 'GET' && p === '/users') {
      needWorkspace(q.get('workspace'));
      return page(req, [...users.values()], (u) => ({ gid: u.gid, resource_type: 'user', name: u.name, email: u.email }));
    }
    if (m === 'GET' && (r = /^\/workspaces\/(\d+)\/teams$/.exec(p))) {
      needWorkspace(r[1]!);
      return page(req, [...teams.values()], (t) => ({ gid: t.gid, resource_type: 'team', name: t.name, description: t.description }));
    }
    if (m === 'GET' && p === '/projects') {
      needWorkspace(q.get('workspace'));
      return page(req, [...projects.values()], projectJson);
    }
    if ((r = /^\/workspaces\/(\d+)\/tags$/.exec(p))) {
      needWorkspace(r[1]!);
      if (m === 'GET') return page(req, [...tags.values()], (t) => ({ gid: t.gid, resource_type: 'tag', name: t.name }));
      if (m === 'POST') {
        const d = data(req);
        if (typeof d.name !== 'string' || d.name === '') err(400, 'name: Missing input');
        const tag = { gid: gid(), name: d.name };
        tags.set(tag.gid, tag);
        return { status: 201, body: { data: { gid: tag.gid, resource_type: 'tag', name: tag.name, workspace: wsRef() } } };
      }
    }
    if (m === 'GET' && (r = /^\/workspaces\/(\d+)\/custom_fields$/.exec(p))) {
      needWorkspace(r[1]!);
      return page(req, [...fields.values()], (f) => fieldJson(f));
    }
    if (m === 'GET' && p === '/events') {
      const project = q.get('resource') ?? err(400, 'resource: Missing input');
      const log = events.get(project) ?? err(404, `resource: Unknown object: ${project}`);
      const token = q.get('sync');
      let from: number | undefined;
      if (token) {
        try {
          const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { p?: string; s?: number; g?: number };
          if (t.p === project && typeof t.s === 'number' && t.g === generation) from = t.s;
        } catch {
          from = undefined;
        }
      }
      if (from === undefined) {
        return { status: 412, body: { errors: [{ message: 'Sync token invalid or too old. If you are attempting to keep resources in sync, you must fetch the full dataset for this query now and use the new sync token for the next sync.' }], sync: tokenFor(project, eventSeq) } };
      }
      const after = log.filter((e) => e.seq > from!);
      const slice = after.slice(0, 100);
      const last = slice.length ? slice[slice.length - 1]!.seq : Math.max(from, eventSeq);
      return { status: 200, body: { data: slice.map((e) => e.body), sync: tokenFor(project, last), has_more: after.length > slice.length } };
    }
    if (p === '/tasks') {
      if (m === 'GET') {
        const project = q.get('project');
        if (!project) err(400, 'project: Must specify exactly one of project, tag, section, user task list, or assignee + workspace');
        if (!projects.has(project)) err(404, `project: Unknown object: ${project}`);
        const modifiedSince = q.get('modified_since');
        const since = modifiedSince ? Date.parse(modifiedSince) : undefined;
        const list = [...tasks.values()].filter((t) => t.projects.includes(project) && (since === undefined || t.modifiedAt > since));
        return page(req, list, taskJson);
      }
      if (m === 'POST') {
        const d = data(req);
        if (typeof d.name !== 'string') err(400, 'name: Missing input');
        const ps = Array.isArray(d.projects) ? (d.projects as unknown[]).map(String) : [];
        if (!ps.length && d.workspace !== ws.gid) err(400, 'workspace: Missing input');
        for (const x of ps) if (!projects.has(x)) err(400, `projects: Not a recognized ID: ${x}`);
        const tagIds = Array.isArray(d.tags) ? (d.tags as unknown[]).map(String) : [];
        for (const x of tagIds) if (!tags.has(x)) err(400, `tags: Not a recognized ID: ${x}`);
        const subtype = d.resource_subtype === undefined ? 'default_task' : String(d.resource_subtype);
        if (!['default_task', 'milestone', 'approval', 'section'].includes(subtype)) err(400, 'resource_subtype: Invalid value');
        const t = newTask({ name: d.name, projects: ps, tags: tagIds, subtype });
        applyTaskData(t, d);
        return { status: 201, body: { data: taskJson(t) } };
      }
    }
    if ((r = /^\/tasks\/(\d+)$/.exec(p))) {
      const t = taskOf(r[1]!);
      if (m === 'GET') return { status: 200, body: { data: taskJson(t) } };
      if (m === 'PUT') {
        const d = data(req);
        applyTaskData(t, d);
        touch(t, Object.keys(d)[0] ?? 'name');
        return { status: 200, body: { data: taskJson(t) } };
      }
      if (m === 'DELETE') {
        deleteTask(t);
        return { status: 200, body: { data: {} } };
      }
    }
    if (m === 'POST' && (r = /^\/tasks\/(\d+)\/(addTag|removeTag)$/.exec(p))) {
      const t = taskOf(r[1]!);
      const tag = String(data(req).tag ?? '');
      if (!tags.has(tag)) err(400, `tag: Not a recognized ID: ${tag}`);
      t.tags = r[2] === 'addTag' ? [...new Set([...t.tags, tag])] : t.tags.filter((x) => x !== tag);
      touch(t, 'tags');
      return { status: 200, body: { data: {} } };
    }
    if ((r = /^\/tasks\/(\d+)\/stories$/.exec(p))) {
      const t = taskOf(r[1]!);
      if (m === 'GET') return page(req, storiesOf.get(t.gid) ?? [], storyJson);
      if (m === 'POST') {
        const d = data(req);
        const html = typeof d.html_text === 'string' ? d.html_text : undefined;
        if (html !== undefined && !/^<body>[\s\S]*<\/body>$/.test(html)) err(400, 'html_text: XML is not valid: the root element must be <body>');
        const text = typeof d.text === 'string' ? d.text : html ? html.replace(/<[^>]*>/g, '') : err(400, 'text: Missing input');
        const s = addStory(t, text, html ?? `<body>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</body>`);
        return { status: 201, body: { data: storyJson(s) } };
      }
    }
    if (p === '/attachments') {
      if (m === 'GET') {
        const parent = q.get('parent') ?? err(400, 'parent: Missing input');
        taskOf(parent);
        return page(req, attachmentsOf.get(parent) ?? [], attachmentJson);
      }
      if (m === 'POST') {
        const boundary = boundaryOf(req.headers['content-type']) ?? err(400, 'file: Missing input (a multipart/form-data upload)');
        const parts = parseMultipart(req.rawBody, boundary);
        const parent = parts.find((x) => x.name === 'parent' && x.filename === null)?.content.toString('utf8') ?? err(400, 'parent: Missing input');
        const file = parts.find((x) => x.name === 'file' && x.filename !== null) ?? err(400, 'file: Missing input');
        const t = taskOf(parent);
        const a = { gid: gid(), task: t.gid, name: file.filename!, content: file.content, createdAt: clock.now() };
        attachments.set(a.gid, a);
        addTo(attachmentsOf, t.gid, a);
        t.modifiedAt = clock.now();
        emit(t.projects, { action: 'added', resource: ref('attachment', a.gid, a.name), parent: ref('task', t.gid, t.name) });
        return { status: 200, body: { data: attachmentJson(a) } };
      }
    }
    if (m === 'GET' && p === '/webhooks') {
      needWorkspace(q.get('workspace'));
      const resource = q.get('resource');
      return page(req, [...hooks.webhooks.values()].filter((w) => !resource || w.resource.gid === resource), (w) => hooks.render(w));
    }
    if ((r = /^\/webhooks\/(\d+)$/.exec(p)) && (m === 'GET' || m === 'DELETE')) {
      const w = hooks.webhooks.get(r[1]!) ?? err(404, `webhook: Unknown object: ${r[1]}`);
      if (m === 'GET') return { status: 200, body: { data: hooks.render(w) } };
      hooks.drop([w.gid]);
      return { status: 200, body: { data: {} } };
    }
    if (m === 'POST' && p === '/batch') {
      const actions = (data(req).actions ?? err(400, 'actions: Missing input')) as Array<{ relative_path?: string; method?: string; data?: Obj; options?: { fields?: string[] } }>;
      if (!Array.isArray(actions) || actions.length > 10) err(400, 'actions: A batch request can contain at most 10 actions');
      const results = actions.map((a) => {
        const method = String(a.method ?? '').toUpperCase();
        const query = new URLSearchParams(method === 'GET' ? Object.entries(a.data ?? {}).map(([k, v]) => [k, String(v)] as [string, string]) : []);
        if (a.options?.fields) query.set('opt_fields', a.options.fields.join(','));
        const sub: SimRequest = { ...req, method, path: String(a.relative_path ?? ''), query, body: method === 'GET' ? undefined : { data: a.data ?? {} }, rawBody: '', rawBytes: Buffer.alloc(0) };
        try {
          const res = handle(sub);
          return { status_code: res.status, headers: res.status === 201 ? { location: `${sub.path}/${(res.body as { data?: { gid?: string } }).data?.gid ?? ''}` } : {}, body: res.body };
        } catch (e) {
          if (e instanceof SimHttpError) return { status_code: e.response.status, headers: {}, body: e.response.body };
          throw e;
        }
      });
      return { status: 200, body: { data: results } };
    }
    return err(404, `No matching route for request: ${m} ${p}`);
  };

  /** The body as the description's request schema sees it: a multipart upload as its fields. */
  const specBody = (req: SimRequest): unknown => {
    const boundary = boundaryOf(req.headers['content-type']);
    if (!boundary) return req.body;
    return Object.fromEntries(parseMultipart(req.rawBody, boundary).map((x) => [x.name, x.filename === null ? x.content.toString('utf8') : x.filename]));
  };

  /** `POST /webhooks`: the handshake happens while this call waits (hooks.ts). */
  const createWebhook = async (req: SimRequest): Promise<SimResponse> => {
    const d = data(req);
    if (typeof d.resource !== 'string') err(400, 'resource: Missing input');
    if (typeof d.target !== 'string') err(400, 'target: Missing input');
    const project = projects.get(d.resource) ?? err(404, `resource: Unknown object: ${d.resource}`);
    const made = await hooks.create({ gid: project.gid, name: project.name }, d.target);
    if (Array.isArray(made)) err(made[0], made[1]);
    return { status: 201, body: { data: hooks.render(made), 'X-Hook-Secret': made.secret } };
  };

  // ---------------------------------------------------------------- server
  const perMinute = opts.rateLimit?.perMinute ?? 1500;
  const windowMs = (opts.rateLimit?.windowSeconds ?? 60) * 1000;
  let windowStart = clock.now();
  let used = 0;
  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    onRequest: (req) => spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body: specBody(req) }),
    describeAuth: (req) => {
      const m = /^bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      return m ? { scheme: 'bearer', label: tokens.has(m[1]!) ? 'token' : null, valid: tokens.has(m[1]!) } : null;
    },
    faultResponse: (fault) => ({
      status: fault.status!,
      body: { errors: [{ message: fault.status === 429 ? "You've made too many requests and hit a rate limit. Please retry after the given amount of time." : 'Server Error' }] },
    }),
    async handle(req) {
      const m = /^bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      if (!m || !tokens.has(m[1]!)) err(401, 'Not Authorized');
      const now = clock.now();
      if (now - windowStart >= windowMs) {
        windowStart = now;
        used = 0;
      }
      used += 1;
      if (opts.rateLimit?.enforce && used > perMinute) {
        return { status: 429, headers: { 'retry-after': String(Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))) }, body: { errors: [{ message: "You've made too many requests and hit a rate limit. Please retry after the given amount of time." }] } };
      }
      const res = req.method === 'POST' && req.path === '/webhooks' ? await createWebhook(req) : handle(req);
      spec.checkResponse({ method: req.method, path: req.path }, res.status, res.body);
      return res;
    },
    internalError: (e) => ({ status: 500, body: { errors: [{ message: String(e), phrase: 'simulator internal error' }] } }),
  });

  origin = server.url;
  return {
    url: server.url,
    seed,
    workspaceGid: ws.gid,
    tokens: [...tokens],
    requests,
    faults,
    clock,
    tasks,
    stories,
    attachments,
    specAvailable: spec.available,
    specViolations: spec.violations,
    specDeviations: spec.deviations,
    specUndocumented: spec.undocumented,
    taskJson: (g: string) => {
      const t = tasks.get(g);
      return t ? taskJson(t) : undefined;
    },
    /** A change made in the Asana app: its event is logged for the task's projects. */
    updateTaskRemotely(g: string, change: { name?: string; fields?: Record<string, unknown> }) {
      const t = taskOf(g);
      if (change.name !== undefined) t.name = change.name;
      if (change.fields) Object.assign(t.fields, change.fields);
      touch(t, change.name !== undefined ? 'name' : 'custom_fields');
    },
    deleteTaskRemotely(g: string) {
      deleteTask(taskOf(g));
    },
    /** A project created in the Asana app; returns its gid. */
    addProjectRemotely(name: string) {
      return addProject(name, [...teams.keys()][0] ?? gid()).gid;
    },
    /** Makes every sync token minted so far too old (Asana expires them after a while). */
    expireSyncTokens() {
      generation += 1;
    },
    /** Refuses every token accepted so far (OAuth access tokens expire after an hour). */
    rejectAllTokens() {
      tokens.clear();
    },
    /** Accepts an access token issued elsewhere (the OAuth simulator standing in for app.asana.com). */
    acceptToken(token: string) {
      tokens.add(token);
    },
    /** `n` tasks in `project` (default: the first), each with `commentsPerTask` comments. */
    seedTasks(n: number, o: { project?: string; commentsPerTask?: number } = {}) {
      const project = o.project ?? [...projects.keys()][0] ?? addProject('Bulk', [...teams.keys()][0] ?? gid()).gid;
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const t = newTask({ name: `Task ${i + 1}`, notes: `Body ${i + 1}`, projects: [project] });
        for (let j = 0; j < (o.commentsPerTask ?? 0); j++) addStory(t, `Reply ${j + 1}`, `<body>Reply ${j + 1}</body>`);
        out.push(t.gid);
      }
      return out;
    },
    /** Webhooks created through the API, their handshakes and the signed batches sent to them. */
    hooks,
    async close() {
      hooks.sender.enabled = false;
      await hooks.sender.settle();
      await server.close();
    },
  };
}

export type AsanaSimulator = Awaited<ReturnType<typeof startAsanaSimulator>>;
