/**
 * The parts of Linear's GraphQL objects the adapter selects (see queries.ts). Everything selected is
 * kept as received in `remote_data`.
 */

export interface LnPageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface LnConnection<T> {
  nodes: T[];
  pageInfo: LnPageInfo;
}

/** Workflow state types, in Linear's own words. */
export type LnStateType = 'triage' | 'backlog' | 'unstarted' | 'started' | 'completed' | 'canceled' | 'duplicate' | string;

export interface LnRef {
  id: string;
}

export interface LnWorkflowState {
  id: string;
  name: string;
  type: LnStateType;
  position: number;
  archivedAt?: string | null;
  team?: LnRef | null;
}

export interface LnLabelRef {
  id: string;
  name: string;
}

export interface LnIssue {
  id: string;
  identifier?: string;
  number?: number;
  title: string;
  description?: string | null;
  /** 0 = no priority, 1 = urgent, 2 = high, 3 = medium, 4 = low. */
  priority?: number | null;
  priorityLabel?: string | null;
  /** `YYYY-MM-DD`. */
  dueDate?: string | null;
  url?: string;
  estimate?: number | null;
  createdAt?: string;
  updatedAt?: string;
  startedAt?: string | null;
  completedAt?: string | null;
  canceledAt?: string | null;
  archivedAt?: string | null;
  trashed?: boolean | null;
  team?: { id: string; key?: string; name?: string } | null;
  state?: { id: string; name?: string; type?: LnStateType } | null;
  assignee?: { id: string; name?: string; email?: string } | null;
  creator?: LnRef | null;
  parent?: { id: string; identifier?: string } | null;
  labels?: LnConnection<LnLabelRef> | null;
  [k: string]: unknown;
}

export interface LnComment {
  id: string;
  /** Markdown. */
  body: string;
  url?: string;
  createdAt?: string;
  updatedAt?: string;
  editedAt?: string | null;
  archivedAt?: string | null;
  issueId?: string | null;
  parentId?: string | null;
  user?: { id: string; name?: string; email?: string } | null;
  [k: string]: unknown;
}

export interface LnUser {
  id: string;
  name?: string | null;
  displayName?: string | null;
  email?: string | null;
  active?: boolean;
  admin?: boolean;
  guest?: boolean;
  app?: boolean;
  url?: string;
  createdAt?: string;
  updatedAt?: string;
  archivedAt?: string | null;
  teams?: LnConnection<LnRef> | null;
  [k: string]: unknown;
}

export interface LnTeam {
  id: string;
  key?: string;
  name?: string | null;
  displayName?: string | null;
  description?: string | null;
  createdAt?: string;
  updatedAt?: string;
  archivedAt?: string | null;
  parent?: LnRef | null;
  [k: string]: unknown;
}

export interface LnLabel {
  id: string;
  name: string;
  color?: string;
  description?: string | null;
  isGroup?: boolean;
  createdAt?: string;
  updatedAt?: string;
  archivedAt?: string | null;
  team?: LnRef | null;
  parent?: { id: string; name?: string } | null;
  [k: string]: unknown;
}

export interface LnUploadFile {
  uploadUrl: string;
  assetUrl: string;
  contentType?: string;
  filename?: string;
  size?: number;
  headers: Array<{ key: string; value: string }>;
}

/** One error of a GraphQL response, as Linear sends it. */
export interface LnGraphQLError {
  message?: string;
  path?: Array<string | number>;
  extensions?: {
    code?: string;
    type?: string;
    userError?: boolean;
    userPresentableMessage?: string;
    statusCode?: number;
    [k: string]: unknown;
  };
}

export interface LnResponse<T> {
  data?: T | null;
  errors?: LnGraphQLError[];
}

/** The write input of issueCreate / issueUpdate, as far as the adapter fills it. */
export interface LnIssueInput {
  /** Our own UUID v4 for the new issue (bulk create), so results can be matched. */
  id?: string;
  teamId?: string;
  title?: string;
  description?: string;
  priority?: number;
  stateId?: string;
  assigneeId?: string | null;
  labelIds?: string[];
  dueDate?: string | null;
  parentId?: string | null;
}
