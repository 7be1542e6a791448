/**
 * ClickUp API v2 simulator (https://api.clickup.com/api, `/v2/...` paths, served at the root) for integration
 * tests and benchmarks, built on the shared HTTP kit. When ../shared/provider-specs/clickup/clickup-api-v2-reference.json
 * (ClickUp's published v2 reference, see its SOURCE.md) exists, every request and every answer (injected faults
 * excepted) is checked against it (`specViolations`, `specUndocumented`), with the known deviations below.
 *
 * Auth: `Authorization: <pk_ token>` or `Authorization: Bearer <OAuth token>` of a registered token; otherwise 401.
 * Errors: `{"err": "…", "ECODE": "…"}`. Rate limit: per-minute window (default 100) with `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining`, `X-RateLimit-Reset` (UNIX seconds); with `rateLimit.enforce` a spent window answers 429.
 *
 * Endpoints: GET /v2/user, /v2/team, /v2/group, /v2/team/{id}/space, /v2/space/{id}/folder, /v2/space/{id}/list,
 * /v2/list/{id}, /v2/list/{id}/field, /v2/space/{id}/tag, /v2/team/{id}/task (pages of 100, date_updated_gt|lt,
 * date_created_gt|lt, order_by id|created|updated|due_date, newest first unless reverse=true);
 * POST /v2/list/{id}/task; GET/PUT/DELETE /v2/task/{id}; POST/DELETE /v2/task/{id}/tag/{name};
 * POST /v2/task/{id}/field/{field}; GET/POST /v2/task/{id}/comment (25 newest a page, start/start_id);
 * POST /v2/task/{id}/attachment (multipart `attachment`).
 * Webhooks (hooks.ts): POST/GET /v2/team/{id}/webhook, DELETE /v2/webhook/{id}; task changes, comments and deletions are
 * sent to them signed as ClickUp signs them.
 */
import { specPath } from '../../support/provider-specs';
import { FaultController, SimClock, SimHttpError, startSimServer, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';
import { compilableSpec } from '../shared/compilable-spec';
import { boundaryOf, parseMultipart } from '../shared/multipart';
import { loadOpenApiCheck, type KnownDeviation } from '../shared/openapi-check';
import { ClickUpHooks, type TaskPlace } from './hooks';

export { ClickUpHooks, clickupHookHeaders, type SimClickUpWebhook } from './hooks';

type Obj = Record<string, unknown>;

export const CLICKUP_SPEC_FILE = 'clickup-api-v2-reference.json';

export const CLICKUP_KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    reason: 'Error answers (`{"err", "ECODE"}`: 400, 401, 404, 429, 5xx) come from every operation; the reference documents none of them.',
    kind: 'response',
    keyword: 'status',
    status: (s) => s >= 400,
  },
  {
    reason: 'Several read operations declare a required `Content-Type` header although they have no body (Get Space Tags, Get Accessible Custom Fields …); clients send none on a GET.',
    kind: 'request',
    location: 'header',
    when: (v) => /content-type/i.test(v.message),
  },
  {
    reason: 'Get Folders: the reference types `folders` as one object, while its own example (and every other list operation) answers an array of folders.',
    kind: 'response',
    operationId: 'GetFolders',
    when: (v) => v.pointer === '/folders',
  },
  {
    reason: 'Get Filtered Team Tasks types a task\'s `priority` as an integer; tasks carry the priority object that Get Task documents (`{id, priority, color, orderindex}`).',
    kind: 'response',
    operationId: 'GetFilteredTeamTasks',
    when: (v) => v.pointer === '/tasks/*/priority',
  },
  {
    reason: 'Create Task and Update Task type the answer\'s `assignees` and `tags` as strings; the answer is the task, with the user and tag objects that Get Task documents.',
    kind: 'response',
    operationId: /^(CreateTask|UpdateTask)$/,
    when: (v) => /^\/(assignees|tags)\/\*$/.test(v.pointer),
  },
  {
    reason: 'A list\'s `status` and `priority` are described as a `oneOf` whose last alternative is `{}` (anything): no value matches exactly one alternative (an `anyOf` is meant), so ClickUp\'s `null` cannot pass.',
    kind: 'response',
    operationId: /^(GetFolderlessLists|GetLists|GetList|GetFolders)$/,
    when: (v) => /\/(status|priority)$/.test(v.pointer),
  },
];

