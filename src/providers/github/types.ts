/**
 * The parts of GitHub REST JSON (api.github.com, API version 2022-11-28) the adapter reads. Everything
 * else is kept as received in `remote_data`; fields are optional because GitHub leaves some out on
 * some endpoints (e.g. `body_html` only with the `full`/`html` media types).
 */

export interface GhUser {
  id: number;
  login: string;
  name?: string | null;
  email?: string | null;
  type?: string;
  created_at?: string | null;
  updated_at?: string | null;
  [k: string]: unknown;
}

export interface GhLabel {
  id?: number;
  name?: string;
  color?: string | null;
  description?: string | null;
  [k: string]: unknown;
}

export interface GhRepoPermissions {
  admin?: boolean;
  maintain?: boolean;
  push?: boolean;
  triage?: boolean;
  pull?: boolean;
}

export interface GhRepository {
  id: number;
  name: string;
  full_name: string;
  description?: string | null;
  private?: boolean;
  archived?: boolean;
  has_issues?: boolean;
  permissions?: GhRepoPermissions;
  created_at?: string | null;
  updated_at?: string | null;
  [k: string]: unknown;
}

export interface GhIssue {
  id: number;
  number: number;
  url?: string;
  repository_url?: string;
  html_url?: string;
  state?: 'open' | 'closed' | string;
  state_reason?: string | null;
  title?: string | null;
  body?: string | null;
  user?: GhUser | null;
  /** Label objects (or, in old payloads, bare names). */
  labels?: Array<GhLabel | string>;
  assignee?: GhUser | null;
  assignees?: GhUser[] | null;
  /** Present on pull requests: the issues API lists them too. */
  pull_request?: Record<string, unknown> | null;
  repository?: { full_name?: string } | null;
  closed_at?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
  [k: string]: unknown;
}

export interface GhComment {
  id: number;
  body?: string | null;
  body_text?: string | null;
  body_html?: string | null;
  html_url?: string;
  issue_url?: string;
  user?: GhUser | null;
  created_at?: string | null;
  updated_at?: string | null;
  [k: string]: unknown;
}

/** Body of POST /repos/{owner}/{repo}/issues and PATCH …/issues/{number}, as far as the adapter fills it. */
export interface GhIssueWrite {
  title?: string;
  body?: string | null;
  state?: 'open' | 'closed';
  state_reason?: 'completed' | 'not_planned' | 'reopened';
  labels?: string[];
  assignees?: string[];
}

/** `{message, errors, documentation_url}`: GitHub's error body. */
export interface GhErrorBody {
  message?: string;
  errors?: Array<{ resource?: string; field?: string; code?: string; message?: string; value?: unknown } | string>;
  documentation_url?: string;
  status?: string;
}
