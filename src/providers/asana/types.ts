/** Asana objects as the adapter reads them (only the fields it asks for with `opt_fields`). */
export interface AsRef {
  gid: string;
  name?: string | null;
  resource_type?: string;
}

export interface AsCustomField {
  gid: string;
  name?: string | null;
  resource_subtype?: string | null;
  type?: string | null;
  text_value?: string | null;
  number_value?: number | null;
  enum_value?: AsRef | null;
  date_value?: { date?: string | null; date_time?: string | null } | null;
  display_value?: string | null;
}

export interface AsTask {
  gid: string;
  name?: string | null;
  notes?: string | null;
  resource_subtype?: string | null;
  completed?: boolean;
  completed_at?: string | null;
  due_on?: string | null;
  due_at?: string | null;
  created_at?: string | null;
  modified_at?: string | null;
  assignee?: AsRef | null;
  parent?: AsRef | null;
  projects?: AsRef[];
  memberships?: Array<{ project?: AsRef | null; section?: AsRef | null }>;
  tags?: AsRef[];
  custom_fields?: AsCustomField[];
  workspace?: AsRef | null;
  permalink_url?: string | null;
}

export interface AsStory {
  gid: string;
  created_at?: string | null;
  created_by?: AsRef | null;
  resource_subtype?: string | null;
  type?: string | null;
  text?: string | null;
  html_text?: string | null;
}

export interface AsAttachment {
  gid: string;
  name?: string | null;
  created_at?: string | null;
  download_url?: string | null;
  permanent_url?: string | null;
  host?: string | null;
  parent?: AsRef | null;
}

export interface AsUser {
  gid: string;
  name?: string | null;
  email?: string | null;
  workspaces?: AsRef[];
}

export interface AsProject {
  gid: string;
  name?: string | null;
  notes?: string | null;
  archived?: boolean;
  team?: AsRef | null;
  created_at?: string | null;
  modified_at?: string | null;
}

export interface AsTeam {
  gid: string;
  name?: string | null;
  description?: string | null;
}

export interface AsWorkspace {
  gid: string;
  name?: string | null;
  is_organization?: boolean;
}

/** One event of `GET /events` (Events → Get events on a resource). */
export interface AsEvent {
  action?: string;
  type?: string;
  created_at?: string;
  resource?: AsRef | null;
  parent?: AsRef | null;
  user?: AsRef | null;
  change?: { field?: string; action?: string } | null;
}

/** A list page: `{data: [...], next_page: {offset, path, uri} | null}` (Pagination). */
export interface AsPage<T> {
  data?: T[];
  next_page?: { offset?: string; path?: string; uri?: string } | null;
}

export interface AsTag {
  gid: string;
  name?: string | null;
}
