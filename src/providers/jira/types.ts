/** Jira Cloud REST API v3 JSON, as far as the adapter reads and writes it. */
import type { AdfDoc } from './adf';

export interface JiraUser {
  accountId: string;
  accountType?: 'atlassian' | 'app' | 'customer' | 'unknown' | string;
  active?: boolean;
  displayName?: string;
  emailAddress?: string | null;
  timeZone?: string;
  self?: string;
  [k: string]: unknown;
}

export interface JiraStatusCategory {
  id?: number;
  /** `new` (To Do), `indeterminate` (In Progress), `done` (Done), `undefined` (No Category). */
  key?: string;
  name?: string;
}

export interface JiraStatus {
  id?: string;
  name?: string;
  statusCategory?: JiraStatusCategory;
}

export interface JiraNamed {
  id?: string;
  name?: string;
}

export interface JiraIssueType extends JiraNamed {
  subtask?: boolean;
  hierarchyLevel?: number;
}

export interface JiraProjectRef {
  id: string;
  key?: string;
  name?: string;
}

export interface JiraAttachment {
  id: string;
  filename?: string;
  content?: string;
  mimeType?: string;
  size?: number;
  created?: string;
  author?: JiraUser;
  self?: string;
  [k: string]: unknown;
}

export interface JiraIssueFields {
  summary?: string;
  description?: AdfDoc | string | null;
  status?: JiraStatus;
  priority?: JiraNamed | null;
  issuetype?: JiraIssueType;
  project?: JiraProjectRef;
  labels?: string[];
  assignee?: JiraUser | null;
  reporter?: JiraUser | null;
  creator?: JiraUser | null;
  duedate?: string | null;
  resolutiondate?: string | null;
  statuscategorychangedate?: string | null;
  resolution?: JiraNamed | null;
  parent?: { id: string; key?: string } | null;
  created?: string;
  updated?: string;
  attachment?: JiraAttachment[];
  [field: string]: unknown;
}

export interface JiraIssue {
  id: string;
  key?: string;
  self?: string;
  fields?: JiraIssueFields;
  [k: string]: unknown;
}

export interface JiraComment {
  id: string;
  author?: JiraUser;
  updateAuthor?: JiraUser;
  body?: AdfDoc | string;
  created?: string;
  updated?: string;
  visibility?: { type?: 'group' | 'role'; value?: string; identifier?: string | null };
  jsdPublic?: boolean;
  self?: string;
  [k: string]: unknown;
}

export interface JiraProject {
  id: string;
  key?: string;
  name?: string;
  description?: string;
  projectTypeKey?: string;
  style?: string;
  archived?: boolean;
  deleted?: boolean;
  [k: string]: unknown;
}

export interface JiraGroup {
  groupId: string;
  name?: string;
}

export interface JiraTransition {
  id: string;
  name?: string;
  to?: JiraStatus;
  isAvailable?: boolean;
  hasScreen?: boolean;
  fields?: Record<string, { required?: boolean; hasDefaultValue?: boolean; allowedValues?: Array<{ id?: string; name?: string; value?: string }>; schema?: { type?: string } }>;
}

export interface JiraFieldDefinition {
  id: string;
  key?: string;
  name?: string;
  custom?: boolean;
  schema?: { type?: string; items?: string; system?: string; custom?: string; customId?: number };
}

export interface JiraCreateMetaIssueType {
  id: string;
  name: string;
  subtask?: boolean;
  hierarchyLevel?: number;
}

/** The offset-paginated page shape (`PageBean…`): projects, labels, groups, group members. */
export interface JiraPageBean<T> {
  startAt?: number;
  maxResults?: number;
  total?: number;
  isLast?: boolean;
  values?: T[];
}

export interface JiraSearchPage {
  issues?: JiraIssue[];
  nextPageToken?: string | null;
  isLast?: boolean;
}

export interface JiraErrorCollection {
  errorMessages?: string[];
  errors?: Record<string, string>;
  status?: number;
}
