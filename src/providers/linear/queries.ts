/**
 * Every GraphQL document the adapter sends. The simulator validates each one against Linear's
 * published schema (packages/sdk/src/schema.graphql of linear/linear).
 */

/** Nested connections are read this far in the same query; longer lists are continued with a follow-up query. */
export const NESTED_PAGE = 20;

export const ISSUE_FIELDS = /* GraphQL */ `
  fragment IssueFields on Issue {
    id
    identifier
    number
    title
    description
    priority
    priorityLabel
    dueDate
    estimate
    url
    createdAt
    updatedAt
    startedAt
    completedAt
    canceledAt
    archivedAt
    trashed
    team { id key name }
    state { id name type }
    assignee { id name email }
    creator { id }
    parent { id identifier }
    labels(first: ${NESTED_PAGE}) { nodes { id name } pageInfo { hasNextPage endCursor } }
  }
`;

export const COMMENT_FIELDS = /* GraphQL */ `
  fragment CommentFields on Comment {
    id
    body
    url
    createdAt
    updatedAt
    editedAt
    archivedAt
    issueId
    parentId
    user { id name email }
  }
`;

export const USER_FIELDS = /* GraphQL */ `
  fragment UserFields on User {
    id
    name
    displayName
    email
    active
    admin
    guest
    app
    url
    createdAt
    updatedAt
    archivedAt
    teams(first: ${NESTED_PAGE}) { nodes { id } pageInfo { hasNextPage endCursor } }
  }
`;

export const TEAM_FIELDS = /* GraphQL */ `
  fragment TeamFields on Team {
    id
    key
    name
    displayName
    description
    createdAt
    updatedAt
    archivedAt
    parent { id }
  }
`;

export const LABEL_FIELDS = /* GraphQL */ `
  fragment LabelFields on IssueLabel {
    id
    name
    color
    description
    isGroup
    createdAt
    updatedAt
    archivedAt
    team { id }
    parent { id name }
  }
`;

export const VIEWER = /* GraphQL */ `
  query OmniportViewer {
    viewer { id name email active }
  }
`;

export const ISSUES = /* GraphQL */ `
  query OmniportIssues($first: Int, $after: String, $filter: IssueFilter) {
    issues(first: $first, after: $after, filter: $filter, includeArchived: true, orderBy: createdAt) {
      nodes { ...IssueFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${ISSUE_FIELDS}
`;

/**
 * Issues named by a webhook, read by id (`IssueIDComparator.in`), archived and trashed ones too (a trashed issue is
 * reported deleted, as the runs report it).
 */
export const ISSUES_BY_IDS = /* GraphQL */ `
  query OmniportIssuesByIds($first: Int, $after: String, $ids: [ID!]) {
    issues(first: $first, after: $after, filter: { id: { in: $ids } }, includeArchived: true, orderBy: createdAt) {
      nodes { ...IssueFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${ISSUE_FIELDS}
`;

