/**
 * In-memory GitLab instance: users, groups (nested), projects in a group or user namespace, members
 * with access levels (inherited from ancestor groups), labels (project and group), issues with
 * project-scoped iids, notes (user and system), and Markdown uploads. Writes follow GitLab's rules
 * as far as the adapter can observe them; violations throw `GlError` with GitLab's status and body.
 */
import { randomBytes } from 'node:crypto';

export const ACCESS = { guest: 10, planner: 15, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

export class GlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`GitLab ${status}: ${JSON.stringify(body)}`);
  }
}

export const notFound = (what: string) => new GlError(404, { message: `404 ${what} Not Found` });
export const forbidden = () => new GlError(403, { message: '403 Forbidden' });
export const badParam = (message: string) => new GlError(400, { error: message });

export interface UserRecord {
  id: number;
  username: string;
  name: string;
  email: string;
  public_email: string | null;
  state: 'active' | 'blocked';
  created_at: number;
  bot: boolean;
  is_admin: boolean;
}

export interface MemberRecord {
  access_level: number;
  created_at: number;
  expires_at: string | null;
}

export interface GroupRecord {
  id: number;
  name: string;
  path: string;
  description: string;
  parent_id: number | null;
  visibility: 'private' | 'internal' | 'public';
  created_at: number;
  members: Map<number, MemberRecord>;
}

export interface ProjectRecord {
  id: number;
  name: string;
  path: string;
  description: string | null;
  namespace: { kind: 'group'; id: number } | { kind: 'user'; id: number };
  visibility: 'private' | 'internal' | 'public';
  archived: boolean;
  issues_enabled: boolean;
  /** "Require authentication to view media files": images of a private or internal project need sign-in too. */
  enforce_auth_checks_on_uploads: boolean;
  created_at: number;
  updated_at: number;
  last_activity_at: number;
  members: Map<number, MemberRecord>;
  nextIid: number;
}

export interface LabelRecord {
  id: number;
  name: string;
  color: string;
  description: string | null;
  projectId: number | null;
  groupId: number | null;
}

export const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'requirement', 'task', 'ticket'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

export interface IssueRecord {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  created_at: number;
  updated_at: number;
  closed_at: number | null;
  closed_by_id: number | null;
  /** Label ids. */
  labels: number[];
  assignee_ids: number[];
  author_id: number;
  issue_type: IssueType;
  due_date: string | null;
  confidential: boolean;
  discussion_locked: boolean;
  moved_to_id: number | null;
}

export interface NoteRecord {
  id: number;
  issue_id: number;
  body: string;
  author_id: number;
  created_at: number;
  updated_at: number;
  system: boolean;
  internal: boolean;
}

export interface UploadRecord {
  id: number;
  project_id: number;
  secret: string;
  filename: string;
  content_type: string;
  content: Buffer;
  created_at: number;
  uploader_id: number;
}

/** What a write may set on an issue (already-parsed API parameters). */
export interface IssueInput {
  title?: string;
  description?: string | null;
  labels?: string[];
  add_labels?: string[];
  remove_labels?: string[];
  assignee_ids?: number[];
  due_date?: string | null;
  issue_type?: IssueType;
  confidential?: boolean;
  discussion_locked?: boolean;
  state_event?: 'close' | 'reopen';
  /** Admins and project owners only (imports). */
  created_at?: number;
}

/** A change GitLab sends a project webhook for (issue events, and note events for user notes). */
export type GlChange =
  | { kind: 'issue'; action: 'open' | 'update' | 'close' | 'reopen'; issue: IssueRecord; actorId: number }
  | { kind: 'note'; action: 'create'; note: NoteRecord; issue: IssueRecord; actorId: number };

export interface StateOptions {
  now?: () => number;
  /** GitLab Premium: several assignees per issue. Free keeps only the first one. Default false. */
  multipleAssignees?: boolean;
  seed?: number;
}

const COLORS = ['#009966', '#8fbc8f', '#3cb371', '#dc143c', '#cd5b45', '#6699cc', '#0000ff', '#e6e6fa', '#9400d3', '#330066', '#808080', '#ed9121'];

/** CarrierWave's file name sanitising, as GitLab stores uploads. */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[^\p{L}\p{N}_.\-+]/gu, '_');
  return clean === '' || /^\.+$/.test(clean) ? 'file' : clean;
}

