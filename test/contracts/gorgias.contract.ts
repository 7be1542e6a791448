/**
 * What the Gorgias adapter (src/providers/gorgias) uses of the REST API reference
 * (https://developers.gorgias.com/reference), one page per operation. Lists are cursor-paginated
 * (`limit`, `cursor` → `meta.next_cursor`: reference/pagination). Checked by the conformance suite and
 * gorgias.contract.test.ts (see contract.ts).
 */
import type { ProviderContract } from './contract';

const REF = 'https://developers.gorgias.com/reference';
const page = ['limit', 'cursor'] as const;
const PAGINATION = `${REF}/pagination`;
const message = ['channel', 'via', 'from_agent', 'public', 'body_text', 'body_html', 'sender', 'receiver', 'attachments'] as const;
const ticketWrite = ['subject', 'status', 'priority', 'channel', 'via', 'from_agent', 'customer', 'assignee_user', 'tags', 'custom_fields'] as const;
const messageRead = ['id', 'ticket_id', 'public', 'channel', 'via', 'sender', 'receiver', 'from_agent', 'subject', 'body_text', 'body_html', 'stripped_text', 'attachments', 'created_datetime', 'sent_datetime', 'deleted_datetime'] as const;
const ticketRead = ['id', 'status', 'priority', 'channel', 'via', 'spam', 'customer', 'assignee_user', 'assignee_team', 'subject', 'tags', 'custom_fields', 'messages', 'created_datetime', 'updated_datetime', 'closed_datetime', 'trashed_datetime'] as const;
const userRead = ['id', 'active', 'email', 'name', 'firstname', 'lastname', 'role', 'created_datetime', 'updated_datetime', 'deactivated_datetime'] as const;

export const contract: ProviderContract = {
  provider: 'gorgias',
  docHosts: ['developers.gorgias.com'],
  endpoints: [
    // `0` is the user the credentials belong to.
    { method: 'GET', path: '/api/users/{id}', doc: `${REF}/get-user`, response: userRead },
    { method: 'GET', path: '/api/users', doc: [`${REF}/list-users`, PAGINATION], query: [...page, 'order_by'], response: userRead },
    { method: 'GET', path: '/api/teams', doc: [`${REF}/list-teams`, PAGINATION], query: [...page, 'order_by'], response: ['id', 'name', 'description', 'members', 'created_datetime'] },
    { method: 'GET', path: '/api/customers', doc: [`${REF}/list-customers`, PAGINATION], query: [...page, 'order_by'], response: ['id', 'email', 'name', 'firstname', 'lastname', 'channels', 'note', 'created_datetime', 'updated_datetime'] },
    { method: 'GET', path: '/api/tags', doc: [`${REF}/list-tags`, PAGINATION], query: [...page, 'order_by'], response: ['id', 'name', 'description', 'created_datetime', 'deleted_datetime'] },
    { method: 'GET', path: '/api/custom-fields', doc: `${REF}/list-custom-fields`, query: [...page, 'object_type'], response: ['id', 'object_type', 'label', 'description', 'definition', 'deactivated_datetime'] },
    // trashed=true lists trashed tickets too, so that trashing is seen as a deletion.
    { method: 'GET', path: '/api/tickets', doc: [`${REF}/list-tickets`, PAGINATION], query: [...page, 'order_by', 'trashed'], response: ticketRead },
    { method: 'GET', path: '/api/tickets/{id}', doc: `${REF}/get-ticket`, response: ticketRead },
    { method: 'POST', path: '/api/tickets', doc: `${REF}/create-ticket`, body: [...ticketWrite, 'messages', ...message.map((f) => `messages.${f}`)], response: ticketRead },
    { method: 'PUT', path: '/api/tickets/{id}', doc: `${REF}/update-ticket`, body: ticketWrite, response: ticketRead },
    // An array of {id, value}: only the fields sent change.
    { method: 'PUT', path: '/api/tickets/{id}/custom-fields', doc: `${REF}/update-ticket-custom-fields`, body: ['id', 'value'] },
    { method: 'GET', path: '/api/messages', doc: [`${REF}/list-messages`, PAGINATION], query: [...page, 'order_by'], response: messageRead },
    { method: 'POST', path: '/api/tickets/{id}/messages', doc: `${REF}/create-ticket-message`, body: message, response: messageRead },
    // multipart/form-data, one part per file (named by the file).
    { method: 'POST', path: '/api/upload', doc: `${REF}/upload-files`, query: ['type'], body: 'raw', response: ['url', 'name', 'size', 'content_type'] },
    { method: 'POST', path: '/api/integrations', doc: [`${REF}/create-integration`, `${REF}/the-tickethttpintegration-object`], body: ['name', 'type', 'description', 'http'], response: ['id'] },
    { method: 'DELETE', path: '/api/integrations/{id}', doc: `${REF}/delete-integration` },
  ],
};
