/**
 * What the Zendesk Sell adapter (src/providers/zendesk-sell) uses of the Sell Core API v2
 * (https://developer.zendesk.com/api-reference/sales-crm/): `{data, meta}` envelopes (requests/), page lists
 * (`page`, `per_page`, `sort_by`), contacts that are persons or organizations (`is_organization`), deals,
 * notes, tasks, calls, users, pipelines and stages, and custom field definitions. Checked by the conformance
 * suite and zendesk-sell.contract.test.ts (see contract.ts).
 */
import type { ProviderContract } from './contract';

const REF = 'https://developer.zendesk.com/api-reference/sales-crm';
const REQUESTS = `${REF}/requests/`;
const page = ['page', 'per_page'] as const;
const sorted = [...page, 'sort_by'] as const;
/** A write's body is `{"data": {...}}`. */
const data = (fields: readonly string[]) => ['data', ...fields.map((f) => `data.${f}`)];
const contactWrite = ['is_organization', 'name', 'first_name', 'last_name', 'industry', 'owner_id', 'contact_id', 'email', 'phone', 'mobile', 'fax', 'address', 'custom_fields'];
const dated = ['id', 'created_at', 'updated_at'];
const contactRead = [...dated, 'is_organization', 'name', 'first_name', 'last_name', 'industry', 'owner_id', 'contact_id', 'email', 'phone', 'mobile', 'fax', 'address', 'custom_fields'];
const dealWrite = ['name', 'value', 'currency', 'stage_id', 'owner_id', 'estimated_close_date', 'contact_id', 'custom_fields'];
const noteWrite = ['content', 'resource_type', 'resource_id'];
const taskWrite = ['content', 'completed', 'due_date', 'owner_id', 'resource_type', 'resource_id'];
const callWrite = ['summary', 'incoming', 'made_at', 'duration', 'user_id', 'phone_number', 'resource_type', 'resource_id'];

export const contract: ProviderContract = {
  provider: 'zendesk-sell',
  docHosts: ['developer.zendesk.com'],
  endpoints: [
    { method: 'GET', path: '/v2/users/self', doc: `${REF}/resources/users/`, response: ['id', 'name', 'email', 'status', 'role'] },
    { method: 'GET', path: '/v2/users', doc: [`${REF}/resources/users/`, REQUESTS], query: page, response: ['id', 'name', 'email', 'status', 'role', 'created_at', 'updated_at'] },
    { method: 'GET', path: '/v2/pipelines', doc: `${REF}/resources/pipelines/`, query: page, response: ['id', 'name'] },
    { method: 'GET', path: '/v2/stages', doc: `${REF}/resources/stages/`, query: page, response: ['id', 'name', 'pipeline_id', 'position', 'category'] },
    // ids= resolves which contacts are organizations, up to 100 at a time.
    { method: 'GET', path: '/v2/contacts', doc: `${REF}/resources/contacts/`, query: [...sorted, 'is_organization', 'ids'], response: contactRead },
    { method: 'GET', path: '/v2/contacts/{id}', doc: `${REF}/resources/contacts/`, response: contactRead },
    { method: 'POST', path: '/v2/contacts', doc: [`${REF}/resources/contacts/`, REQUESTS], body: data(contactWrite), response: contactRead },
    { method: 'PUT', path: '/v2/contacts/{id}', doc: [`${REF}/resources/contacts/`, REQUESTS], body: data(contactWrite), response: contactRead },
    { method: 'GET', path: '/v2/deals', doc: `${REF}/resources/deals/`, query: sorted, response: [...dated, ...dealWrite] },
    { method: 'GET', path: '/v2/deals/{id}', doc: `${REF}/resources/deals/`, response: [...dated, ...dealWrite] },
    { method: 'POST', path: '/v2/deals', doc: [`${REF}/resources/deals/`, REQUESTS], body: data(dealWrite), response: [...dated, ...dealWrite] },
    { method: 'PUT', path: '/v2/deals/{id}', doc: [`${REF}/resources/deals/`, REQUESTS], body: data(dealWrite), response: [...dated, ...dealWrite] },
    { method: 'GET', path: '/v2/notes', doc: `${REF}/resources/notes/`, query: sorted, response: [...dated, ...noteWrite, 'creator_id'] },
    { method: 'GET', path: '/v2/notes/{id}', doc: `${REF}/resources/notes/`, response: [...dated, ...noteWrite, 'creator_id'] },
    { method: 'POST', path: '/v2/notes', doc: [`${REF}/resources/notes/`, REQUESTS], body: data(noteWrite), response: [...dated, ...noteWrite] },
    { method: 'PUT', path: '/v2/notes/{id}', doc: [`${REF}/resources/notes/`, REQUESTS], body: data(noteWrite), response: [...dated, ...noteWrite] },
    { method: 'GET', path: '/v2/tasks', doc: `${REF}/resources/tasks/`, query: sorted, response: [...dated, ...taskWrite, 'completed_at'] },
    { method: 'GET', path: '/v2/tasks/{id}', doc: `${REF}/resources/tasks/`, response: [...dated, ...taskWrite, 'completed_at'] },
    { method: 'POST', path: '/v2/tasks', doc: [`${REF}/resources/tasks/`, REQUESTS], body: data(taskWrite), response: [...dated, ...taskWrite] },
    { method: 'PUT', path: '/v2/tasks/{id}', doc: [`${REF}/resources/tasks/`, REQUESTS], body: data(taskWrite), response: [...dated, ...taskWrite] },
    { method: 'GET', path: '/v2/calls', doc: `${REF}/resources/calls/`, query: page, response: [...dated, ...callWrite] },
    { method: 'GET', path: '/v2/calls/{id}', doc: `${REF}/resources/calls/`, response: [...dated, ...callWrite] },
    { method: 'POST', path: '/v2/calls', doc: [`${REF}/resources/calls/`, REQUESTS], body: data(callWrite), response: [...dated, ...callWrite] },
    { method: 'PUT', path: '/v2/calls/{id}', doc: [`${REF}/resources/calls/`, REQUESTS], body: data(callWrite), response: [...dated, ...callWrite] },
    { method: 'GET', path: '/v2/contact/custom_fields', doc: `${REF}/resources/custom-fields/`, query: page, response: ['id', 'name', 'type', 'for_contact', 'for_organization', 'choices'] },
    { method: 'GET', path: '/v2/deal/custom_fields', doc: `${REF}/resources/custom-fields/`, query: page, response: ['id', 'name', 'type', 'choices'] },
  ],
};
