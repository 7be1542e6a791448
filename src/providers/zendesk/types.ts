/**
 * The parts of Zendesk Support API v2 JSON the adapter reads. Everything else is kept as received in
 * `remote_data`; fields are optional because Zendesk omits some of them on some endpoints.
 */

export type ZdId = number;

export interface ZdCustomFieldValue {
  id: ZdId;
  value: unknown;
}

export interface ZdTicket {
  id: ZdId;
  subject?: string | null;
  raw_subject?: string | null;
  description?: string | null;
  status?: string | null;
  priority?: string | null;
  type?: string | null;
  requester_id?: ZdId | null;
  submitter_id?: ZdId | null;
  assignee_id?: ZdId | null;
  organization_id?: ZdId | null;
  group_id?: ZdId | null;
  problem_id?: ZdId | null;
  due_at?: string | null;
  tags?: string[] | null;
  custom_fields?: ZdCustomFieldValue[] | null;
  created_at?: string | null;
  updated_at?: string | null;
  [k: string]: unknown;
}

export interface ZdAttachment {
  id: ZdId;
  file_name?: string | null;
  content_url?: string | null;
  mapped_content_url?: string | null;
  content_type?: string | null;
  size?: number | null;
  [k: string]: unknown;
}

/** A ticket comment, or the `Comment` event of a ticket audit (which has no `created_at` of its own). */
export interface ZdComment {
  id: ZdId;
  type?: string;
  author_id?: ZdId | null;
  body?: string | null;
  html_body?: string | null;
  plain_body?: string | null;
  public?: boolean | null;
  attachments?: ZdAttachment[] | null;
  audit_id?: ZdId | null;
  created_at?: string | null;
  [k: string]: unknown;
}

export interface ZdAuditEvent {
  id: ZdId;
  type: string;
  [k: string]: unknown;
}

export interface ZdAudit {
  id: ZdId;
  ticket_id: ZdId;
  created_at?: string | null;
  author_id?: ZdId | null;
  events?: ZdAuditEvent[];
  [k: string]: unknown;
}

/**
 * A child event of a ticket event (Incremental Ticket Event Export). With `include=comment_events`
 * a comment is a child with `event_type: "Comment"` and the comment's own fields (see ZdComment);
 * field changes are `Create` / `Change` children.
 */
export interface ZdTicketChildEvent {
  id?: ZdId;
  event_type?: string;
  type?: string;
  [k: string]: unknown;
}

/** One ticket update (audit) in the Incremental Ticket Event Export. */
export interface ZdTicketEvent {
  id: ZdId;
  ticket_id: ZdId;
  /** Unix seconds. */
  timestamp?: number | null;
  created_at?: string | null;
  updater_id?: ZdId | null;
  event_type?: string;
  child_events?: ZdTicketChildEvent[] | null;
  [k: string]: unknown;
}

/** Time-based incremental export page. */
export interface ZdTimeExportPage {
  next_page?: string | null;
  count?: number;
  end_of_stream?: boolean;
  /** Unix seconds: the `start_time` of the next page. */
  end_time?: number | null;
}

/** An element of GET /api/v2/deleted_tickets. */
export interface ZdDeletedTicket {
  id: ZdId;
  [k: string]: unknown;
}

export type ZdRole = 'end-user' | 'agent' | 'admin' | string;

export interface ZdUser {
  id: ZdId | null;
  name?: string | null;
  email?: string | null;
  role?: ZdRole | null;
  active?: boolean | null;
  phone?: string | null;
  details?: string | null;
  notes?: string | null;
  organization_id?: ZdId | null;
  default_group_id?: ZdId | null;
  created_at?: string | null;
  updated_at?: string | null;
  [k: string]: unknown;
}

export interface ZdOrganization {
  id: ZdId;
  name?: string | null;
  domain_names?: string[] | null;
  created_at?: string | null;
  updated_at?: string | null;
  [k: string]: unknown;
}

export interface ZdGroup {
  id: ZdId;
  name?: string | null;
  description?: string | null;
  deleted?: boolean | null;
  created_at?: string | null;
  updated_at?: string | null;
  [k: string]: unknown;
}

export interface ZdTag {
  name: string;
  count?: number;
  [k: string]: unknown;
}

/** One element of the `metric_sets` sideload (only `solved_at` is read). */
export interface ZdMetricSet {
  ticket_id: ZdId;
  solved_at?: string | null;
  [k: string]: unknown;
}

/** Cursor pagination members of a list response (`page[size]`, `page[after]`). */
export interface ZdCursorPage {
  meta?: { has_more?: boolean; after_cursor?: string | null; before_cursor?: string | null };
  links?: { next?: string | null; prev?: string | null };
}

/** Cursor-based incremental export page. */
export interface ZdExportPage {
  after_cursor?: string | null;
  after_url?: string | null;
  end_of_stream?: boolean;
}

export interface ZdJobStatus {
  id: string;
  status: 'queued' | 'working' | 'completed' | 'failed' | 'killed' | string;
  total?: number | null;
  progress?: number | null;
  message?: string | null;
  results?: Array<{ index?: number; id?: ZdId; error?: string; details?: unknown; success?: boolean; status?: string }> | null;
}

/** The write body of a ticket (`{"ticket": …}`) as far as the adapter fills it. */
export interface ZdTicketBody {
  subject?: string;
  comment?: ZdCommentBody;
  status?: string;
  priority?: string;
  type?: string;
  due_at?: string | null;
  problem_id?: ZdId | null;
  tags?: string[];
  assignee_id?: ZdId | null;
  requester_id?: ZdId;
  organization_id?: ZdId | null;
  custom_fields?: ZdCustomFieldValue[];
}

export interface ZdCommentBody {
  body?: string;
  html_body?: string;
  public?: boolean;
  author_id?: ZdId;
  uploads?: string[];
}
