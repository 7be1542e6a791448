/**
 * Pipedrive data model of the simulator: entity records (stored with epoch-ms times,
 * rendered per API version), users, pipelines/stages and field definitions.
 */

export type FieldEntity = 'person' | 'organization' | 'deal' | 'activity';

export type PdFieldType =
  | 'varchar'
  | 'varchar_auto'
  | 'text'
  | 'double'
  | 'int'
  | 'monetary'
  | 'date'
  | 'enum'
  | 'set'
  | 'user'
  | 'org'
  | 'people'
  | 'deal'
  | 'phone'
  | 'address'
  | 'visible_to'
  | 'stage'
  | 'status'
  | 'time'
  | 'boolean'
  | 'picture';

export interface PdOption {
  id: number;
  label: string;
}

export interface PdField {
  id: number;
  /** System fields use their API name; custom fields a random 40-character hex hash. */
  key: string;
  name: string;
  field_type: PdFieldType;
  options: PdOption[] | null;
  order_nr: number;
  add_time: number;
  update_time: number;
  custom: boolean;
  mandatory: boolean;
  active: boolean;
}

export interface PdContact {
  value: string;
  primary: boolean;
  label: string;
}

export interface PdAddress {
  value: string | null;
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

interface Base {
  id: number;
  add_time: number;
  update_time: number;
  is_deleted: boolean;
  /** When it was deleted (epoch ms). */
  delete_time: number | null;
}

export interface PdPerson extends Base {
  name: string;
  first_name: string | null;
  last_name: string | null;
  owner_id: number;
  org_id: number | null;
  emails: PdContact[];
  phones: PdContact[];
  visible_to: number;
  label_ids: number[];
  picture_id: number | null;
  custom: Record<string, unknown>;
}

export interface PdOrganization extends Base {
  name: string;
  owner_id: number;
  address: PdAddress | null;
  visible_to: number;
  label_ids: number[];
  website: string | null;
  linkedin: string | null;
  industry: number | null;
  annual_revenue: number | null;
  employee_count: number | null;
  custom: Record<string, unknown>;
}

export type DealStatus = 'open' | 'won' | 'lost';

export interface PdDeal extends Base {
  title: string;
  owner_id: number;
  person_id: number | null;
  org_id: number | null;
  pipeline_id: number;
  stage_id: number;
  value: number;
  currency: string;
  status: DealStatus;
  probability: number | null;
  lost_reason: string | null;
  visible_to: number;
  close_time: number | null;
  won_time: number | null;
  lost_time: number | null;
  expected_close_date: string | null;
  label_ids: number[];
  stage_change_time: number | null;
  is_archived: boolean;
  archive_time: number | null;
  origin: string;
  custom: Record<string, unknown>;
}

export interface PdActivity extends Base {
  subject: string;
  type: string;
  owner_id: number;
  creator_user_id: number;
  deal_id: number | null;
  person_id: number | null;
  org_id: number | null;
  lead_id: string | null;
  project_id: number | null;
  due_date: string | null;
  due_time: string | null;
  duration: string | null;
  busy: boolean;
  done: boolean;
  marked_as_done_time: number | null;
  note: string | null;
  public_description: string | null;
  priority: number | null;
  location: PdAddress | null;
  participants: { person_id: number; primary: boolean }[];
}

export interface PdNote extends Base {
  content: string;
  user_id: number;
  deal_id: number | null;
  person_id: number | null;
  org_id: number | null;
  lead_id: string | null;
  project_id: number | null;
  pinned_to_deal_flag: boolean;
  pinned_to_person_flag: boolean;
  pinned_to_organization_flag: boolean;
  pinned_to_lead_flag: boolean;
  pinned_to_project_flag: boolean;
  last_update_user_id: number | null;
}

export interface PdUser {
  id: number;
  name: string;
  email: string;
  default_currency: string;
  locale: string;
  lang: number;
  phone: string | null;
  activated: boolean;
  last_login: number;
  created: number;
  modified: number | null;
  has_created_company: boolean;
  is_admin: boolean;
  role_id: number;
  timezone_name: string;
  timezone_offset: string;
  icon_url: string | null;
  active_flag: boolean;
  is_deleted: boolean;
}

export interface PdPipeline {
  id: number;
  name: string;
  order_nr: number;
  is_deleted: boolean;
  is_deal_probability_enabled: boolean;
  add_time: number;
  update_time: number;
}

export interface PdStage {
  id: number;
  order_nr: number;
  name: string;
  is_deleted: boolean;
  deal_probability: number;
  pipeline_id: number;
  is_deal_rot_enabled: boolean;
  days_to_rotten: number | null;
  add_time: number;
  update_time: number;
}

export const ENTITY_FIELD_SETS: Record<FieldEntity, [key: string, name: string, type: PdFieldType, options?: string[]][]> = {
  person: [
    ['id', 'ID', 'int'],
    ['name', 'Name', 'varchar'],
    ['first_name', 'First name', 'varchar'],
    ['last_name', 'Last name', 'varchar'],
    ['org_id', 'Organization', 'org'],
    ['owner_id', 'Owner', 'user'],
    ['email', 'Email', 'varchar'],
    ['phone', 'Phone', 'phone'],
    ['label_ids', 'Labels', 'set', ['Customer', 'Hot lead', 'Warm lead', 'Cold lead']],
    ['visible_to', 'Visible to', 'visible_to'],
    ['add_time', 'Person created', 'date'],
    ['update_time', 'Update time', 'date'],
    ['picture_id', 'Profile picture', 'picture'],
  ],
  organization: [
    ['id', 'ID', 'int'],
    ['name', 'Name', 'varchar'],
    ['owner_id', 'Owner', 'user'],
    ['address', 'Address', 'address'],
    ['label_ids', 'Labels', 'set', ['Customer', 'Hot lead', 'Warm lead', 'Cold lead']],
    ['visible_to', 'Visible to', 'visible_to'],
    ['website', 'Website', 'varchar'],
    ['linkedin', 'LinkedIn profile', 'varchar'],
    ['industry', 'Industry', 'enum', ['Software', 'Retail', 'Finance', 'Healthcare']],
    ['annual_revenue', 'Annual revenue', 'monetary'],
    ['employee_count', 'Number of employees', 'int'],
    ['add_time', 'Organization created', 'date'],
    ['update_time', 'Update time', 'date'],
  ],
  deal: [
    ['id', 'ID', 'int'],
    ['title', 'Title', 'varchar'],
    ['owner_id', 'Owner', 'user'],
    ['value', 'Value', 'monetary'],
    ['org_id', 'Organization', 'org'],
    ['person_id', 'Contact person', 'people'],
    ['stage_id', 'Stage', 'stage'],
    ['status', 'Status', 'status'],
    ['probability', 'Probability', 'double'],
    ['lost_reason', 'Lost reason', 'varchar'],
    ['expected_close_date', 'Expected close date', 'date'],
    ['label_ids', 'Label', 'set', ['Hot', 'Warm', 'Cold']],
    ['visible_to', 'Visible to', 'visible_to'],
    ['add_time', 'Deal created', 'date'],
    ['update_time', 'Update time', 'date'],
    ['close_time', 'Deal closed on', 'date'],
    ['won_time', 'Won time', 'date'],
    ['lost_time', 'Lost time', 'date'],
  ],
  activity: [
    ['id', 'ID', 'int'],
    ['subject', 'Subject', 'varchar'],
    ['type', 'Type', 'enum', ['call', 'meeting', 'task', 'deadline', 'email', 'lunch']],
    ['due_date', 'Due date', 'date'],
    ['due_time', 'Due time', 'time'],
    ['duration', 'Duration', 'time'],
    ['done', 'Done', 'boolean'],
    ['owner_id', 'Assigned to user', 'user'],
    ['deal_id', 'Deal', 'deal'],
    ['person_id', 'Contact person', 'people'],
    ['org_id', 'Organization', 'org'],
    ['note', 'Note', 'text'],
    ['add_time', 'Add time', 'date'],
    ['update_time', 'Update time', 'date'],
  ],
};

export const ACTIVITY_TYPES = ['call', 'meeting', 'task', 'deadline', 'email', 'lunch'];

export const ERROR_INFO = 'Please check developers.pipedrive.com for more information about Pipedrive API.';