/** Ids alone, for the deletion check (archived and trashed issues too: the runs report those). */
export const ISSUE_IDS = /* GraphQL */ `
  query OmniportIssueIds($first: Int, $after: String) {
    issues(first: $first, after: $after, includeArchived: true, orderBy: createdAt) {
      nodes { id }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export const COMMENT_IDS = /* GraphQL */ `
  query OmniportCommentIds($first: Int, $after: String, $filter: CommentFilter) {
    comments(first: $first, after: $after, filter: $filter, includeArchived: true, orderBy: createdAt) {
      nodes { id }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export const ISSUE = /* GraphQL */ `
  query OmniportIssue($id: String!) {
    issue(id: $id) { ...IssueFields }
  }
  ${ISSUE_FIELDS}
`;

/** The rest of an issue's labels, when it has more than NESTED_PAGE. */
export const ISSUE_LABELS = /* GraphQL */ `
  query OmniportIssueLabels($id: String!, $first: Int, $after: String) {
    issue(id: $id) {
      labels(first: $first, after: $after) { nodes { id name } pageInfo { hasNextPage endCursor } }
    }
  }
`;

export const COMMENTS = /* GraphQL */ `
  query OmniportComments($first: Int, $after: String, $filter: CommentFilter) {
    comments(first: $first, after: $after, filter: $filter, includeArchived: true, orderBy: createdAt) {
      nodes { ...CommentFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${COMMENT_FIELDS}
`;

/** Comments named by a webhook, read by id (archived ones too: an archived comment is a deleted one). */
export const COMMENTS_BY_IDS = /* GraphQL */ `
  query OmniportCommentsByIds($first: Int, $after: String, $ids: [ID!]) {
    comments(first: $first, after: $after, filter: { id: { in: $ids } }, includeArchived: true, orderBy: createdAt) {
      nodes { ...CommentFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${COMMENT_FIELDS}
`;

export const USERS = /* GraphQL */ `
  query OmniportUsers($first: Int, $after: String) {
    users(first: $first, after: $after, includeDisabled: true, includeArchived: true, orderBy: createdAt) {
      nodes { ...UserFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${USER_FIELDS}
`;

/** The rest of a user's teams, when they belong to more than NESTED_PAGE. */
export const USER_TEAMS = /* GraphQL */ `
  query OmniportUserTeams($id: String!, $first: Int, $after: String) {
    user(id: $id) {
      teams(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } }
    }
  }
`;

export const TEAMS = /* GraphQL */ `
  query OmniportTeams($first: Int, $after: String) {
    teams(first: $first, after: $after, includeArchived: true, orderBy: createdAt) {
      nodes { ...TeamFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${TEAM_FIELDS}
`;

export const LABELS = /* GraphQL */ `
  query OmniportLabels($first: Int, $after: String, $filter: IssueLabelFilter) {
    issueLabels(first: $first, after: $after, filter: $filter, includeArchived: true, orderBy: createdAt) {
      nodes { ...LabelFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${LABEL_FIELDS}
`;

/** Labels usable on an issue of a team: the team's own and the workspace's (no team), not archived. */
export const TEAM_LABELS = /* GraphQL */ `
  query OmniportTeamLabels($first: Int, $after: String, $filter: IssueLabelFilter) {
    issueLabels(first: $first, after: $after, filter: $filter) {
      nodes { id name isGroup team { id } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export const TEAM_STATES = /* GraphQL */ `
  query OmniportTeamStates($first: Int, $after: String, $filter: WorkflowStateFilter) {
    workflowStates(first: $first, after: $after, filter: $filter) {
      nodes { id name type position team { id } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

/** What a write needs to know of an existing issue: its team and current state. */
export const ISSUE_CONTEXT = /* GraphQL */ `
  query OmniportIssueContext($id: String!) {
    issue(id: $id) { id team { id } state { id type } }
  }
`;

export const ISSUE_CREATE = /* GraphQL */ `
  mutation OmniportIssueCreate($input: IssueCreateInput!) {
    issueCreate(input: $input) { success issue { ...IssueFields } }
  }
  ${ISSUE_FIELDS}
`;

export const ISSUE_BATCH_CREATE = /* GraphQL */ `
  mutation OmniportIssueBatchCreate($input: IssueBatchCreateInput!) {
    issueBatchCreate(input: $input) { success issues { ...IssueFields } }
  }
  ${ISSUE_FIELDS}
`;

export const ISSUE_UPDATE = /* GraphQL */ `
  mutation OmniportIssueUpdate($id: String!, $input: IssueUpdateInput!) {
    issueUpdate(id: $id, input: $input) { success issue { ...IssueFields } }
  }
  ${ISSUE_FIELDS}
`;

export const COMMENT_CREATE = /* GraphQL */ `
  mutation OmniportCommentCreate($input: CommentCreateInput!) {
    commentCreate(input: $input) { success comment { ...CommentFields } }
  }
  ${COMMENT_FIELDS}
`;

export const LABEL_CREATE = /* GraphQL */ `
  mutation OmniportLabelCreate($input: IssueLabelCreateInput!) {
    issueLabelCreate(input: $input) { success issueLabel { id name isGroup team { id } } }
  }
`;

export const FILE_UPLOAD = /* GraphQL */ `
  mutation OmniportFileUpload($contentType: String!, $filename: String!, $size: Int!) {
    fileUpload(contentType: $contentType, filename: $filename, size: $size) {
      success
      uploadFile { uploadUrl assetUrl contentType filename size headers { key value } }
    }
  }
`;
