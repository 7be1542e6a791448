/**
 * Static HubSpot model: CRM object types, their default property definitions, default
 * association types and the default deal pipeline. Values follow HubSpot's public API
 * reference (CRM objects v3, properties v3, associations v4 "association type IDs").
 */

export const OBJECT_TYPES = ['contacts', 'companies', 'deals', 'notes', 'tasks', 'calls', 'meetings', 'emails'] as const;
export type HubSpotObjectType = (typeof OBJECT_TYPES)[number];

export interface ObjectTypeInfo {
  name: HubSpotObjectType;
  singular: string;
  objectTypeId: string;
  /** First id handed out; distinct ranges make id mix-ups between types visible. */
  idBase: number;
  createdProp: string;
  modifiedProp: string;
  /** Properties returned when the request names none. */
  defaultProps: string[];
  /** Properties always returned, whatever the request names. */
  alwaysProps: string[];
  /** Properties the free-text `query` of the search API looks at. */
  queryProps: string[];
  engagement: boolean;
}

const engagement = (name: HubSpotObjectType, singular: string, objectTypeId: string, idBase: number, queryProps: string[]): ObjectTypeInfo => ({
  name,
  singular,
  objectTypeId,
  idBase,
  createdProp: 'hs_createdate',
  modifiedProp: 'hs_lastmodifieddate',
  defaultProps: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  alwaysProps: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  queryProps,
  engagement: true,
});

