/**
 * In-memory Jira Cloud site for the simulator: users, groups, projects with issue types, one
 * workflow (To Do → In Progress / Blocked → Done, Done needs a resolution), priorities, fields
 * (system and custom), issues with comments and attachments. Validation follows Jira's answers
 * (`{errorMessages, errors}` with Jira's wording); rendering follows REST API v3 shapes.
 */
import type { SimClock } from '../shared/http-kit';

export type Obj = Record<string, unknown>;

export class JiraInputError extends Error {
  constructor(
    readonly status: number,
    readonly errorMessages: string[],
    readonly errors: Record<string, string> = {},
  ) {
    super(errorMessages[0] ?? Object.values(errors)[0] ?? 'invalid input');
  }
  get body(): Obj {
    return { errorMessages: this.errorMessages, errors: this.errors };
  }
}

export const fieldError = (field: string, message: string) => new JiraInputError(400, [], { [field]: message });

export interface SimUser {
  accountId: string;
  accountType: 'atlassian' | 'app' | 'customer';
  active: boolean;
  displayName: string;
  emailAddress: string | null;
  timeZone: string;
  locale: string;
}

export interface SimGroup {
  groupId: string;
  name: string;
  members: Set<string>;
}

export interface SimIssueType {
  id: string;
  name: string;
  description: string;
  subtask: boolean;
  hierarchyLevel: number;
}

export interface SimProject {
  id: string;
  key: string;
  name: string;
  description: string;
  issueTypeIds: string[];
  leadAccountId: string;
  deleted: boolean;
  nextNumber: number;
}

export interface SimStatus {
  id: string;
  name: string;
  category: 'new' | 'indeterminate' | 'done';
}

export interface SimTransition {
  id: string;
  name: string;
  to: string;
  /** Fields on the transition screen that must be given. */
  requires?: 'resolution';
}

export interface SimField {
  id: string;
  key: string;
  name: string;
  custom: boolean;
  schema: { type: string; items?: string; system?: string; custom?: string; customId?: number };
  /** Allowed option values (select fields). */
  options?: string[];
  clauseNames: string[];
}

export interface SimComment {
  id: string;
  issueId: string;
  authorId: string;
  body: Obj;
  created: number;
  updated: number;
  visibility: { type: 'role' | 'group'; value: string } | null;
}

export interface SimAttachment {
  id: string;
  issueId: string;
  filename: string;
  mimeType: string;
  content: Buffer;
  authorId: string;
  created: number;
}

export interface SimIssue {
  id: string;
  key: string;
  projectId: string;
  issueTypeId: string;
  summary: string;
  description: Obj | null;
  statusId: string;
  statusCategoryChanged: number;
  priorityId: string | null;
  labels: string[];
  assigneeId: string | null;
  reporterId: string;
  creatorId: string;
  duedate: string | null;
  resolutionId: string | null;
  resolutionDate: number | null;
  parentId: string | null;
  custom: Map<string, unknown>;
  attachmentIds: string[];
  comments: SimComment[];
  created: number;
  updated: number;
}

export const STATUSES: SimStatus[] = [
  { id: '10000', name: 'To Do', category: 'new' },
  { id: '3', name: 'In Progress', category: 'indeterminate' },
  { id: '10001', name: 'Blocked', category: 'indeterminate' },
  { id: '10002', name: 'Done', category: 'done' },
];

/** Global transitions (every status can reach every other one). */
export const TRANSITIONS: SimTransition[] = [
  { id: '11', name: 'To Do', to: '10000' },
  { id: '21', name: 'Start progress', to: '3' },
  { id: '31', name: 'Block', to: '10001' },
  { id: '41', name: 'Done', to: '10002', requires: 'resolution' },
];

const CATEGORY: Record<SimStatus['category'], { id: number; name: string; colorName: string }> = {
  new: { id: 2, name: 'To Do', colorName: 'blue-gray' },
  indeterminate: { id: 4, name: 'In Progress', colorName: 'yellow' },
  done: { id: 3, name: 'Done', colorName: 'green' },
};

export const PRIORITIES = [
  { id: '1', name: 'Highest' },
  { id: '2', name: 'High' },
  { id: '3', name: 'Medium' },
  { id: '4', name: 'Low' },
  { id: '5', name: 'Lowest' },
];

