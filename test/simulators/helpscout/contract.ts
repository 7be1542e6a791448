/**
 * What the Help Scout Mailbox API 2.0 reference (https://developer.helpscout.com/mailbox-api/) documents for the
 * requests the simulator serves, transcribed (Help Scout publishes no machine-readable description): query
 * parameters of the lists (List Conversations, List Customers, List Users, List Teams, List Team Members, List
 * Mailboxes, List Mailbox Custom Fields, List Tags, List Threads), and the bodies of Create Conversation, Update
 * Conversation, Update Tags, Update Custom Fields, Create Reply, Create Note, Create Customer Thread and Create / Update
 * Webhook. Help Scout
 * answers 400 `{"message": "Bad request", "_embedded": {"errors": [{path, message, source}]}}` for invalid input;
 * the simulator does the same and records each such request as a contract violation.
 */
import type { Param, Schema } from '../shared/contract-check';

const int: Schema = { t: 'integer' };
const str: Schema = { t: 'string' };
const customerRef: Schema = { t: 'object', props: { id: int, email: { t: 'string', format: 'email' }, firstName: str, lastName: str } };
const attachments: Schema = { t: 'array', items: { t: 'object', required: ['fileName', 'mimeType', 'data'], props: { fileName: str, mimeType: str, data: str } } };
const fields: Schema = { t: 'array', items: { t: 'object', required: ['id', 'value'], props: { id: int, value: str } } };

/** The events Create Webhook accepts. */
export const WEBHOOK_EVENTS = [
  'beacon.chat.created', 'beacon.chat.customer.replied', 'convo.agent.reply.created', 'convo.assigned', 'convo.created', 'convo.custom-fields', 'convo.customer.reply.created',
  'convo.deleted', 'convo.merged', 'convo.moved', 'convo.note.created', 'convo.status', 'convo.tags', 'customer.created', 'customer.deleted', 'customer.updated',
  'message.survey.response.received', 'organization.created', 'organization.deleted', 'organization.updated', 'satisfaction.ratings', 'tag.created', 'tag.deleted', 'tag.updated', 'user.status.changed',
] as const;

export const BODIES = {
  createConversation: {
    t: 'object',
    required: ['subject', 'customer', 'mailboxId', 'type', 'status', 'threads'],
    props: {
      subject: str,
      customer: customerRef,
      mailboxId: int,
      type: { t: 'string', enum: ['email', 'chat', 'phone'] },
      status: { t: 'string', enum: ['active', 'pending', 'closed'] },
      threads: {
        t: 'array',
        min: 1,
        items: { t: 'object', required: ['type', 'text'], props: { type: { t: 'string', enum: ['customer', 'reply', 'note', 'chat', 'phone'] }, customer: customerRef, text: str, attachments, user: int } },
      },
      assignTo: int,
      user: int,
      tags: { t: 'array', items: str },
      fields,
      autoReply: { t: 'boolean' },
      imported: { t: 'boolean' },
      createdAt: { t: 'string', format: 'date-time' },
      closedAt: { t: 'string', format: 'date-time' },
    },
  },
  patch: { t: 'object', required: ['op', 'path'], props: { op: { t: 'string', enum: ['replace', 'remove', 'move'] }, path: { t: 'string', enum: ['/subject', '/status', '/mailboxId', '/primaryCustomer.id', '/assignTo', '/draft'] }, value: { t: 'any' } } },
  tags: { t: 'object', required: ['tags'], props: { tags: { t: 'array', items: str } } },
  fields: { t: 'object', required: ['fields'], props: { fields } },
  reply: { t: 'object', required: ['customer', 'text'], props: { customer: customerRef, text: str, user: int, attachments, draft: { t: 'boolean' }, imported: { t: 'boolean' }, status: str, cc: { t: 'array', items: str }, bcc: { t: 'array', items: str } } },
  notes: { t: 'object', required: ['text'], props: { text: str, user: int, attachments, imported: { t: 'boolean' }, status: str } },
  customer: { t: 'object', required: ['customer', 'text'], props: { customer: customerRef, text: str, attachments, imported: { t: 'boolean' }, status: str } },
  // Create Webhook / Update Webhook: `secret` "of 40 characters or less"; `payloadVersion` only V2.
  webhook: {
    t: 'object',
    required: ['url', 'events', 'secret'],
    props: {
      url: { t: 'string', format: 'url' },
      events: { t: 'array', min: 1, items: { t: 'string', enum: WEBHOOK_EVENTS } },
      secret: { t: 'string', max: 40 },
      notification: { t: 'boolean' },
      label: str,
      payloadVersion: { t: 'string', enum: ['V2'] },
      mailboxIds: { t: 'array', items: int },
    },
  },
} satisfies Record<string, Schema>;

export const QUERIES: Record<string, Record<string, Param>> = {
  conversations: {
    page: 'integer',
    embed: ['threads'],
    mailbox: 'string',
    folder: 'integer',
    status: ['active', 'pending', 'closed', 'spam', 'all'],
    tag: 'string',
    assigned_to: 'integer',
    modifiedSince: 'string',
    number: 'integer',
    sortField: ['createdAt', 'customerEmail', 'customerName', 'mailboxid', 'modifiedAt', 'number', 'score', 'status', 'subject', 'waitingSince'],
    sortOrder: ['asc', 'desc'],
    query: 'string',
    customFieldsByIds: 'string',
  },
  conversation: { embed: ['threads'] },
  customers: { page: 'integer', mailbox: 'integer', firstName: 'string', lastName: 'string', modifiedSince: 'string', sortField: ['score', 'firstName', 'lastName', 'modifiedAt'], sortOrder: ['asc', 'desc'], query: 'string' },
  users: { page: 'integer', email: 'string', mailbox: 'integer' },
  paged: { page: 'integer' },
  none: {},
};
