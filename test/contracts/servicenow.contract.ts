/**
 * What the ServiceNow adapter (src/providers/servicenow) uses of the REST API reference: the Table API for
 * incidents, their journal (comments and work notes), the directory tables, deletions (sys_audit_delete) and
 * custom columns (sys_dictionary), and the Attachment API. Checked by the conformance suite and
 * servicenow.contract.test.ts (see contract.ts).
 */
import type { ProviderContract } from './contract';

const TABLE_API = 'https://docs.servicenow.com/bundle/vancouver-api-reference/page/integrate/inbound-rest/concept/c_TableAPI.html';
const ATTACHMENT_API = 'https://docs.servicenow.com/bundle/vancouver-api-reference/page/integrate/inbound-rest/concept/c_AttachmentAPI.html';
const AUDIT_DELETE = 'https://docs.servicenow.com/bundle/kingston-servicenow-platform/page/administer/table-administration/task/t_RestoreADeletedRecordAndRef.html';
// Internal values and plain sys_ids for references, on every Table API call.
const read = ['sysparm_display_value', 'sysparm_exclude_reference_link'] as const;
const list = [...read, 'sysparm_query', 'sysparm_limit', 'sysparm_offset', 'sysparm_fields'] as const;
const dated = ['sys_id', 'sys_created_on', 'sys_updated_on'] as const;
const incidentRead = [...dated, 'number', 'short_description', 'description', 'state', 'impact', 'urgency', 'priority', 'category', 'caller_id', 'assigned_to', 'assignment_group', 'company', 'parent_incident', 'due_date', 'resolved_at', 'closed_at', 'active'] as const;
// Resolving needs close_code and close_notes, On Hold a hold_reason; custom columns are u_ columns.
const incidentWrite = ['short_description', 'description', 'state', 'close_code', 'close_notes', 'hold_reason', 'impact', 'urgency', 'category', 'due_date', 'assigned_to', 'caller_id', 'company', 'parent_incident', 'u_*'] as const;
const table = (name: string, response: readonly string[], query: readonly string[] = list) => ({ method: 'GET' as const, path: `/api/now/table/${name}`, doc: TABLE_API, query, response });

export const contract: ProviderContract = {
  provider: 'servicenow',
  docHosts: ['docs.servicenow.com'],
  endpoints: [
    table('sys_user', [...dated, 'user_name', 'name', 'first_name', 'last_name', 'email', 'phone', 'mobile_phone', 'company', 'title', 'active']),
    table('sys_user_group', [...dated, 'name', 'description']),
    table('sys_user_grmember', [...dated, 'user', 'group']),
    table('core_company', [...dated, 'name', 'website', 'customer']),
    table('sys_dictionary', ['sys_id', 'name', 'element', 'column_label', 'internal_type']),
    { ...table('sys_audit_delete', [...dated, 'tablename', 'documentkey']), doc: [TABLE_API, AUDIT_DELETE] },
    table('sys_journal_field', [...dated, 'name', 'element_id', 'element', 'value', 'sys_created_by']),
    table('incident', incidentRead),
    { method: 'GET', path: '/api/now/table/incident/{sys_id}', doc: TABLE_API, query: read, response: incidentRead },
    { method: 'POST', path: '/api/now/table/incident', doc: TABLE_API, query: read, body: incidentWrite, response: incidentRead },
    // Comments are written as the incident's `comments` or `work_notes` journal field.
    { method: 'PATCH', path: '/api/now/table/incident/{sys_id}', doc: TABLE_API, query: [...read, 'sysparm_fields'], body: [...incidentWrite, 'comments', 'work_notes'], response: incidentRead },
    // The Attachment API takes the query and paging parameters only.
    { method: 'GET', path: '/api/now/attachment', doc: ATTACHMENT_API, query: ['sysparm_query', 'sysparm_limit', 'sysparm_offset'], response: [...dated, 'file_name', 'content_type', 'size_bytes', 'table_name', 'table_sys_id', 'download_link', 'sys_created_by'] },
    { method: 'POST', path: '/api/now/attachment/file', doc: ATTACHMENT_API, query: ['file_name', 'table_name', 'table_sys_id'], body: 'raw', response: ['sys_id', 'file_name', 'content_type', 'size_bytes', 'download_link'] },
  ],
};
