/**
 * What the Gorgias API reference documents for the requests the simulator serves — query parameters
 * and JSON bodies, with required fields, types and enumerations. Gorgias publishes no machine-readable
 * description, so this is transcribed from developers.gorgias.com/reference (Create/Update a ticket,
 * Create a message, List tickets/messages/users/customers/tags/teams/custom fields, Update a ticket's
 * custom fields, Upload files). Gorgias answers 400 for "unknown parameters", missing required ones and
 * invalid values (reference → Errors); the simulator does the same and records each such request as a
 * contract violation, so tests can assert that the adapter only sends what the reference documents.
 */
import type { Param, Schema } from '../shared/contract-check';

export { checkBody, checkQuery, type Schema } from '../shared/contract-check';

/** `LegacyChannelSlug` */
export const CHANNELS = [
  'aircall',
  'api',
  'chat',
  'contact_form',
  'email',
  'facebook',
  'facebook-mention',
  'facebook-messenger',
  'facebook-recommendations',
  'help-center',
  'instagram-ad-comment',
  'instagram-comment',
  'instagram-direct-message',
  'instagram-mention',
  'internal-note',
  'phone',
  'sms',
  'twitter',
  'twitter-direct-message',
  'whatsapp',
  'yotpo-review',
] as const;

/** `TicketVia` */
export const VIAS = [
  'aircall',
  'api',
  'chat',
  'contact_form',
  'email',
  'facebook',
  'facebook-mention',
  'facebook-messenger',
  'facebook-recommendations',
  'form',
  'gorgias_chat',
  'help-center',
  'helpdesk',
  'instagram',
  'instagram-ad-comment',
  'instagram-comment',
  'instagram-direct-message',
  'instagram-mention',
  'internal-note',
  'offline_capture',
  'phone',
  'rule',
  'self_service',
  'shopify',
  'sms',
  'twilio',
  'twitter',
  'twitter-direct-message',
  'whatsapp',
  'yotpo',
  'yotpo-review',
  'zendesk',
] as const;

export const STATUSES = ['open', 'closed'] as const;
export const PRIORITIES = ['critical', 'high', 'normal', 'low'] as const;

const dt: Schema = { t: 'string', format: 'date-time', nullable: true };
const str = (max?: number): Schema => ({ t: 'string', nullable: true, ...(max ? { max } : {}) });
const personRef: Schema = {
  t: 'object',
  nullable: true,
  props: {
    id: { t: 'integer', nullable: true },
    email: { t: 'string', format: 'email', nullable: true, max: 320 },
    name: str(),
    firstname: str(),
    lastname: str(),
  },
};
const attachment: Schema = {
  t: 'object',
  required: ['url', 'name'],
  props: {
    url: { t: 'string', format: 'url' },
    name: { t: 'string' },
    content_type: str(),
    size: { t: 'any' },
    public: { t: 'boolean', nullable: true },
    extra: { t: 'any' },
  },
};
const message: Schema = {
  t: 'object',
  required: ['channel', 'from_agent', 'via'],
  props: {
    actions: { t: 'array', items: { t: 'any' }, nullable: true },
    attachments: { t: 'array', items: attachment, nullable: true },
    body_html: str(),
    body_text: str(),
    channel: { t: 'string', enum: CHANNELS },
    created_datetime: dt,
    deleted_datetime: dt,
    external_id: str(255),
    failed_datetime: dt,
    from_agent: { t: 'boolean' },
    headers: { t: 'any' },
    integration_id: { t: 'integer', nullable: true },
    last_sending_error: { t: 'any' },
    macros: { t: 'array', items: { t: 'any' }, nullable: true },
    mention_ids: { t: 'array', items: { t: 'integer' }, nullable: true },
    message_id: str(),
    meta: { t: 'any' },
    public: { t: 'boolean' },
    receiver: personRef,
    sender: personRef,
    sent_datetime: dt,
    source: { t: 'any' },
    subject: str(998),
    via: { t: 'string', enum: VIAS },
  },
};
const ticketProps: Record<string, Schema> = {
  assignee_team: { t: 'object', nullable: true, props: { id: { t: 'integer', nullable: true } } },
  assignee_user: { t: 'object', nullable: true, props: { id: { t: 'integer', nullable: true } } },
  channel: { t: 'string', enum: CHANNELS },
  closed_datetime: dt,
  created_datetime: dt,
  custom_fields: { t: 'array', nullable: true, items: { t: 'object', required: ['id'], props: { id: { t: 'integer' }, value: { t: 'any' } } } },
  customer: personRef,
  external_id: str(255),
  from_agent: { t: 'boolean', nullable: true },
  language: str(),
  last_message_datetime: dt,
  last_received_message_datetime: dt,
  meta: { t: 'any' },
  opened_datetime: dt,
  priority: { t: 'string', enum: PRIORITIES },
  snooze_datetime: dt,
  spam: { t: 'boolean', nullable: true },
  status: { t: 'string', enum: STATUSES },
  subject: str(998),
  tags: {
    t: 'array',
    nullable: true,
    items: { t: 'object', required: ['name'], props: { name: { t: 'string', max: 256 }, decoration: { t: 'any' } } },
  },
  trashed_datetime: dt,
  updated_datetime: dt,
  via: { t: 'string', enum: VIAS },
};

