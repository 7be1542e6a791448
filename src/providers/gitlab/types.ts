/**
 * GitLab REST API v4 JSON, as far as the adapter reads or writes it. Every field is optional or
 * nullable: GitLab omits fields by version and tier (EE-only `weight`, `epic`, …), and the whole
 * object is kept as `remote_data` anyway.
 */

/** `API::Entities::UserBasic` (authors, assignees) and the member entity built on it. */
export interface GlUserBasic {
  id: number;
  username?: string;
  name?: string | null;
  state?: string;
  locked?: boolean;
  avatar_url?: string | null;
  web_url?: string;
  public_email?: string | null;
  /** Only for administrators, or on `GET /user`. */
  email?: string | null;
  created_at?: string | null;
}

/** A project or group member (`GET /projects/:id/members/all`, `GET /groups/:id/members`). */
export interface GlMember extends GlUserBasic {
  access_level?: number;
  expires_at?: string | null;
  membership_state?: string;
}

/** `GET /user`: the token's own user. */
export interface GlCurrentUser extends GlUserBasic {
  email?: string | null;
  bot?: boolean;
}

export interface GlNamespace {
  id: number;
  name?: string;
  path?: string;
  kind?: 'user' | 'group' | string;
  full_path?: string;
  parent_id?: number | null;
  web_url?: string;
}

export interface GlProject {
  id: number;
  name?: string;
  name_with_namespace?: string;
  path?: string;
  path_with_namespace?: string;
  description?: string | null;
  web_url?: string;
  created_at?: string | null;
  updated_at?: string | null;
  last_activity_at?: string | null;
  archived?: boolean;
  visibility?: string;
  issues_enabled?: boolean;
  namespace?: GlNamespace;
}

export interface GlGroup {
  id: number;
  name?: string;
  path?: string;
  full_name?: string;
  full_path?: string;
  description?: string | null;
  parent_id?: number | null;
  web_url?: string;
  created_at?: string | null;
}

export interface GlLabel {
  id: number;
  name: string;
  color?: string;
  description?: string | null;
  is_project_label?: boolean;
}

export type GlIssueState = 'opened' | 'closed';

export interface GlIssue {
  id: number;
  iid: number;
  project_id: number;
  title?: string;
  description?: string | null;
  state?: GlIssueState | string;
  created_at?: string | null;
  updated_at?: string | null;
  closed_at?: string | null;
  closed_by?: GlUserBasic | null;
  /** Label names; objects when `with_labels_details=true`. */
  labels?: Array<string | { name: string }>;
  assignees?: GlUserBasic[];
  assignee?: GlUserBasic | null;
  author?: GlUserBasic | null;
  /** Upper-case work item type (`ISSUE`, `INCIDENT`, …) since GitLab 15.x. */
  type?: string | null;
  /** `issue`, `incident`, `test_case`, `requirement`, `task`, `ticket`. */
  issue_type?: string | null;
  due_date?: string | null;
  confidential?: boolean;
  user_notes_count?: number;
  web_url?: string;
  moved_to_id?: number | null;
  references?: { short?: string; relative?: string; full?: string };
}

/** The JSON body of `POST /projects/:id/issues` and `PUT /projects/:id/issues/:iid`. */
export interface GlIssueBody {
  title?: string;
  description?: string;
  labels?: string[];
  assignee_ids?: number[];
  due_date?: string;
  issue_type?: string;
  state_event?: 'close' | 'reopen';
}

export interface GlNote {
  id: number;
  type?: string | null;
  body?: string | null;
  author?: GlUserBasic | null;
  created_at?: string | null;
  updated_at?: string | null;
  /** Notes GitLab writes itself ("assigned to @x", "changed the description"). */
  system?: boolean;
  noteable_id?: number;
  noteable_type?: string;
  noteable_iid?: number | null;
  project_id?: number;
  /** Internal notes (visible to project members with at least Reporter), since 15.0. */
  internal?: boolean;
  /** The deprecated name of `internal`. */
  confidential?: boolean;
}

/** `POST /projects/:id/uploads`. */
export interface GlUpload {
  /** Since GitLab 17.3. */
  id?: number | string;
  alt?: string;
  /** `/uploads/<secret>/<filename>`: relative to the project, as used in Markdown. */
  url: string;
  /** `/-/project/<id>/uploads/<secret>/<filename>` since 17.1 (before: `/<namespace>/<project>/uploads/…`). */
  full_path?: string;
  markdown?: string;
}
