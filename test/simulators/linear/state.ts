/**
 * In-memory Linear workspace: organization, users, teams with their workflow states, labels, issues,
 * comments and file uploads, with the rules the Linear API applies to writes (team-scoped states and
 * labels, one label per exclusive group, state timestamps, trash, team moves, duplicate label names).
 */
import { randomUUID } from 'node:crypto';

export type StateType = 'triage' | 'backlog' | 'unstarted' | 'started' | 'completed' | 'canceled' | 'duplicate';
export const STATE_TYPES: readonly StateType[] = ['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled', 'duplicate'];

/** A refusal the API reports as a GraphQL error (`extensions.code`, `type`, `userPresentableMessage`). */
export class LinearInputError extends Error {
  constructor(
    message: string,
    readonly userPresentableMessage: string = message,
    readonly code: string = 'INVALID_INPUT',
    readonly type: string = 'invalid input',
  ) {
    super(message);
    this.name = 'LinearInputError';
  }
}

const notFound = (entity: string) => new LinearInputError(`Entity not found: ${entity}`, `Could not find referenced ${entity}.`);

export interface OrganizationRecord {
  id: string;
  name: string;
  urlKey: string;
  createdAt: string;
  updatedAt: string;
}

export interface UserRecord {
  id: string;
  name: string;
  displayName: string;
  email: string;
  active: boolean;
  admin: boolean;
  guest: boolean;
  app: boolean;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  teamIds: string[];
}

export interface TeamRecord {
  id: string;
  name: string;
  key: string;
  description: string | null;
  parentId: string | null;
  triageEnabled: boolean;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  issueSeq: number;
}

export interface WorkflowStateRecord {
  id: string;
  teamId: string;
  name: string;
  type: StateType;
  position: number;
  color: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

export interface LabelRecord {
  id: string;
  name: string;
  color: string;
  description: string | null;
  teamId: string | null;
  parentId: string | null;
  isGroup: boolean;
  creatorId: string | null;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

export interface IssueRecord {
  id: string;
  teamId: string;
  number: number;
  title: string;
  description: string | null;
  priority: number;
  stateId: string;
  assigneeId: string | null;
  creatorId: string | null;
  labelIds: string[];
  dueDate: string | null;
  parentId: string | null;
  estimate: number | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  canceledAt: string | null;
  archivedAt: string | null;
  trashed: boolean | null;
  previousIdentifiers: string[];
}

export interface CommentRecord {
  id: string;
  issueId: string;
  body: string;
  userId: string | null;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
  archivedAt: string | null;
}

export interface UploadRecord {
  /** Path segment of the pre-signed upload URL. */
  key: string;
  /** Path of the asset URL (`/<org>/<uuid>/<uuid>`). */
  assetPath: string;
  signature: string;
  expiresAt: number;
  filename: string;
  contentType: string;
  size: number;
  makePublic: boolean;
  uploaderId: string;
  content: Buffer | null;
}

/** Fields of IssueCreateInput / IssueUpdateInput the simulator models; others are reported as simulator gaps. */
export const MODELLED_ISSUE_CREATE = new Set([
  'teamId', 'title', 'description', 'priority', 'stateId', 'assigneeId', 'labelIds', 'dueDate', 'parentId', 'estimate', 'completedAt', 'createdAt', 'id',
]);
export const MODELLED_ISSUE_UPDATE = new Set([
  'teamId', 'title', 'description', 'priority', 'stateId', 'assigneeId', 'labelIds', 'addedLabelIds', 'removedLabelIds', 'dueDate', 'parentId', 'estimate', 'trashed',
]);

/** The Content-Disposition the storage signs for an upload (non-ASCII and quote characters replaced). */
export const contentDisposition = (filename: string) => `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`;

export interface IssueInput {
  teamId?: string;
  title?: string | null;
  description?: string | null;
  priority?: number | null;
  stateId?: string | null;
  assigneeId?: string | null;
  labelIds?: string[] | null;
  addedLabelIds?: string[] | null;
  removedLabelIds?: string[] | null;
  dueDate?: string | null;
  parentId?: string | null;
  estimate?: number | null;
  completedAt?: string | null;
  createdAt?: string | null;
  trashed?: boolean | null;
  id?: string | null;
}

const PRIORITY_LABELS = ['No priority', 'Urgent', 'High', 'Medium', 'Low'];
export const priorityLabel = (p: number) => PRIORITY_LABELS[p] ?? 'No priority';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A change Linear sends a webhook for (data change events of issues and comments). */
export type LnChange =
  | { type: 'Issue'; action: 'create' | 'update' | 'remove'; record: IssueRecord; teamId: string }
  | { type: 'Comment'; action: 'create' | 'update' | 'remove'; record: CommentRecord; teamId: string };

export interface LinearStateOptions {
  /** Clock (ms) for timestamps; kept strictly increasing. Default Date.now. */
  now?: () => number;
  /** Create the default workspace (users, teams, states, labels). Default true. */
  seedDefaults?: boolean;
}

export class LinearState {
  readonly organization: OrganizationRecord;
  readonly users = new Map<string, UserRecord>();
  readonly teams = new Map<string, TeamRecord>();
  readonly states = new Map<string, WorkflowStateRecord>();
  readonly labels = new Map<string, LabelRecord>();
  readonly issues = new Map<string, IssueRecord>();
  readonly comments = new Map<string, CommentRecord>();
  readonly uploads = new Map<string, UploadRecord>();
  private readonly clock: () => number;
  private last = 0;
  /**
   * Bumped by every write of the workspace: pages of a listing (sorted and filtered once) and the indexes below
   * are reused while it stays the same, so a 100,000-issue account is walked page by page without re-sorting.
   */
  revision = 0;
  private indexed?: { revision: number; commentsByIssue: Map<string, CommentRecord[]>; children: Map<string, IssueRecord[]>; byIdentifier: Map<string, IssueRecord> };
  /** Called after each change Linear sends a webhook for (the simulator's webhooks listen). */
  readonly listeners: ((change: LnChange) => void)[] = [];