export interface SimMember { id: number; username: string; email: string }
export interface SimList { id: string; name: string; space: string; folder: string | null; statuses: Array<{ status: string; type: 'open' | 'custom' | 'closed' }> }
export interface SimField { id: string; name: string; type: 'short_text' | 'number' | 'drop_down' | 'checkbox' | 'date'; options: Array<{ id: string; name: string; orderindex: number }> }
export interface SimTask {
  id: string; name: string; description: string; status: string; priority: number | null; assignees: number[]; tags: string[];
  dueDate: number | null; parent: string | null; list: string; fields: Record<string, unknown>; createdAt: number; updatedAt: number; closedAt: number | null; creator: number;
}
export interface SimComment { id: string; task: string; text: string; user: number; date: number }
export interface SimAttachment { id: string; task: string; title: string; content: Buffer; date: number; user: number }

export interface ClickUpSeed { me: number; robin: string; robinId: number; workspace: string; space: string; folder: string; list: string; looseList: string; group: string; orderField: string; tierField: string; task: string }

export interface ClickUpSimulatorOptions {
  tokens?: string[];
  seedDefaults?: boolean;
  rateLimit?: { perMinute?: number; enforce?: boolean; windowSeconds?: number };
  validateSpec?: boolean;
  now?: () => number;
  recordBodies?: boolean;
}

function err(status: number, message: string, code: string): never {
  throw new SimHttpError({ status, body: { err: message, ECODE: code } });
}

const PRIORITIES: Record<number, { id: string; priority: string; color: string; orderindex: string }> = {
  1: { id: '1', priority: 'urgent', color: '#f50000', orderindex: '1' },
  2: { id: '2', priority: 'high', color: '#ffcc00', orderindex: '2' },
  3: { id: '3', priority: 'normal', color: '#6fddff', orderindex: '3' },
  4: { id: '4', priority: 'low', color: '#d8d8d8', orderindex: '4' },
};

