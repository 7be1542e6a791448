/**
 * Freshdesk API v2 JSON shapes (https://developers.freshdesk.com/api/), as far as Omniport reads or writes
 * them. Every field is optional on read: Omniport keeps the whole object as `remote_data`. Datetimes are
 * ISO 8601 UTC with a `Z` (`2015-08-24T09:59:59Z`).
 */

export interface FdAttachment {
  id: number;
  name?: string | null;
  content_type?: string | null;
  size?: number | null;
  attachment_url?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}

export interface FdTicket {
  id: number;
  subject?: string | null;
  /** HTML; lists carry it only with `include=description`. */
  description?: string | null;
  description_text?: string | null;
  /** 2 Open, 3 Pending, 4 Resolved, 5 Closed; 6 and up are the account's custom statuses. */
  status?: number | null;
  /** 1 Low, 2 Medium, 3 High, 4 Urgent. */
  priority?: number | null;
  source?: number | null;
  type?: string | null;
  requester_id?: number | null;
  responder_id?: number | null;
  group_id?: number | null;
  company_id?: number | null;
  tags?: string[] | null;
  custom_fields?: Record<string, unknown> | null;
  due_by?: string | null;
  fr_due_by?: string | null;
  spam?: boolean | null;
  /** In the trash (`DELETE /tickets/{id}`; listed with `filter=deleted`). */
  deleted?: boolean | null;
  attachments?: FdAttachment[] | null;
  stats?: { closed_at?: string | null; resolved_at?: string | null } | null;
  created_at?: string | null;
  updated_at?: string | null;
}

/** Body of POST /tickets and PUT /tickets/{id}. */
export interface FdTicketBody {
  subject?: string;
  description?: string;
  status?: number;
  priority?: number;
  type?: string;
  requester_id?: number;
  responder_id?: number | null;
  company_id?: number;
  tags?: string[];
  due_by?: string;
  custom_fields?: Record<string, unknown>;
}

/** A reply or a note of a ticket. */
export interface FdConversation {
  id: number;
  ticket_id?: number | null;
  /** HTML. */
  body?: string | null;
  body_text?: string | null;
  /** Came from outside the helpdesk (the customer's email, or an incoming note). */
  incoming?: boolean | null;
  private?: boolean | null;
  user_id?: number | null;
  /** 0 reply, 2 note, … */
  source?: number | null;
  attachments?: FdAttachment[] | null;
  created_at?: string | null;
  updated_at?: string | null;
}

export interface FdAgent {
  id: number;
  group_ids?: number[] | null;
  contact?: { name?: string | null; email?: string | null } | null;
  created_at?: string | null;
  updated_at?: string | null;
}

export interface FdContact {
  id: number;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  mobile?: string | null;
  company_id?: number | null;
  description?: string | null;
  deleted?: boolean | null;
  created_at?: string | null;
  updated_at?: string | null;
}

export interface FdCompany {
  id: number;
  name?: string | null;
  description?: string | null;
  domains?: string[] | null;
  created_at?: string | null;
  updated_at?: string | null;
}

export interface FdGroup {
  id: number;
  name?: string | null;
  description?: string | null;
  agent_ids?: number[] | null;
  created_at?: string | null;
  updated_at?: string | null;
}

export interface FdTicketField {
  id: number;
  /** `cf_<label>` for custom fields: the key of `custom_fields`. */
  name: string;
  label?: string | null;
  /** `custom_text`, `custom_number`, `custom_checkbox`, `custom_date`, `custom_dropdown`, … or `default_*`. */
  type?: string | null;
  default?: boolean | null;
  choices?: unknown;
}
