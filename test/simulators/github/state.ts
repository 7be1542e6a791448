/**
 * In-memory GitHub account for the simulator: users, repositories with collaborators and labels,
 * issues and pull requests (one number sequence per repository, as on GitHub), issue comments.
 * Timestamps are whole seconds (`2024-05-01T10:20:30Z`), as GitHub renders them.
 */
import type { SimClock } from '../shared/http-kit';

export type Role = 'read' | 'triage' | 'write' | 'maintain' | 'admin';
const ROLE_RANK: Record<Role, number> = { read: 0, triage: 1, write: 2, maintain: 3, admin: 4 };

export interface SimUser {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  type: 'User' | 'Bot' | 'Organization';
  created_at: string;
  updated_at: string;
}

export interface SimLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

/** A change GitHub sends a repository webhook for. */
export interface SimChange {
  event: 'issues' | 'issue_comment';
  action: string;
  issue: SimIssue;
  comment?: SimComment;
}

export interface SimRepo {
  id: number;
  owner: string;
  name: string;
  description: string | null;
  private: boolean;
  has_issues: boolean;
  archived: boolean;
  created_at: string;
  updated_at: string;
  pushed_at: string;
  /** login → role; the owner is an admin. */
  collaborators: Map<string, Role>;
  /** lower-cased name → label. */
  labels: Map<string, SimLabel>;
  nextNumber: number;
}

export interface SimIssue {
  id: number;
  repoId: number;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  state_reason: 'completed' | 'not_planned' | 'reopened' | null;
  user: string;
  labelIds: number[];
  assignees: string[];
  locked: boolean;
  pull: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: string | null;
}

export interface SimComment {
  id: number;
  repoId: number;
  issueNumber: number;
  user: string;
  body: string;
  created_at: string;
  updated_at: string;
}

/** A GitHub 422 `Validation Failed` with its `errors` array. */
export class ValidationFailed extends Error {
  constructor(readonly errors: Array<Record<string, unknown>>) {
    super('Validation Failed');
  }
}

/** A GitHub error with a status and message (`{"message": …}`). */
export class GhError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const DEFAULT_LABELS: Array<[string, string, string]> = [
  ['bug', 'd73a4a', "Something isn't working"],
  ['enhancement', 'a2eeef', 'New feature or request'],
  ['question', 'd876e3', 'Further information is requested'],
];

export class GithubState {
  readonly users = new Map<string, SimUser>(); // lower-cased login → user
  readonly repos = new Map<number, SimRepo>();
  readonly issues = new Map<number, SimIssue>(); // issue id → issue
  readonly comments = new Map<number, SimComment>();
  private userSeq = 1;
  private repoSeq = 1296269;
  private issueSeq = 1_000_000;
  private commentSeq = 5_000_000;
  private labelSeq = 208_045_946;
  private lastTime = 0;

  constructor(private readonly clock: SimClock) {}

  /** Now, as GitHub renders it (whole seconds), never before the previous stamp. */
  /** Called after each change GitHub sends a webhook for (the simulator's repository hooks listen). */
  readonly listeners: ((change: SimChange) => void)[] = [];

  private changed(change: SimChange): void {
    for (const listener of this.listeners) listener(change);
  }

  stamp(): string {
    const t = Math.max(this.clock.now(), this.lastTime);
    this.lastTime = t;
    return iso(t);
  }

  // ---------------------------------------------------------------- users

  addUser(input: Partial<SimUser> & { login: string }): SimUser {
    if (this.users.has(input.login.toLowerCase())) throw new Error(`user ${input.login} exists`);
    const at = this.stamp();
    const u: SimUser = { id: this.userSeq++, name: null, email: null, type: 'User', created_at: at, updated_at: at, ...input };
    this.users.set(u.login.toLowerCase(), u);
    return u;
  }

  user(login: string): SimUser | undefined {
    return this.users.get(login.toLowerCase());
  }

  // ---------------------------------------------------------------- repositories