  private bump(): void {
    this.revision++;
  }

  /** Comments and sub-issues by issue id, and issues by identifier (current or previous), rebuilt after a write. */
  private indexes() {
    if (this.indexed?.revision !== this.revision) {
      const commentsByIssue = new Map<string, CommentRecord[]>();
      const children = new Map<string, IssueRecord[]>();
      const byIdentifier = new Map<string, IssueRecord>();
      const add = <T>(map: Map<string, T[]>, key: string, v: T) => {
        const list = map.get(key);
        if (list) list.push(v);
        else map.set(key, [v]);
      };
      for (const c of this.comments.values()) add(commentsByIssue, c.issueId, c);
      for (const i of this.issues.values()) {
        if (i.parentId) add(children, i.parentId, i);
        // The first issue (in creation order) that has or had an identifier answers it.
        for (const key of [this.identifierOf(i).toUpperCase(), ...i.previousIdentifiers]) if (!byIdentifier.has(key)) byIdentifier.set(key, i);
      }
      this.indexed = { revision: this.revision, commentsByIssue, children, byIdentifier };
    }
    return this.indexed;
  }

  /** An issue's comments, in creation order. */
  commentsOf(issueId: string): CommentRecord[] {
    return this.indexes().commentsByIssue.get(issueId) ?? [];
  }

  /** An issue's sub-issues, in creation order. */
  childrenOf(issueId: string): IssueRecord[] {
    return this.indexes().children.get(issueId) ?? [];
  }

  /** The issue an identifier (`ENG-12`, any case) names now or named before a team move. */
  issueByIdentifier(identifier: string): IssueRecord | undefined {
    return this.indexes().byIdentifier.get(identifier.toUpperCase());
  }

  private changed(change: LnChange): void {
    for (const listener of this.listeners) listener(change);
  }

  private issueChanged(action: 'create' | 'update' | 'remove', issue: IssueRecord): void {
    this.changed({ type: 'Issue', action, record: issue, teamId: issue.teamId });
  }

  private commentChanged(action: 'create' | 'update' | 'remove', c: CommentRecord): void {
    const teamId = this.issues.get(c.issueId)?.teamId;
    if (teamId) this.changed({ type: 'Comment', action, record: c, teamId });
  }

  constructor(opts: LinearStateOptions = {}) {
    this.clock = opts.now ?? Date.now;
    const t = this.stamp();
    this.organization = { id: randomUUID(), name: 'Acme', urlKey: 'acme', createdAt: t, updatedAt: t };
    if (opts.seedDefaults ?? true) this.seedDefaults();
  }

  /** Current time in ms (strictly increasing across calls). */
  nowMs(): number {
    const n = Math.max(this.clock(), this.last + 1);
    this.last = n;
    return n;
  }

