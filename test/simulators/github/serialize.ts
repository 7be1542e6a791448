/**
 * GitHub REST JSON of the simulator's objects, shaped like api.github.com answers them (every
 * property the official description requires, URLs pointing back at the simulator).
 */
import type { GithubState, SimComment, SimIssue, SimLabel, SimRepo, SimUser } from './state';

export const HTML_BASE = 'https://github.com';

const nodeId = (kind: string, id: number) => Buffer.from(`${kind}:${id}`).toString('base64').replace(/=+$/, '');

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A small stand-in for GitHub's Markdown rendering: paragraphs, escaped text, `**bold**`. */
export function renderMarkdown(md: string): string {
  return md
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p dir="auto">${escapeHtml(p).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>').replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/** Plain text of the Markdown (what `body_text` carries). */
export function markdownText(md: string): string {
  return md.replace(/\*\*(.+?)\*\*/g, '$1').replace(/\n{2,}/g, '\n');
}

export type BodyFormat = 'raw' | 'text' | 'html' | 'full';

/** The media type of the `Accept` header: `application/vnd.github[.v3].{raw|text|html|full}+json`. */
export function bodyFormat(accept: string | string[] | undefined): BodyFormat {
  const a = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  const m = /application\/vnd\.github(?:\.v3)?\.(raw|text|html|full)\+json/.exec(a);
  return (m?.[1] as BodyFormat | undefined) ?? 'raw';
}

export class Serializer {
  constructor(
    private readonly state: GithubState,
    private readonly apiBase: () => string,
  ) {}

  simpleUser(u: SimUser) {
    const api = this.apiBase();
    return {
      login: u.login,
      id: u.id,
      node_id: nodeId('User', u.id),
      avatar_url: `https://avatars.githubusercontent.com/u/${u.id}?v=4`,
      gravatar_id: '',
      url: `${api}/users/${u.login}`,
      html_url: `${HTML_BASE}/${u.login}`,
      followers_url: `${api}/users/${u.login}/followers`,
      following_url: `${api}/users/${u.login}/following{/other_user}`,
      gists_url: `${api}/users/${u.login}/gists{/gist_id}`,
      starred_url: `${api}/users/${u.login}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/users/${u.login}/subscriptions`,
      organizations_url: `${api}/users/${u.login}/orgs`,
      repos_url: `${api}/users/${u.login}/repos`,
      events_url: `${api}/users/${u.login}/events{/privacy}`,
      received_events_url: `${api}/users/${u.login}/received_events`,
      type: u.type,
      site_admin: false,
    };
  }

  userByLogin(login: string) {
    return this.simpleUser(this.state.user(login)!);
  }

  /** `GET /user`: the authenticated user (private-user). */
  privateUser(u: SimUser) {
    const owned = [...this.state.repos.values()].filter((r) => r.owner === u.login);
    return {
      ...this.simpleUser(u),
      name: u.name,
      company: null,
      blog: '',
      location: null,
      email: u.email,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: owned.filter((r) => !r.private).length,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: u.created_at,
      updated_at: u.updated_at,
      private_gists: 0,
      total_private_repos: owned.filter((r) => r.private).length,
      owned_private_repos: owned.filter((r) => r.private).length,
      disk_usage: 0,
      collaborators: 0,
      two_factor_authentication: true,
      plan: { name: 'free', space: 976562499, private_repos: 10000, collaborators: 0 },
    };
  }

  label(repo: SimRepo, l: SimLabel) {
    return {
      id: l.id,
      node_id: nodeId('Label', l.id),
      url: `${this.apiBase()}/repos/${this.state.fullName(repo)}/labels/${encodeURIComponent(l.name)}`,
      name: l.name,
      color: l.color,
      default: l.default,
      description: l.description,
    };
  }

  repository(repo: SimRepo, viewer: string | undefined) {
    const api = this.apiBase();
    const full = this.state.fullName(repo);
    const r = `${api}/repos/${full}`;
    const openIssues = this.state.issuesOf(repo).filter((i) => i.state === 'open').length;
    const role = viewer ? this.state.roleOf(repo, viewer) : undefined;
    const owner = this.state.user(repo.owner)!;
    return {
      id: repo.id,
      node_id: nodeId('Repository', repo.id),
      name: repo.name,
      full_name: full,
      owner: this.simpleUser(owner),
      private: repo.private,
      html_url: `${HTML_BASE}/${full}`,
      description: repo.description,
      fork: false,
      url: r,
      archive_url: `${r}/{archive_format}{/ref}`,
      assignees_url: `${r}/assignees{/user}`,
      blobs_url: `${r}/git/blobs{/sha}`,
      branches_url: `${r}/branches{/branch}`,
      collaborators_url: `${r}/collaborators{/collaborator}`,
      comments_url: `${r}/comments{/number}`,
      commits_url: `${r}/commits{/sha}`,
      compare_url: `${r}/compare/{base}...{head}`,
      contents_url: `${r}/contents/{+path}`,
      contributors_url: `${r}/contributors`,
      deployments_url: `${r}/deployments`,
      downloads_url: `${r}/downloads`,
      events_url: `${r}/events`,
      forks_url: `${r}/forks`,
      git_commits_url: `${r}/git/commits{/sha}`,
      git_refs_url: `${r}/git/refs{/sha}`,
      git_tags_url: `${r}/git/tags{/sha}`,
      git_url: `git://github.com/${full}.git`,
      issue_comment_url: `${r}/issues/comments{/number}`,
      issue_events_url: `${r}/issues/events{/number}`,
      issues_url: `${r}/issues{/number}`,
      keys_url: `${r}/keys{/key_id}`,
      labels_url: `${r}/labels{/name}`,
      languages_url: `${r}/languages`,
      merges_url: `${r}/merges`,
      milestones_url: `${r}/milestones{/number}`,
      notifications_url: `${r}/notifications{?since,all,participating}`,
      pulls_url: `${r}/pulls{/number}`,
      releases_url: `${r}/releases{/id}`,
      ssh_url: `git@github.com:${full}.git`,
      stargazers_url: `${r}/stargazers`,
      statuses_url: `${r}/statuses/{sha}`,
      subscribers_url: `${r}/subscribers`,
      subscription_url: `${r}/subscription`,
      tags_url: `${r}/tags`,
      teams_url: `${r}/teams`,
      trees_url: `${r}/git/trees{/sha}`,
      clone_url: `${HTML_BASE}/${full}.git`,
      mirror_url: null,
      hooks_url: `${r}/hooks`,
      svn_url: `${HTML_BASE}/${full}`,
      homepage: null,
      language: null,
      forks_count: 0,
      stargazers_count: 0,
      watchers_count: 0,
      size: 0,
      default_branch: 'main',
      open_issues_count: openIssues,
      is_template: false,
      topics: [],
      has_issues: repo.has_issues,
      has_projects: true,
      has_wiki: true,
      has_pages: false,
      has_downloads: true,
      archived: repo.archived,
      disabled: false,
      visibility: repo.private ? 'private' : 'public',
      pushed_at: repo.pushed_at,
      created_at: repo.created_at,
      updated_at: repo.updated_at,
      permissions: {
        admin: role === 'admin',
        maintain: role === 'admin' || role === 'maintain',
        push: role === 'admin' || role === 'maintain' || role === 'write',
        triage: role !== undefined && role !== 'read',
        pull: role !== undefined || !repo.private,
      },
      allow_forking: true,
      license: null,
      forks: 0,
      open_issues: openIssues,
      watchers: 0,
      network_count: 0,
      subscribers_count: 0,
    };
  }

  private bodyFields(body: string | null, format: BodyFormat): Record<string, string | null> {
    const out: Record<string, string | null> = {};
    if (format === 'raw' || format === 'full') out.body = body;
    if (format === 'text' || format === 'full') out.body_text = body === null ? null : markdownText(body);
    if (format === 'html' || format === 'full') out.body_html = body === null ? null : renderMarkdown(body);
    return out;
  }

  private association(repo: SimRepo, login: string): string {
    if (repo.owner.toLowerCase() === login.toLowerCase()) return 'OWNER';
    const role = this.state.roleOf(repo, login);
    if (role) return this.state.user(repo.owner)?.type === 'Organization' ? 'MEMBER' : 'COLLABORATOR';
    return 'NONE';
  }

  private reactions(url: string) {
    return { url: `${url}/reactions`, total_count: 0, '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 };
  }

  issue(i: SimIssue, format: BodyFormat = 'raw') {
    const repo = this.state.repos.get(i.repoId)!;
    const full = this.state.fullName(repo);
    const api = this.apiBase();
    const url = `${api}/repos/${full}/issues/${i.number}`;
    const assignees = i.assignees.map((l) => this.userByLogin(l));
    return {
      id: i.id,
      node_id: nodeId(i.pull ? 'PullRequest' : 'Issue', i.id),
      url,
      repository_url: `${api}/repos/${full}`,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: `${HTML_BASE}/${full}/${i.pull ? 'pull' : 'issues'}/${i.number}`,
      number: i.number,
      state: i.state,
      state_reason: i.state_reason,
      title: i.title,
      ...this.bodyFields(i.body, format),
      user: this.userByLogin(i.user),
      labels: i.labelIds.flatMap((id) => {
        const l = this.state.labelById(repo, id);
        return l ? [this.label(repo, l)] : [];
      }),
      assignee: assignees[0] ?? null,
      assignees,
      milestone: null,
      locked: i.locked,
      active_lock_reason: null,
      comments: this.state.commentsOf(i).length,
      ...(i.pull
        ? {
            pull_request: {
              url: `${api}/repos/${full}/pulls/${i.number}`,
              html_url: `${HTML_BASE}/${full}/pull/${i.number}`,
              diff_url: `${HTML_BASE}/${full}/pull/${i.number}.diff`,
              patch_url: `${HTML_BASE}/${full}/pull/${i.number}.patch`,
              merged_at: null,
            },
          }
        : {}),
      closed_at: i.closed_at,
      created_at: i.created_at,
      updated_at: i.updated_at,
      closed_by: i.closed_by ? this.userByLogin(i.closed_by) : null,
      author_association: this.association(repo, i.user),
      reactions: this.reactions(url),
      timeline_url: `${url}/timeline`,
      performed_via_github_app: null,
    };
  }

  comment(c: SimComment, format: BodyFormat = 'raw') {
    const repo = this.state.repos.get(c.repoId)!;
    const full = this.state.fullName(repo);
    const api = this.apiBase();
    const issue = this.state.issue(repo, c.issueNumber);
    const url = `${api}/repos/${full}/issues/comments/${c.id}`;
    return {
      id: c.id,
      node_id: nodeId('IssueComment', c.id),
      url,
      html_url: `${HTML_BASE}/${full}/${issue?.pull ? 'pull' : 'issues'}/${c.issueNumber}#issuecomment-${c.id}`,
      ...this.bodyFields(c.body, format),
      user: this.userByLogin(c.user),
      created_at: c.created_at,
      updated_at: c.updated_at,
      issue_url: `${api}/repos/${full}/issues/${c.issueNumber}`,
      author_association: this.association(repo, c.user),
      reactions: this.reactions(url),
      performed_via_github_app: null,
    };
  }
}