export const RESOLUTIONS = [
  { id: '10000', name: 'Done', description: 'Work has been completed on this issue.' },
  { id: '10001', name: "Won't Do", description: 'This issue won’t be actioned.' },
];

export const ISSUE_TYPES: SimIssueType[] = [
  { id: '10001', name: 'Task', description: 'A small, distinct piece of work.', subtask: false, hierarchyLevel: 0 },
  { id: '10002', name: 'Bug', description: 'A problem or error.', subtask: false, hierarchyLevel: 0 },
  { id: '10003', name: 'Story', description: 'A user story.', subtask: false, hierarchyLevel: 0 },
  { id: '10004', name: 'Epic', description: 'A big user story that needs to be broken down.', subtask: false, hierarchyLevel: 1 },
  { id: '10005', name: 'Subtask', description: 'A small piece of work that’s part of a larger task.', subtask: true, hierarchyLevel: -1 },
];

const SYSTEM_FIELDS: SimField[] = [
  ['summary', 'Summary', { type: 'string', system: 'summary' }],
  ['description', 'Description', { type: 'string', system: 'description' }],
  ['status', 'Status', { type: 'status', system: 'status' }],
  ['priority', 'Priority', { type: 'priority', system: 'priority' }],
  ['issuetype', 'Issue Type', { type: 'issuetype', system: 'issuetype' }],
  ['project', 'Project', { type: 'project', system: 'project' }],
  ['labels', 'Labels', { type: 'array', items: 'string', system: 'labels' }],
  ['assignee', 'Assignee', { type: 'user', system: 'assignee' }],
  ['reporter', 'Reporter', { type: 'user', system: 'reporter' }],
  ['creator', 'Creator', { type: 'user', system: 'creator' }],
  ['duedate', 'Due date', { type: 'date', system: 'duedate' }],
  ['resolution', 'Resolution', { type: 'resolution', system: 'resolution' }],
  ['resolutiondate', 'Resolved', { type: 'datetime', system: 'resolutiondate' }],
  ['statuscategorychangedate', 'Status Category Changed', { type: 'datetime', system: 'statuscategorychangedate' }],
  ['parent', 'Parent', { type: 'issuelink', system: 'parent' }],
  ['created', 'Created', { type: 'datetime', system: 'created' }],
  ['updated', 'Updated', { type: 'datetime', system: 'updated' }],
  ['attachment', 'Attachment', { type: 'array', items: 'attachment', system: 'attachment' }],
  ['comment', 'Comment', { type: 'comments-page', system: 'comment' }],
  ['worklog', 'Log Work', { type: 'array', items: 'worklog', system: 'worklog' }],
].map(([id, name, schema]) => ({ id: id as string, key: id as string, name: name as string, custom: false, schema: schema as SimField['schema'], clauseNames: [id as string] }));

/** How many comments an issue's `comment` field embeds (the simulator's choice; Jira's cap is not documented). */
export const EMBEDDED_COMMENTS = 20;

/** A Jira timestamp: `2024-05-01T10:20:30.123+0000`. */
export const jiraTime = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');

const isAdf = (v: unknown): v is Obj => typeof v === 'object' && v !== null && (v as Obj).type === 'doc' && Array.isArray((v as Obj).content);

/** A change Jira sends a webhook for (`webhookEvent`), with the user who made it. */
export interface JiraChange {
  event: 'jira:issue_created' | 'jira:issue_updated' | 'jira:issue_deleted' | 'comment_created' | 'comment_deleted';
  issue: SimIssue;
  comment?: SimComment;
  actingId: string | null;
}

export class JiraState {
  /** Called after each change Jira sends a webhook for (the simulator's admin webhooks listen). */
  readonly listeners: ((change: JiraChange) => void)[] = [];
  private changed(change: JiraChange): void {
    for (const listener of this.listeners) listener(change);
  }
  readonly users = new Map<string, SimUser>();
  readonly groups = new Map<string, SimGroup>();
  readonly projects = new Map<string, SimProject>();
  readonly issues = new Map<string, SimIssue>();
  /** Bumped whenever an issue is created, changed or deleted: searches computed at one revision can be reused. */
  revision = 0;
  readonly attachments = new Map<string, SimAttachment>();
  readonly fields: SimField[] = [...SYSTEM_FIELDS];
  private seq = { issue: 10_000, project: 10_000, comment: 10_000, attachment: 10_000, custom: 10_049, account: 0 };
  private last = 0;