  stamp(): string {
    return new Date(this.nowMs()).toISOString();
  }

  // ---------------------------------------------------------------- directory

  addUser(input: Partial<UserRecord> & { name: string; email: string }): UserRecord {
    const t = this.stamp();
    const u: UserRecord = {
      id: randomUUID(),
      displayName: input.name.split(' ')[0]!.toLowerCase(),
      active: true,
      admin: false,
      guest: false,
      app: false,
      createdAt: t,
      updatedAt: t,
      archivedAt: null,
      teamIds: [],
      ...input,
    };
    this.users.set(u.id, u);
    this.bump();
    return u;
  }

  updateUser(id: string, patch: Partial<UserRecord>): UserRecord {
    const u = this.users.get(id);
    if (!u) throw notFound('User');
    Object.assign(u, patch, { updatedAt: this.stamp() });
    this.bump();
    return u;
  }

  /** A team with Linear's default workflow (Backlog, Todo, In Progress, In Review, Done, Canceled, Duplicate; Triage when enabled). */
  addTeam(input: { name: string; key: string; description?: string | null; parentId?: string | null; triageEnabled?: boolean; memberIds?: string[] }): TeamRecord {
    const t = this.stamp();
    const team: TeamRecord = {
      id: randomUUID(),
      name: input.name,
      key: input.key.toUpperCase(),
      description: input.description ?? null,
      parentId: input.parentId ?? null,
      triageEnabled: input.triageEnabled ?? false,
      createdAt: t,
      updatedAt: t,
      archivedAt: null,
      issueSeq: 0,
    };
    this.teams.set(team.id, team);
    this.bump();
    const workflow: Array<[string, StateType, string]> = [
      ...(team.triageEnabled ? [['Triage', 'triage', '#FC7840'] as [string, StateType, string]] : []),
      ['Backlog', 'backlog', '#bec2c8'],
      ['Todo', 'unstarted', '#e2e2e2'],
      ['In Progress', 'started', '#f2c94c'],
      ['In Review', 'started', '#0f783c'],
      ['Done', 'completed', '#5e6ad2'],
      ['Canceled', 'canceled', '#95a2b3'],
      ['Duplicate', 'duplicate', '#95a2b3'],
    ];
    workflow.forEach(([name, type, color], i) => this.addState({ teamId: team.id, name, type, color, position: i }));
    for (const id of input.memberIds ?? []) this.addMember(team.id, id);
    return team;
  }

  addState(input: { teamId: string; name: string; type: StateType; position: number; color?: string }): WorkflowStateRecord {
    const t = this.stamp();
    const s: WorkflowStateRecord = {
      id: randomUUID(),
      teamId: input.teamId,
      name: input.name,
      type: input.type,
      position: input.position,
      color: input.color ?? '#bec2c8',
      description: null,
      createdAt: t,
      updatedAt: t,
      archivedAt: null,
    };
    this.states.set(s.id, s);
    this.bump();
    return s;
  }

  addMember(teamId: string, userId: string): void {
    const u = this.users.get(userId);
    if (!u || !this.teams.has(teamId)) throw notFound(u ? 'Team' : 'User');
    if (!u.teamIds.includes(teamId)) u.teamIds.push(teamId);
    this.bump();
  }

  archiveTeam(teamId: string): void {
    const team = this.teams.get(teamId);
    if (!team) throw notFound('Team');
    const t = this.stamp();
    team.archivedAt = t;
    team.updatedAt = t;
    this.bump();
  }

  statesOf(teamId: string): WorkflowStateRecord[] {
    return [...this.states.values()].filter((s) => s.teamId === teamId && !s.archivedAt).sort((a, b) => a.position - b.position);
  }

  /** The state a new issue gets without stateId: Triage when the team uses it, else the first backlog (or unstarted) state. */
  defaultStateOf(teamId: string): WorkflowStateRecord {
    const states = this.statesOf(teamId);
    const team = this.teams.get(teamId)!;
    const pick = (type: StateType) => states.find((s) => s.type === type);
    const s = (team.triageEnabled ? pick('triage') : undefined) ?? pick('backlog') ?? pick('unstarted') ?? states[0];
    if (!s) throw new LinearInputError('Team has no workflow states', 'The team has no workflow states.');
    return s;
  }

  identifierOf(issue: IssueRecord): string {
    return `${this.teams.get(issue.teamId)?.key ?? 'ISS'}-${issue.number}`;
  }

