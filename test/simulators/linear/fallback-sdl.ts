/**
 * The part of Linear's GraphQL schema the simulator models, written by hand (names and types as in
 * Linear's published SDL, no descriptions). Used only when shared/provider-specs/linear/schema.graphql
 * is absent; linear-simulator.unit.test.ts checks it against the published SDL when that is present.
 */
export const FALLBACK_SDL = /* GraphQL */ `
scalar DateTime
scalar DateTimeOrDuration
scalar TimelessDate
scalar TimelessDateOrDuration
scalar JSON
scalar JSONObject

enum PaginationOrderBy { createdAt updatedAt }

type PageInfo {
  hasPreviousPage: Boolean!
  hasNextPage: Boolean!
  startCursor: String
  endCursor: String
}

type Organization {
  id: ID!
  name: String!
  urlKey: String!
  createdAt: DateTime!
  updatedAt: DateTime!
  archivedAt: DateTime
}

type User {
  id: ID!
  name: String!
  displayName: String!
  email: String!
  active: Boolean!
  admin: Boolean!
  guest: Boolean!
  app: Boolean!
  isMe: Boolean!
  initials: String!
  url: String!
  createdAt: DateTime!
  updatedAt: DateTime!
  archivedAt: DateTime
  organization: Organization!
  teams(after: String, before: String, filter: TeamFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): TeamConnection!
}

type Team {
  id: ID!
  key: String!
  name: String!
  displayName: String!
  description: String
  triageEnabled: Boolean!
  createdAt: DateTime!
  updatedAt: DateTime!
  archivedAt: DateTime
  parent: Team
  organization: Organization!
  defaultIssueState: WorkflowState
  states(after: String, before: String, filter: WorkflowStateFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): WorkflowStateConnection!
  labels(after: String, before: String, filter: IssueLabelFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): IssueLabelConnection!
  members(after: String, before: String, filter: UserFilter, first: Int, includeArchived: Boolean, includeDisabled: Boolean, last: Int, orderBy: PaginationOrderBy): UserConnection!
  issues(after: String, before: String, filter: IssueFilter, first: Int, includeArchived: Boolean, includeSubTeams: Boolean, last: Int, orderBy: PaginationOrderBy): IssueConnection!
}

type WorkflowState {
  id: ID!
  name: String!
  type: String!
  position: Float!
  color: String!
  description: String
  createdAt: DateTime!
  updatedAt: DateTime!
  archivedAt: DateTime
  team: Team!
}

type IssueLabel {
  id: ID!
  name: String!
  color: String!
  description: String
  isGroup: Boolean!
  createdAt: DateTime!
  updatedAt: DateTime!
  archivedAt: DateTime
  team: Team
  parent: IssueLabel
  creator: User
}

type Issue {
  id: ID!
  identifier: String!
  number: Float!
  title: String!
  description: String
  priority: Float!
  priorityLabel: String!
  dueDate: TimelessDate
  estimate: Float
  url: String!
  branchName: String!
  labelIds: [String!]!
  previousIdentifiers: [String!]!
  createdAt: DateTime!
  updatedAt: DateTime!
  startedAt: DateTime
  completedAt: DateTime
  canceledAt: DateTime
  archivedAt: DateTime
  trashed: Boolean
  team: Team!
  state: WorkflowState!
  assignee: User
  creator: User
  parent: Issue
  labels(after: String, before: String, filter: IssueLabelFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): IssueLabelConnection!
  children(after: String, before: String, filter: IssueFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): IssueConnection!
  comments(after: String, before: String, filter: CommentFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): CommentConnection!
}

type Comment {
  id: ID!
  body: String!
  url: String!
  createdAt: DateTime!
  updatedAt: DateTime!
  editedAt: DateTime
  archivedAt: DateTime
  issueId: String
  parentId: String
  issue: Issue
  user: User
  parent: Comment
}

type IssueConnection { edges: [IssueEdge!]! nodes: [Issue!]! pageInfo: PageInfo! }
type IssueEdge { node: Issue! cursor: String! }
type CommentConnection { edges: [CommentEdge!]! nodes: [Comment!]! pageInfo: PageInfo! }
type CommentEdge { node: Comment! cursor: String! }
type UserConnection { edges: [UserEdge!]! nodes: [User!]! pageInfo: PageInfo! }
type UserEdge { node: User! cursor: String! }
type TeamConnection { edges: [TeamEdge!]! nodes: [Team!]! pageInfo: PageInfo! }
type TeamEdge { node: Team! cursor: String! }
type IssueLabelConnection { edges: [IssueLabelEdge!]! nodes: [IssueLabel!]! pageInfo: PageInfo! }
type IssueLabelEdge { node: IssueLabel! cursor: String! }
type WorkflowStateConnection { edges: [WorkflowStateEdge!]! nodes: [WorkflowState!]! pageInfo: PageInfo! }
type WorkflowStateEdge { node: WorkflowState! cursor: String! }

type IssuePayload { lastSyncId: Float! issue: Issue success: Boolean! }
type IssueBatchPayload { lastSyncId: Float! issues: [Issue!]! success: Boolean! }
type IssueArchivePayload { lastSyncId: Float! success: Boolean! entity: Issue }
type CommentPayload { lastSyncId: Float! comment: Comment! success: Boolean! }
type DeletePayload { lastSyncId: Float! success: Boolean! entityId: String! }
type IssueLabelPayload { lastSyncId: Float! issueLabel: IssueLabel! success: Boolean! }
type UploadFileHeader { key: String! value: String! }
type UploadFile {
  filename: String!
  contentType: String!
  size: Int!
  uploadUrl: String!
  assetUrl: String!
  metaData: JSONObject
  headers: [UploadFileHeader!]!
}
type UploadPayload { lastSyncId: Float! uploadFile: UploadFile success: Boolean! }

input IDComparator { eq: ID neq: ID in: [ID!] nin: [ID!] }
input IssueIDComparator { eq: ID neq: ID in: [ID!] nin: [ID!] }
input BooleanComparator { eq: Boolean neq: Boolean }
input StringComparator {
  eq: String neq: String in: [String!] nin: [String!] eqIgnoreCase: String neqIgnoreCase: String
  startsWith: String startsWithIgnoreCase: String notStartsWith: String endsWith: String notEndsWith: String
  contains: String containsIgnoreCase: String notContains: String notContainsIgnoreCase: String containsIgnoreCaseAndAccent: String
}
input NullableStringComparator {
  eq: String neq: String in: [String!] nin: [String!] null: Boolean eqIgnoreCase: String neqIgnoreCase: String
  startsWith: String startsWithIgnoreCase: String notStartsWith: String endsWith: String notEndsWith: String
  contains: String containsIgnoreCase: String notContains: String notContainsIgnoreCase: String containsIgnoreCaseAndAccent: String
}
input NumberComparator { eq: Float neq: Float in: [Float!] nin: [Float!] lt: Float lte: Float gt: Float gte: Float }
input NullableNumberComparator { eq: Float neq: Float in: [Float!] nin: [Float!] null: Boolean lt: Float lte: Float gt: Float gte: Float }
input DateComparator {
  eq: DateTimeOrDuration neq: DateTimeOrDuration in: [DateTimeOrDuration!] nin: [DateTimeOrDuration!]
  lt: DateTimeOrDuration lte: DateTimeOrDuration gt: DateTimeOrDuration gte: DateTimeOrDuration
}
input NullableDateComparator {
  eq: DateTimeOrDuration neq: DateTimeOrDuration in: [DateTimeOrDuration!] nin: [DateTimeOrDuration!] null: Boolean
  lt: DateTimeOrDuration lte: DateTimeOrDuration gt: DateTimeOrDuration gte: DateTimeOrDuration
}
input NullableTimelessDateComparator {
  eq: TimelessDateOrDuration neq: TimelessDateOrDuration in: [TimelessDateOrDuration!] nin: [TimelessDateOrDuration!] null: Boolean
  lt: TimelessDateOrDuration lte: TimelessDateOrDuration gt: TimelessDateOrDuration gte: TimelessDateOrDuration
}

input IssueFilter {
  id: IssueIDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  archivedAt: NullableDateComparator
  completedAt: NullableDateComparator
  canceledAt: NullableDateComparator
  startedAt: NullableDateComparator
  title: StringComparator
  description: NullableStringComparator
  priority: NullableNumberComparator
  number: NumberComparator
  dueDate: NullableTimelessDateComparator
  team: TeamFilter
  state: WorkflowStateFilter
  assignee: NullableUserFilter
  creator: NullableUserFilter
  parent: NullableIssueFilter
  labels: IssueLabelCollectionFilter
  and: [IssueFilter!]
  or: [IssueFilter!]
}
input NullableIssueFilter {
  id: IssueIDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  archivedAt: NullableDateComparator
  completedAt: NullableDateComparator
  title: StringComparator
  priority: NullableNumberComparator
  number: NumberComparator
  team: TeamFilter
  state: WorkflowStateFilter
  assignee: NullableUserFilter
  parent: NullableIssueFilter
  null: Boolean
  and: [NullableIssueFilter!]
  or: [NullableIssueFilter!]
}
input IssueLabelCollectionFilter {
  id: IDComparator
  name: StringComparator
  some: IssueLabelFilter
  every: IssueLabelFilter
  length: NumberComparator
  null: Boolean
  and: [IssueLabelCollectionFilter!]
  or: [IssueLabelCollectionFilter!]
}
input CommentFilter {
  id: IDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  body: StringComparator
  issue: NullableIssueFilter
  user: UserFilter
  parent: NullableCommentFilter
  and: [CommentFilter!]
  or: [CommentFilter!]
}
input NullableCommentFilter {
  id: IDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  body: StringComparator
  issue: NullableIssueFilter
  user: UserFilter
  parent: NullableCommentFilter
  null: Boolean
  and: [NullableCommentFilter!]
  or: [NullableCommentFilter!]
}
input UserFilter {
  id: IDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  name: StringComparator
  displayName: StringComparator
  email: StringComparator
  active: BooleanComparator
  admin: BooleanComparator
  app: BooleanComparator
  isMe: BooleanComparator
  and: [UserFilter!]
  or: [UserFilter!]
}
input NullableUserFilter {
  id: IDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  name: StringComparator
  displayName: StringComparator
  email: StringComparator
  active: BooleanComparator
  admin: BooleanComparator
  app: BooleanComparator
  isMe: BooleanComparator
  null: Boolean
  and: [NullableUserFilter!]
  or: [NullableUserFilter!]
}
input TeamFilter {
  id: IDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  key: StringComparator
  name: StringComparator
  description: NullableStringComparator
  parent: NullableTeamFilter
  and: [TeamFilter!]
  or: [TeamFilter!]
}
input NullableTeamFilter {
  id: IDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  key: StringComparator
  name: StringComparator
  description: NullableStringComparator
  parent: NullableTeamFilter
  null: Boolean
  and: [NullableTeamFilter!]
  or: [NullableTeamFilter!]
}
input IssueLabelFilter {
  id: IDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  name: StringComparator
  isGroup: BooleanComparator
  team: NullableTeamFilter
  parent: IssueLabelFilter
  creator: NullableUserFilter
  and: [IssueLabelFilter!]
  or: [IssueLabelFilter!]
}
input WorkflowStateFilter {
  id: IDComparator
  createdAt: DateComparator
  updatedAt: DateComparator
  name: StringComparator
  description: StringComparator
  type: StringComparator
  position: NumberComparator
  team: TeamFilter
  and: [WorkflowStateFilter!]
  or: [WorkflowStateFilter!]
}

input IssueCreateInput {
  id: String
  teamId: String!
  title: String
  description: String
  priority: Int
  stateId: String
  assigneeId: String
  labelIds: [String!]
  dueDate: TimelessDate
  parentId: String
  estimate: Int
  createdAt: DateTime
  completedAt: DateTime
}
input IssueUpdateInput {
  teamId: String
  title: String
  description: String
  priority: Int
  stateId: String
  assigneeId: String
  labelIds: [String!]
  addedLabelIds: [String!]
  removedLabelIds: [String!]
  dueDate: TimelessDate
  parentId: String
  estimate: Int
  trashed: Boolean
}
input IssueBatchCreateInput { issues: [IssueCreateInput!]! }
input CommentCreateInput { id: String issueId: String body: String parentId: String }
input IssueLabelCreateInput { id: String name: String! teamId: String color: String description: String parentId: String isGroup: Boolean }

type Query {
  viewer: User!
  organization: Organization!
  issues(after: String, before: String, filter: IssueFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): IssueConnection!
  issue(id: String!): Issue!
  comments(after: String, before: String, filter: CommentFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): CommentConnection!
  comment(id: String): Comment!
  users(after: String, before: String, filter: UserFilter, first: Int, includeArchived: Boolean, includeDisabled: Boolean, last: Int, orderBy: PaginationOrderBy): UserConnection!
  user(id: String!): User!
  teams(after: String, before: String, filter: TeamFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): TeamConnection!
  team(id: String!): Team!
  issueLabels(after: String, before: String, filter: IssueLabelFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): IssueLabelConnection!
  issueLabel(id: String!): IssueLabel!
  workflowStates(after: String, before: String, filter: WorkflowStateFilter, first: Int, includeArchived: Boolean, last: Int, orderBy: PaginationOrderBy): WorkflowStateConnection!
  workflowState(id: String!): WorkflowState!
}

type Mutation {
  issueCreate(input: IssueCreateInput!): IssuePayload!
  issueBatchCreate(input: IssueBatchCreateInput!): IssueBatchPayload!
  issueUpdate(id: String!, input: IssueUpdateInput!): IssuePayload!
  issueDelete(id: String!, permanentlyDelete: Boolean): IssueArchivePayload!
  issueArchive(id: String!, trash: Boolean): IssueArchivePayload!
  commentCreate(input: CommentCreateInput!): CommentPayload!
  commentDelete(id: String!): DeletePayload!
  issueLabelCreate(input: IssueLabelCreateInput!, replaceTeamLabels: Boolean): IssueLabelPayload!
  fileUpload(contentType: String!, filename: String!, makePublic: Boolean, metaData: JSON, size: Int!): UploadPayload!
  webhookCreate(input: WebhookCreateInput!): WebhookPayload!
  webhookDelete(id: String!): DeletePayload!
}

type Webhook { id: ID! url: String label: String enabled: Boolean! secret: String resourceTypes: [String!]! allPublicTeams: Boolean! createdAt: DateTime! updatedAt: DateTime! archivedAt: DateTime }
type WebhookPayload { lastSyncId: Float! success: Boolean! webhook: Webhook! }
input WebhookCreateInput { allPublicTeams: Boolean enabled: Boolean = true id: String label: String resourceTypes: [String!]! secret: String teamId: String url: String! }
`;
