/**
 * Intercom REST API (version 2.14) JSON shapes, as far as Omniport reads or writes them
 * (https://developers.intercom.com/docs/references/2.14/rest-api/api.intercom.io). Ids are strings;
 * datetimes are UNIX timestamps in seconds.
 */
export interface IcTicketState { id: string; category?: 'submitted' | 'in_progress' | 'waiting_on_customer' | 'resolved'; internal_label?: string; external_label?: string }
export interface IcTicketTypeAttribute { id: string; name: string; data_type?: string; default?: boolean; archived?: boolean }
export interface IcTicketType {
  id: string;
  name?: string;
  category?: string;
  archived?: boolean;
  ticket_type_attributes?: { ticket_type_attributes?: IcTicketTypeAttribute[] };
  ticket_states?: { data?: IcTicketState[] };
}
export interface IcPartAttachment { type?: string; name?: string; url?: string; content_type?: string; filesize?: number }
export interface IcTicketPart {
  id: string;
  part_type?: string;
  body?: string | null;
  created_at?: number;
  updated_at?: number;
  author?: { type?: 'admin' | 'bot' | 'team' | 'user'; id?: string; name?: string | null; email?: string };
  attachments?: IcPartAttachment[];
  redacted?: boolean;
}
export interface IcTicket {
  id: string;
  ticket_id?: string;
  category?: string;
  ticket_attributes?: Record<string, unknown>;
  ticket_state?: IcTicketState | null;
  ticket_type?: IcTicketType | null;
  contacts?: { contacts?: Array<{ id: string }> };
  admin_assignee_id?: string;
  team_assignee_id?: string;
  created_at?: number;
  updated_at?: number;
  open?: boolean;
  ticket_parts?: { ticket_parts?: IcTicketPart[] };
}
/** `app` only in `GET /me`: the workspace the token belongs to (`id_code` is the `app_id` of its webhooks). */
export interface IcAdmin { id: string; name?: string; email?: string; team_ids?: number[]; app?: { id_code?: string } }
export interface IcTeam { id: string; name?: string; admin_ids?: number[] }
export interface IcTag { id: string; name?: string }
export interface IcContact {
  id: string;
  role?: string;
  email?: string;
  phone?: string | null;
  name?: string | null;
  created_at?: number;
  updated_at?: number;
  companies?: { data?: Array<{ id: string }> };
}
export interface IcCompany { id: string; name?: string; website?: string; created_at?: number; updated_at?: number }
export interface IcPages { next?: { starting_after?: string | null } | null; page?: number; total_pages?: number }
