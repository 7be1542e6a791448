/**
 * Resolvers of the Linear simulator: the schema's Query and Mutation fields the adapter (and tests) use,
 * relations of the modelled types, Relay-style connections with Linear's arguments (`first`/`after`,
 * `last`/`before`, `filter`, `includeArchived`, `orderBy`, `includeDisabled`) and the filter language
 * (comparators, `and`/`or`, relation filters with `null`, collection filters with `some`/`every`).
 *
 * Whatever the simulator does not model is reported as a `SimGap` (recorded by the simulator and
 * answered as an internal error), never silently ignored.
 */
import type { GraphQLFieldResolver } from 'graphql';
import type { LinearHooks } from './hooks';
import {
  contentDisposition,
  LinearInputError,
  MODELLED_ISSUE_CREATE,
  MODELLED_ISSUE_UPDATE,
  priorityLabel,
  type CommentRecord,
  type IssueInput,
  type IssueRecord,
  type LabelRecord,
  type LinearState,
  type TeamRecord,
  type UserRecord,
  type WorkflowStateRecord,
} from './state';

/** Something the adapter asked for that the simulator does not model. */
export class SimGap extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimGap';
  }
}

export interface SimContext {
  state: LinearState;
  viewer: UserRecord;
  /** `http://127.0.0.1:<port>` of the file storage server. */
  uploadsBase: string;
  /** Public web address of the workspace (issue and comment `url`s). */
  webBase: string;
  nextSyncId(): number;
  /** Webhooks created through the API, and their deliveries. */
  hooks: LinearHooks;
}

type Args = Record<string, unknown>;
type Resolver = (source: never, args: Args, ctx: SimContext) => unknown;

// ------------------------------------------------------------------ filters

type Kind = 'Issue' | 'Comment' | 'User' | 'Team' | 'IssueLabel' | 'WorkflowState';
type Rec = { id: string; createdAt: string; updatedAt: string; archivedAt?: string | null };

interface Accessor {
  scalar?: (r: never, ctx: SimContext) => unknown;
  rel?: [Kind, (r: never, ctx: SimContext) => Rec | null | undefined];
  many?: [Kind, (r: never, ctx: SimContext) => Rec[]];
}

const s = <T>(f: (r: T, ctx: SimContext) => unknown): Accessor => ({ scalar: f as Accessor['scalar'] });
const rel = <T>(kind: Kind, f: (r: T, ctx: SimContext) => Rec | null | undefined): Accessor => ({ rel: [kind, f as NonNullable<Accessor['rel']>[1]] });
const many = <T>(kind: Kind, f: (r: T, ctx: SimContext) => Rec[]): Accessor => ({ many: [kind, f as NonNullable<Accessor['many']>[1]] });
const field = (name: string) => s<Record<string, unknown>>((r) => r[name]);
const common = { id: field('id'), createdAt: field('createdAt'), updatedAt: field('updatedAt') };