  // ---------------------------------------------------------------- labels

  /** Labels that may be put on an issue of the team: the team's and the workspace's, not archived. */
  labelsUsableIn(teamId: string): LabelRecord[] {
    return [...this.labels.values()].filter((l) => !l.archivedAt && (l.teamId === null || l.teamId === teamId));
  }

  createLabel(input: { name?: string | null; teamId?: string | null; color?: string | null; description?: string | null; parentId?: string | null; isGroup?: boolean | null }, actorId: string | null): LabelRecord {
    const name = (input.name ?? '').trim();
    if (name === '') throw new LinearInputError('Argument Validation Error', 'Label name must not be empty.');
    const teamId = input.teamId ?? null;
    if (teamId !== null) {
      const team = this.teams.get(teamId);
      if (!team || team.archivedAt) throw notFound('Team');
    }
    if (input.parentId) {
      const parent = this.labels.get(input.parentId);
      if (!parent || parent.archivedAt) throw notFound('IssueLabel');
      if (!parent.isGroup) throw new LinearInputError('Parent label is not a group', 'The parent label must be a label group.');
    }
    const lower = name.toLowerCase();
    const clash = [...this.labels.values()].find(
      (l) => !l.archivedAt && l.name.toLowerCase() === lower && (l.teamId === teamId || l.teamId === null || teamId === null),
    );
    if (clash) throw new LinearInputError('Duplicate label name', `A label named "${clash.name}" already exists${clash.teamId ? ' in this team' : ' in the workspace'}.`);
    const t = this.stamp();
    const label: LabelRecord = {
      id: randomUUID(),
      name,
      color: input.color ?? '#bec2c8',
      description: input.description ?? null,
      teamId,
      parentId: input.parentId ?? null,
      isGroup: input.isGroup ?? false,
      creatorId: actorId,
      createdAt: t,
      updatedAt: t,
      archivedAt: null,
    };
    this.labels.set(label.id, label);
    this.bump();
    return label;
  }

  archiveLabel(id: string): void {
    const l = this.labels.get(id);
    if (!l) throw notFound('IssueLabel');
    const t = this.stamp();
    l.archivedAt = t;
    l.updatedAt = t;
    this.bump();
  }

  private checkLabels(teamId: string, labelIds: string[]): string[] {
    const ids = [...new Set(labelIds)];
    const groups = new Set<string>();
    for (const id of ids) {
      const l = this.labels.get(id);
      if (!l || l.archivedAt) throw notFound('IssueLabel');
      if (l.teamId !== null && l.teamId !== teamId) throw new LinearInputError('Label does not belong to the team', `The label "${l.name}" belongs to another team.`);
      if (l.isGroup) throw new LinearInputError('Label groups cannot be applied', `"${l.name}" is a label group and cannot be applied to issues.`);
      if (l.parentId) {
        if (groups.has(l.parentId)) throw new LinearInputError('Only one label of a group can be applied', `Only one label of the group "${this.labels.get(l.parentId)?.name}" can be applied.`);
        groups.add(l.parentId);
      }
    }
    return ids;
  }

  // ---------------------------------------------------------------- issues

  private checkUser(id: string, what = 'User'): void {
    const u = this.users.get(id);
    if (!u || u.archivedAt) throw notFound(what);
    if (!u.active) throw new LinearInputError('User is suspended', 'The user is suspended and cannot be assigned.');
  }