export const TYPE_INFO: Record<HubSpotObjectType, ObjectTypeInfo> = {
  contacts: {
    name: 'contacts',
    singular: 'contact',
    objectTypeId: '0-1',
    idBase: 1001,
    createdProp: 'createdate',
    modifiedProp: 'lastmodifieddate',
    defaultProps: ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'],
    alwaysProps: ['createdate', 'hs_object_id', 'lastmodifieddate'],
    queryProps: ['email', 'firstname', 'lastname', 'phone', 'company', 'hs_object_id'],
    engagement: false,
  },
  companies: {
    name: 'companies',
    singular: 'company',
    objectTypeId: '0-2',
    idBase: 5_000_001,
    createdProp: 'createdate',
    modifiedProp: 'hs_lastmodifieddate',
    defaultProps: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'],
    alwaysProps: ['createdate', 'hs_lastmodifieddate', 'hs_object_id'],
    queryProps: ['name', 'domain', 'website', 'phone', 'hs_object_id'],
    engagement: false,
  },
  deals: {
    name: 'deals',
    singular: 'deal',
    objectTypeId: '0-3',
    idBase: 9_000_001,
    createdProp: 'createdate',
    modifiedProp: 'hs_lastmodifieddate',
    defaultProps: ['amount', 'closedate', 'createdate', 'dealname', 'dealstage', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline'],
    alwaysProps: ['createdate', 'hs_lastmodifieddate', 'hs_object_id'],
    queryProps: ['dealname', 'hs_object_id'],
    engagement: false,
  },
  notes: engagement('notes', 'note', '0-46', 20_000_001, ['hs_note_body']),
  tasks: engagement('tasks', 'task', '0-27', 30_000_001, ['hs_task_subject', 'hs_task_body']),
  calls: engagement('calls', 'call', '0-48', 40_000_001, ['hs_call_title', 'hs_call_body']),
  meetings: engagement('meetings', 'meeting', '0-47', 50_000_001, ['hs_meeting_title', 'hs_meeting_body']),
  emails: engagement('emails', 'email', '0-49', 60_000_001, ['hs_email_subject', 'hs_email_text']),
};

/** Resolves `contacts`, `contact`, `CONTACTS`, `0-1` … to the canonical plural name. */
export function resolveObjectType(s: string): HubSpotObjectType | undefined {
  const k = s.toLowerCase();
  for (const info of Object.values(TYPE_INFO)) {
    if (k === info.name || k === info.singular || k === info.objectTypeId) return info.name;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Properties

export type PropertyType = 'string' | 'number' | 'date' | 'datetime' | 'enumeration' | 'bool';
export type FieldType =
  | 'text'
  | 'textarea'
  | 'number'
  | 'date'
  | 'select'
  | 'radio'
  | 'checkbox'
  | 'booleancheckbox'
  | 'phonenumber'
  | 'html'
  | 'file'
  | 'calculation_equation';

export interface PropertyOption {
  label: string;
  value: string;
  displayOrder: number;
  hidden: boolean;
  description?: string;
}

export interface PropertyDefinition {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: FieldType;
  groupName: string;
  description: string;
  options: PropertyOption[];
  displayOrder: number;
  calculated: boolean;
  externalOptions: boolean;
  hasUniqueValue: boolean;
  hidden: boolean;
  formField: boolean;
  hubspotDefined?: boolean;
  modificationMetadata: { archivable: boolean; readOnlyDefinition: boolean; readOnlyValue: boolean };
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  dataSensitivity?: string;
  /** Simulator-only: options are computed (owners, pipelines, stages) – not rendered. */
  dynamicOptions?: 'owners' | 'pipelines' | 'stages';
}

interface P {
  name: string;
  label: string;
  type?: PropertyType;
  fieldType?: FieldType;
  group?: string;
  options?: string[];
  readOnly?: boolean;
  unique?: boolean;
  dynamic?: PropertyDefinition['dynamicOptions'];
}

const DEFINED_AT = '2019-08-06T02:43:01.417Z';

function def(p: P, order: number, defaultGroup: string): PropertyDefinition {
  const type = p.type ?? 'string';
  const fieldType: FieldType =
    p.fieldType ??
    (type === 'number' ? 'number' : type === 'date' || type === 'datetime' ? 'date' : type === 'enumeration' ? 'select' : type === 'bool' ? 'booleancheckbox' : 'text');
  return {
    name: p.name,
    label: p.label,
    type,
    fieldType,
    groupName: p.group ?? defaultGroup,
    description: '',
    options: (p.options ?? []).map((v, i) => ({ label: labelize(v), value: v, displayOrder: i, hidden: false })),
    displayOrder: order,
    calculated: Boolean(p.readOnly),
    externalOptions: Boolean(p.dynamic),
    hasUniqueValue: Boolean(p.unique),
    hidden: false,
    formField: !p.readOnly,
    hubspotDefined: true,
    modificationMetadata: { archivable: false, readOnlyDefinition: true, readOnlyValue: Boolean(p.readOnly) },
    createdAt: DEFINED_AT,
    updatedAt: DEFINED_AT,
    archived: false,
    ...(p.dynamic ? { dynamicOptions: p.dynamic } : {}),
  };
}

function labelize(v: string): string {
  return v
    .toLowerCase()
    .split(/[_\s]+/)
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

const OWNER: P = { name: 'hubspot_owner_id', label: 'Contact owner', type: 'enumeration', fieldType: 'select', dynamic: 'owners' };
const OBJECT_ID: P = { name: 'hs_object_id', label: 'Record ID', type: 'number', readOnly: true };

const CONTACT_PROPS: P[] = [
  { name: 'email', label: 'Email', unique: true },
  { name: 'firstname', label: 'First Name' },
  { name: 'lastname', label: 'Last Name' },
  { name: 'phone', label: 'Phone Number', fieldType: 'phonenumber' },
  { name: 'mobilephone', label: 'Mobile Phone Number', fieldType: 'phonenumber' },
  { name: 'company', label: 'Company Name' },
  { name: 'jobtitle', label: 'Job Title' },
  { name: 'website', label: 'Website URL' },
  { name: 'address', label: 'Street Address' },
  { name: 'city', label: 'City' },
  { name: 'state', label: 'State/Region' },
  { name: 'zip', label: 'Postal Code' },
  { name: 'country', label: 'Country/Region' },
  {
    name: 'lifecyclestage',
    label: 'Lifecycle Stage',
    type: 'enumeration',
    fieldType: 'radio',
    options: ['subscriber', 'lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer', 'evangelist', 'other'],
  },
  {
    name: 'hs_lead_status',
    label: 'Lead Status',
    type: 'enumeration',
    fieldType: 'radio',
    options: ['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING'],
  },
  { ...OWNER, label: 'Contact owner' },
  { name: 'createdate', label: 'Create Date', type: 'datetime' },
  { name: 'lastmodifieddate', label: 'Last Modified Date', type: 'datetime', readOnly: true },
  { name: 'hs_lastmodifieddate', label: 'Object last modified date/time', type: 'datetime', readOnly: true },
  OBJECT_ID,
];

const COMPANY_PROPS: P[] = [
  { name: 'name', label: 'Company name' },
  { name: 'domain', label: 'Company Domain Name' },
  { name: 'website', label: 'Website URL' },
  { name: 'phone', label: 'Phone Number', fieldType: 'phonenumber' },
  { name: 'industry', label: 'Industry', type: 'enumeration', options: ['ACCOUNTING', 'COMPUTER_SOFTWARE', 'FINANCIAL_SERVICES', 'HOSPITAL_HEALTH_CARE', 'RETAIL', 'OTHER'] },
  { name: 'description', label: 'Description', fieldType: 'textarea' },
  { name: 'address', label: 'Street Address' },
  { name: 'city', label: 'City' },
  { name: 'state', label: 'State/Region' },
  { name: 'zip', label: 'Postal Code' },
  { name: 'country', label: 'Country/Region' },
  { name: 'numberofemployees', label: 'Number of Employees', type: 'number' },
  { name: 'annualrevenue', label: 'Annual Revenue', type: 'number' },
  { ...OWNER, label: 'Company owner' },
  { name: 'createdate', label: 'Create Date', type: 'datetime' },
  { name: 'hs_lastmodifieddate', label: 'Last Modified Date', type: 'datetime', readOnly: true },
  OBJECT_ID,
];

const DEAL_PROPS: P[] = [
  { name: 'dealname', label: 'Deal Name' },
  // `amount` is a number property but, like every HubSpot value, travels as a string.
  { name: 'amount', label: 'Amount', type: 'number' },
  { name: 'deal_currency_code', label: 'Currency', type: 'enumeration', options: ['USD', 'EUR', 'GBP'] },
  { name: 'dealstage', label: 'Deal Stage', type: 'enumeration', fieldType: 'radio', dynamic: 'stages' },
  { name: 'pipeline', label: 'Pipeline', type: 'enumeration', fieldType: 'select', dynamic: 'pipelines' },
  { name: 'closedate', label: 'Close Date', type: 'datetime' },
  { name: 'dealtype', label: 'Deal Type', type: 'enumeration', fieldType: 'radio', options: ['newbusiness', 'existingbusiness'] },
  { name: 'description', label: 'Deal Description', fieldType: 'textarea' },
  { name: 'hs_priority', label: 'Priority', type: 'enumeration', options: ['low', 'medium', 'high'] },
  { ...OWNER, label: 'Deal owner' },
  { name: 'createdate', label: 'Create Date', type: 'datetime' },
  { name: 'hs_lastmodifieddate', label: 'Last Modified Date', type: 'datetime', readOnly: true },
  OBJECT_ID,
];

const ENGAGEMENT_COMMON: P[] = [
  { name: 'hs_timestamp', label: 'Activity date', type: 'datetime' },
  { ...OWNER, label: 'Activity assigned to' },
  { name: 'hs_createdate', label: 'Create date', type: 'datetime', readOnly: true },
  { name: 'hs_lastmodifieddate', label: 'Last Modified Date', type: 'datetime', readOnly: true },
  OBJECT_ID,
];

const NOTE_PROPS: P[] = [
  { name: 'hs_note_body', label: 'Note body', fieldType: 'html' },
  { name: 'hs_attachment_ids', label: 'Attachment IDs', type: 'enumeration', fieldType: 'checkbox' },
  ...ENGAGEMENT_COMMON,
];
const TASK_PROPS: P[] = [
  { name: 'hs_task_subject', label: 'Task Title' },
  { name: 'hs_task_body', label: 'Notes', fieldType: 'html' },
  { name: 'hs_task_status', label: 'Task Status', type: 'enumeration', options: ['NOT_STARTED', 'IN_PROGRESS', 'WAITING', 'COMPLETED', 'DEFERRED'] },
  { name: 'hs_task_priority', label: 'Priority', type: 'enumeration', options: ['NONE', 'LOW', 'MEDIUM', 'HIGH'] },
  { name: 'hs_task_type', label: 'Task Type', type: 'enumeration', options: ['EMAIL', 'CALL', 'TODO', 'LINKED_IN'] },
  ...ENGAGEMENT_COMMON,
];
const CALL_PROPS: P[] = [
  { name: 'hs_call_title', label: 'Call Title' },
  { name: 'hs_call_body', label: 'Call notes', fieldType: 'html' },
  { name: 'hs_call_direction', label: 'Call direction', type: 'enumeration', options: ['INBOUND', 'OUTBOUND'] },
  { name: 'hs_call_duration', label: 'Call duration', type: 'number' },
  { name: 'hs_call_status', label: 'Call status', type: 'enumeration', options: ['BUSY', 'CALLING_CRM_USER', 'CANCELED', 'COMPLETED', 'CONNECTING', 'FAILED', 'IN_PROGRESS', 'NO_ANSWER', 'QUEUED', 'RINGING'] },
  { name: 'hs_call_disposition', label: 'Call outcome' },
  { name: 'hs_call_from_number', label: 'From number' },
  { name: 'hs_call_to_number', label: 'To number' },
  ...ENGAGEMENT_COMMON,
];
const MEETING_PROPS: P[] = [
  { name: 'hs_meeting_title', label: 'Meeting name' },
  { name: 'hs_meeting_body', label: 'Meeting description', fieldType: 'html' },
  { name: 'hs_meeting_start_time', label: 'Start Time', type: 'datetime' },
  { name: 'hs_meeting_end_time', label: 'End Time', type: 'datetime' },
  { name: 'hs_meeting_location', label: 'Location' },
  { name: 'hs_meeting_outcome', label: 'Meeting outcome', type: 'enumeration', options: ['SCHEDULED', 'COMPLETED', 'RESCHEDULED', 'NO_SHOW', 'CANCELED'] },
  { name: 'hs_internal_meeting_notes', label: 'Internal notes', fieldType: 'html' },
  ...ENGAGEMENT_COMMON,
];
const EMAIL_PROPS: P[] = [
  { name: 'hs_email_subject', label: 'Email subject' },
  { name: 'hs_email_text', label: 'Email body (text)', fieldType: 'textarea' },
  { name: 'hs_email_html', label: 'Email body (html)', fieldType: 'html' },
  { name: 'hs_email_direction', label: 'Email direction', type: 'enumeration', options: ['EMAIL', 'INCOMING_EMAIL', 'FORWARDED_EMAIL'] },
  { name: 'hs_email_status', label: 'Email send status', type: 'enumeration', options: ['BOUNCED', 'FAILED', 'SCHEDULED', 'SENDING', 'SENT'] },
  { name: 'hs_email_headers', label: 'Email headers', fieldType: 'textarea' },
  ...ENGAGEMENT_COMMON,
];

const GROUPS: Record<HubSpotObjectType, string> = {
  contacts: 'contactinformation',
  companies: 'companyinformation',
  deals: 'dealinformation',
  notes: 'engagement',
  tasks: 'task',
  calls: 'call',
  meetings: 'meeting',
  emails: 'email',
};

const RAW: Record<HubSpotObjectType, P[]> = {
  contacts: CONTACT_PROPS,
  companies: COMPANY_PROPS,
  deals: DEAL_PROPS,
  notes: NOTE_PROPS,
  tasks: TASK_PROPS,
  calls: CALL_PROPS,
  meetings: MEETING_PROPS,
  emails: EMAIL_PROPS,
};

/** Fresh default property definitions for one object type. */
export function defaultProperties(type: HubSpotObjectType): Map<string, PropertyDefinition> {
  return new Map(RAW[type].map((p, i) => [p.name, def(p, i, GROUPS[type])]));
}

// ---------------------------------------------------------------------------
// Associations (HubSpot-defined association type IDs, v4)

export interface AssociationTypeInfo {
  typeId: number;
  from: HubSpotObjectType;
  to: HubSpotObjectType;
  /** Name used by the v3 object reads (`contact_to_company`, …). */
  name: string;
  /** v4 label; `null` for unlabeled default associations. */
  label: string | null;
  /** The default (unlabeled) type `PUT …/associations/default/…` creates. */
  isDefault: boolean;
  inverse: number;
}

const ASSOC: AssociationTypeInfo[] = [];
function pair(from: HubSpotObjectType, to: HubSpotObjectType, id: number, inverseId: number, opts: { label?: string | null; isDefault?: boolean; suffix?: string } = {}) {
  const name = (a: HubSpotObjectType, b: HubSpotObjectType) => `${TYPE_INFO[a].singular}_to_${TYPE_INFO[b].singular}${opts.suffix ?? ''}`;
  ASSOC.push({ typeId: id, from, to, name: name(from, to), label: opts.label ?? null, isDefault: opts.isDefault ?? true, inverse: inverseId });
  ASSOC.push({ typeId: inverseId, from: to, to: from, name: name(to, from), label: opts.label ?? null, isDefault: opts.isDefault ?? true, inverse: id });
}
// contact <-> company: 1/2 are the "Primary" labelled types, 279/280 the unlabeled defaults.
pair('contacts', 'companies', 1, 2, { label: 'Primary', isDefault: false });
pair('contacts', 'companies', 279, 280, { suffix: '_unlabeled' });
pair('deals', 'contacts', 3, 4);
// deal <-> company: 5/6 primary, 341/342 unlabeled.
pair('deals', 'companies', 5, 6, { label: 'Primary', isDefault: false });
pair('deals', 'companies', 341, 342, { suffix: '_unlabeled' });
// activities (engagement -> record / record -> engagement)
pair('notes', 'contacts', 202, 201);
pair('notes', 'companies', 190, 189);
pair('notes', 'deals', 214, 213);
pair('tasks', 'contacts', 204, 203);
pair('tasks', 'companies', 192, 191);
pair('tasks', 'deals', 216, 215);
pair('calls', 'contacts', 194, 193);
pair('calls', 'companies', 182, 181);
pair('calls', 'deals', 206, 205);
pair('emails', 'contacts', 198, 197);
pair('emails', 'companies', 186, 185);
pair('emails', 'deals', 210, 209);
pair('meetings', 'contacts', 200, 199);
pair('meetings', 'companies', 188, 187);
pair('meetings', 'deals', 212, 211);

export const ASSOCIATION_TYPES: ReadonlyMap<number, AssociationTypeInfo> = new Map(ASSOC.map((a) => [a.typeId, a]));

export function defaultAssociationType(from: HubSpotObjectType, to: HubSpotObjectType): AssociationTypeInfo | undefined {
  return ASSOC.find((a) => a.from === from && a.to === to && a.isDefault);
}

// ---------------------------------------------------------------------------
// Pipelines

export interface PipelineStage {
  id: string;
  label: string;
  displayOrder: number;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  writePermissions: string;
}

export interface Pipeline {
  id: string;
  label: string;
  displayOrder: number;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  stages: PipelineStage[];
}

/** HubSpot's default "Sales Pipeline" (id `default`). */
export function defaultDealPipeline(): Pipeline {
  const stages: [string, string, string, boolean][] = [
    ['appointmentscheduled', 'Appointment Scheduled', '0.2', false],
    ['qualifiedtobuy', 'Qualified To Buy', '0.4', false],
    ['presentationscheduled', 'Presentation Scheduled', '0.6', false],
    ['decisionmakerboughtin', 'Decision Maker Bought-In', '0.8', false],
    ['contractsent', 'Contract Sent', '0.9', false],
    ['closedwon', 'Closed Won', '1.0', true],
    ['closedlost', 'Closed Lost', '0.0', true],
  ];
  return {
    id: 'default',
    label: 'Sales Pipeline',
    displayOrder: 0,
    createdAt: '1970-01-01T00:00:00Z',
    updatedAt: DEFINED_AT,
    archived: false,
    stages: stages.map(([id, label, probability, isClosed], i) => ({
      id,
      label,
      displayOrder: i,
      metadata: { isClosed: String(isClosed), probability },
      createdAt: '1970-01-01T00:00:00Z',
      updatedAt: DEFINED_AT,
      archived: false,
      writePermissions: 'CRM_PERMISSIONS_ENFORCEMENT',
    })),
  };
}
