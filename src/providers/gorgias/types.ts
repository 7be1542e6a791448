/**
 * Gorgias REST API JSON shapes (https://developers.gorgias.com/reference), as far as Omniport reads or
 * writes them. Every field is optional on read: Omniport keeps the whole object as `remote_data`.
 *
 * Datetimes are ISO 8601 *without* a zone (`2019-07-05T14:42:00.384938`) on most objects; they are UTC
 * (see util.ts `toDate`).
 */

/** A cursor-paginated list: `{object: "list", uri, data: [...], meta: {prev_cursor, next_cursor}}`. */
export interface GgList<T> {
  object?: 'list';
  uri?: string;
  data?: T[];
  meta?: { prev_cursor?: string | null; next_cursor?: string | null } | null;
}

/** The short form of a person inside tickets and messages (`TicketUser`, `TicketCustomer`, `sender`). */
export interface GgPersonRef {
  id?: number | null;
  email?: string | null;
  name?: string | null;
  firstname?: string | null;
  lastname?: string | null;
  meta?: Record<string, unknown> | null;
}

export interface GgTagRef {
  id?: number;
  name: string;
  uri?: string;
  decoration?: { color?: string | null } | null;
}

export interface GgTeamRef {
  id?: number | null;
  name?: string | null;
  decoration?: Record<string, unknown> | null;
}

/** A value of a ticket custom field, as the ticket object carries it (keyed by field id). */
export interface GgCustomFieldValue {
  id?: number;
  value?: unknown;
}

export interface GgAttachment {
  url?: string | null;
  name?: string | null;
  size?: number | string | null;
  content_type?: string | null;
  public?: boolean | null;
  extra?: unknown;
}

export interface GgMessage {
  id: number;
  uri?: string;
  message_id?: string | null;
  ticket_id?: number | null;
  external_id?: string | null;
  public?: boolean | null;
  channel?: string | null;
  via?: string | null;
  source?: Record<string, unknown> | null;
  sender?: GgPersonRef | null;
  receiver?: GgPersonRef | null;
  integration_id?: number | null;
  from_agent?: boolean | null;
  subject?: string | null;
  body_text?: string | null;
  body_html?: string | null;
  stripped_text?: string | null;
  stripped_html?: string | null;
  attachments?: GgAttachment[] | null;
  created_datetime?: string | null;
  sent_datetime?: string | null;
  failed_datetime?: string | null;
  deleted_datetime?: string | null;
  opened_datetime?: string | null;
}

export interface GgTicket {
  id: number;
  uri?: string;
  external_id?: string | null;
  language?: string | null;
  status?: string | null;
  priority?: string | null;
  channel?: string | null;
  via?: string | null;
  from_agent?: boolean | null;
  spam?: boolean | null;
  customer?: GgPersonRef | null;
  customer_id?: number | null;
  assignee_user?: GgPersonRef | null;
  assignee_user_id?: number | null;
  assignee_team?: GgTeamRef | null;
  assignee_team_id?: number | null;
  subject?: string | null;
  meta?: Record<string, unknown> | null;
  tags?: GgTagRef[] | null;
  /** `object | null` in the reference; read tolerantly (see custom-fields.ts). */
  custom_fields?: Record<string, GgCustomFieldValue | unknown> | GgCustomFieldValue[] | null;
  messages?: GgMessage[] | null;
  is_unread?: boolean | null;
  created_datetime?: string | null;
  opened_datetime?: string | null;
  last_received_message_datetime?: string | null;
  last_message_datetime?: string | null;
  updated_datetime?: string | null;
  closed_datetime?: string | null;
  snooze_datetime?: string | null;
  trashed_datetime?: string | null;
}

export interface GgUser {
  id: number;
  active?: boolean | null;
  email?: string | null;
  name?: string | null;
  firstname?: string | null;
  lastname?: string | null;
  role?: { name?: string | null } | null;
  bio?: string | null;
  external_id?: string | null;
  meta?: Record<string, unknown> | null;
  created_datetime?: string | null;
  updated_datetime?: string | null;
  deactivated_datetime?: string | null;
}

export interface GgCustomerChannel {
  id?: number;
  type?: string | null;
  address?: string | null;
  preferred?: boolean | null;
}

export interface GgCustomer {
  id: number;
  email?: string | null;
  name?: string | null;
  firstname?: string | null;
  lastname?: string | null;
  channels?: GgCustomerChannel[] | null;
  external_id?: string | null;
  note?: string | null;
  language?: string | null;
  timezone?: string | null;
  data?: unknown;
  meta?: unknown;
  created_datetime?: string | null;
  updated_datetime?: string | null;
}

export interface GgTeam {
  id: number;
  name?: string | null;
  description?: string | null;
  members?: GgPersonRef[] | null;
  decoration?: Record<string, unknown> | null;
  created_datetime?: string | null;
  uri?: string;
}

export interface GgTag {
  id: number;
  name: string;
  description?: string | null;
  usage?: number | null;
  decoration?: Record<string, unknown> | null;
  created_datetime?: string | null;
  deleted_datetime?: string | null;
  uri?: string;
}

export interface GgCustomFieldDefinition {
  id: number;
  object_type?: string;
  label?: string | null;
  description?: string | null;
  definition?: { data_type?: string | null; input_settings?: Record<string, unknown> | null } | null;
  deactivated_datetime?: string | null;
}

/** A file after `POST /api/upload`: what a message's `attachments` take. */
export interface GgFile {
  url: string;
  name: string;
  size?: number | string;
  content_type?: string;
}

// ---- Write bodies

export interface GgMessageBody {
  channel: string;
  via: string;
  from_agent: boolean;
  public?: boolean;
  body_text?: string;
  body_html?: string;
  sender?: { id?: number; email?: string };
  receiver?: { id?: number; email?: string };
  attachments?: GgFile[];
}

export interface GgTicketBody {
  subject?: string;
  status?: string;
  priority?: string;
  channel?: string;
  via?: string;
  from_agent?: boolean;
  customer?: { id: number };
  assignee_user?: { id: number } | null;
  tags?: Array<{ name: string }>;
  custom_fields?: Array<{ id: number; value: unknown }>;
  messages?: GgMessageBody[];
}