  private checkDay(v: string, field: string): string {
    if (!DAY.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw new LinearInputError('Argument Validation Error', `${field} must be a date (YYYY-MM-DD).`);
    return v;
  }

  private checkPriority(p: number): number {
    if (!Number.isInteger(p) || p < 0 || p > 4) throw new LinearInputError('Argument Validation Error', 'priority must be an integer between 0 and 4.');
    return p;
  }

  private enterState(issue: IssueRecord, state: WorkflowStateRecord, at: string, completedAt?: string | null): void {
    issue.stateId = state.id;
    if (state.type === 'started' && !issue.startedAt) issue.startedAt = at;
    if (state.type === 'completed') {
      issue.completedAt = completedAt ?? at;
      issue.canceledAt = null;
    } else if (state.type === 'canceled' || state.type === 'duplicate') {
      issue.canceledAt = at;
      issue.completedAt = null;
    } else {
      issue.completedAt = null;
      issue.canceledAt = null;
      if (state.type !== 'started') issue.startedAt = null;
    }
  }

  /** Validates an IssueCreateInput and returns the issue it would create (not stored, no number yet). */
  prepareIssue(input: IssueInput, actorId: string | null): IssueRecord {
    if (!input.teamId) throw new LinearInputError('Argument Validation Error', 'teamId must be given.');
    const team = this.teams.get(input.teamId);
    if (!team || team.archivedAt) throw notFound('Team');
    const title = (input.title ?? '').trim();
    if (title === '') throw new LinearInputError('Argument Validation Error', 'title should not be empty.');
    if (input.id != null && (!UUID.test(input.id) || this.issues.has(input.id))) throw new LinearInputError('Argument Validation Error', 'id must be a new UUID.');
    let state: WorkflowStateRecord;
    if (input.stateId != null) {
      const s = this.states.get(input.stateId);
      if (!s || s.archivedAt) throw notFound('WorkflowState');
      if (s.teamId !== team.id) throw new LinearInputError('State does not belong to the team', 'The workflow state belongs to another team.');
      state = s;
    } else state = this.defaultStateOf(team.id);
    if (input.assigneeId != null) this.checkUser(input.assigneeId);
    if (input.parentId != null) {
      const parent = this.issues.get(input.parentId);
      if (!parent || parent.trashed) throw notFound('Issue');
    }
    const now = this.stamp();
    let createdAt = now;
    if (input.createdAt != null) {
      if (Date.parse(input.createdAt) > Date.parse(now)) throw new LinearInputError('Argument Validation Error', 'createdAt must be in the past.');
      createdAt = new Date(input.createdAt).toISOString();
    }
    let completedAt: string | null = null;
    if (input.completedAt != null) {
      if (state.type !== 'completed') throw new LinearInputError('Argument Validation Error', 'completedAt cannot be provided with an incompatible workflow state.');
      const c = Date.parse(input.completedAt);
      if (c > Date.parse(now) || c < Date.parse(createdAt)) throw new LinearInputError('Argument Validation Error', 'completedAt must be in the past and after createdAt.');
      completedAt = new Date(c).toISOString();
    }
    const issue: IssueRecord = {
      id: input.id ?? randomUUID(),
      teamId: team.id,
      number: 0,
      title,
      description: input.description ?? null,
      priority: input.priority != null ? this.checkPriority(input.priority) : 0,
      stateId: state.id,
      assigneeId: input.assigneeId ?? null,
      creatorId: actorId,
      labelIds: input.labelIds ? this.checkLabels(team.id, input.labelIds) : [],
      dueDate: input.dueDate != null ? this.checkDay(input.dueDate, 'dueDate') : null,
      parentId: input.parentId ?? null,
      estimate: input.estimate ?? null,
      createdAt,
      updatedAt: now,
      startedAt: null,
      completedAt: null,
      canceledAt: null,
      archivedAt: null,
      trashed: null,
      previousIdentifiers: [],
    };
    this.enterState(issue, state, now, completedAt);
    return issue;
  }

  private commit(issue: IssueRecord): IssueRecord {
    const team = this.teams.get(issue.teamId)!;
    issue.number = ++team.issueSeq;
    this.issues.set(issue.id, issue);
    this.bump();
    this.issueChanged('create', issue);
    return issue;
  }

  createIssue(input: IssueInput, actorId: string | null): IssueRecord {
    return this.commit(this.prepareIssue(input, actorId));
  }

  /** issueBatchCreate: one transaction — every input is checked before any issue is stored. */
  createIssues(inputs: IssueInput[], actorId: string | null): IssueRecord[] {
    if (inputs.length === 0) throw new LinearInputError('Argument Validation Error', 'issues must not be empty.');
    if (inputs.length > 50) throw new LinearInputError('Argument Validation Error', 'At most 50 issues can be created in one batch.');
    const prepared = inputs.map((i) => this.prepareIssue(i, actorId));
    return prepared.map((i) => this.commit(i));
  }

  updateIssue(id: string, input: IssueInput): IssueRecord {
    const issue = this.issues.get(id);
    if (!issue) throw notFound('Issue');
    const now = this.stamp();
    const next: IssueRecord = { ...issue, labelIds: [...issue.labelIds], previousIdentifiers: [...issue.previousIdentifiers] };
    let moved = false;
    if (input.teamId != null && input.teamId !== issue.teamId) {
      const team = this.teams.get(input.teamId);
      if (!team || team.archivedAt) throw notFound('Team');
      next.previousIdentifiers.push(this.identifierOf(issue));
      next.teamId = team.id;
      moved = true;
    }
    if (input.title !== undefined) {
      const title = (input.title ?? '').trim();
      if (title === '') throw new LinearInputError('Argument Validation Error', 'title should not be empty.');
      next.title = title;
    }
    if (input.description !== undefined) next.description = input.description;
    if (input.priority !== undefined) next.priority = input.priority === null ? 0 : this.checkPriority(input.priority);
    if (input.assigneeId !== undefined) {
      if (input.assigneeId !== null) this.checkUser(input.assigneeId);
      next.assigneeId = input.assigneeId;
    }
    if (input.dueDate !== undefined) next.dueDate = input.dueDate === null ? null : this.checkDay(input.dueDate, 'dueDate');
    if (input.estimate !== undefined) next.estimate = input.estimate;
    if (input.parentId !== undefined) {
      if (input.parentId !== null) {
        const parent = this.issues.get(input.parentId);
        if (!parent || parent.trashed) throw notFound('Issue');
        if (parent.id === issue.id) throw new LinearInputError('Argument Validation Error', 'An issue cannot be its own parent.');
      }
      next.parentId = input.parentId;
    }
    let labels = input.labelIds != null ? [...input.labelIds] : next.labelIds;
    if (input.addedLabelIds) labels = [...labels, ...input.addedLabelIds];
    if (input.removedLabelIds) labels = labels.filter((l) => !input.removedLabelIds!.includes(l));
    if (moved && input.labelIds == null) {
      // Labels of the old team do not follow the issue to the new one.
      labels = labels.filter((l) => this.labels.get(l)?.teamId === null);
    }
    next.labelIds = this.checkLabels(next.teamId, labels);
    let state: WorkflowStateRecord | undefined;
    if (input.stateId != null) {
      const s = this.states.get(input.stateId);
      if (!s || s.archivedAt) throw notFound('WorkflowState');
      if (s.teamId !== next.teamId) throw new LinearInputError('State does not belong to the team', 'The workflow state belongs to another team.');
      state = s;
    } else if (moved) {
      // A moved issue keeps the type of its state: the new team's first state of that type.
      const type = this.states.get(issue.stateId)!.type;
      state = this.statesOf(next.teamId).find((s) => s.type === type) ?? this.defaultStateOf(next.teamId);
    }
    if (state && state.id !== issue.stateId) this.enterState(next, state, now);
    if (input.trashed !== undefined) {
      if (input.trashed) {
        next.trashed = true;
        next.archivedAt = now;
      } else {
        next.trashed = null;
        next.archivedAt = null;
      }
    }
    if (moved) next.number = ++this.teams.get(next.teamId)!.issueSeq;
    next.updatedAt = now;
    // Moving an issue to the trash is its deletion: Linear sends `remove`.
    const removed = next.trashed === true && issue.trashed !== true;
    Object.assign(issue, next);
    this.bump();
    this.issueChanged(removed ? 'remove' : 'update', issue);
    return issue;
  }

  /** issueDelete: the issue goes to the trash (archived, `trashed: true`). */
  trashIssue(id: string): IssueRecord {
    return this.updateIssue(id, { trashed: true });
  }

  /** issueArchive without trash: archived but not deleted (as Linear's auto-archive of closed issues). */
  archiveIssue(id: string): IssueRecord {
    const issue = this.issues.get(id);
    if (!issue) throw notFound('Issue');
    const t = this.stamp();
    issue.archivedAt = t;
    issue.updatedAt = t;
    this.bump();
    this.issueChanged('update', issue);
    return issue;
  }

  /** Gone for good (the trash emptied, or an admin's permanent delete), with its comments. */
  deleteIssuePermanently(id: string): void {
    const issue = this.issues.get(id);
    if (!issue || !this.issues.delete(id)) throw notFound('Issue');
    if (!issue.trashed) this.issueChanged('remove', issue);
    for (const c of this.commentsOf(id)) this.comments.delete(c.id);
    this.bump();
  }

  // ---------------------------------------------------------------- comments

  createComment(input: { issueId?: string | null; body?: string | null; parentId?: string | null; id?: string | null }, actorId: string | null): CommentRecord {
    if (!input.issueId) throw new LinearInputError('Argument Validation Error', 'A comment needs an issue (issueId).');
    const issue = this.issues.get(input.issueId);
    if (!issue || issue.trashed) throw notFound('Issue');
    const body = input.body ?? '';
    if (body.trim() === '') throw new LinearInputError('Argument Validation Error', 'Comment body must not be empty.');
    if (input.parentId != null) {
      const parent = this.comments.get(input.parentId);
      if (!parent || parent.issueId !== issue.id) throw notFound('Comment');
    }
    const t = this.stamp();
    const c: CommentRecord = {
      id: input.id ?? randomUUID(),
      issueId: issue.id,
      body,
      userId: actorId,
      parentId: input.parentId ?? null,
      createdAt: t,
      updatedAt: t,
      editedAt: null,
      archivedAt: null,
    };
    this.comments.set(c.id, c);
    this.bump();
    this.commentChanged('create', c);
    return c;
  }

  editComment(id: string, body: string): CommentRecord {
    const c = this.comments.get(id);
    if (!c) throw notFound('Comment');
    const t = this.stamp();
    Object.assign(c, { body, editedAt: t, updatedAt: t });
    this.bump();
    this.commentChanged('update', c);
    return c;
  }

  /** commentDelete as Linear reports it afterwards: archived. */
  archiveComment(id: string): CommentRecord {
    const c = this.comments.get(id);
    if (!c) throw notFound('Comment');
    const t = this.stamp();
    Object.assign(c, { archivedAt: t, updatedAt: t });
    this.bump();
    this.commentChanged('remove', c);
    return c;
  }

  // ---------------------------------------------------------------- uploads

  createUpload(input: { filename: string; contentType: string; size: number; makePublic?: boolean | null }, actorId: string, ttlMs = 60_000): UploadRecord {
    if (input.filename.trim() === '') throw new LinearInputError('Argument Validation Error', 'filename must not be empty.');
    if (!/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(input.contentType)) throw new LinearInputError('Argument Validation Error', 'contentType must be a MIME type.');
    if (!Number.isInteger(input.size) || input.size < 0) throw new LinearInputError('Argument Validation Error', 'size must be a non-negative integer.');
    if (input.size > 50 * 1024 * 1024) throw new LinearInputError('File too large', 'Files larger than 50 MB cannot be uploaded.');
    const up: UploadRecord = {
      key: randomUUID(),
      assetPath: `/${this.organization.id}/${randomUUID()}/${randomUUID()}`,
      signature: randomUUID().replace(/-/g, ''),
      expiresAt: this.nowMs() + ttlMs,
      filename: input.filename,
      contentType: input.contentType,
      size: input.size,
      makePublic: input.makePublic ?? false,
      uploaderId: actorId,
      content: null,
    };
    this.uploads.set(up.key, up);
    return up;
  }

  uploadByAssetPath(path: string): UploadRecord | undefined {
    for (const u of this.uploads.values()) if (u.assetPath === path) return u;
    return undefined;
  }

  // ---------------------------------------------------------------- default workspace

  private seedDefaults(): void {
    const sam = this.addUser({ name: 'Sam Agent', email: 'sam@example.com', admin: true });
    const robin = this.addUser({ name: 'Robin Dev', email: 'robin@example.com' });
    const casey = this.addUser({ name: 'Casey Guest', email: 'casey@partner.example', guest: true });
    this.addUser({ name: 'Old Timer', email: 'old@example.com', active: false });
    const eng = this.addTeam({ name: 'Engineering', key: 'ENG', description: 'Product engineering', memberIds: [sam.id, robin.id] });
    const sup = this.addTeam({ name: 'Support', key: 'SUP', triageEnabled: true, memberIds: [sam.id, casey.id] });
    this.addTeam({ name: 'Support Tier 2', key: 'SU2', parentId: sup.id, memberIds: [robin.id] });
    this.createLabel({ name: 'Bug', color: '#eb5757' }, sam.id);
    this.createLabel({ name: 'Feature', color: '#bb87fc' }, sam.id);
    this.createLabel({ name: 'Backend', teamId: eng.id }, sam.id);
    const area = this.createLabel({ name: 'Area', teamId: eng.id, isGroup: true }, sam.id);
    this.createLabel({ name: 'Frontend', teamId: eng.id, parentId: area.id }, sam.id);
    this.createLabel({ name: 'Mobile', teamId: eng.id, parentId: area.id }, sam.id);
    this.archiveLabel(this.createLabel({ name: 'Legacy' }, sam.id).id);
  }
}