  constructor(
    private readonly clock: SimClock,
    readonly baseUrl: () => string,
  ) {}

  /** Strictly increasing milliseconds, so every change has its own timestamp. */
  now(): number {
    const t = Math.max(this.clock.now(), this.last + 1);
    this.last = t;
    return t;
  }

  // ------------------------------------------------------------------------------- directory

  addUser(u: Partial<SimUser> & { displayName: string }): SimUser {
    const n = ++this.seq.account;
    const user: SimUser = {
      accountId: u.accountId ?? `712020:${String(n).padStart(8, '0')}-5a1e-4c1b-9d3e-${String(n).padStart(12, '0')}`,
      accountType: u.accountType ?? 'atlassian',
      active: u.active ?? true,
      displayName: u.displayName,
      emailAddress: u.emailAddress === undefined ? null : u.emailAddress,
      timeZone: u.timeZone ?? 'Europe/Berlin',
      locale: u.locale ?? 'en_US',
    };
    this.users.set(user.accountId, user);
    return user;
  }

  addGroup(name: string, members: string[] = []): SimGroup {
    const n = this.groups.size + 1;
    const g: SimGroup = { groupId: `0d1f${String(n).padStart(4, '0')}-7c2b-4e5a-9b1d-${String(n).padStart(12, '0')}`, name, members: new Set(members) };
    this.groups.set(g.groupId, g);
    return g;
  }

  addProject(p: { key: string; name: string; description?: string; leadAccountId: string; issueTypeIds?: string[] }): SimProject {
    const project: SimProject = {
      id: String(++this.seq.project),
      key: p.key,
      name: p.name,
      description: p.description ?? '',
      issueTypeIds: p.issueTypeIds ?? ISSUE_TYPES.map((t) => t.id),
      leadAccountId: p.leadAccountId,
      deleted: false,
      nextNumber: 1,
    };
    this.projects.set(project.id, project);
    return project;
  }

  addCustomField(f: { name: string; type: 'textfield' | 'textarea' | 'float' | 'select' | 'datepicker' | 'labels'; options?: string[] }): SimField {
    const customId = ++this.seq.custom;
    const schemaType = { textfield: 'string', textarea: 'string', float: 'number', select: 'option', datepicker: 'date', labels: 'array' }[f.type];
    const field: SimField = {
      id: `customfield_${customId}`,
      key: `customfield_${customId}`,
      name: f.name,
      custom: true,
      schema: { type: schemaType, ...(f.type === 'labels' ? { items: 'string' } : {}), custom: `com.atlassian.jira.plugin.system.customfieldtypes:${f.type}`, customId },
      options: f.options,
      clauseNames: [`cf[${customId}]`, f.name],
    };
    this.fields.push(field);
    return field;
  }

  project(idOrKey: string): SimProject | undefined {
    const p = this.projects.get(idOrKey) ?? [...this.projects.values()].find((x) => x.key.toLowerCase() === idOrKey.toLowerCase());
    return p && !p.deleted ? p : undefined;
  }

  issue(idOrKey: string): SimIssue | undefined {
    return this.issues.get(idOrKey) ?? [...this.issues.values()].find((i) => i.key.toLowerCase() === idOrKey.toLowerCase());
  }

  status(id: string): SimStatus {
    return STATUSES.find((s) => s.id === id)!;
  }

  labels(): string[] {
    return [...new Set([...this.issues.values()].flatMap((i) => i.labels))].sort();
  }

  // ------------------------------------------------------------------------------- validation

  private user(accountId: unknown, field: string): string {
    if (typeof accountId !== 'string' || !this.users.get(accountId)?.active || this.users.get(accountId)!.accountType === 'customer') {
      throw fieldError(field, `Specify a valid value for ${field}`);
    }
    return accountId;
  }

