/**
 * GitLab API entities as GitLab 17/18 renders them (`API::Entities::Issue`, `Note`, `Member`,
 * `UserBasic`, `UserPublic`, `Project`, `Group`, `Label`), built from the simulator's records.
 * Timestamps are ISO 8601 with milliseconds in UTC, dates `YYYY-MM-DD`.
 */
import type { GitlabState, GroupRecord, IssueRecord, LabelRecord, MemberRecord, NoteRecord, ProjectRecord, UploadRecord, UserRecord } from './state';

type Json = Record<string, unknown>;

export const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

const IMAGE = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp|svg)$/i;

export class Serializer {
  constructor(
    private readonly state: GitlabState,
    private readonly baseUrl: () => string,
  ) {}

  userBasic(u: UserRecord): Json {
    return {
      id: u.id,
      username: u.username,
      public_email: u.public_email ?? '',
      name: u.name,
      state: u.state,
      locked: false,
      avatar_url: `https://secure.gravatar.com/avatar/${u.id.toString(16).padStart(32, '0')}?s=80&d=identicon`,
      web_url: `${this.baseUrl()}/${u.username}`,
    };
  }

  userById(id: number | null): Json | null {
    if (id === null) return null;
    const u = this.state.users.get(id);
    return u ? this.userBasic(u) : null;
  }

  /** `GET /user`: the token's own user, with its private email. */
  currentUser(u: UserRecord): Json {
    return {
      ...this.userBasic(u),
      created_at: iso(u.created_at),
      bio: '',
      location: '',
      skype: '',
      linkedin: '',
      twitter: '',
      discord: '',
      website_url: '',
      organization: '',
      job_title: '',
      pronouns: null,
      bot: u.bot,
      work_information: null,
      local_time: null,
      last_sign_in_at: iso(u.created_at),
      confirmed_at: iso(u.created_at),
      last_activity_on: new Date(this.state.now()).toISOString().slice(0, 10),
      email: u.email,
      theme_id: 1,
      color_scheme_id: 1,
      projects_limit: 100000,
      current_sign_in_at: iso(u.created_at),
      identities: [],
      can_create_group: true,
      can_create_project: true,
      two_factor_enabled: false,
      external: false,
      private_profile: false,
      commit_email: u.email,
      is_admin: u.is_admin,
    };
  }

  member(u: UserRecord, m: MemberRecord): Json {
    return {
      ...this.userBasic(u),
      access_level: m.access_level,
      created_at: iso(m.created_at),
      created_by: null,
      expires_at: m.expires_at,
      membership_state: 'active',
    };
  }

  namespace(p: ProjectRecord): Json {
    if (p.namespace.kind === 'group') {
      const g = this.state.groups.get(p.namespace.id)!;
      return {
        id: g.id,
        name: g.name,
        path: g.path,
        kind: 'group',
        full_path: this.state.groupFullPath(g.id),
        parent_id: g.parent_id,
        avatar_url: null,
        web_url: `${this.baseUrl()}/groups/${this.state.groupFullPath(g.id)}`,
      };
    }
    const u = this.state.users.get(p.namespace.id)!;
    return {
      id: 100_000 + u.id,
      name: u.name,
      path: u.username,
      kind: 'user',
      full_path: u.username,
      parent_id: null,
      avatar_url: null,
      web_url: `${this.baseUrl()}/${u.username}`,
    };
  }

  project(p: ProjectRecord, forUserId: number, opts: { simple?: boolean } = {}): Json {
    const fullPath = this.state.projectFullPath(p);
    const web = `${this.baseUrl()}/${fullPath}`;
    const nsName = p.namespace.kind === 'group' ? this.state.groupFullName(p.namespace.id) : (this.state.users.get(p.namespace.id)?.name ?? '');
    const basic: Json = {
      id: p.id,
      description: p.description,
      name: p.name,
      name_with_namespace: `${nsName} / ${p.name}`,
      path: p.path,
      path_with_namespace: fullPath,
      created_at: iso(p.created_at),
      default_branch: 'main',
      tag_list: [],
      topics: [],
      ssh_url_to_repo: `git@${new URL(this.baseUrl()).host}:${fullPath}.git`,
      http_url_to_repo: `${web}.git`,
      web_url: web,
      readme_url: null,
      forks_count: 0,
      avatar_url: null,
      star_count: 0,
      last_activity_at: iso(p.last_activity_at),
      visibility: p.visibility,
      namespace: this.namespace(p),
    };
    if (opts.simple) return basic;
    const level = this.state.accessLevel(forUserId, p.id);
    const direct = p.members.get(forUserId)?.access_level ?? null;
    const group = p.namespace.kind === 'group' ? (this.state.groupMembersAll(p.namespace.id).get(forUserId)?.access_level ?? null) : null;
    return {
      ...basic,
      container_registry_image_prefix: `registry.example.com/${fullPath}`,
      _links: {
        self: `${this.baseUrl()}/api/v4/projects/${p.id}`,
        issues: `${this.baseUrl()}/api/v4/projects/${p.id}/issues`,
        merge_requests: `${this.baseUrl()}/api/v4/projects/${p.id}/merge_requests`,
        repo_branches: `${this.baseUrl()}/api/v4/projects/${p.id}/repository/branches`,
        labels: `${this.baseUrl()}/api/v4/projects/${p.id}/labels`,
        events: `${this.baseUrl()}/api/v4/projects/${p.id}/events`,
        members: `${this.baseUrl()}/api/v4/projects/${p.id}/members`,
        cluster_agents: `${this.baseUrl()}/api/v4/projects/${p.id}/cluster_agents`,
      },
      packages_enabled: true,
      empty_repo: false,
      archived: p.archived,
      resolve_outdated_diff_discussions: false,
      issues_enabled: p.issues_enabled,
      merge_requests_enabled: true,
      wiki_enabled: true,
      jobs_enabled: true,
      snippets_enabled: true,
      container_registry_enabled: true,
      service_desk_enabled: false,
      can_create_merge_request_in: level >= 30,
      issues_access_level: p.issues_enabled ? 'enabled' : 'disabled',
      creator_id: p.namespace.kind === 'user' ? p.namespace.id : 1,
      open_issues_count: [...this.state.issues.values()].filter((i) => i.project_id === p.id && i.state === 'opened').length,
      updated_at: iso(p.updated_at),
      permissions: {
        project_access: direct === null ? null : { access_level: direct, notification_level: 3 },
        group_access: group === null ? null : { access_level: group, notification_level: 3 },
      },
    };
  }