const ACCESSORS: Record<Kind, Record<string, Accessor>> = {
  Issue: {
    ...common,
    archivedAt: field('archivedAt'),
    completedAt: field('completedAt'),
    canceledAt: field('canceledAt'),
    startedAt: field('startedAt'),
    title: field('title'),
    description: field('description'),
    priority: field('priority'),
    number: field('number'),
    dueDate: field('dueDate'),
    estimate: field('estimate'),
    team: rel<IssueRecord>('Team', (r, c) => c.state.teams.get(r.teamId)),
    state: rel<IssueRecord>('WorkflowState', (r, c) => c.state.states.get(r.stateId)),
    assignee: rel<IssueRecord>('User', (r, c) => (r.assigneeId ? c.state.users.get(r.assigneeId) : null)),
    creator: rel<IssueRecord>('User', (r, c) => (r.creatorId ? c.state.users.get(r.creatorId) : null)),
    parent: rel<IssueRecord>('Issue', (r, c) => (r.parentId ? c.state.issues.get(r.parentId) : null)),
    labels: many<IssueRecord>('IssueLabel', (r, c) => r.labelIds.map((id) => c.state.labels.get(id)!).filter(Boolean)),
    comments: many<IssueRecord>('Comment', (r, c) => c.state.commentsOf(r.id)),
  },
  Comment: {
    ...common,
    body: field('body'),
    issue: rel<CommentRecord>('Issue', (r, c) => c.state.issues.get(r.issueId)),
    user: rel<CommentRecord>('User', (r, c) => (r.userId ? c.state.users.get(r.userId) : null)),
    parent: rel<CommentRecord>('Comment', (r, c) => (r.parentId ? c.state.comments.get(r.parentId) : null)),
  },
  User: {
    ...common,
    name: field('name'),
    displayName: field('displayName'),
    email: field('email'),
    active: field('active'),
    admin: field('admin'),
    app: field('app'),
    isMe: s<UserRecord>((r, c) => r.id === c.viewer.id),
  },
  Team: {
    ...common,
    key: field('key'),
    name: field('name'),
    description: field('description'),
    parent: rel<TeamRecord>('Team', (r, c) => (r.parentId ? c.state.teams.get(r.parentId) : null)),
    members: many<TeamRecord>('User', (r, c) => [...c.state.users.values()].filter((u) => u.teamIds.includes(r.id))),
  },
  IssueLabel: {
    ...common,
    name: field('name'),
    isGroup: field('isGroup'),
    team: rel<LabelRecord>('Team', (r, c) => (r.teamId ? c.state.teams.get(r.teamId) : null)),
    parent: rel<LabelRecord>('IssueLabel', (r, c) => (r.parentId ? c.state.labels.get(r.parentId) : null)),
    creator: rel<LabelRecord>('User', (r, c) => (r.creatorId ? c.state.users.get(r.creatorId) : null)),
  },
  WorkflowState: {
    ...common,
    name: field('name'),
    type: field('type'),
    position: field('position'),
    description: field('description'),
    team: rel<WorkflowStateRecord>('Team', (r, c) => c.state.teams.get(r.teamId)),
  },
};

const DATE_FIELDS = new Set(['createdAt', 'updatedAt', 'archivedAt', 'completedAt', 'canceledAt', 'startedAt']);

