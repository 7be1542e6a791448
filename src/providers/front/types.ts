/**
 * The parts of Front Core API JSON the adapter reads. Everything else is kept as received in
 * `remote_data`. Front timestamps are Unix seconds with up to three decimals (`1701292649.333`).
 */

export interface FrLinks {
  self?: string;
  related?: Record<string, string | null | undefined>;
}

/** `_pagination.next` of list responses: the full URL of the next page (with its `page_token`), or null. */
export interface FrPage<T> {
  _pagination?: { next?: string | null };
  _links?: FrLinks;
  _results?: T[];
  _total?: number;
}

export interface FrTeammate {
  _links?: FrLinks;
  id: string;
  email?: string | null;
  username?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  is_admin?: boolean;
  is_available?: boolean;
  is_blocked?: boolean;
  /** `user` for people; bots (rules, API clients, macros …) carry their source type. */
  type?: string;
  custom_fields?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface FrTag {
  _links?: FrLinks;
  id: string;
  name: string;
  description?: string | null;
  highlight?: string | null;
  is_private?: boolean;
  created_at?: number;
  updated_at?: number;
  [k: string]: unknown;
}

export interface FrRecipient {
  _links?: { related?: { contact?: string | null } };
  name?: string | null;
  handle: string;
  role: 'from' | 'to' | 'cc' | 'bcc' | 'reply-to' | string;
  [k: string]: unknown;
}

/** Legacy status (`assigned`, `unassigned`, `archived`, `deleted`), plus the ticketing status category when enabled. */
export type FrStatus = 'assigned' | 'unassigned' | 'archived' | 'deleted' | string;
export type FrStatusCategory = 'open' | 'waiting' | 'resolved';

export interface FrConversation {
  _links?: FrLinks;
  id: string;
  /** `conversation` (messages on a channel), `discussion` (comments only) or `task`. */
  type?: 'conversation' | 'discussion' | 'task' | string;
  subject?: string | null;
  status?: FrStatus;
  status_id?: string | null;
  status_category?: FrStatusCategory | string | null;
  assignee?: FrTeammate | null;
  recipient?: FrRecipient | null;
  tags?: FrTag[];
  custom_fields?: Record<string, unknown>;
  created_at?: number;
  updated_at?: number;
  is_private?: boolean;
  /** Tasks only. */
  description?: string | null;
  /** Tasks only (Unix seconds). */
  due_at?: number | null;
  [k: string]: unknown;
}

export interface FrAttachment {
  id: string;
  filename?: string | null;
  url?: string | null;
  content_type?: string | null;
  size?: number | null;
  metadata?: { is_inline?: boolean; cid?: string };
  [k: string]: unknown;
}

export interface FrComment {
  _links?: FrLinks;
  id: string;
  author?: FrTeammate | null;
  body?: string | null;
  posted_at?: number;
  attachments?: FrAttachment[] | null;
  is_pinned?: boolean;
  [k: string]: unknown;
}

export interface FrMessage {
  _links?: FrLinks;
  id: string;
  message_uid?: string;
  type?: string;
  is_inbound?: boolean;
  draft_mode?: string | null;
  created_at?: number;
  subject?: string | null;
  blurb?: string | null;
  /** The teammate who sent it (null on inbound messages and on messages sent by an API token). */
  author?: FrTeammate | null;
  recipients?: FrRecipient[];
  /** HTML. */
  body?: string | null;
  /** Plain text. */
  text?: string | null;
  attachments?: FrAttachment[] | null;
  [k: string]: unknown;
}

export interface FrContactHandle {
  handle: string;
  source: 'twitter' | 'email' | 'phone' | 'facebook' | 'intercom' | 'front_chat' | 'custom' | string;
}

export interface FrContact {
  _links?: FrLinks;
  id: string;
  name?: string | null;
  description?: string | null;
  handles?: FrContactHandle[];
  custom_fields?: Record<string, unknown>;
  is_private?: boolean;
  created_at?: number;
  updated_at?: number;
  [k: string]: unknown;
}

export interface FrAccount {
  _links?: FrLinks;
  id: string;
  name?: string | null;
  description?: string | null;
  domains?: string[] | null;
  external_id?: string | null;
  custom_fields?: Record<string, unknown>;
  created_at?: number;
  updated_at?: number;
  [k: string]: unknown;
}

export interface FrTeamPreview {
  _links?: FrLinks;
  id: string;
  name?: string | null;
  [k: string]: unknown;
}

export interface FrTeam extends FrTeamPreview {
  inboxes?: FrInbox[];
  members?: FrTeammate[];
}

export interface FrInbox {
  _links?: FrLinks;
  id: string;
  name?: string | null;
  is_private?: boolean;
  is_public?: boolean;
  custom_fields?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface FrChannel {
  _links?: FrLinks;
  id: string;
  name?: string | null;
  address?: string | null;
  type?: string;
  send_as?: string | null;
  is_private?: boolean;
  is_valid?: boolean;
  [k: string]: unknown;
}

export interface FrCustomField {
  _links?: FrLinks;
  id: string;
  name: string;
  description?: string | null;
  type?: 'string' | 'boolean' | 'datetime' | 'number' | 'teammate' | 'inbox' | 'enum' | string;
  values?: Array<{ value?: string; label?: string }>;
  [k: string]: unknown;
}

export interface FrTicketStatus {
  _links?: FrLinks;
  id: string;
  name?: string | null;
  category?: FrStatusCategory | null;
  [k: string]: unknown;
}

export interface FrEvent {
  id: string;
  type?: string;
  emitted_at?: number;
  conversation?: FrConversation | null;
  [k: string]: unknown;
}

/** `202 Accepted` of message sends: the message is created asynchronously; its UID is a resource alias. */
export interface FrAcceptedMessage {
  status?: string;
  message_uid?: string;
}

/** Front's error body. */
export interface FrErrorBody {
  _error?: { status?: number; title?: string; message?: string; details?: unknown };
}
