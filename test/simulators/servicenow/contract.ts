/**
 * What ServiceNow's public REST API reference documents for the requests the simulator serves, transcribed (there
 * is no machine-readable description): the Table API's query parameters (Table API → GET /now/table/{tableName},
 * POST, PATCH), the Attachment API's (GET /now/attachment, POST /now/attachment/file), the encoded-query
 * operators Omniport uses (Encoded query strings; Operators available for filters and queries), and the columns
 * of the tables it reads and writes (incident extends task). ServiceNow ignores unknown columns in a body; the
 * simulator records them as contract violations so the adapter never sends one.
 */

/** Table API list parameters (GET /now/table/{tableName}). */
export const TABLE_LIST_PARAMS = [
  'sysparm_query', 'sysparm_display_value', 'sysparm_exclude_reference_link', 'sysparm_suppress_pagination_header', 'sysparm_fields',
  'sysparm_limit', 'sysparm_offset', 'sysparm_view', 'sysparm_query_category', 'sysparm_query_no_domain', 'sysparm_no_count',
] as const;
/** Table API single-record and write parameters (GET/PATCH /now/table/{tableName}/{sys_id}, POST /now/table/{tableName}). */
export const TABLE_RECORD_PARAMS = ['sysparm_display_value', 'sysparm_exclude_reference_link', 'sysparm_fields', 'sysparm_input_display_value', 'sysparm_suppress_auto_sys_field', 'sysparm_view', 'sysparm_query_no_domain'] as const;
/** Attachment API GET /now/attachment. */
export const ATTACHMENT_LIST_PARAMS = ['sysparm_query', 'sysparm_suppress_pagination_header', 'sysparm_limit', 'sysparm_offset'] as const;
/** Attachment API POST /now/attachment/file (the file is the raw body, its type the Content-Type header). */
export const ATTACHMENT_UPLOAD_PARAMS = ['file_name', 'table_name', 'table_sys_id', 'encryption_context'] as const;

/** Encoded-query operators the simulator evaluates (a subset of the documented ones). */
export const OPERATORS = ['>=', '<=', '!=', '>', '<', '=', 'IN', 'STARTSWITH', 'LIKE'] as const;

/** Columns of the tables served (system columns sys_id, sys_created_on, sys_created_by, sys_updated_on, sys_updated_by, sys_mod_count on all). */
export const COLUMNS: Record<string, readonly string[]> = {
  incident: [
    'number', 'short_description', 'description', 'state', 'impact', 'urgency', 'priority', 'category', 'subcategory', 'caller_id', 'assigned_to',
    'assignment_group', 'company', 'parent_incident', 'due_date', 'opened_at', 'resolved_at', 'closed_at', 'close_code', 'close_notes', 'hold_reason',
    'active', 'contact_type', 'comments', 'work_notes',
  ],
  sys_user: ['user_name', 'name', 'first_name', 'last_name', 'email', 'phone', 'mobile_phone', 'company', 'title', 'active'],
  sys_user_group: ['name', 'description', 'manager', 'email', 'active'],
  sys_user_grmember: ['user', 'group'],
  core_company: ['name', 'website', 'customer', 'vendor', 'phone', 'city', 'country'],
  sys_journal_field: ['name', 'element', 'element_id', 'value'],
  sys_audit_delete: ['tablename', 'documentkey', 'display_value', 'payload'],
  sys_dictionary: ['name', 'element', 'column_label', 'internal_type', 'max_length', 'mandatory'],
};

/** Columns written by the instance only. */
export const READ_ONLY = ['number', 'priority', 'opened_at', 'resolved_at', 'closed_at', 'active'] as const;