export async function startClickUpSimulator(opts: ClickUpSimulatorOptions = {}) {
  const clock = new SimClock(opts.now);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = new Set(opts.tokens?.length ? opts.tokens : ['pk_1_CLICKUPTESTTOKEN']);
  const file = opts.validateSpec === false ? undefined : specPath('clickup', CLICKUP_SPEC_FILE);
  // The reference's inline schemas refer to each other by percent-encoded pointers: checked on its compilable copy.
  // ClickUp answers null for every unset value (profilePicture, due_date, parent …), which the reference rarely allows.
  const spec = await loadOpenApiCheck(file ? (await compilableSpec(file, 'clickup')).file : undefined, CLICKUP_KNOWN_DEVIATIONS, true, { relaxNullable: 'all' });
  let seq = 90_000;
  const nextId = () => String(++seq);
  let taskSeq = 0;
  const taskId = () => `86${(++taskSeq).toString(36).padStart(6, '0')}`;

  const workspace = { id: nextId(), name: 'Acme' };
  const members = new Map<number, SimMember>();
  const groups = new Map<string, { id: string; name: string; handle: string; members: number[] }>();
  const spaces = new Map<string, { id: string; name: string }>();
  const folders = new Map<string, { id: string; name: string; space: string }>();
  const lists = new Map<string, SimList>();
  const tags = new Map<string, Set<string>>();
  const fields = new Map<string, SimField>();
  const tasks = new Map<string, SimTask>();
  const comments = new Map<string, SimComment>();
  const attachments = new Map<string, SimAttachment>();
  // Webhooks created through the API and the events sent to them (userJson is defined below; called later).
  const hooks = new ClickUpHooks(() => clock.now(), (id) => userJson(id));
  const place = (t: SimTask): TaskPlace => {
    const l = lists.get(t.list)!;
    return { task: t.id, list: l.id, folder: l.folder, space: l.space };
  };

  const addMember = (username: string, email: string) => {
    const m = { id: Number(nextId()), username, email };
    members.set(m.id, m);
    return m;
  };
  const me = addMember('Alex ClickUp', 'alex@acme.example');
  const statuses = (): SimList['statuses'] => [{ status: 'to do', type: 'open' }, { status: 'in progress', type: 'custom' }, { status: 'complete', type: 'closed' }];
  const addList = (name: string, space: string, folder: string | null) => {
    const l = { id: nextId(), name, space, folder, statuses: statuses() };
    lists.set(l.id, l);
    return l;
  };
  const newTask = (init: Partial<SimTask> & { name: string; list: string }): SimTask => {
    const l = lists.get(init.list)!;
    const t: SimTask = { id: taskId(), description: '', status: l.statuses[0]!.status, priority: null, assignees: [], tags: [], dueDate: null, parent: null, fields: {}, createdAt: clock.now(), updatedAt: clock.now(), closedAt: null, creator: me.id, ...init };
    tasks.set(t.id, t);
    hooks.task('taskCreated', place(t), t.creator, { field: 'status', before: null, after: { status: t.status } });
    return t;
  };
  const addComment = (t: SimTask, text: string, user = me.id) => {
    const c = { id: nextId(), task: t.id, text, user, date: clock.now() };
    comments.set(c.id, c);
    t.updatedAt = clock.now();
    hooks.task('taskCommentPosted', place(t), user, { field: 'comment', after: c.id, extra: { comment: { id: c.id, date: String(c.date), text_content: text, comment: [{ text }] } } });
    return c;
  };

  let seed: ClickUpSeed | undefined;
  if (opts.seedDefaults !== false) {
    const robin = addMember('Robin Lead', 'robin@acme.example');
    const group = { id: `${nextId()}-grp`, name: 'Support', handle: 'support', members: [robin.id, me.id] };
    groups.set(group.id, group);
    const space = { id: nextId(), name: 'Customer work' };
    spaces.set(space.id, space);
    tags.set(space.id, new Set(['bug']));
    const folder = { id: nextId(), name: 'Support', space: space.id };
    folders.set(folder.id, folder);
    const list = addList('Tickets', space.id, folder.id);
    const loose = addList('Ideas', space.id, null);
    const order: SimField = { id: `${nextId()}-order`, name: 'Order number', type: 'short_text', options: [] };
    const tier: SimField = { id: `${nextId()}-tier`, name: 'Tier', type: 'drop_down', options: [{ id: `${nextId()}-gold`, name: 'Gold', orderindex: 0 }, { id: `${nextId()}-silver`, name: 'Silver', orderindex: 1 }] };
    fields.set(order.id, order);
    fields.set(tier.id, tier);
    const task = newTask({ name: 'Refund for order 7', description: 'The parcel never came.', list: list.id, assignees: [robin.id], tags: ['bug'], priority: 2, fields: { [order.id]: 'ORD-7' } });
    addComment(task, 'Any news?', robin.id);
    seed = { me: me.id, robin: String(robin.id), robinId: robin.id, workspace: workspace.id, space: space.id, folder: folder.id, list: list.id, looseList: loose.id, group: group.id, orderField: order.id, tierField: tier.id, task: task.id };
  }

  // ---------------------------------------------------------------- serialisation
  let origin = '';
  const userJson = (id: number): Obj => {
    const m = members.get(id);
    return { id, username: m?.username ?? 'Unknown', email: m?.email ?? 'unknown@example.com', color: '#7b68ee', initials: (m?.username ?? 'U').slice(0, 2).toUpperCase(), profilePicture: null };
  };
  const statusJson = (l: SimList, name: string): Obj => {
    const i = l.statuses.findIndex((s) => s.status === name);
    return { status: name, color: '#d3d3d3', orderindex: i, type: l.statuses[i]?.type ?? 'open' };
  };
  const spaceFeatures = { due_dates: { enabled: true, start_date: false, remap_due_dates: true, remap_closed_due_date: false }, time_tracking: { enabled: false }, tags: { enabled: true }, time_estimates: { enabled: false }, checklists: { enabled: true } };
  const fieldDef = (f: SimField): Obj => ({
    id: f.id, name: f.name, type: f.type, type_config: f.type === 'drop_down' ? { placeholder: null, options: f.options.map((o) => ({ id: o.id, name: o.name, color: null, orderindex: o.orderindex })) } : {},
    date_created: String(clock.now()), hide_from_guests: false, required: false,
  });
  const taskJson = (t: SimTask, full = false): Obj => {
    const l = lists.get(t.list)!;
    const space = spaces.get(l.space)!;
    const folder = l.folder ? folders.get(l.folder)! : undefined;
    return {
      id: t.id, custom_id: null, name: t.name, text_content: t.description, description: t.description,
      status: statusJson(l, t.status), orderindex: '1.0000', date_created: String(t.createdAt), date_updated: String(t.updatedAt),
      date_closed: t.closedAt ? String(t.closedAt) : null, date_done: t.closedAt ? String(t.closedAt) : null, archived: false,
      creator: userJson(t.creator), assignees: t.assignees.map(userJson), watchers: [], checklists: [],
      tags: t.tags.map((name) => ({ name, tag_fg: '#fff', tag_bg: '#000', creator: me.id })), parent: t.parent,
      priority: t.priority ? PRIORITIES[t.priority] : null, due_date: t.dueDate ? String(t.dueDate) : null, start_date: null, points: null, time_estimate: null,
      custom_fields: [...fields.values()].map((f) => ({ ...fieldDef(f), ...(t.fields[f.id] !== undefined && t.fields[f.id] !== null ? { value: t.fields[f.id] } : {}) })),
      dependencies: [], linked_tasks: [], locations: [], team_id: workspace.id, url: `https://app.clickup.com/t/${t.id}`, permission_level: 'create',
      list: { id: l.id, name: l.name, access: true }, project: { id: folder?.id ?? l.id, name: folder?.name ?? 'hidden', hidden: !folder, access: true },
      folder: { id: folder?.id ?? l.id, name: folder?.name ?? 'hidden', hidden: !folder, access: true }, space: { id: space.id },
      ...(full ? { attachments: [...attachments.values()].filter((a) => a.task === t.id).map((a) => attachmentJson(a)) } : {}),
    };
  };
  /** Create Task Attachment answers `version` as a string, Get Task's attachments as a number (as the reference has them). */
  const attachmentJson = (a: SimAttachment, version: string | number = 0): Obj => ({
    id: a.id, version, date: a.date, title: a.title, extension: a.title.split('.').pop() ?? '', thumbnail_small: null, thumbnail_large: null,
    url: `${origin}/files/${a.id}/${encodeURIComponent(a.title)}`,
  });
  const listJson = (l: SimList): Obj => {
    const folder = l.folder ? folders.get(l.folder) : undefined;
    return {
      id: l.id, name: l.name, orderindex: 0, content: '', status: null, priority: null, assignee: null, task_count: String([...tasks.values()].filter((t) => t.list === l.id).length),
      due_date: null, start_date: null, folder: { id: folder?.id ?? l.id, name: folder?.name ?? 'hidden', hidden: !folder, access: true },
      space: { id: l.space, name: spaces.get(l.space)?.name ?? '', access: true }, archived: false, override_statuses: false,
      statuses: l.statuses.map((s, i) => ({ status: s.status, orderindex: i, color: '#d3d3d3', type: s.type })), permission_level: 'create',
    };
  };
  const commentJson = (c: SimComment): Obj => ({
    id: c.id, comment: [{ text: c.text }], comment_text: c.text, user: userJson(c.user), resolved: false, assignee: null, assigned_by: null, reactions: [], date: String(c.date),
  });

  // ---------------------------------------------------------------- helpers
  const body = (req: SimRequest): Obj => (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Obj) : err(400, 'Body must be a JSON object', 'INPUT_001'));
  const taskOf = (id: string) => tasks.get(id) ?? err(404, 'Task not found, deleted', 'ITEM_013');
  const listOf = (id: string) => lists.get(id) ?? err(404, 'List not found', 'LIST_001');
  const setField = (t: SimTask, id: string, value: unknown) => {
    const f = fields.get(id) ?? err(400, 'Custom field not found', 'FIELD_002');
    const ok =
      value === null ||
      (f.type === 'short_text' && typeof value === 'string') ||
      (f.type === 'number' && typeof value === 'number') ||
      (f.type === 'checkbox' && typeof value === 'boolean') ||
      (f.type === 'date' && typeof value === 'number') ||
      (f.type === 'drop_down' && f.options.some((o) => o.id === value));
    if (!ok) err(400, `Value is not valid for ${f.type}`, 'FIELD_033');
    // A drop-down's value reads back as the option's orderindex.
    t.fields[id] = f.type === 'drop_down' && value !== null ? f.options.find((o) => o.id === value)!.orderindex : value;
  };
  const setStatus = (t: SimTask, name: unknown) => {
    const l = lists.get(t.list)!;
    const s = l.statuses.find((x) => x.status === String(name).toLowerCase()) ?? err(400, 'Status does not exist', 'CRTSK_001');
    t.status = s.status;
    t.closedAt = s.type === 'closed' ? (t.closedAt ?? clock.now()) : null;
  };
  const checkMember = (id: unknown) => {
    if (typeof id !== 'number' || !members.has(id)) err(400, 'Assignee not found', 'ASSIGN_023');
    return id as number;
  };

  // ---------------------------------------------------------------- routes
  const handle = (req: SimRequest): SimResponse => {
    const m = req.method;
    const p = req.path;
    const q = req.query;
    let r: RegExpExecArray | null;
    if (m === 'GET' && p === '/v2/user') return { status: 200, body: { user: { ...userJson(me.id), week_start_day: 0, global_font_support: false, timezone: 'UTC' } } };
    if (m === 'GET' && p === '/v2/team') {
      return { status: 200, body: { teams: [{ id: workspace.id, name: workspace.name, color: '#7b68ee', avatar: null, members: [...members.keys()].map((id) => ({ user: { ...userJson(id), role: id === me.id ? 1 : 3 } })) }] } };
    }
    if (m === 'GET' && p === '/v2/group') {
      if (q.get('team_id') !== workspace.id) err(401, 'Team not authorized', 'OAUTH_027');
      return { status: 200, body: { groups: [...groups.values()].map((g) => ({ id: g.id, team_id: workspace.id, userid: me.id, name: g.name, handle: g.handle, date_created: String(clock.now()), initials: g.name.slice(0, 2).toUpperCase(), members: g.members.map(userJson), avatar: { attachment_id: null, color: null, source: null, icon: null } })) } };
    }
    if (m === 'GET' && (r = /^\/v2\/team\/(\d+)\/space$/.exec(p))) {
      if (r[1] !== workspace.id) err(401, 'Team not authorized', 'OAUTH_027');
      return { status: 200, body: { spaces: [...spaces.values()].map((s) => ({ id: s.id, name: s.name, private: false, statuses: statuses().map((x, i) => ({ ...x, orderindex: i, color: '#d3d3d3' })), multiple_assignees: true, features: spaceFeatures })) } };
    }
    if (m === 'GET' && (r = /^\/v2\/space\/(\d+)\/folder$/.exec(p))) {
      const sp = r[1]!;
      return { status: 200, body: { folders: [...folders.values()].filter((f) => f.space === sp).map((f) => ({ id: f.id, name: f.name, orderindex: 0, override_statuses: false, hidden: false, space: { id: sp, name: spaces.get(sp)?.name ?? '' }, task_count: '0', lists: [...lists.values()].filter((l) => l.folder === f.id).map(listJson) })) } };
    }
    if (m === 'GET' && (r = /^\/v2\/space\/(\d+)\/list$/.exec(p))) {
      const sp = r[1]!;
      return { status: 200, body: { lists: [...lists.values()].filter((l) => l.space === sp && l.folder === null).map(listJson) } };
    }
    if (m === 'GET' && (r = /^\/v2\/space\/(\d+)\/tag$/.exec(p))) return { status: 200, body: { tags: [...(tags.get(r[1]!) ?? [])].map((name) => ({ name, tag_fg: '#fff', tag_bg: '#000', creator: me.id })) } };
    if (m === 'GET' && (r = /^\/v2\/list\/(\d+)$/.exec(p))) return { status: 200, body: listJson(listOf(r[1]!)) };
    if (m === 'GET' && (r = /^\/v2\/list\/(\d+)\/field$/.exec(p))) {
      listOf(r[1]!);
      return { status: 200, body: { fields: [...fields.values()].map(fieldDef) } };
    }
    if (m === 'GET' && (r = /^\/v2\/team\/(\d+)\/task$/.exec(p))) {
      if (r[1] !== workspace.id) err(401, 'Team not authorized', 'OAUTH_027');
      const page = Number(q.get('page') ?? 0);
      // Date filters, Unix time in milliseconds, strict bounds ("greater than", "less than").
      const bound = (name: string) => (q.get(name) === null ? null : Number(q.get(name)));
      const [updatedGt, updatedLt, createdGt, createdLt] = [bound('date_updated_gt'), bound('date_updated_lt'), bound('date_created_gt'), bound('date_created_lt')];
      let all = [...tasks.values()].filter(
        (t) =>
          (updatedGt === null || t.updatedAt > updatedGt) &&
          (updatedLt === null || t.updatedAt < updatedLt) &&
          (createdGt === null || t.createdAt > createdGt) &&
          (createdLt === null || t.createdAt < createdLt),
      );
      if (q.get('include_closed') !== 'true') all = all.filter((t) => !t.closedAt);
      if (q.get('subtasks') !== 'true') all = all.filter((t) => !t.parent);
      // `order_by`: id, created (the default), updated or due_date; newest (largest) first, and `reverse=true`
      // the other way round. The reference names the fields and "reverse order" but not the default direction.
      const orderBy = q.get('order_by') ?? 'created';
      const keyOf: Record<string, (t: SimTask) => number | string> = { id: (t) => t.id, created: (t) => t.createdAt, updated: (t) => t.updatedAt, due_date: (t) => t.dueDate ?? -1 };
      const key = keyOf[orderBy];
      if (!key) err(400, 'Invalid order_by', 'ITEM_100');
      const cmp = (x: number | string, y: number | string) => (x < y ? -1 : x > y ? 1 : 0);
      const dir = q.get('reverse') === 'true' ? 1 : -1;
      all.sort((a, b) => dir * (cmp(key(a), key(b)) || cmp(a.id, b.id)));
      const slice = all.slice(page * 100, page * 100 + 100);
      return { status: 200, body: { tasks: slice.map((t) => taskJson(t)), last_page: (page + 1) * 100 >= all.length } };
    }
    if (m === 'POST' && (r = /^\/v2\/list\/(\d+)\/task$/.exec(p))) {
      const l = listOf(r[1]!);
      const b = body(req);
      if (typeof b.name !== 'string' || b.name === '') err(400, 'Task name invalid', 'INPUT_005');
      const t = newTask({ name: b.name, list: l.id, description: typeof b.description === 'string' ? b.description : '' });
      if (Array.isArray(b.assignees)) t.assignees = b.assignees.map(checkMember);
      if (Array.isArray(b.tags)) {
        t.tags = b.tags.map(String);
        for (const name of t.tags) tags.get(l.space)?.add(name);
      }
      if (b.status !== undefined) setStatus(t, b.status);
      if (b.priority !== undefined && b.priority !== null) t.priority = PRIORITIES[Number(b.priority)] ? Number(b.priority) : err(400, 'Priority invalid', 'INPUT_003');
      if (typeof b.due_date === 'number') t.dueDate = b.due_date;
      if (typeof b.parent === 'string') t.parent = taskOf(b.parent).id;
      for (const f of (Array.isArray(b.custom_fields) ? b.custom_fields : []) as Array<{ id: string; value: unknown }>) setField(t, f.id, f.value);
      return { status: 200, body: taskJson(t) };
    }
    if ((r = /^\/v2\/task\/([0-9a-z]+)$/.exec(p))) {
      const t = taskOf(r[1]!);
      if (m === 'GET') return { status: 200, body: taskJson(t, true) };
      if (m === 'DELETE') {
        tasks.delete(t.id);
        hooks.task('taskDeleted', place(t), me.id);
        return { status: 200, body: {} };
      }
      if (m === 'PUT') {
        const b = body(req);
        if (typeof b.name === 'string') t.name = b.name;
        if (typeof b.description === 'string') t.description = b.description;
        if (b.status !== undefined) setStatus(t, b.status);
        if (b.priority !== undefined) t.priority = b.priority === null ? null : PRIORITIES[Number(b.priority)] ? Number(b.priority) : err(400, 'Priority invalid', 'INPUT_003');
        if (typeof b.due_date === 'number') t.dueDate = b.due_date;
        const a = b.assignees as { add?: unknown[]; rem?: unknown[] } | undefined;
        if (a) {
          const add = (a.add ?? []).map(checkMember);
          const rem = (a.rem ?? []).map(Number);
          t.assignees = [...t.assignees.filter((x) => !rem.includes(x)), ...add.filter((x) => !t.assignees.includes(x))];
        }
        t.updatedAt = clock.now();
        hooks.task('taskUpdated', place(t), me.id, { field: Object.keys(b)[0] ?? 'name' });
        return { status: 200, body: taskJson(t) };
      }
    }
    if ((r = /^\/v2\/task\/([0-9a-z]+)\/tag\/([^/]+)$/.exec(p)) && (m === 'POST' || m === 'DELETE')) {
      const t = taskOf(r[1]!);
      const name = decodeURIComponent(r[2]!);
      t.tags = m === 'POST' ? [...new Set([...t.tags, name])] : t.tags.filter((x) => x !== name);
      if (m === 'POST') tags.get(lists.get(t.list)!.space)?.add(name);
      t.updatedAt = clock.now();
      hooks.task('taskTagUpdated', place(t), me.id, { field: 'tag', after: [{ name }] });
      return { status: 200, body: {} };
    }
    if (m === 'POST' && (r = /^\/v2\/task\/([0-9a-z]+)\/field\/([^/]+)$/.exec(p))) {
      const t = taskOf(r[1]!);
      setField(t, decodeURIComponent(r[2]!), body(req).value);
      t.updatedAt = clock.now();
      hooks.task('taskUpdated', place(t), me.id, { field: 'custom_field' });
      return { status: 200, body: {} };
    }
    if ((r = /^\/v2\/task\/([0-9a-z]+)\/comment$/.exec(p))) {
      const t = taskOf(r[1]!);
      if (m === 'GET') {
        const all = [...comments.values()].filter((c) => c.task === t.id).sort((a, b) => b.date - a.date || Number(b.id) - Number(a.id));
        const startId = q.get('start_id');
        const from = startId ? all.findIndex((c) => c.id === startId) + 1 : 0;
        return { status: 200, body: { comments: all.slice(from, from + 25).map(commentJson) } };
      }
      if (m === 'POST') {
        const b = body(req);
        if (typeof b.comment_text !== 'string' || b.comment_text === '') err(400, 'Comment text invalid', 'INPUT_008');
        const c = addComment(t, b.comment_text);
        return { status: 200, body: { id: c.id, hist_id: `${c.id}-hist`, date: c.date } };
      }
    }
    if (m === 'POST' && (r = /^\/v2\/task\/([0-9a-z]+)\/attachment$/.exec(p))) {
      const t = taskOf(r[1]!);
      const boundary = boundaryOf(req.headers['content-type']) ?? err(400, 'No attachment supplied', 'UPLOAD_002');
      const file = parseMultipart(req.rawBody, boundary).find((x) => x.name === 'attachment' && x.filename !== null) ?? err(400, 'No attachment supplied', 'UPLOAD_002');
      const a = { id: `${nextId()}.${file.filename!.split('.').pop()}`, task: t.id, title: file.filename!, content: file.content, date: clock.now(), user: me.id };
      attachments.set(a.id, a);
      t.updatedAt = clock.now();
      return { status: 200, body: attachmentJson(a, '0') };
    }
    if ((r = /^\/v2\/team\/(\d+)\/webhook$/.exec(p)) && (m === 'GET' || m === 'POST')) {
      if (r[1] !== workspace.id) err(401, 'Team not authorized', 'OAUTH_027');
      if (m === 'GET') return { status: 200, body: { webhooks: [...hooks.webhooks.values()].filter((w) => String(w.team_id) === r![1]).map((w) => hooks.render(w)) } };
      try {
        const w = hooks.create(r[1]!, me.id, body(req));
        return { status: 200, body: { id: w.id, webhook: hooks.render(w) } };
      } catch (e) {
        if (Array.isArray(e)) err(e[0] as number, e[1] as string, e[2] as string);
        throw e;
      }
    }
    if (m === 'DELETE' && (r = /^\/v2\/webhook\/([0-9a-f-]+)$/.exec(p))) {
      if (!hooks.webhooks.delete(r[1]!)) err(404, 'Webhook not found', 'WEBHOOK_001');
      return { status: 200, body: {} };
    }
    return err(404, 'Route not found', 'APP_001');
  };

  /** The body as the reference's request schema sees it: a multipart upload as its file parts. */
  const specBody = (req: SimRequest): unknown => {
    const boundary = boundaryOf(req.headers['content-type']);
    if (!boundary) return req.body;
    const parts = parseMultipart(req.rawBody, boundary);
    return { attachment: parts.filter((x) => x.name === 'attachment').map((x) => x.filename) };
  };

  // ---------------------------------------------------------------- server
  const perMinute = opts.rateLimit?.perMinute ?? 100;
  const windowMs = (opts.rateLimit?.windowSeconds ?? 60) * 1000;
  let windowStart = clock.now();
  let used = 0;
  const tokenOf = (req: SimRequest) => {
    const h = String(req.headers.authorization ?? '');
    return /^bearer\s+(\S+)$/i.exec(h)?.[1] ?? (h || undefined);
  };
  const server = await startSimServer({
    clock,
    faults,
    requests,
    recordBodies: opts.recordBodies,
    onRequest: (req) => spec.checkRequest({ method: req.method, path: req.path, query: req.query, headers: req.headers, body: specBody(req) }),
    describeAuth: (req) => {
      const t = tokenOf(req);
      return t ? { scheme: /^bearer/i.test(String(req.headers.authorization)) ? 'bearer' : 'token', label: tokens.has(t) ? 'token' : null, valid: tokens.has(t) } : null;
    },
    faultResponse: (fault) => ({ status: fault.status!, body: { err: fault.status === 429 ? 'Rate limit reached' : 'Internal server error', ECODE: fault.status === 429 ? 'APP_002' : 'APP_500' } }),
    handle(req) {
      const t = tokenOf(req);
      if (!t || !tokens.has(t)) err(401, 'Token invalid', 'OAUTH_025');
      const now = clock.now();
      if (now - windowStart >= windowMs) {
        windowStart = now;
        used = 0;
      }
      used += 1;
      const headers = { 'x-ratelimit-limit': String(perMinute), 'x-ratelimit-remaining': String(Math.max(0, perMinute - used)), 'x-ratelimit-reset': String(Math.ceil((windowStart + windowMs) / 1000)) };
      if (opts.rateLimit?.enforce && used > perMinute) return { status: 429, headers, body: { err: 'Rate limit reached', ECODE: 'APP_002' } };
      const res = handle(req);
      res.headers = { ...headers, ...(res.headers ?? {}) };
      spec.checkResponse({ method: req.method, path: req.path }, res.status, res.body);
      return res;
    },
    internalError: (e) => ({ status: 500, body: { err: String(e), ECODE: 'APP_500' } }),
  });

  origin = server.url;
  return {
    url: server.url,
    seed,
    tokens: [...tokens],
    requests,
    faults,
    clock,
    tasks,
    comments,
    /** Webhooks created through the API, and the signed events sent to them. */
    hooks,
    specAvailable: spec.available,
    specViolations: spec.violations,
    specDeviations: spec.deviations,
    specUndocumented: spec.undocumented,
    taskJson: (id: string) => {
      const t = tasks.get(id);
      return t ? taskJson(t, true) : undefined;
    },
    /** A change made in the ClickUp app (bumps `date_updated`). */
    updateTaskRemotely(id: string, change: { name?: string; fields?: Record<string, unknown> }) {
      const t = taskOf(id);
      if (change.name !== undefined) t.name = change.name;
      if (change.fields) Object.assign(t.fields, change.fields);
      t.updatedAt = clock.now() + 1;
      hooks.task('taskUpdated', place(t), me.id, { field: change.name !== undefined ? 'name' : 'custom_field', after: change.name ?? null });
    },
    deleteTaskRemotely(id: string) {
      const t = taskOf(id);
      tasks.delete(id);
      hooks.task('taskDeleted', place(t), me.id);
    },
    deleteCommentRemotely(id: string) {
      const c = comments.get(id);
      comments.delete(id);
      if (c && tasks.get(c.task)) tasks.get(c.task)!.updatedAt = clock.now() + 1;
    },
    acceptToken(token: string) {
      tokens.add(token);
    },
    /** `n` tasks in the first list, each with `commentsPerTask` comments, created a day ago a millisecond apart. */
    seedTasks(n: number, o: { commentsPerTask?: number } = {}) {
      const list = [...lists.keys()][0]!;
      const start = clock.now() - 86_400_000 - n;
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const t = newTask({ name: `Task ${i + 1}`, description: `Body ${i + 1}`, list, createdAt: start + i, updatedAt: start + i });
        for (let j = 0; j < (o.commentsPerTask ?? 0); j++) comments.set(nextId(), { id: String(seq), task: t.id, text: `Reply ${j + 1}`, user: me.id, date: start + i });
        ids.push(t.id);
      }
      return ids;
    },
    async close() {
      hooks.sender.enabled = false;
      await hooks.sender.settle();
      await server.close();
    },
  };
}

export type ClickUpSimulator = Awaited<ReturnType<typeof startClickUpSimulator>>;
