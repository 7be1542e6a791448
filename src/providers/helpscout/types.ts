/**
 * Help Scout Mailbox API 2.0 JSON shapes (https://developer.helpscout.com/mailbox-api/), as far as Omniport reads
 * or writes them. Lists are HAL: `{"_embedded": {"<items>": [...]}, "_links": {"next": {"href"}}, "page": {"size",
 * "totalElements", "totalPages", "number"}}`. Datetimes are ISO 8601 UTC (`2012-07-24T20:18:33Z`).
 */

export interface HsPage<K extends string, T> {
  _embedded?: Partial<Record<K, T[]>>;
  _links?: { next?: { href?: string } };
  page?: { size?: number; totalElements?: number; totalPages?: number; number?: number };
}

export interface HsPerson {
  id: number;
  type?: 'user' | 'customer' | 'team' | string;
  first?: string | null;
  last?: string | null;
  email?: string | null;
}

export interface HsAttachment {
  id: number;
  filename?: string | null;
  mimeType?: string | null;
  size?: number | null;
  _links?: { data?: { href?: string }; web?: { href?: string } };
}

export interface HsThread {
  id: number;
  /** customer, message (a reply by a user), note, chat, phone, lineitem (a system event), forwardparent, forwardchild, … */
  type?: string;
  status?: string | null;
  state?: string | null;
  body?: string | null;
  createdBy?: HsPerson | null;
  customer?: HsPerson | null;
  createdAt?: string | null;
  _embedded?: { attachments?: HsAttachment[] | null } | null;
}

export interface HsCustomFieldValue {
  id: number;
  name?: string | null;
  value?: string | number | null;
  text?: string | null;
}

export interface HsConversation {
  id: number;
  number?: number;
  subject?: string | null;
  /** active, pending, closed, spam. */
  status?: string | null;
  /** email, chat, phone. */
  type?: string | null;
  mailboxId?: number | null;
  preview?: string | null;
  assignee?: HsPerson | null;
  primaryCustomer?: HsPerson | null;
  createdBy?: HsPerson | null;
  tags?: Array<{ id?: number; tag?: string; color?: string }> | null;
  customFields?: HsCustomFieldValue[] | null;
  closedAt?: string | null;
  createdAt?: string | null;
  userUpdatedAt?: string | null;
  /** Not in every answer: lists carry it. */
  modifiedAt?: string | null;
  _embedded?: { threads?: HsThread[] | null } | null;
}

export interface HsUser {
  id: number;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  role?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
}

export interface HsTeam {
  id: number;
  name?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
}

export interface HsCustomer {
  id: number;
  firstName?: string | null;
  lastName?: string | null;
  organization?: string | null;
  jobTitle?: string | null;
  background?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
  _embedded?: { emails?: Array<{ value?: string; type?: string }> | null; phones?: Array<{ value?: string; type?: string }> | null } | null;
}

export interface HsMailbox {
  id: number;
  name?: string | null;
  email?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
}

export interface HsTag {
  id: number;
  name?: string | null;
  slug?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
}

export interface HsField {
  id: number;
  name?: string | null;
  /** SINGLE_LINE, MULTI_LINE, DATE, NUMBER, DROPDOWN. */
  type?: string | null;
}