  addRepo(input: Partial<Omit<SimRepo, 'collaborators' | 'labels'>> & { owner: string; name: string; collaborators?: Record<string, Role>; labels?: string[] }): SimRepo {
    if (!this.user(input.owner)) this.addUser({ login: input.owner, type: 'Organization' });
    const at = this.stamp();
    const { collaborators, labels, ...rest } = input;
    const repo: SimRepo = {
      id: this.repoSeq++,
      description: null,
      private: true,
      has_issues: true,
      archived: false,
      created_at: at,
      updated_at: at,
      pushed_at: at,
      nextNumber: 1,
      ...rest,
      owner: this.user(input.owner)!.login,
      collaborators: new Map(),
      labels: new Map(),
    };
    if (this.user(repo.owner)!.type === 'User') repo.collaborators.set(repo.owner.toLowerCase(), 'admin');
    for (const [login, role] of Object.entries(collaborators ?? {})) {
      if (!this.user(login)) this.addUser({ login });
      repo.collaborators.set(login.toLowerCase(), role);
    }
    this.repos.set(repo.id, repo);
    if (labels) for (const l of labels) this.label(repo, l, true);
    else for (const [name, color, description] of DEFAULT_LABELS) this.addLabel(repo, { name, color, description, default: true });
    return repo;
  }

  repoByName(owner: string, name: string): SimRepo | undefined {
    const full = `${owner}/${name}`.toLowerCase();
    return [...this.repos.values()].find((r) => `${r.owner}/${r.name}`.toLowerCase() === full);
  }

  fullName(repo: SimRepo): string {
    return `${repo.owner}/${repo.name}`;
  }

  roleOf(repo: SimRepo, login: string): Role | undefined {
    return repo.collaborators.get(login.toLowerCase());
  }

  /** The viewer sees the repository: public, or a collaborator. */
  canSee(repo: SimRepo, login: string): boolean {
    return !repo.private || this.roleOf(repo, login) !== undefined;
  }

  atLeast(repo: SimRepo, login: string, role: Role): boolean {
    const r = this.roleOf(repo, login);
    return r !== undefined && ROLE_RANK[r] >= ROLE_RANK[role];
  }

  /** Users an issue of the repository can be assigned to: its collaborators (users, not organizations). */
  assignees(repo: SimRepo): SimUser[] {
    return [...repo.collaborators.keys()]
      .map((l) => this.user(l)!)
      .filter((u) => u.type !== 'Organization')
      .sort((a, b) => a.id - b.id);
  }

  addLabel(repo: SimRepo, input: Partial<SimLabel> & { name: string }): SimLabel {
    const label: SimLabel = { id: this.labelSeq++, color: 'ededed', description: null, default: false, ...input };
    repo.labels.set(label.name.toLowerCase(), label);
    return label;
  }

  /** The label of that name (any case), created when missing (as GitHub does when an issue names it). */
  label(repo: SimRepo, name: string, isDefault = false): SimLabel {
    return repo.labels.get(name.toLowerCase()) ?? this.addLabel(repo, { name, default: isDefault });
  }

  labelById(repo: SimRepo, id: number): SimLabel | undefined {
    return [...repo.labels.values()].find((l) => l.id === id);
  }

  // ---------------------------------------------------------------- issues

  issue(repo: SimRepo, number: number): SimIssue | undefined {
    return [...this.issues.values()].find((i) => i.repoId === repo.id && i.number === number);
  }

  issuesOf(repo: SimRepo): SimIssue[] {
    return [...this.issues.values()].filter((i) => i.repoId === repo.id);
  }

  /** Creates an issue (or a pull request: `pull: true`). Labels and assignees are checked and applied as given. */
  createIssue(
    repo: SimRepo,
    author: string,
    input: { title: string; body?: string | null; labels?: string[]; assignees?: string[]; pull?: boolean; state?: 'open' | 'closed'; at?: string },
  ): SimIssue {
    if (typeof input.title !== 'string' || input.title.trim() === '') {
      throw new ValidationFailed([{ resource: 'Issue', code: 'missing_field', field: 'title' }]);
    }
    const assignees = this.checkAssignees(repo, input.assignees ?? []);
    const at = input.at ?? this.stamp();
    const issue: SimIssue = {
      id: this.issueSeq++,
      repoId: repo.id,
      number: repo.nextNumber++,
      title: input.title,
      body: input.body ?? null,
      state: input.state ?? 'open',
      state_reason: input.state === 'closed' ? 'completed' : null,
      user: this.user(author)!.login,
      labelIds: [...new Set((input.labels ?? []).map((n) => this.label(repo, n).id))],
      assignees,
      locked: false,
      pull: input.pull ?? false,
      created_at: at,
      updated_at: at,
      closed_at: input.state === 'closed' ? at : null,
      closed_by: input.state === 'closed' ? this.user(author)!.login : null,
    };
    this.issues.set(issue.id, issue);
    this.changed({ event: 'issues', action: 'opened', issue });
    return issue;
  }

