/**
 * What the Freshdesk API v2 reference (https://developers.freshdesk.com/api/) documents for the requests
 * the simulator serves: query parameters and JSON bodies, with types and allowed values. Freshdesk
 * publishes no machine-readable description, so this is transcribed from the reference's sections
 * Tickets (Create a ticket, Update a ticket, List all tickets, Ticket properties), Conversations (Reply to
 * a ticket, Create a note, List all conversations of a ticket), Contacts, Agents, Companies, Groups and
 * Ticket fields. Freshdesk answers 400 `{"description": "Validation failed", "errors": [{field, message,
 * code}]}` for unknown fields (`invalid_field`) and invalid values; the simulator does the same and
 * records each such request as a contract violation.
 */
import type { Param, Schema } from '../shared/contract-check';

export { checkBody, checkQuery, type Schema } from '../shared/contract-check';

const str: Schema = { t: 'string', nullable: true };
const int: Schema = { t: 'integer', nullable: true };
const dt: Schema = { t: 'string', format: 'date-time', nullable: true };
const emails: Schema = { t: 'array', items: { t: 'string', format: 'email' } };

/** Ticket properties a create or an update may carry (`attachments` only as multipart). */
const ticketProps: Record<string, Schema> = {
  name: str,
  requester_id: int,
  email: { t: 'string', format: 'email' },
  facebook_id: str,
  phone: str,
  twitter_id: str,
  unique_external_id: str,
  subject: str,
  type: str,
  status: { t: 'integer' },
  priority: { t: 'integer' },
  description: str,
  responder_id: int,
  cc_emails: emails,
  custom_fields: { t: 'any' },
  due_by: dt,
  fr_due_by: dt,
  email_config_id: int,
  group_id: int,
  parent_id: int,
  product_id: int,
  source: { t: 'integer' },
  tags: { t: 'array', items: { t: 'string' } },
  company_id: int,
  internal_agent_id: int,
  internal_group_id: int,
};

export const BODIES = {
  createTicket: { t: 'object', props: ticketProps },
  updateTicket: { t: 'object', props: ticketProps },
  reply: { t: 'object', required: ['body'], props: { body: { t: 'string' }, from_email: { t: 'string', format: 'email' }, user_id: { t: 'integer' }, cc_emails: emails, bcc_emails: emails } },
  note: { t: 'object', required: ['body'], props: { body: { t: 'string' }, incoming: { t: 'boolean' }, notify_emails: emails, private: { t: 'boolean' }, user_id: { t: 'integer' } } },
} satisfies Record<string, Schema>;

/** Multipart fields each write takes, besides `attachments[]` (form values are text). */
export const FORM_FIELDS = {
  reply: ['body', 'from_email', 'user_id', 'cc_emails[]', 'bcc_emails[]'],
  note: ['body', 'incoming', 'notify_emails[]', 'private', 'user_id'],
} as const;

const paged = { page: 'integer', per_page: 'limit' } as const;

/** Documented query parameters per listing (anything else is an invalid field). */
export const QUERIES: Record<string, Record<string, Param>> = {
  tickets: {
    ...paged,
    filter: ['new_and_my_open', 'watching', 'spam', 'deleted'],
    requester_id: 'integer',
    email: 'string',
    unique_external_id: 'string',
    company_id: 'integer',
    updated_since: 'string',
    order_by: ['created_at', 'due_by', 'updated_at', 'status'],
    order_type: ['asc', 'desc'],
    include: 'string',
  },
  ticket: { include: 'string' },
  conversations: paged,
  contacts: { ...paged, email: 'string', mobile: 'string', phone: 'string', company_id: 'integer', state: ['blocked', 'deleted', 'unverified', 'verified'], updated_since: 'string' },
  agents: { ...paged, email: 'string', mobile: 'string', phone: 'string', state: ['fulltime', 'occasional'] },
  companies: paged,
  groups: paged,
  ticketFields: { type: 'string' },
  none: {},
};

/** `include` values of List all tickets (View a ticket also takes conversations, requester, company, stats). */
export const TICKET_LIST_INCLUDES = ['description', 'requester', 'stats'] as const;
export const TICKET_INCLUDES = ['conversations', 'requester', 'company', 'stats'] as const;