function compareValues(a: unknown, b: unknown, dates: boolean): number {
  if (dates) return Date.parse(String(a)) - Date.parse(String(b));
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function comparator(value: unknown, cmp: Record<string, unknown>, path: string, dates: boolean): boolean {
  for (const [op, arg] of Object.entries(cmp)) {
    if (arg === undefined) continue;
    const str = typeof value === 'string' ? value : value == null ? null : String(value);
    const ok = (() => {
      switch (op) {
        case 'eq':
          return arg === null ? value == null : value != null && compareValues(value, arg, dates) === 0;
        case 'neq':
          return arg === null ? value != null : value == null || compareValues(value, arg, dates) !== 0;
        case 'in':
          return (arg as unknown[]).some((x) => value != null && compareValues(value, x, dates) === 0);
        case 'nin':
          return !(arg as unknown[]).some((x) => value != null && compareValues(value, x, dates) === 0);
        case 'lt':
          return value != null && compareValues(value, arg, dates) < 0;
        case 'lte':
          return value != null && compareValues(value, arg, dates) <= 0;
        case 'gt':
          return value != null && compareValues(value, arg, dates) > 0;
        case 'gte':
          return value != null && compareValues(value, arg, dates) >= 0;
        case 'null':
          return arg ? value == null : value != null;
        case 'eqIgnoreCase':
          return str !== null && str.toLowerCase() === String(arg).toLowerCase();
        case 'neqIgnoreCase':
          return str === null || str.toLowerCase() !== String(arg).toLowerCase();
        case 'contains':
          return str !== null && str.includes(String(arg));
        case 'containsIgnoreCase':
          return str !== null && str.toLowerCase().includes(String(arg).toLowerCase());
        case 'notContains':
          return str === null || !str.includes(String(arg));
        case 'startsWith':
          return str !== null && str.startsWith(String(arg));
        case 'startsWithIgnoreCase':
          return str !== null && str.toLowerCase().startsWith(String(arg).toLowerCase());
        case 'endsWith':
          return str !== null && str.endsWith(String(arg));
        default:
          throw new SimGap(`comparator ${path}.${op} is not modelled`);
      }
    })();
    if (!ok) return false;
  }
  return true;
}

/** Whether a record matches a Linear filter object of its type. */
export function matches(kind: Kind, record: Rec, filter: Record<string, unknown> | null | undefined, ctx: SimContext, path: string = kind): boolean {
  if (!filter) return true;
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (key === 'and') {
      if (!(value as Record<string, unknown>[]).every((f) => matches(kind, record, f, ctx, `${path}.and`))) return false;
      continue;
    }
    if (key === 'or') {
      if (!(value as Record<string, unknown>[]).some((f) => matches(kind, record, f, ctx, `${path}.or`))) return false;
      continue;
    }
    const acc = ACCESSORS[kind][key];
    if (!acc) throw new SimGap(`filter ${path}.${key} is not modelled`);
    const sub = value as Record<string, unknown>;
    if (acc.scalar) {
      if (!comparator(acc.scalar(record as never, ctx), sub, `${path}.${key}`, DATE_FIELDS.has(key))) return false;
    } else if (acc.rel) {
      const [relKind, get] = acc.rel;
      const related = get(record as never, ctx) ?? null;
      const { null: isNull, ...rest } = sub;
      if (isNull === true && related !== null) return false;
      if (isNull === false && related === null) return false;
      if (Object.keys(rest).length > 0 && (related === null || !matches(relKind, related, rest, ctx, `${path}.${key}`))) return false;
    } else if (acc.many) {
      const [relKind, get] = acc.many;
      const items = get(record as never, ctx);
      for (const [op, f] of Object.entries(sub)) {
        if (f === undefined || f === null) continue;
        const one = (x: Rec) => matches(relKind, x, f as Record<string, unknown>, ctx, `${path}.${key}.${op}`);
        if (op === 'some' && !items.some(one)) return false;
        else if (op === 'every' && !items.every(one)) return false;
        else if (op === 'length') {
          if (!comparator(items.length, f as Record<string, unknown>, `${path}.${key}.length`, false)) return false;
        } else if (!['some', 'every', 'length'].includes(op)) throw new SimGap(`collection filter ${path}.${key}.${op} is not modelled`);
      }
    }
  }
  return true;
}

// ------------------------------------------------------------------ connections

export const MAX_PAGE = 250;
const DEFAULT_PAGE = 50;

interface Conn<T> {
  nodes: T[];
  edges: Array<{ node: T; cursor: string }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const encodeCursor = (sortValue: string, id: string) => Buffer.from(JSON.stringify([sortValue, id])).toString('base64url');

function decodeCursor(cursor: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  } catch {
    // fall through
  }
  throw new LinearInputError('Invalid cursor', 'The pagination cursor is not valid.');
}

/** A listing in connection order, with each record's sort key parsed once (not in the comparator). */
interface Ordered<T> {
  items: T[];
  keys: number[];
}

function ordered<T extends Rec>(items: T[], key: (r: T) => string): Ordered<T> {
  const pairs = items.map((r) => ({ r, k: Date.parse(key(r)) }));
  pairs.sort((a, b) => b.k - a.k || (a.r.id < b.r.id ? 1 : a.r.id > b.r.id ? -1 : 0));
  return { items: pairs.map((p) => p.r), keys: pairs.map((p) => p.k) };
}

