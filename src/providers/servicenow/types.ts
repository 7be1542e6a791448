/**
 * ServiceNow Table API and Attachment API JSON shapes, as far as Omniport reads or writes them. Lists and
 * single records come wrapped in `{"result": …}`. Omniport asks for internal values
 * (`sysparm_display_value=false`) and plain reference values (`sysparm_exclude_reference_link=true`), so every
 * field is a string: choice values (`"2"`), sys_ids of referenced records, datetimes `YYYY-MM-DD HH:mm:ss` in
 * UTC. Every field is optional on read; Omniport keeps the whole record as `remote_data`.
 */

export interface SnRecord {
  sys_id: string;
  sys_created_on?: string;
  sys_updated_on?: string;
  [field: string]: unknown;
}

/** `incident` (extends `task`). */
export interface SnIncident extends SnRecord {
  number?: string;
  short_description?: string;
  description?: string;
  /** 1 New, 2 In Progress, 3 On Hold, 6 Resolved, 7 Closed, 8 Canceled. */
  state?: string;
  /** 1 High, 2 Medium, 3 Low. */
  impact?: string;
  urgency?: string;
  /** 1 Critical … 5 Planning: computed from impact and urgency by the priority lookup rules. */
  priority?: string;
  category?: string;
  caller_id?: string;
  assigned_to?: string;
  assignment_group?: string;
  company?: string;
  parent_incident?: string;
  due_date?: string;
  resolved_at?: string;
  closed_at?: string;
  active?: string;
}

/** `sys_journal_field`: one entry of a journal field (`comments` is public, `work_notes` internal). */
export interface SnJournalEntry extends SnRecord {
  /** The table of the record (`incident`). */
  name?: string;
  /** The record's sys_id. */
  element_id?: string;
  /** `comments` or `work_notes`. */
  element?: string;
  value?: string;
  /** The author's user_name (not a sys_id). */
  sys_created_by?: string;
}

/** `sys_attachment` metadata as the Attachment API lists it. */
export interface SnAttachment extends SnRecord {
  file_name?: string;
  content_type?: string;
  size_bytes?: string;
  table_name?: string;
  table_sys_id?: string;
  download_link?: string;
  sys_created_by?: string;
}

export interface SnUser extends SnRecord {
  user_name?: string;
  name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  mobile_phone?: string;
  company?: string;
  title?: string;
  active?: string;
}

export interface SnGroup extends SnRecord {
  name?: string;
  description?: string;
}

export interface SnGroupMember extends SnRecord {
  user?: string;
  group?: string;
}

export interface SnCompany extends SnRecord {
  name?: string;
  website?: string;
  customer?: string;
}

/** `sys_dictionary`: one column of a table. */
export interface SnDictionaryEntry extends SnRecord {
  name?: string;
  element?: string;
  column_label?: string;
  internal_type?: string;
}

/** `sys_audit_delete`: a deleted record of an audited table. */
export interface SnAuditDelete extends SnRecord {
  tablename?: string;
  documentkey?: string;
}
