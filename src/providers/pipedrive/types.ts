/**
 * Pipedrive objects as the API answers them (API v2 for persons, organizations, deals, activities,
 * stages, pipelines and field definitions; API v1 for users and notes). Only what the adapter reads is
 * typed; everything else travels untouched in `remote_data`.
 */

export interface PdContactPoint {
  value?: string | null;
  primary?: boolean | null;
  label?: string | null;
}

/** An address as Pipedrive stores it (organisation `address`, person `postal_address`). */
export interface PdAddress {
  value?: string | null;
  country?: string | null;
  admin_area_level_1?: string | null;
  admin_area_level_2?: string | null;
  locality?: string | null;
  sublocality?: string | null;
  route?: string | null;
  street_number?: string | null;
  subpremise?: string | null;
  postal_code?: string | null;
}

export interface PdPerson {
  id: number;
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  owner_id?: number | null;
  org_id?: number | null;
  emails?: PdContactPoint[] | null;
  phones?: PdContactPoint[] | null;
  /** Present only when the company has contact sync enabled. */
  postal_address?: PdAddress | null;
  add_time?: string | null;
  update_time?: string | null;
  is_deleted?: boolean | null;
  custom_fields?: Record<string, unknown> | null;
}

export interface PdOrganization {
  id: number;
  name?: string | null;
  owner_id?: number | null;
  address?: PdAddress | null;
  /** Option id of the `industry` field (organizationFields). */
  industry?: number | null;
  employee_count?: number | null;
  add_time?: string | null;
  update_time?: string | null;
  is_deleted?: boolean | null;
  custom_fields?: Record<string, unknown> | null;
}

export interface PdDeal {
  id: number;
  title?: string | null;
  owner_id?: number | null;
  person_id?: number | null;
  org_id?: number | null;
  pipeline_id?: number | null;
  stage_id?: number | null;
  value?: number | null;
  currency?: string | null;
  status?: string | null;
  expected_close_date?: string | null;
  add_time?: string | null;
  update_time?: string | null;
  is_deleted?: boolean | null;
  custom_fields?: Record<string, unknown> | null;
}

export interface PdActivity {
  id: number;
  subject?: string | null;
  type?: string | null;
  owner_id?: number | null;
  deal_id?: number | null;
  person_id?: number | null;
  org_id?: number | null;
  due_date?: string | null;
  due_time?: string | null;
  duration?: string | null;
  done?: boolean | null;
  marked_as_done_time?: string | null;
  note?: string | null;
  participants?: { person_id?: number | null; primary?: boolean | null }[] | null;
  add_time?: string | null;
  update_time?: string | null;
  is_deleted?: boolean | null;
}

export interface PdStage {
  id: number;
  name?: string | null;
  pipeline_id?: number | null;
  order_nr?: number | null;
  add_time?: string | null;
  update_time?: string | null;
  is_deleted?: boolean | null;
}

export interface PdPipeline {
  id: number;
  name?: string | null;
}

/** API v1 user (`GET /v1/users`). */
export interface PdUser {
  id: number;
  name?: string | null;
  email?: string | null;
  created?: string | null;
  modified?: string | null;
  active_flag?: boolean | null;
  is_deleted?: boolean | null;
}

/** API v1 note (`GET /v1/notes`). */
export interface PdNote {
  id: number;
  content?: string | null;
  user_id?: number | null;
  deal_id?: number | null;
  person_id?: number | null;
  org_id?: number | null;
  add_time?: string | null;
  update_time?: string | null;
  active_flag?: boolean | null;
}

export interface PdOption {
  id: number;
  label: string;
}

/** A field definition (`GET /api/v2/{entity}Fields`). */
export interface PdFieldDef {
  field_code: string;
  field_name: string;
  field_type: string;
  options?: PdOption[] | null;
  is_custom_field?: boolean;
}

/** `{success, data, additional_data}`: every Pipedrive answer. */
export interface PdEnvelope<T> {
  success?: boolean;
  data?: T;
  additional_data?: {
    next_cursor?: string | null;
    pagination?: { start?: number; limit?: number; more_items_in_collection?: boolean; next_start?: number };
  } | null;
  error?: string;
}