  private userRef(v: unknown, field: string): string | null {
    if (v === null) return null;
    if (typeof v !== 'object' || v === null) throw fieldError(field, `Specify a valid value for ${field}`);
    const o = v as Obj;
    if ('name' in o && !('accountId' in o) && !('id' in o)) {
      throw fieldError(field, "'name' is no longer supported: user identifiers are account ids (GDPR). Use 'accountId'.");
    }
    return this.user(o.accountId ?? o.id, field);
  }

  private checkAdf(v: unknown, field: string): Obj | null {
    if (v === null) return null;
    if (!isAdf(v)) throw fieldError(field, 'Operation value must be an Atlassian Document (see the Atlassian Document Format)');
    return v;
  }

  private checkCustom(f: SimField, v: unknown): unknown {
    if (v === null) return null;
    const bad = (what: string) => fieldError(f.id, what);
    switch (f.schema.custom?.split(':').pop()) {
      case 'textfield':
        if (typeof v !== 'string') throw bad('Operation value must be a string');
        if (v.length > 255) throw bad('The entered text is too long. It exceeds the allowed limit of 255 characters.');
        return v;
      case 'textarea':
        return this.checkAdf(v, f.id);
      case 'float':
        if (typeof v !== 'number') throw bad('Operation value must be a number');
        return v;
      case 'datepicker':
        if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw bad("Error parsing date string: '" + String(v) + "'. Valid format: yyyy-MM-dd");
        return v;
      case 'select': {
        const value = typeof v === 'object' && v !== null ? ((v as Obj).value ?? (v as Obj).id) : undefined;
        const opt = (f.options ?? []).indexOf(String(value));
        if (opt < 0) throw bad(`Option value '${String(value)}' is not valid`);
        return { self: `${this.baseUrl()}/rest/api/3/customFieldOption/${10_100 + opt}`, value: f.options![opt], id: String(10_100 + opt) };
      }
      case 'labels':
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || /\s/.test(x))) throw bad('Operation value must be an array of labels without spaces');
        return v;
      default:
        return v;
    }
  }

  /** Applies `fields` of a create or edit to an issue (mutating); throws JiraInputError with every field error. */
  applyFields(issue: SimIssue, fields: Obj, mode: 'create' | 'edit', actingId: string): void {
    const errors: Record<string, string> = {};
    const attempt = (name: string, fn: () => void) => {
      try {
        fn();
      } catch (e) {
        if (e instanceof JiraInputError) Object.assign(errors, e.errors, Object.keys(e.errors).length ? {} : { [name]: e.errorMessages[0] ?? 'invalid' });
        else throw e;
      }
    };
    const project = this.projects.get(issue.projectId)!;
    for (const [name, value] of Object.entries(fields)) {
      attempt(name, () => {
        switch (name) {
          case 'project':
          case 'issuetype':
            if (mode === 'create') return;
            if (name === 'project') throw fieldError('project', 'Issue can not be moved to another project through an edit. Use the move operation.');
            {
              const id = (value as Obj | null)?.id ?? ISSUE_TYPES.find((t) => t.name === (value as Obj | null)?.name)?.id;
              const t = ISSUE_TYPES.find((x) => x.id === id && project.issueTypeIds.includes(x.id));
              if (!t) throw fieldError('issuetype', 'The issue type selected is invalid.');
              issue.issueTypeId = t.id;
            }
            return;
          case 'summary':
            if (typeof value !== 'string' || value.trim() === '') throw fieldError('summary', 'You must specify a summary of the issue.');
            if (value.length > 255) throw fieldError('summary', 'Summary must be less than 255 characters.');
            if (/[\r\n]/.test(value)) throw fieldError('summary', 'The summary is invalid because it contains newline characters.');
            issue.summary = value;
            return;
          case 'description':
            issue.description = this.checkAdf(value, 'description');
            return;
          case 'priority': {
            const v = value as Obj | null;
            const p = PRIORITIES.find((x) => x.id === v?.id || x.name === v?.name);
            if (!p) throw fieldError('priority', 'Specify the Priority (id or name) in the string format');
            issue.priorityId = p.id;
            return;
          }
          case 'labels':
            if (!Array.isArray(value) || value.some((l) => typeof l !== 'string')) throw fieldError('labels', 'Operation value must be an array of strings');
            for (const l of value as string[]) if (/\s/.test(l)) throw fieldError('labels', `The label '${l}' contains spaces which is invalid.`);
            issue.labels = [...new Set(value as string[])];
            return;
          case 'assignee':
            issue.assigneeId = this.userRef(value, 'assignee');
            return;
          case 'reporter': {
            const r = this.userRef(value, 'reporter');
            if (!r) throw fieldError('reporter', 'Reporter is required.');
            issue.reporterId = r;
            return;
          }
          case 'duedate':
            if (value !== null && (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))) {
              throw fieldError('duedate', "Error parsing date string: '" + String(value) + "'. Valid format: yyyy-MM-dd");
            }
            issue.duedate = value as string | null;
            return;
          case 'parent': {
            if (value === null) {
              issue.parentId = null;
              return;
            }
            const ref = value as Obj;
            const parent = this.issue(String(ref.id ?? ref.key ?? ''));
            if (!parent || parent.id === issue.id) throw fieldError('parent', 'Could not find issue by id or key.');
            issue.parentId = parent.id;
            return;
          }
          default: {
            const f = this.fields.find((x) => x.id === name);
            if (!f || !f.custom) throw fieldError(name, `Field '${name}' cannot be set. It is not on the appropriate screen, or unknown.`);
            const v = this.checkCustom(f, value);
            if (v === null) issue.custom.delete(f.id);
            else issue.custom.set(f.id, v);
          }
        }
      });
    }
    if (Object.keys(errors).length) throw new JiraInputError(400, [], errors);
    void actingId;
  }

  /** POST /rest/api/3/issue: validates like Jira (required project, issue type, summary) and stores the issue. */
  createIssue(fields: Obj, actingId: string): SimIssue {
    const errors: Record<string, string> = {};
    const projectRef = fields.project as Obj | undefined;
    const project = projectRef ? this.project(String(projectRef.id ?? projectRef.key ?? '')) : undefined;
    if (!projectRef) errors.project = 'Specify a valid project ID or key';
    else if (!project) errors.project = 'valid project is required';
    const typeRef = fields.issuetype as Obj | undefined;
    const type = typeRef ? ISSUE_TYPES.find((t) => t.id === typeRef.id || (typeRef.name !== undefined && t.name === typeRef.name)) : undefined;
    if (!typeRef) errors.issuetype = 'Specify an issue type';
    else if (!type || (project && !project.issueTypeIds.includes(type.id))) errors.issuetype = 'Specify a valid issue type';
    if (fields.summary === undefined) errors.summary = 'You must specify a summary of the issue.';
    if (type?.subtask && !fields.parent) errors.parent = 'Given parent work item does not belong to appropriate hierarchy.';
    if (Object.keys(errors).length) throw new JiraInputError(400, [], errors);
    const now = this.now();
    const issue: SimIssue = {
      id: String(++this.seq.issue),
      key: `${project!.key}-${project!.nextNumber}`,
      projectId: project!.id,
      issueTypeId: type!.id,
      summary: '',
      description: null,
      statusId: STATUSES[0]!.id,
      statusCategoryChanged: now,
      priorityId: '3',
      labels: [],
      assigneeId: null,
      reporterId: actingId,
      creatorId: actingId,
      duedate: null,
      resolutionId: null,
      resolutionDate: null,
      parentId: null,
      custom: new Map(),
      attachmentIds: [],
      comments: [],
      created: now,
      updated: now,
    };
    const { project: _p, issuetype: _t, ...rest } = fields;
    this.applyFields(issue, rest, 'create', actingId);
    project!.nextNumber++;
    this.issues.set(issue.id, issue);
    this.revision++;
    this.changed({ event: 'jira:issue_created', issue, actingId });
    return issue;
  }

  editIssue(issue: SimIssue, fields: Obj, actingId: string): void {
    if ('status' in fields) throw fieldError('status', "Field 'status' cannot be set. It is not on the appropriate screen, or unknown.");
    const copy: SimIssue = { ...issue, labels: [...issue.labels], custom: new Map(issue.custom) };
    this.applyFields(copy, fields, 'edit', actingId);
    Object.assign(issue, copy);
    issue.updated = this.now();
    this.revision++;
    this.changed({ event: 'jira:issue_updated', issue, actingId });
  }

  transitionsOf(issue: SimIssue): SimTransition[] {
    return TRANSITIONS.filter((t) => t.to !== issue.statusId);
  }

  doTransition(issue: SimIssue, transitionId: unknown, fields: Obj | undefined): void {
    const t = this.transitionsOf(issue).find((x) => x.id === String(transitionId));
    if (!t) throw new JiraInputError(400, [`Transition id '${String(transitionId)}' is not valid for this issue.`]);
    const to = this.status(t.to);
    let resolutionId: string | null = null;
    if (t.requires === 'resolution') {
      const r = fields?.resolution as Obj | undefined;
      const res = RESOLUTIONS.find((x) => x.id === r?.id || x.name === r?.name);
      if (!res) throw fieldError('resolution', 'Resolution is required.');
      resolutionId = res.id;
    } else if (fields && Object.keys(fields).length) {
      throw fieldError(Object.keys(fields)[0]!, `Field '${Object.keys(fields)[0]}' cannot be set. It is not on the appropriate screen, or unknown.`);
    }
    const now = this.now();
    if (this.status(issue.statusId).category !== to.category) issue.statusCategoryChanged = now;
    issue.statusId = to.id;
    issue.resolutionId = to.category === 'done' ? resolutionId : null;
    issue.resolutionDate = to.category === 'done' ? now : null;
    issue.updated = now;
    this.revision++;
    this.changed({ event: 'jira:issue_updated', issue, actingId: null });
  }

  addComment(issue: SimIssue, body: unknown, authorId: string, visibility?: unknown): SimComment {
    if (!isAdf(body) || (body.content as unknown[]).length === 0) throw fieldError('comment', 'Comment body can not be empty!');
    let vis: SimComment['visibility'] = null;
    if (visibility !== undefined && visibility !== null) {
      const v = visibility as Obj;
      if ((v.type !== 'role' && v.type !== 'group') || typeof v.value !== 'string') throw fieldError('commentLevel', 'You are currently not a member of the project role or group');
      vis = { type: v.type, value: v.value };
    }
    const now = this.now();
    const c: SimComment = { id: String(++this.seq.comment), issueId: issue.id, authorId, body, created: now, updated: now, visibility: vis };
    issue.comments.push(c);
    issue.updated = now;
    this.revision++;
    this.changed({ event: 'comment_created', issue, comment: c, actingId: authorId });
    return c;
  }

  addAttachment(issue: SimIssue, file: { filename: string; mimeType: string; content: Buffer }, authorId: string): SimAttachment {
    const now = this.now();
    const a: SimAttachment = { id: String(++this.seq.attachment), issueId: issue.id, ...file, authorId, created: now };
    this.attachments.set(a.id, a);
    issue.attachmentIds.push(a.id);
    issue.updated = now;
    this.revision++;
    return a;
  }

  removeAttachment(id: string): boolean {
    const a = this.attachments.get(id);
    if (!a) return false;
    this.attachments.delete(id);
    const issue = this.issues.get(a.issueId);
    if (issue) {
      issue.attachmentIds = issue.attachmentIds.filter((x) => x !== id);
      issue.updated = this.now();
      this.revision++;
    }
    return true;
  }

  deleteIssue(id: string): void {
    const issue = this.issues.get(id);
    if (!issue) return;
    for (const a of issue.attachmentIds) this.attachments.delete(a);
    this.issues.delete(id);
    this.revision++;
    this.changed({ event: 'jira:issue_deleted', issue, actingId: null });
    for (const other of this.issues.values()) if (other.parentId === id) this.issues.delete(other.id);
  }

  // ------------------------------------------------------------------------------- rendering

  renderUser(u: SimUser, opts: { full?: boolean } = {}): Obj {
    const out: Obj = {
      self: `${this.baseUrl()}/rest/api/3/user?accountId=${encodeURIComponent(u.accountId)}`,
      accountId: u.accountId,
      accountType: u.accountType,
      ...(u.emailAddress ? { emailAddress: u.emailAddress } : {}),
      avatarUrls: avatars(this.baseUrl(), u.accountId),
      displayName: u.displayName,
      active: u.active,
      timeZone: u.timeZone,
    };
    if (opts.full) Object.assign(out, { locale: u.locale, groups: { size: 0, items: [] }, applicationRoles: { size: 1, items: [] }, expand: 'groups,applicationRoles' });
    return out;
  }

  renderUserRef(id: string | null): Obj | null {
    const u = id ? this.users.get(id) : undefined;
    return u ? this.renderUser(u) : null;
  }

  renderStatus(s: SimStatus): Obj {
    const c = CATEGORY[s.category];
    return {
      self: `${this.baseUrl()}/rest/api/3/status/${s.id}`,
      description: '',
      iconUrl: `${this.baseUrl()}/images/icons/statuses/generic.png`,
      name: s.name,
      id: s.id,
      statusCategory: { self: `${this.baseUrl()}/rest/api/3/statuscategory/${c.id}`, id: c.id, key: s.category, colorName: c.colorName, name: c.name },
    };
  }

  renderIssueType(t: SimIssueType): Obj {
    return {
      self: `${this.baseUrl()}/rest/api/3/issuetype/${t.id}`,
      id: t.id,
      description: t.description,
      iconUrl: `${this.baseUrl()}/images/icons/issuetypes/${t.name.toLowerCase()}.svg`,
      name: t.name,
      subtask: t.subtask,
      avatarId: 10_300 + Number(t.id.slice(-1)),
      hierarchyLevel: t.hierarchyLevel,
    };
  }

  renderProjectRef(p: SimProject): Obj {
    return {
      self: `${this.baseUrl()}/rest/api/3/project/${p.id}`,
      id: p.id,
      key: p.key,
      name: p.name,
      projectTypeKey: 'software',
      simplified: false,
      avatarUrls: avatars(this.baseUrl(), `p${p.id}`),
    };
  }

  renderProject(p: SimProject, expand: string[]): Obj {
    return {
      expand: 'description,lead,issueTypes,url,projectKeys,permissions,insight',
      self: `${this.baseUrl()}/rest/api/3/project/${p.id}`,
      id: p.id,
      key: p.key,
      ...(expand.includes('description') ? { description: p.description } : {}),
      ...(expand.includes('lead') ? { lead: this.renderUserRef(p.leadAccountId) } : {}),
      name: p.name,
      avatarUrls: avatars(this.baseUrl(), `p${p.id}`),
      projectTypeKey: 'software',
      simplified: false,
      style: 'classic',
      isPrivate: false,
      properties: {},
    };
  }

  renderAttachment(a: SimAttachment): Obj {
    return {
      self: `${this.baseUrl()}/rest/api/3/attachment/${a.id}`,
      id: a.id,
      filename: a.filename,
      author: this.renderUserRef(a.authorId),
      created: jiraTime(a.created),
      size: a.content.length,
      mimeType: a.mimeType,
      content: `${this.baseUrl()}/rest/api/3/attachment/content/${a.id}`,
    };
  }

  renderComment(c: SimComment): Obj {
    return {
      self: `${this.baseUrl()}/rest/api/3/issue/${c.issueId}/comment/${c.id}`,
      id: c.id,
      author: this.renderUserRef(c.authorId),
      body: c.body,
      updateAuthor: this.renderUserRef(c.authorId),
      created: jiraTime(c.created),
      updated: jiraTime(c.updated),
      ...(c.visibility ? { visibility: { ...c.visibility, identifier: c.visibility.value } } : {}),
      jsdPublic: true,
    };
  }

  /** Every field of an issue, as `fields` of GET /issue with `*all`. */
  allFields(i: SimIssue): Obj {
    const project = this.projects.get(i.projectId)!;
    const type = ISSUE_TYPES.find((t) => t.id === i.issueTypeId)!;
    const priority = PRIORITIES.find((p) => p.id === i.priorityId);
    const resolution = RESOLUTIONS.find((r) => r.id === i.resolutionId);
    const parent = i.parentId ? this.issues.get(i.parentId) : undefined;
    const fields: Obj = {
      summary: i.summary,
      description: i.description,
      status: this.renderStatus(this.status(i.statusId)),
      priority: priority ? { self: `${this.baseUrl()}/rest/api/3/priority/${priority.id}`, iconUrl: `${this.baseUrl()}/images/icons/priorities/${priority.name.toLowerCase()}.svg`, name: priority.name, id: priority.id } : null,
      issuetype: this.renderIssueType(type),
      project: this.renderProjectRef(project),
      labels: [...i.labels],
      assignee: this.renderUserRef(i.assigneeId),
      reporter: this.renderUserRef(i.reporterId),
      creator: this.renderUserRef(i.creatorId),
      duedate: i.duedate,
      resolution: resolution ? { self: `${this.baseUrl()}/rest/api/3/resolution/${resolution.id}`, id: resolution.id, description: resolution.description, name: resolution.name } : null,
      resolutiondate: i.resolutionDate === null ? null : jiraTime(i.resolutionDate),
      statuscategorychangedate: jiraTime(i.statusCategoryChanged),
      created: jiraTime(i.created),
      updated: jiraTime(i.updated),
      attachment: i.attachmentIds.map((id) => this.attachments.get(id)).filter((a): a is SimAttachment => Boolean(a)).map((a) => this.renderAttachment(a)),
      // Jira embeds only the first comments in the issue; the rest are paged through /comment.
      comment: {
        comments: i.comments.slice(0, EMBEDDED_COMMENTS).map((c) => this.renderComment(c)),
        self: `${this.baseUrl()}/rest/api/3/issue/${i.id}/comment`,
        maxResults: EMBEDDED_COMMENTS,
        total: i.comments.length,
        startAt: 0,
      },
      worklog: { startAt: 0, maxResults: 20, total: 0, worklogs: [] },
      subtasks: [...this.issues.values()].filter((x) => x.parentId === i.id && ISSUE_TYPES.find((t) => t.id === x.issueTypeId)?.subtask).map((x) => ({ id: x.id, key: x.key, self: `${this.baseUrl()}/rest/api/3/issue/${x.id}` })),
      issuelinks: [],
      components: [],
      fixVersions: [],
      versions: [],
      environment: null,
      lastViewed: null,
      watches: { self: `${this.baseUrl()}/rest/api/3/issue/${i.key}/watchers`, watchCount: 1, isWatching: true },
      votes: { self: `${this.baseUrl()}/rest/api/3/issue/${i.key}/votes`, votes: 0, hasVoted: false },
    };
    if (parent) {
      fields.parent = {
        id: parent.id,
        key: parent.key,
        self: `${this.baseUrl()}/rest/api/3/issue/${parent.id}`,
        fields: { summary: parent.summary, status: this.renderStatus(this.status(parent.statusId)), issuetype: this.renderIssueType(ISSUE_TYPES.find((t) => t.id === parent.issueTypeId)!) },
      };
    }
    for (const f of this.fields) if (f.custom) fields[f.id] = i.custom.has(f.id) ? i.custom.get(f.id) : null;
    return fields;
  }

  /** An issue as GET /issue answers it, with the `fields` parameter applied (`*all`, `*navigable`, names, `-name`). */
  renderIssue(i: SimIssue, fieldsParam: string[] | undefined, defaultFields: '*all' | 'id'): Obj {
    const all = this.allFields(i);
    const spec = (fieldsParam?.length ? fieldsParam : [defaultFields]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
    const include = new Set<string>();
    const exclude = new Set<string>();
    for (const s of spec) {
      if (s === '*all') Object.keys(all).forEach((k) => include.add(k));
      else if (s === '*navigable') Object.keys(all).filter((k) => k !== 'comment' && k !== 'worklog' && k !== 'attachment').forEach((k) => include.add(k));
      else if (s.startsWith('-')) exclude.add(s.slice(1));
      else if (s !== 'id' && s !== 'key') include.add(s);
    }
    const fields: Obj = {};
    for (const k of include) if (!exclude.has(k) && k in all) fields[k] = all[k];
    return { expand: 'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations', id: i.id, self: `${this.baseUrl()}/rest/api/3/issue/${i.id}`, key: i.key, fields };
  }

  renderField(f: SimField): Obj {
    return { id: f.id, key: f.key, name: f.name, custom: f.custom, orderable: true, navigable: true, searchable: true, clauseNames: f.clauseNames, schema: f.schema };
  }
}

export function avatars(base: string, seed: string): Obj {
  const url = (px: number) => `${base}/avatars/${encodeURIComponent(seed)}/${px}.png`;
  return { '48x48': url(48), '24x24': url(24), '16x16': url(16), '32x32': url(32) };
}