export class GitlabState {
  readonly users = new Map<number, UserRecord>();
  readonly groups = new Map<number, GroupRecord>();
  readonly projects = new Map<number, ProjectRecord>();
  readonly labels = new Map<number, LabelRecord>();
  readonly issues = new Map<number, IssueRecord>();
  readonly notes = new Map<number, NoteRecord>();
  readonly uploads = new Map<number, UploadRecord>();
  multipleAssignees: boolean;
  private readonly clock: () => number;
  private lastTime = 0;
  private seq = { user: 0, group: 0, project: 0, label: 0, issue: 0, note: 0, upload: 0 };
  private rand: () => number;
  /** Called after each change GitLab sends a webhook for (the simulator's project hooks listen). */
  readonly listeners: ((change: GlChange) => void)[] = [];

  constructor(opts: StateOptions = {}) {
    this.clock = opts.now ?? Date.now;
    this.multipleAssignees = opts.multipleAssignees ?? false;
    let a = (opts.seed ?? 7) >>> 0;
    this.rand = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    this.seq = { user: 0, group: 0, project: 0, label: 0, issue: 1000, note: 5000, upload: 0 };
  }

  private changed(change: GlChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Strictly increasing milliseconds: two writes never share a timestamp unless a test sets one. */
  now(): number {
    const t = Math.max(this.clock(), this.lastTime + 1);
    this.lastTime = t;
    return t;
  }

  // ------------------------------------------------------------------ directory

  addUser(input: Partial<UserRecord> & { username: string; name: string }): UserRecord {
    const id = input.id ?? ++this.seq.user;
    this.seq.user = Math.max(this.seq.user, id);
    const u: UserRecord = {
      id,
      username: input.username,
      name: input.name,
      email: input.email ?? `${input.username}@example.com`,
      public_email: input.public_email ?? null,
      state: input.state ?? 'active',
      created_at: input.created_at ?? this.now(),
      bot: input.bot ?? false,
      is_admin: input.is_admin ?? false,
    };
    this.users.set(id, u);
    return u;
  }

  addGroup(input: Partial<Omit<GroupRecord, 'members'>> & { name: string; members?: Record<number, number> }): GroupRecord {
    const id = input.id ?? ++this.seq.group;
    this.seq.group = Math.max(this.seq.group, id);
    const g: GroupRecord = {
      id,
      name: input.name,
      path: input.path ?? input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      description: input.description ?? '',
      parent_id: input.parent_id ?? null,
      visibility: input.visibility ?? 'private',
      created_at: input.created_at ?? this.now(),
      members: new Map(),
    };
    if (g.parent_id !== null && !this.groups.has(g.parent_id)) throw new Error(`no parent group ${g.parent_id}`);
    for (const [userId, level] of Object.entries(input.members ?? {})) g.members.set(Number(userId), { access_level: level, created_at: g.created_at, expires_at: null });
    this.groups.set(id, g);
    return g;
  }

  addProject(
    input: Partial<Omit<ProjectRecord, 'members' | 'namespace'>> & {
      name: string;
      namespace: ProjectRecord['namespace'];
      members?: Record<number, number>;
    },
  ): ProjectRecord {
    const id = input.id ?? ++this.seq.project;
    this.seq.project = Math.max(this.seq.project, id);
    const at = input.created_at ?? this.now();
    const p: ProjectRecord = {
      id,
      name: input.name,
      path: input.path ?? input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      description: input.description ?? null,
      namespace: input.namespace,
      visibility: input.visibility ?? 'private',
      archived: input.archived ?? false,
      issues_enabled: input.issues_enabled ?? true,
      enforce_auth_checks_on_uploads: input.enforce_auth_checks_on_uploads ?? false,
      created_at: at,
      updated_at: input.updated_at ?? at,
      last_activity_at: input.last_activity_at ?? at,
      members: new Map(),
      nextIid: 1,
    };
    if (p.namespace.kind === 'group' && !this.groups.has(p.namespace.id)) throw new Error(`no group ${p.namespace.id}`);
    if (p.namespace.kind === 'user') {
      if (!this.users.has(p.namespace.id)) throw new Error(`no user ${p.namespace.id}`);
      // A personal project belongs to its user, who owns it.
      p.members.set(p.namespace.id, { access_level: ACCESS.owner, created_at: at, expires_at: null });
    }
    for (const [userId, level] of Object.entries(input.members ?? {})) p.members.set(Number(userId), { access_level: level, created_at: at, expires_at: null });
    this.projects.set(id, p);
    return p;
  }

  addLabel(input: { name: string; projectId?: number; groupId?: number; color?: string; description?: string; id?: number }): LabelRecord {
    const id = input.id ?? ++this.seq.label;
    this.seq.label = Math.max(this.seq.label, id);
    const l: LabelRecord = {
      id,
      name: input.name,
      color: input.color ?? COLORS[Math.floor(this.rand() * COLORS.length)]!,
      description: input.description ?? null,
      projectId: input.projectId ?? null,
      groupId: input.groupId ?? null,
    };
    this.labels.set(id, l);
    return l;
  }

  /** The group and its ancestors, nearest first. */
  groupChain(groupId: number | null): GroupRecord[] {
    const out: GroupRecord[] = [];
    let g = groupId === null ? undefined : this.groups.get(groupId);
    while (g) {
      out.push(g);
      g = g.parent_id === null ? undefined : this.groups.get(g.parent_id);
    }
    return out;
  }

  /** Effective members of a group (its own and those of its ancestors; the highest level wins). */
  groupMembersAll(groupId: number): Map<number, MemberRecord> {
    const out = new Map<number, MemberRecord>();
    for (const g of this.groupChain(groupId).reverse()) {
      for (const [u, m] of g.members) if (!out.has(u) || out.get(u)!.access_level < m.access_level) out.set(u, m);
    }
    return out;
  }

  /** Effective members of a project: direct ones and those inherited from its group and ancestors. */
  projectMembersAll(projectId: number): Map<number, MemberRecord> {
    const p = this.projects.get(projectId);
    if (!p) return new Map();
    const out = p.namespace.kind === 'group' ? this.groupMembersAll(p.namespace.id) : new Map<number, MemberRecord>();
    for (const [u, m] of p.members) if (!out.has(u) || out.get(u)!.access_level < m.access_level) out.set(u, m);
    return out;
  }

  accessLevel(userId: number, projectId: number): number {
    const u = this.users.get(userId);
    if (u?.is_admin) return ACCESS.owner;
    return this.projectMembersAll(projectId).get(userId)?.access_level ?? 0;
  }

  groupAccessLevel(userId: number, groupId: number): number {
    const u = this.users.get(userId);
    if (u?.is_admin) return ACCESS.owner;
    return this.groupMembersAll(groupId).get(userId)?.access_level ?? 0;
  }

  canReadProject(userId: number, p: ProjectRecord): boolean {
    return p.visibility === 'public' || (p.visibility === 'internal' && this.users.has(userId)) || this.accessLevel(userId, p.id) > 0;
  }

  canReadIssue(userId: number, i: IssueRecord): boolean {
    const p = this.projects.get(i.project_id);
    if (!p || !this.canReadProject(userId, p)) return false;
    return this.issueReader(userId, p)(i);
  }

  /**
   * Which issues of a project the user, who may read the project, may read: its access level is looked up
   * once (a list of every issue looked up the project's members for each issue).
   */
  issueReader(userId: number, p: ProjectRecord): (i: IssueRecord) => boolean {
    let level: number | undefined;
    return (i) => !i.confidential || (level ??= this.accessLevel(userId, p.id)) >= ACCESS.planner || i.author_id === userId || i.assignee_ids.includes(userId);
  }

  canReadInternalNotes(userId: number, projectId: number): boolean {
    return this.accessLevel(userId, projectId) >= ACCESS.planner;
  }

  /** A project by numeric id or URL-encoded full path; 404 unless the user may read it. */
  findProject(ref: string, userId: number): ProjectRecord {
    const p = /^\d+$/.test(ref) ? this.projects.get(Number(ref)) : [...this.projects.values()].find((x) => this.projectFullPath(x) === ref);
    if (!p || !this.canReadProject(userId, p)) throw notFound('Project');
    return p;
  }

  projectFullPath(p: ProjectRecord): string {
    const ns = p.namespace.kind === 'group' ? this.groupFullPath(p.namespace.id) : (this.users.get(p.namespace.id)?.username ?? 'unknown');
    return `${ns}/${p.path}`;
  }

  groupFullPath(groupId: number): string {
    return this.groupChain(groupId)
      .reverse()
      .map((g) => g.path)
      .join('/');
  }

  groupFullName(groupId: number): string {
    return this.groupChain(groupId)
      .reverse()
      .map((g) => g.name)
      .join(' / ');
  }

  /** Labels usable in a project: its own and those of its group and ancestors. */
  availableLabels(projectId: number): LabelRecord[] {
    const p = this.projects.get(projectId);
    if (!p) return [];
    const groups = new Set(p.namespace.kind === 'group' ? this.groupChain(p.namespace.id).map((g) => g.id) : []);
    return [...this.labels.values()].filter((l) => l.projectId === projectId || (l.groupId !== null && groups.has(l.groupId)));
  }

  // ------------------------------------------------------------------ issues

  findIssue(projectId: number, iid: number): IssueRecord | undefined {
    for (const i of this.issues.values()) if (i.project_id === projectId && i.iid === iid) return i;
    return undefined;
  }

  /** Label names → label ids, creating missing project labels (as GitLab does). */
  private labelIds(projectId: number, names: string[]): number[] {
    const available = this.availableLabels(projectId);
    const out: number[] = [];
    for (const raw of names) {
      const name = raw.trim();
      if (!name) continue;
      const l = available.find((x) => x.name === name) ?? this.addLabel({ name, projectId });
      if (!available.includes(l)) available.push(l);
      if (!out.includes(l.id)) out.push(l.id);
    }
    return out;
  }

  /** Assignees GitLab keeps: users who can read the project; only the first one without Premium. */
  private assignees(projectId: number, ids: number[]): number[] {
    const p = this.projects.get(projectId)!;
    const kept = [...new Set(ids.filter((id) => id !== 0))].filter((id) => this.users.has(id) && this.canReadProject(id, p));
    return this.multipleAssignees ? kept : kept.slice(0, 1);
  }

  private validate(input: IssueInput, creating: boolean) {
    if (creating && (input.title === undefined || input.title.trim() === '')) {
      throw input.title === undefined ? badParam('title is missing') : new GlError(400, { message: { title: ["can't be blank"] } });
    }
    if (input.title !== undefined && input.title.length > 255) throw new GlError(400, { message: { title: ['is too long (maximum is 255 characters)'] } });
    if (input.title !== undefined && input.title.trim() === '') throw new GlError(400, { message: { title: ["can't be blank"] } });
    if (input.description != null && input.description.length > 1_048_576) {
      throw new GlError(400, { message: { description: ['is too long (maximum is 1048576 characters)'] } });
    }
  }

  createIssue(projectId: number, input: IssueInput, authorId: number): IssueRecord {
    this.validate(input, true);
    const p = this.projects.get(projectId);
    if (!p) throw notFound('Project');
    const at = input.created_at ?? this.now();
    const issue: IssueRecord = {
      id: ++this.seq.issue,
      iid: p.nextIid++,
      project_id: projectId,
      title: input.title!,
      description: input.description ?? null,
      state: 'opened',
      created_at: at,
      updated_at: at,
      closed_at: null,
      closed_by_id: null,
      labels: this.labelIds(projectId, input.labels ?? []),
      assignee_ids: this.assignees(projectId, input.assignee_ids ?? []),
      author_id: authorId,
      issue_type: input.issue_type ?? 'issue',
      due_date: input.due_date ?? null,
      confidential: input.confidential ?? false,
      discussion_locked: input.discussion_locked ?? false,
      moved_to_id: null,
    };
    this.issues.set(issue.id, issue);
    p.last_activity_at = at;
    this.changed({ kind: 'issue', action: 'open', issue, actorId: authorId });
    return issue;
  }

  /** Applies a change; returns true when something changed (then `updated_at` moves). */
  updateIssue(issue: IssueRecord, input: IssueInput, actorId: number, opts: { touch?: boolean } = {}): boolean {
    this.validate(input, false);
    const at = this.now();
    let changed = false;
    const system: string[] = [];
    if (input.title !== undefined && input.title !== issue.title) {
      system.push(`changed title from **${issue.title}** to **${input.title}**`);
      issue.title = input.title;
      changed = true;
    }
    if (input.description !== undefined && (input.description ?? null) !== issue.description) {
      issue.description = input.description;
      system.push('changed the description');
      changed = true;
    }
    if (input.labels !== undefined || input.add_labels !== undefined || input.remove_labels !== undefined) {
      let ids = input.labels !== undefined ? this.labelIds(issue.project_id, input.labels) : [...issue.labels];
      if (input.add_labels) ids = [...new Set([...ids, ...this.labelIds(issue.project_id, input.add_labels)])];
      if (input.remove_labels) {
        const names = new Set(input.remove_labels.map((n) => n.trim()));
        ids = ids.filter((id) => !names.has(this.labels.get(id)?.name ?? ''));
      }
      // Label changes are resource label events, not notes.
      if (ids.join(',') !== issue.labels.join(',')) {
        issue.labels = ids;
        changed = true;
      }
    }
    if (input.assignee_ids !== undefined) {
      const next = this.assignees(issue.project_id, input.assignee_ids);
      if (next.join(',') !== issue.assignee_ids.join(',')) {
        const added = next.filter((id) => !issue.assignee_ids.includes(id));
        const removed = issue.assignee_ids.filter((id) => !next.includes(id));
        const at = (ids: number[]) => ids.map((id) => `@${this.users.get(id)?.username}`).join(' and ');
        if (added.length) system.push(`assigned to ${at(added)}`);
        if (removed.length) system.push(`unassigned ${at(removed)}`);
        issue.assignee_ids = next;
        changed = true;
      }
    }
    if (input.due_date !== undefined && input.due_date !== issue.due_date) {
      system.push(input.due_date ? `changed due date to ${input.due_date}` : 'removed due date');
      issue.due_date = input.due_date;
      changed = true;
    }
    if (input.issue_type !== undefined && input.issue_type !== issue.issue_type) {
      issue.issue_type = input.issue_type;
      changed = true;
    }
    if (input.confidential !== undefined && input.confidential !== issue.confidential) {
      system.push(input.confidential ? 'made the issue confidential' : 'made the issue visible to everyone');
      issue.confidential = input.confidential;
      changed = true;
    }
    if (input.discussion_locked !== undefined && input.discussion_locked !== issue.discussion_locked) {
      issue.discussion_locked = input.discussion_locked;
      changed = true;
    }
    // State changes are resource state events, not notes.
    const stateBefore = issue.state;
    if (input.state_event === 'close' && issue.state !== 'closed') {
      issue.state = 'closed';
      issue.closed_at = at;
      issue.closed_by_id = actorId;
      changed = true;
    } else if (input.state_event === 'reopen' && issue.state !== 'opened') {
      issue.state = 'opened';
      issue.closed_at = null;
      issue.closed_by_id = null;
      changed = true;
    }
    if (changed || opts.touch) {
      issue.updated_at = at;
      const p = this.projects.get(issue.project_id);
      if (p) p.last_activity_at = at;
    }
    for (const body of system) this.addNote(issue, { body, system: true }, actorId, { touch: false, at });
    if (changed || opts.touch) {
      const action = issue.state === stateBefore ? 'update' : issue.state === 'closed' ? 'close' : 'reopen';
      this.changed({ kind: 'issue', action, issue, actorId });
    }
    return changed;
  }

  deleteIssue(issue: IssueRecord): void {
    this.issues.delete(issue.id);
    for (const [id, n] of this.notes) if (n.issue_id === issue.id) this.notes.delete(id);
  }

  // ------------------------------------------------------------------ notes

  notesOf(issueId: number): NoteRecord[] {
    return [...this.notes.values()].filter((n) => n.issue_id === issueId);
  }

  userNotesCount(issueId: number): number {
    return this.notesOf(issueId).filter((n) => !n.system).length;
  }

  /** A note touches its issue (`updated_at`), as GitLab's `belongs_to :noteable, touch: true` does. */
  addNote(issue: IssueRecord, input: { body: string; internal?: boolean; system?: boolean }, authorId: number, opts: { touch?: boolean; at?: number } = {}): NoteRecord {
    if (input.body.trim() === '') throw new GlError(400, { message: { note: ["can't be blank"] } });
    if (input.body.length > 1_000_000) throw new GlError(400, { message: { note: ['is too long (maximum is 1000000 characters)'] } });
    const at = opts.at ?? this.now();
    const n: NoteRecord = {
      id: ++this.seq.note,
      issue_id: issue.id,
      body: input.body,
      author_id: authorId,
      created_at: at,
      updated_at: at,
      system: input.system ?? false,
      internal: input.internal ?? false,
    };
    this.notes.set(n.id, n);
    if (opts.touch !== false) issue.updated_at = Math.max(issue.updated_at, at);
    // System notes (changes GitLab records itself) send no note event.
    if (!n.system) this.changed({ kind: 'note', action: 'create', note: n, issue, actorId: authorId });
    return n;
  }

  /** Deleting a note touches its issue too (the same `touch: true`). */
  deleteNote(noteId: number): void {
    const n = this.notes.get(noteId);
    if (!n) return;
    this.notes.delete(noteId);
    for (const issue of this.issues.values()) if (issue.id === n.issue_id) issue.updated_at = Math.max(issue.updated_at, this.now());
  }

  // ------------------------------------------------------------------ uploads

  addUpload(projectId: number, file: { filename: string; contentType: string; content: Buffer }, uploaderId: number): UploadRecord {
    const u: UploadRecord = {
      id: ++this.seq.upload,
      project_id: projectId,
      secret: randomBytes(16).toString('hex'),
      filename: sanitizeFilename(file.filename),
      content_type: file.contentType,
      content: file.content,
      created_at: this.now(),
      uploader_id: uploaderId,
    };
    this.uploads.set(u.id, u);
    return u;
  }

  findUpload(projectId: number, secret: string, filename: string): UploadRecord | undefined {
    for (const u of this.uploads.values()) if (u.project_id === projectId && u.secret === secret && u.filename === filename) return u;
    return undefined;
  }
}
