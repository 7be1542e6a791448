/**
 * What the Help Scout adapter (src/providers/helpscout) uses of the Inbox (Mailbox) API 2.0 reference
 * (https://developer.helpscout.com/mailbox-api/), one page per endpoint. Lists are HAL pages (`page` →
 * `_embedded.<name>`, `page.totalPages`); creates answer 201 with the new id in `Resource-ID`. Checked by the
 * conformance suite and helpscout.contract.test.ts (see contract.ts).
 */
import type { ProviderContract } from './contract';

const EP = 'https://developer.helpscout.com/mailbox-api/endpoints';
const conversationRead = ['id', 'number', 'subject', 'status', 'type', 'mailboxId', 'preview', 'assignee', 'primaryCustomer', 'createdBy', 'tags', 'customFields', 'closedAt', 'createdAt', 'userUpdatedAt', 'modifiedAt', '_embedded'] as const;
const threadRead = ['id', 'type', 'status', 'state', 'body', 'createdBy', 'customer', 'createdAt', '_embedded'] as const;
const dated = ['createdAt', 'updatedAt'] as const;
// A thread's files ride in its create body, base64 (`attachments[].fileName, mimeType, data`).
const threadBody = ['text', 'user', 'customer', 'attachments'] as const;

export const contract: ProviderContract = {
  provider: 'helpscout',
  docHosts: ['developer.helpscout.com'],
  endpoints: [
    { method: 'GET', path: '/v2/users/me', doc: `${EP}/users/me/`, response: ['id', 'firstName', 'lastName', 'email', 'role', ...dated] },
    { method: 'GET', path: '/v2/users', doc: `${EP}/users/list/`, query: ['page'], response: ['id', 'firstName', 'lastName', 'email', 'role', ...dated] },
    { method: 'GET', path: '/v2/teams', doc: `${EP}/teams/list-teams/`, query: ['page'], response: ['id', 'name', ...dated] },
    { method: 'GET', path: '/v2/teams/{id}/members', doc: `${EP}/teams/list-team-members/`, query: ['page'], response: ['id'] },
    { method: 'GET', path: '/v2/mailboxes', doc: `${EP}/mailboxes/list/`, query: ['page'], response: ['id', 'name', 'email', ...dated] },
    { method: 'GET', path: '/v2/mailboxes/{id}/fields', doc: `${EP}/mailboxes/mailbox-fields/`, query: ['page'], response: ['id', 'name', 'type'] },
    { method: 'GET', path: '/v2/tags', doc: `${EP}/tags/list/`, query: ['page'], response: ['id', 'name', 'slug', ...dated] },
    { method: 'GET', path: '/v2/customers', doc: `${EP}/customers/list/`, query: ['page', 'modifiedSince', 'sortField', 'sortOrder'], response: ['id', 'firstName', 'lastName', 'organization', 'jobTitle', 'background', ...dated, '_embedded'] },
    // status=all is not enough for a sync: spam is listed only when asked for, so the statuses are walked one by one.
    { method: 'GET', path: '/v2/conversations', doc: `${EP}/conversations/list/`, query: ['page', 'status', 'modifiedSince', 'sortField', 'sortOrder', 'embed'], response: conversationRead },
    { method: 'GET', path: '/v2/conversations/{id}', doc: `${EP}/conversations/get/`, query: ['embed'], response: conversationRead },
    { method: 'POST', path: '/v2/conversations', doc: `${EP}/conversations/create/`, body: ['type', 'mailboxId', 'subject', 'customer', 'status', 'assignTo', 'tags', 'fields', 'threads'] },
    // One JSON Patch operation per request (op, path, value): /subject, /status, /mailboxId, /primaryCustomer.id, /assignTo.
    { method: 'PATCH', path: '/v2/conversations/{id}', doc: `${EP}/conversations/update/`, body: ['op', 'path', 'value'] },
    { method: 'PUT', path: '/v2/conversations/{id}/tags', doc: `${EP}/conversations/tags/update/`, body: ['tags'] },
    { method: 'PUT', path: '/v2/conversations/{id}/fields', doc: `${EP}/conversations/custom_fields/update/`, body: ['fields'] },
    { method: 'GET', path: '/v2/conversations/{id}/threads', doc: `${EP}/conversations/threads/list/`, query: ['page'], response: threadRead },
    { method: 'POST', path: '/v2/conversations/{id}/reply', doc: `${EP}/conversations/threads/reply/`, body: threadBody },
    { method: 'POST', path: '/v2/conversations/{id}/notes', doc: `${EP}/conversations/threads/note/`, body: threadBody },
    { method: 'POST', path: '/v2/conversations/{id}/customer', doc: `${EP}/conversations/threads/customer/`, body: threadBody },
    { method: 'POST', path: '/v2/webhooks', doc: `${EP}/webhooks/create/`, body: ['url', 'events', 'secret', 'payloadVersion', 'label'] },
    { method: 'DELETE', path: '/v2/webhooks/{id}', doc: `${EP}/webhooks/delete/` },
  ],
};