  /** Canonical logins of assignable users; at most 10 (GitHub's limit). */
  checkAssignees(repo: SimRepo, logins: string[]): string[] {
    const out: string[] = [];
    for (const login of logins) {
      const u = this.user(String(login));
      if (!u || !this.assignees(repo).some((a) => a.id === u.id)) {
        throw new ValidationFailed([{ value: login, resource: 'Issue', field: 'assignees', code: 'invalid' }]);
      }
      if (!out.includes(u.login)) out.push(u.login);
    }
    if (out.length > 10) throw new ValidationFailed([{ resource: 'Issue', field: 'assignees', code: 'invalid', message: 'You can only assign up to 10 users' }]);
    return out;
  }

  updateIssue(
    issue: SimIssue,
    actor: string,
    patch: {
      title?: string;
      body?: string | null;
      state?: 'open' | 'closed';
      state_reason?: 'completed' | 'not_planned' | 'reopened' | null;
      labels?: string[];
      assignees?: string[];
    },
  ): SimIssue {
    const repo = this.repos.get(issue.repoId)!;
    if (patch.title !== undefined) {
      if (patch.title === null || String(patch.title).trim() === '') throw new ValidationFailed([{ resource: 'Issue', code: 'missing_field', field: 'title' }]);
      issue.title = String(patch.title);
    }
    if (patch.body !== undefined) issue.body = patch.body;
    if (patch.assignees !== undefined) issue.assignees = this.checkAssignees(repo, patch.assignees);
    if (patch.labels !== undefined) issue.labelIds = [...new Set(patch.labels.map((n) => this.label(repo, n).id))];
    const now = this.stamp();
    if (patch.state !== undefined && patch.state !== issue.state) {
      issue.state = patch.state;
      if (patch.state === 'closed') {
        issue.state_reason = patch.state_reason === 'not_planned' ? 'not_planned' : 'completed';
        issue.closed_at = now;
        issue.closed_by = this.user(actor)?.login ?? actor;
      } else {
        issue.state_reason = 'reopened';
        issue.closed_at = null;
      }
    } else if (patch.state === 'closed' && patch.state_reason && patch.state_reason !== issue.state_reason) {
      issue.state_reason = patch.state_reason;
    }
    issue.updated_at = now;
    const action = patch.state === 'closed' && issue.closed_at === now ? 'closed' : patch.state === 'open' && issue.state_reason === 'reopened' ? 'reopened' : 'edited';
    this.changed({ event: 'issues', action, issue });
    return issue;
  }

  /** Deletes an issue and its comments (GitHub: repository admins, from the UI or GraphQL). */
  deleteIssue(issue: SimIssue): void {
    this.issues.delete(issue.id);
    for (const c of [...this.comments.values()]) if (c.repoId === issue.repoId && c.issueNumber === issue.number) this.comments.delete(c.id);
    this.changed({ event: 'issues', action: 'deleted', issue });
  }

  // ---------------------------------------------------------------- comments

  commentsOf(issue: SimIssue): SimComment[] {
    return [...this.comments.values()].filter((c) => c.repoId === issue.repoId && c.issueNumber === issue.number).sort((a, b) => a.id - b.id);
  }

  addComment(issue: SimIssue, author: string, body: string, at?: string): SimComment {
    if (typeof body !== 'string' || body.trim() === '') {
      throw new ValidationFailed([{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
    }
    const t = at ?? this.stamp();
    const c: SimComment = { id: this.commentSeq++, repoId: issue.repoId, issueNumber: issue.number, user: this.user(author)!.login, body, created_at: t, updated_at: t };
    this.comments.set(c.id, c);
    issue.updated_at = t;
    this.changed({ event: 'issue_comment', action: 'created', issue, comment: c });
    return c;
  }

  updateComment(c: SimComment, body: string): SimComment {
    c.body = body;
    c.updated_at = this.stamp();
    const issue = [...this.issues.values()].find((i) => i.repoId === c.repoId && i.number === c.issueNumber);
    if (issue) this.changed({ event: 'issue_comment', action: 'edited', issue, comment: c });
    return c;
  }
}