  group(g: GroupRecord): Json {
    return {
      id: g.id,
      web_url: `${this.baseUrl()}/groups/${this.state.groupFullPath(g.id)}`,
      name: g.name,
      path: g.path,
      description: g.description,
      visibility: g.visibility,
      share_with_group_lock: false,
      require_two_factor_authentication: false,
      two_factor_grace_period: 48,
      project_creation_level: 'developer',
      auto_devops_enabled: null,
      subgroup_creation_level: 'maintainer',
      emails_disabled: false,
      emails_enabled: true,
      mentions_disabled: null,
      lfs_enabled: true,
      archived: false,
      default_branch: null,
      default_branch_protection: 2,
      avatar_url: null,
      request_access_enabled: true,
      full_name: this.state.groupFullName(g.id),
      full_path: this.state.groupFullPath(g.id),
      created_at: iso(g.created_at),
      parent_id: g.parent_id,
      organization_id: 1,
      shared_runners_setting: 'enabled',
      max_artifacts_size: null,
    };
  }

  label(l: LabelRecord, projectId: number | null): Json {
    const issues = [...this.state.issues.values()].filter((i) => i.labels.includes(l.id) && (projectId === null || i.project_id === projectId));
    return {
      id: l.id,
      name: l.name,
      description: l.description,
      description_html: l.description ?? '',
      text_color: '#FFFFFF',
      color: l.color,
      archived: false,
      open_issues_count: issues.filter((i) => i.state === 'opened').length,
      closed_issues_count: issues.filter((i) => i.state === 'closed').length,
      open_merge_requests_count: 0,
      subscribed: false,
      priority: null,
      is_project_label: l.projectId !== null,
    };
  }

  issue(i: IssueRecord): Json {
    const p = this.state.projects.get(i.project_id)!;
    const fullPath = this.state.projectFullPath(p);
    const api = `${this.baseUrl()}/api/v4/projects/${p.id}`;
    const assignees = i.assignee_ids.map((id) => this.userById(id)).filter((u): u is Json => u !== null);
    const labels = i.labels
      .map((id) => this.state.labels.get(id)?.name)
      .filter((n): n is string => typeof n === 'string')
      .sort();
    const tasks = (i.description ?? '').match(/^\s*[-*] \[[ xX]\]/gm) ?? [];
    const done = (i.description ?? '').match(/^\s*[-*] \[[xX]\]/gm) ?? [];
    return {
      id: i.id,
      iid: i.iid,
      project_id: i.project_id,
      title: i.title,
      description: i.description,
      state: i.state,
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      closed_at: iso(i.closed_at),
      closed_by: this.userById(i.closed_by_id),
      labels,
      milestone: null,
      assignees,
      author: this.userById(i.author_id),
      type: i.issue_type.toUpperCase(),
      assignee: assignees[0] ?? null,
      user_notes_count: this.state.userNotesCount(i.id),
      merge_requests_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: i.due_date,
      confidential: i.confidential,
      discussion_locked: i.discussion_locked,
      issue_type: i.issue_type,
      web_url: `${this.baseUrl()}/${fullPath}/-/issues/${i.iid}`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: tasks.length, completed_count: done.length },
      blocking_issues_count: 0,
      has_tasks: tasks.length > 0,
      ...(tasks.length > 0 ? { task_status: `${done.length} of ${tasks.length} checklist items completed` } : {}),
      _links: {
        self: `${api}/issues/${i.iid}`,
        notes: `${api}/issues/${i.iid}/notes`,
        award_emoji: `${api}/issues/${i.iid}/award_emoji`,
        project: api,
        closed_as_duplicate_of: null,
      },
      references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${fullPath}#${i.iid}` },
      severity: 'UNKNOWN',
      moved_to_id: i.moved_to_id,
      imported: false,
      imported_from: 'none',
      service_desk_reply_to: null,
    };
  }

  note(n: NoteRecord): Json {
    const issue = this.state.issues.get(n.issue_id);
    return {
      id: n.id,
      type: null,
      body: n.body,
      author: this.userById(n.author_id),
      created_at: iso(n.created_at),
      updated_at: iso(n.updated_at),
      system: n.system,
      noteable_id: n.issue_id,
      noteable_type: 'Issue',
      project_id: issue?.project_id ?? null,
      resolvable: false,
      confidential: n.internal,
      internal: n.internal,
      imported: false,
      imported_from: 'none',
      noteable_iid: issue?.iid ?? null,
      commands_changes: {},
    };
  }

  upload(u: UploadRecord): Json {
    const url = `/uploads/${u.secret}/${u.filename}`;
    const alt = u.filename.replace(/\.[^.]+$/, '');
    return {
      id: u.id,
      alt,
      url,
      full_path: `/-/project/${u.project_id}${url}`,
      markdown: IMAGE.test(u.filename) ? `![${alt}](${url})` : `[${u.filename}](${url})`,
    };
  }
}
