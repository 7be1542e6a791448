/**
 * What the Freshdesk adapter (src/providers/freshdesk) uses of the API v2 reference, one page with a section
 * per operation (https://developers.freshdesk.com/api/). Checked by the conformance suite and
 * freshdesk.contract.test.ts (see contract.ts).
 */
import type { ProviderContract } from './contract';

const API = 'https://developers.freshdesk.com/api/';
const paged = ['page', 'per_page'] as const;
const ticketFields = ['subject', 'description', 'status', 'priority', 'type', 'requester_id', 'responder_id', 'company_id', 'tags', 'due_by', 'custom_fields'] as const;
const ticketRead = ['id', 'subject', 'description', 'description_text', 'status', 'priority', 'source', 'type', 'requester_id', 'responder_id', 'group_id', 'company_id', 'tags', 'custom_fields', 'due_by', 'fr_due_by', 'spam', 'deleted', 'attachments', 'stats', 'created_at', 'updated_at'] as const;
const conversationRead = ['id', 'ticket_id', 'body', 'body_text', 'incoming', 'private', 'user_id', 'source', 'attachments', 'created_at', 'updated_at'] as const;
const agentRead = ['id', 'group_ids', 'contact', 'created_at', 'updated_at'] as const;
const contactRead = ['id', 'name', 'email', 'phone', 'mobile', 'company_id', 'description', 'deleted', 'created_at', 'updated_at'] as const;
const companyRead = ['id', 'name', 'description', 'domains', 'created_at', 'updated_at'] as const;
const groupRead = ['id', 'name', 'description', 'agent_ids', 'created_at', 'updated_at'] as const;

export const contract: ProviderContract = {
  provider: 'freshdesk',
  docHosts: ['developers.freshdesk.com'],
  endpoints: [
    { method: 'GET', path: '/api/v2/agents/me', doc: `${API}#me`, response: agentRead },
    { method: 'GET', path: '/api/v2/agents', doc: `${API}#list_all_agents`, query: paged, response: agentRead },
    { method: 'GET', path: '/api/v2/agents/{id}', doc: `${API}#view_agent`, response: agentRead },
    { method: 'GET', path: '/api/v2/groups', doc: `${API}#list_all_groups`, query: paged, response: groupRead },
    { method: 'GET', path: '/api/v2/groups/{id}', doc: `${API}#view_group`, response: groupRead },
    { method: 'GET', path: '/api/v2/companies', doc: `${API}#list_all_companies`, query: paged, response: companyRead },
    { method: 'GET', path: '/api/v2/companies/{id}', doc: `${API}#view_company`, response: companyRead },
    { method: 'GET', path: '/api/v2/contacts', doc: `${API}#list_all_contacts`, query: paged, response: contactRead },
    { method: 'GET', path: '/api/v2/contacts/{id}', doc: `${API}#view_contact`, response: contactRead },
    { method: 'GET', path: '/api/v2/ticket_fields', doc: `${API}#list_all_ticket_fields`, response: ['id', 'name', 'label', 'type', 'default', 'choices'] },
    // updated_since with order_by=updated_at asc walks every ticket (without it only the last 30 days);
    // filter=deleted lists the trash; include=description adds the body a list leaves out.
    { method: 'GET', path: '/api/v2/tickets', doc: `${API}#list_all_tickets`, query: [...paged, 'updated_since', 'order_by', 'order_type', 'include', 'filter'], response: ticketRead },
    { method: 'GET', path: '/api/v2/tickets/{id}', doc: `${API}#view_a_ticket`, response: ticketRead },
    { method: 'POST', path: '/api/v2/tickets', doc: `${API}#create_ticket`, body: ticketFields, response: ticketRead },
    { method: 'PUT', path: '/api/v2/tickets/{id}', doc: `${API}#update_ticket`, body: ticketFields, response: ticketRead },
    { method: 'GET', path: '/api/v2/tickets/{id}/conversations', doc: `${API}#list_all_ticket_notes`, query: paged, response: conversationRead },
    // JSON, or multipart/form-data with `attachments[]` when there are files.
    { method: 'POST', path: '/api/v2/tickets/{id}/reply', doc: `${API}#reply_ticket`, body: ['body', 'user_id', 'attachments[]'], response: conversationRead },
    { method: 'POST', path: '/api/v2/tickets/{id}/notes', doc: `${API}#add_note_to_a_ticket`, body: ['body', 'private', 'incoming', 'user_id', 'attachments[]'], response: conversationRead },
  ],
};