/** The first index whose record `after` says comes after a position (the order makes it a step from false to true). */
function firstAfter<T extends Rec>(o: Ordered<T>, after: (k: number, r: T) => boolean): number {
  let lo = 0;
  let hi = o.items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(o.keys[mid]!, o.items[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Listings of the workspace's own collections, sorted and filtered once per state revision (the walk of a
 * 100,000-issue account reads 2,000 pages of one listing): a few per state, dropped at the next write.
 */
const listings = new WeakMap<LinearState, { revision: number; entries: Map<string, Ordered<Rec>> }>();
const MAX_LISTINGS = 16;

function listing<T extends Rec>(kind: Kind, all: Iterable<T>, args: Args, ctx: SimContext, extra: ((r: T) => boolean) | undefined, cacheAs: string | undefined, key: (r: T) => string): Ordered<T> {
  const compute = () => {
    let items = [...all].filter((r) => (args.includeArchived === true || !r.archivedAt) && (!extra || extra(r)));
    items = items.filter((r) => matches(kind, r, args.filter as Record<string, unknown> | undefined, ctx));
    return ordered(items, key);
  };
  if (!cacheAs) return compute();
  let cache = listings.get(ctx.state);
  if (cache?.revision !== ctx.state.revision) {
    cache = { revision: ctx.state.revision, entries: new Map() };
    listings.set(ctx.state, cache);
  }
  // The viewer matters to `isMe` filters; the order to the key.
  const id = JSON.stringify([cacheAs, ctx.viewer.id, args.orderBy ?? 'createdAt', args.includeArchived === true, args.filter ?? null]);
  let hit = cache.entries.get(id) as Ordered<T> | undefined;
  if (!hit) {
    hit = compute();
    if (cache.entries.size >= MAX_LISTINGS) cache.entries.delete(cache.entries.keys().next().value!);
    cache.entries.set(id, hit as Ordered<Rec>);
  }
  return hit;
}

/**
 * A page of a connection, newest first by `orderBy` (createdAt by default), ties broken by id.
 * Archived records only with `includeArchived: true`. `cacheAs` names a listing that only a write of the
 * workspace changes (a top-level collection, or one selected by a fixed `extra`), so its order is reused.
 */
export function connection<T extends Rec>(kind: Kind, all: Iterable<T>, args: Args, ctx: SimContext, extra?: (r: T) => boolean, cacheAs?: string): Conn<T> {
  const orderBy = (args.orderBy as string | undefined) ?? 'createdAt';
  if (orderBy !== 'createdAt' && orderBy !== 'updatedAt') throw new SimGap(`orderBy ${orderBy} is not modelled`);
  const first = args.first as number | null | undefined;
  const last = args.last as number | null | undefined;
  for (const [name, n] of [['first', first], ['last', last]] as const) {
    if (n != null && (n < 0 || n > MAX_PAGE)) throw new LinearInputError('Argument Validation Error', `${name} must be between 0 and ${MAX_PAGE}.`);
  }
  const key = (r: T) => (orderBy === 'updatedAt' ? r.updatedAt : r.createdAt);
  const sorted = listing(kind, all, args, ctx, extra, cacheAs, key);
  const items = sorted.items;
  let start = 0;
  let end = items.length;
  if (typeof args.after === 'string' && args.after) {
    const [sortValue, id] = decodeCursor(args.after);
    const at = Date.parse(sortValue);
    // The first item that comes after the cursor's position in the order.
    start = firstAfter(sorted, (k, r) => k - at < 0 || (k - at === 0 && r.id < id));
  }
  if (typeof args.before === 'string' && args.before) {
    const [sortValue, id] = decodeCursor(args.before);
    const at = Date.parse(sortValue);
    end = firstAfter(sorted, (k, r) => k - at < 0 || (k - at === 0 && r.id <= id));
  }
  let window = items.slice(start, Math.max(start, end));
  const hadBefore = start > 0;
  const hadAfter = end < items.length;
  let hasNextPage = hadAfter;
  let hasPreviousPage = hadBefore;
  if (last != null) {
    hasPreviousPage = window.length > last || hadBefore;
    window = window.slice(Math.max(0, window.length - last));
  } else {
    const n = first ?? DEFAULT_PAGE;
    hasNextPage = window.length > n || hadAfter;
    window = window.slice(0, n);
  }
  const edges = window.map((node) => ({ node, cursor: encodeCursor(key(node), node.id) }));
  return {
    nodes: window,
    edges,
    pageInfo: { hasNextPage, hasPreviousPage, startCursor: edges[0]?.cursor ?? null, endCursor: edges[edges.length - 1]?.cursor ?? null },
  };
}

// ------------------------------------------------------------------ type resolvers

const byId = <T>(map: Map<string, T>, id: unknown, entity: string): T => {
  const v = typeof id === 'string' ? map.get(id) : undefined;
  if (!v) throw new LinearInputError(`Entity not found: ${entity}`, `Could not find referenced ${entity}.`);
  return v;
};

function issueByIdOrIdentifier(ctx: SimContext, id: unknown): IssueRecord {
  if (typeof id === 'string') {
    const direct = ctx.state.issues.get(id);
    if (direct) return direct;
    const byIdentifier = /^([A-Za-z0-9]+)-(\d+)$/.test(id) ? ctx.state.issueByIdentifier(id) : undefined;
    if (byIdentifier) return byIdentifier;
  }
  throw new LinearInputError('Entity not found: Issue', 'Could not find referenced Issue.');
}

function checkInputKeys(input: object, allowed: Set<string>, what: string): void {
  for (const [k, v] of Object.entries(input)) if (v !== undefined && !allowed.has(k)) throw new SimGap(`${what}.${k} is not modelled`);
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);

export const RESOLVERS: Record<string, Record<string, Resolver>> = {
  Query: {
    viewer: (_s, _a, c) => c.viewer,
    organization: (_s, _a, c) => c.state.organization,
    issues: (_s, a, c) => connection('Issue', c.state.issues.values(), a, c, undefined, 'issues'),
    issue: (_s, a, c) => issueByIdOrIdentifier(c, a.id),
    comments: (_s, a, c) => connection('Comment', c.state.comments.values(), a, c, undefined, 'comments'),
    comment: (_s, a, c) => byId(c.state.comments, a.id, 'Comment'),
    users: (_s, a, c) => connection('User', c.state.users.values(), a, c, (u) => a.includeDisabled === true || u.active, `users ${a.includeDisabled === true}`),
    user: (_s, a, c) => byId(c.state.users, a.id, 'User'),
    teams: (_s, a, c) => connection('Team', c.state.teams.values(), a, c, undefined, 'teams'),
    team: (_s, a, c) => byId(c.state.teams, a.id, 'Team'),
    issueLabels: (_s, a, c) => connection('IssueLabel', c.state.labels.values(), a, c, undefined, 'labels'),
    issueLabel: (_s, a, c) => byId(c.state.labels, a.id, 'IssueLabel'),
    workflowStates: (_s, a, c) => connection('WorkflowState', c.state.states.values(), a, c, undefined, 'states'),
    workflowState: (_s, a, c) => byId(c.state.states, a.id, 'WorkflowState'),
  },
  Mutation: {
    webhookCreate: (_s, a, c) => {
      if (!c.viewer.admin) throw new LinearInputError('Forbidden', 'Only workspace admins can manage webhooks.', 'FORBIDDEN', 'forbidden');
      const input = a.input as Parameters<LinearHooks['create']>[0];
      checkInputKeys(input, new Set(['url', 'secret', 'label', 'enabled', 'resourceTypes', 'teamId', 'allPublicTeams', 'id']), 'WebhookCreateInput');
      if (!/^https?:\/\//.test(input.url)) throw new LinearInputError('Argument Validation Error', 'url must be a URL address.');
      if (input.teamId) byId(c.state.teams, input.teamId, 'Team');
      if (!input.teamId && !input.allPublicTeams) throw new LinearInputError('Argument Validation Error', 'A webhook needs a team or allPublicTeams.');
      return { success: true, lastSyncId: c.nextSyncId(), webhook: c.hooks.create(input, c.viewer.id) };
    },
    webhookDelete: (_s, a, c) => {
      if (!c.viewer.admin) throw new LinearInputError('Forbidden', 'Only workspace admins can manage webhooks.', 'FORBIDDEN', 'forbidden');
      const hook = byId(c.hooks.webhooks, a.id, 'Webhook');
      c.hooks.webhooks.delete(hook.id);
      return { success: true, lastSyncId: c.nextSyncId(), entityId: hook.id };
    },
    issueCreate: (_s, a, c) => {
      const input = a.input as IssueInput;
      checkInputKeys(input, MODELLED_ISSUE_CREATE, 'IssueCreateInput');
      return { success: true, lastSyncId: c.nextSyncId(), issue: c.state.createIssue(input, c.viewer.id) };
    },
    issueBatchCreate: (_s, a, c) => {
      const inputs = (a.input as { issues: IssueInput[] }).issues;
      for (const i of inputs) checkInputKeys(i, MODELLED_ISSUE_CREATE, 'IssueCreateInput');
      return { success: true, lastSyncId: c.nextSyncId(), issues: c.state.createIssues(inputs, c.viewer.id) };
    },
    issueUpdate: (_s, a, c) => {
      const input = a.input as IssueInput;
      checkInputKeys(input, MODELLED_ISSUE_UPDATE, 'IssueUpdateInput');
      const issue = issueByIdOrIdentifier(c, a.id);
      return { success: true, lastSyncId: c.nextSyncId(), issue: c.state.updateIssue(issue.id, input) };
    },
    issueDelete: (_s, a, c) => {
      const issue = issueByIdOrIdentifier(c, a.id);
      if (a.permanentlyDelete === true) {
        if (!c.viewer.admin) throw new LinearInputError('Forbidden', 'Only admins can delete issues permanently.', 'FORBIDDEN', 'forbidden');
        c.state.deleteIssuePermanently(issue.id);
        return { success: true, lastSyncId: c.nextSyncId(), entity: null };
      }
      return { success: true, lastSyncId: c.nextSyncId(), entity: c.state.trashIssue(issue.id) };
    },
    issueArchive: (_s, a, c) => {
      const issue = issueByIdOrIdentifier(c, a.id);
      const entity = a.trash === true ? c.state.trashIssue(issue.id) : c.state.archiveIssue(issue.id);
      return { success: true, lastSyncId: c.nextSyncId(), entity };
    },
    commentCreate: (_s, a, c) => {
      const input = a.input as { issueId?: string | null; body?: string | null; parentId?: string | null; id?: string | null };
      checkInputKeys(input, new Set(['issueId', 'body', 'parentId', 'id']), 'CommentCreateInput');
      return { success: true, lastSyncId: c.nextSyncId(), comment: c.state.createComment(input, c.viewer.id) };
    },
    commentDelete: (_s, a, c) => {
      const comment = byId(c.state.comments, a.id, 'Comment');
      if (comment.userId !== c.viewer.id && !c.viewer.admin) throw new LinearInputError('Forbidden', 'You can only delete your own comments.', 'FORBIDDEN', 'forbidden');
      c.state.archiveComment(comment.id);
      return { success: true, lastSyncId: c.nextSyncId(), entityId: comment.id };
    },
    issueLabelCreate: (_s, a, c) => {
      const input = a.input as Parameters<LinearState['createLabel']>[0];
      checkInputKeys(input, new Set(['name', 'teamId', 'color', 'description', 'parentId', 'isGroup']), 'IssueLabelCreateInput');
      if (a.replaceTeamLabels) throw new SimGap('issueLabelCreate.replaceTeamLabels is not modelled');
      return { success: true, lastSyncId: c.nextSyncId(), issueLabel: c.state.createLabel(input, c.viewer.id) };
    },
    fileUpload: (_s, a, c) => {
      if (a.metaData != null) throw new SimGap('fileUpload.metaData is not modelled');
      const up = c.state.createUpload(
        { filename: a.filename as string, contentType: a.contentType as string, size: a.size as number, makePublic: a.makePublic as boolean | null },
        c.viewer.id,
      );
      return {
        success: true,
        lastSyncId: c.nextSyncId(),
        uploadFile: {
          uploadUrl: `${c.uploadsBase}/upload/${up.key}?X-Goog-Signature=${up.signature}&X-Goog-Expires=60`,
          assetUrl: `${c.uploadsBase}${up.assetPath}`,
          contentType: up.contentType,
          filename: up.filename,
          size: up.size,
          metaData: null,
          headers: [
            { key: 'Content-Disposition', value: contentDisposition(up.filename) },
            { key: 'x-goog-content-length-range', value: `${up.size},${up.size}` },
          ],
        },
      };
    },
  },
  Issue: {
    identifier: (r: IssueRecord, _a, c) => c.state.identifierOf(r),
    url: (r: IssueRecord, _a, c) => `${c.webBase}/issue/${c.state.identifierOf(r)}/${slug(r.title)}`,
    branchName: (r: IssueRecord, _a, c) => `${c.viewer.displayName}/${c.state.identifierOf(r).toLowerCase()}-${slug(r.title)}`,
    priorityLabel: (r: IssueRecord) => priorityLabel(r.priority),
    team: (r: IssueRecord, _a, c) => c.state.teams.get(r.teamId),
    state: (r: IssueRecord, _a, c) => c.state.states.get(r.stateId),
    assignee: (r: IssueRecord, _a, c) => (r.assigneeId ? c.state.users.get(r.assigneeId) : null),
    creator: (r: IssueRecord, _a, c) => (r.creatorId ? c.state.users.get(r.creatorId) : null),
    parent: (r: IssueRecord, _a, c) => (r.parentId ? c.state.issues.get(r.parentId) : null),
    labels: (r: IssueRecord, a, c) => connection('IssueLabel', r.labelIds.map((id) => c.state.labels.get(id)!).filter(Boolean), a, c),
    children: (r: IssueRecord, a, c) => connection('Issue', c.state.childrenOf(r.id), a, c),
    comments: (r: IssueRecord, a, c) => connection('Comment', c.state.commentsOf(r.id), a, c),
  },
  Comment: {
    url: (r: CommentRecord, _a, c) => {
      const issue = c.state.issues.get(r.issueId);
      return `${c.webBase}/issue/${issue ? c.state.identifierOf(issue) : r.issueId}#comment-${r.id.slice(0, 8)}`;
    },
    issue: (r: CommentRecord, _a, c) => c.state.issues.get(r.issueId) ?? null,
    user: (r: CommentRecord, _a, c) => (r.userId ? c.state.users.get(r.userId) : null),
    parent: (r: CommentRecord, _a, c) => (r.parentId ? c.state.comments.get(r.parentId) : null),
  },
  User: {
    url: (r: UserRecord, _a, c) => `${c.webBase}/profiles/${r.displayName}`,
    isMe: (r: UserRecord, _a, c) => r.id === c.viewer.id,
    initials: (r: UserRecord) =>
      r.name
        .split(/\s+/)
        .map((p) => p[0] ?? '')
        .join('')
        .slice(0, 2)
        .toUpperCase(),
    organization: (_r, _a, c) => c.state.organization,
    teams: (r: UserRecord, a, c) => connection('Team', r.teamIds.map((id) => c.state.teams.get(id)!).filter(Boolean), a, c),
  },
  Team: {
    displayName: (r: TeamRecord) => r.name,
    organization: (_r, _a, c) => c.state.organization,
    parent: (r: TeamRecord, _a, c) => (r.parentId ? c.state.teams.get(r.parentId) : null),
    states: (r: TeamRecord, a, c) => connection('WorkflowState', c.state.states.values(), a, c, (x) => x.teamId === r.id),
    labels: (r: TeamRecord, a, c) => connection('IssueLabel', c.state.labels.values(), a, c, (x) => x.teamId === r.id),
    members: (r: TeamRecord, a, c) => connection('User', c.state.users.values(), a, c, (u) => u.teamIds.includes(r.id) && (a.includeDisabled === true || u.active)),
    issues: (r: TeamRecord, a, c) => connection('Issue', c.state.issues.values(), a, c, (i) => i.teamId === r.id, `team issues ${r.id}`),
    defaultIssueState: (r: TeamRecord, _a, c) => c.state.defaultStateOf(r.id),
  },
  WorkflowState: {
    team: (r: WorkflowStateRecord, _a, c) => c.state.teams.get(r.teamId),
  },
  IssueLabel: {
    team: (r: LabelRecord, _a, c) => (r.teamId ? c.state.teams.get(r.teamId) : null),
    parent: (r: LabelRecord, _a, c) => (r.parentId ? c.state.labels.get(r.parentId) : null),
    creator: (r: LabelRecord, _a, c) => (r.creatorId ? c.state.users.get(r.creatorId) : null),
  },
};

/** Resolver lookup by parent type and field; otherwise the property of the same name. */
export const fieldResolver: GraphQLFieldResolver<unknown, SimContext> = (source, args, ctx, info) => {
  const r = RESOLVERS[info.parentType.name]?.[info.fieldName];
  if (r) return r(source as never, args, ctx);
  if (source && typeof source === 'object') return (source as Record<string, unknown>)[info.fieldName];
  return undefined;
};