/** `POST /api/integrations` (Create an integration): HTTP integrations are the ones the API creates. */
const integrationHttp: Schema = {
  t: 'object',
  required: ['url', 'method'],
  props: {
    url: { t: 'string', format: 'url' },
    method: { t: 'string', enum: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] },
    headers: { t: 'any' },
    form: { t: 'any' },
    request_content_type: { t: 'string', enum: ['application/json', 'application/x-www-form-urlencoded'] },
    response_content_type: { t: 'string', enum: ['application/json', 'text/plain'] },
    triggers: { t: 'object', props: Object.fromEntries(['ticket-created', 'ticket-updated', 'ticket-message-created', 'ticket-self-unsnoozed', 'ticket-message-failed'].map((k) => [k, { t: 'boolean' } as Schema])) },
  },
};

export const BODIES = {
  createIntegration: { t: 'object', required: ['name', 'type', 'http'], props: { name: { t: 'string' }, type: { t: 'string', enum: ['http'] }, description: str(), http: integrationHttp } },
  createTicket: { t: 'object', required: ['messages', 'via'], props: { ...ticketProps, messages: { t: 'array', items: message, min: 1, max: 500 } } },
  updateTicket: { t: 'object', props: ticketProps },
  createMessage: message,
  ticketCustomFields: { t: 'array', items: { t: 'object', required: ['id', 'value'], props: { id: { t: 'integer' }, value: { t: 'any' } } } },
} satisfies Record<string, Schema>;

const cursor = { cursor: 'string', limit: 'limit' } as const;

/** Documented query parameters per listing (anything else is an unknown parameter). */
export const QUERIES: Record<string, Record<string, Param>> = {
  tickets: {
    ...cursor,
    order_by: ['created_datetime:asc', 'created_datetime:desc', 'updated_datetime:asc', 'updated_datetime:desc'],
    customer_id: 'integer',
    external_id: 'string',
    trashed: 'boolean',
    view_id: 'integer',
    rule_id: 'integer',
    ticket_ids: 'integers',
  },
  messages: { ...cursor, order_by: ['created_datetime:asc', 'created_datetime:desc'], ticket_id: 'integer' },
  users: {
    ...cursor,
    order_by: ['created_datetime:asc', 'created_datetime:desc', 'name:asc', 'name:desc', 'email:asc', 'email:desc', 'role.name:asc', 'role.name:desc'],
    external_id: 'string',
    email: 'string',
    roles: 'string',
    search: 'string',
    available_first: 'boolean',
  },
  customers: { ...cursor, email: 'string', external_id: 'string', language: 'string', timezone: 'string', channel_type: 'string', channel_address: 'string', view_id: 'integer' },
  tags: {
    ...cursor,
    // The bare values are deprecated but accepted.
    order_by: ['created_datetime', 'name', 'usage', 'created_datetime:asc', 'created_datetime:desc', 'name:asc', 'name:desc', 'usage:asc,name:asc', 'usage:desc,name:desc'],
    search: 'string',
  },
  teams: { ...cursor, order_by: ['created_datetime:asc', 'created_datetime:desc', 'name:asc', 'name:desc'] },
  customFields: { ...cursor, object_type: ['Ticket', 'Customer'], search: 'string', archived: 'boolean', order_by: ['priority:asc', 'priority:desc'] },
  upload: { type: ['public_attachment', 'attachment', 'profile_picture', 'widget_picture'] },
  messageCreate: { action: ['force', 'retry', 'cancel'] },
  none: {},
};

/** Field errors in Gorgias's nested form: `messages.0.channel` → `{messages: {"0": {channel: [msg]}}}`. */
export function asFieldErrors(problems: Array<{ path: string; message: string }>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const { path, message } of problems) {
    const keys = path.split('.');
    let node = root;
    keys.forEach((k, i) => {
      if (i === keys.length - 1) node[k] = [...((node[k] as string[] | undefined) ?? []), message];
      else node = (node[k] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}
