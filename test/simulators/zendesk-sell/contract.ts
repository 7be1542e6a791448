/**
 * What Zendesk Sell's Core API reference documents for the requests the simulator serves: query parameters
 * of the lists and the `data` bodies of creates and updates, with required fields, types and enumerations.
 * Sell publishes no machine-readable description, so this is transcribed from the reference
 * (https://developer.zendesk.com/api-reference/sales-crm/ — Requests, Contacts, Deals, Stages, Pipelines,
 * Notes, Tasks, Calls, Users, Custom Fields; the same pages as developers.getbase.com/docs/rest/reference).
 * Sell answers 422 for invalid values and 400 for unknown parameters; the simulator does the same and
 * records each such request as a contract violation, so tests can assert that the adapter only sends
 * what the reference documents.
 */
import type { Param, Schema } from '../shared/contract-check';

export { checkBody, checkQuery, type Schema } from '../shared/contract-check';

const page: Record<string, Param> = { page: 'integer', per_page: 'limit', ids: 'string' };
/** `sort_by`: a field, optionally followed by `:asc` or `:desc`. */
const sorts = (fields: string[]) => fields.flatMap((f) => [f, `${f}:asc`, `${f}:desc`]);

export const QUERIES: Record<string, Record<string, Param>> = {
  contacts: { ...page, sort_by: sorts(['id', 'first_name', 'last_name', 'name', 'created_at', 'updated_at']), is_organization: 'boolean', contact_id: 'integer', email: 'string', name: 'string', first_name: 'string', last_name: 'string', owner_id: 'integer', creator_id: 'integer' },
  deals: { ...page, sort_by: sorts(['id', 'name', 'value', 'estimated_close_date', 'created_at', 'updated_at']), contact_id: 'integer', organization_id: 'integer', stage_id: 'integer', owner_id: 'integer', creator_id: 'integer', hot: 'boolean', source_id: 'integer' },
  notes: { ...page, sort_by: sorts(['id', 'resource_type', 'created_at', 'updated_at']), resource_type: ['lead', 'contact', 'deal'], resource_id: 'integer', creator_id: 'integer', q: 'string', includes: 'string' },
  tasks: { ...page, sort_by: sorts(['id', 'resource_type', 'completed_at', 'due_date', 'created_at', 'updated_at']), resource_type: ['lead', 'contact', 'deal'], resource_id: 'integer', completed: 'boolean', overdue: 'boolean', owner_id: 'integer', creator_id: 'integer', type: ['floating', 'related'], q: 'string' },
  // "Calls are always sorted by made_at in descending order."
  calls: { ...page, resource_type: ['lead', 'contact'], resource_id: 'integer' },
  users: { ...page, sort_by: sorts(['id', 'name', 'created_at', 'updated_at']), name: 'string', email: 'string', status: ['active', 'inactive'], role: ['user', 'admin'] },
  stages: { ...page, sort_by: sorts(['id', 'name', 'position', 'created_at', 'updated_at']), pipeline_id: 'integer', name: 'string', active: 'boolean' },
  pipelines: { ...page, sort_by: sorts(['id', 'name', 'created_at', 'updated_at']), name: 'string' },
  custom_fields: { page: 'integer', per_page: 'limit' },
};

const str = (nullable = true): Schema => ({ t: 'string', nullable });
const id = (nullable = true): Schema => ({ t: 'integer', min: 1, nullable });
const address: Schema = { t: 'object', nullable: true, props: { line1: str(), city: str(), postal_code: str(), state: str(), country: str() } };
const customFields: Schema = { t: 'any' };
const tags: Schema = { t: 'array', items: { t: 'string' } };

const contact = (create: boolean): Schema => ({
  t: 'object',
  props: {
    ...(create ? { is_organization: { t: 'boolean' } as Schema } : {}),
    name: str(),
    first_name: str(),
    last_name: str(),
    contact_id: id(),
    parent_organization_id: id(),
    owner_id: id(),
    customer_status: { t: 'string', enum: ['none', 'current', 'past'] },
    prospect_status: { t: 'string', enum: ['none', 'current', 'lost'] },
    title: str(),
    description: str(),
    industry: str(),
    website: str(),
    email: { t: 'string', format: 'email', nullable: true },
    phone: str(),
    mobile: str(),
    fax: str(),
    twitter: str(),
    facebook: str(),
    linkedin: str(),
    skype: str(),
    address,
    billing_address: address,
    shipping_address: address,
    tags,
    custom_fields: customFields,
  },
});

export const BODIES: Record<string, { create: Schema; update: Schema }> = {
  contacts: { create: contact(true), update: contact(false) },
  deals: (() => {
    const props: Record<string, Schema> = {
      name: { t: 'string' },
      // "value": a number, or a string for decimal values ("1000.50").
      value: { t: 'any' },
      currency: { t: 'string', max: 3 },
      hot: { t: 'boolean' },
      stage_id: id(false),
      contact_id: id(false),
      owner_id: id(false),
      source_id: id(),
      loss_reason_id: id(),
      unqualified_reason_id: id(),
      dropbox_email: str(),
      estimated_close_date: str(),
      customized_win_likelihood: { t: 'integer', nullable: true },
      tags,
      custom_fields: customFields,
    };
    return { create: { t: 'object', props, required: ['name', 'contact_id'] }, update: { t: 'object', props } };
  })(),
  notes: (() => {
    const props: Record<string, Schema> = { resource_type: { t: 'string', enum: ['lead', 'contact', 'deal'] }, resource_id: id(false), content: { t: 'string' }, is_important: { t: 'boolean' }, tags, type: { t: 'string', enum: ['regular', 'restricted'] } };
    return { create: { t: 'object', props, required: ['resource_type', 'resource_id', 'content'] }, update: { t: 'object', props } };
  })(),
  tasks: (() => {
    const props: Record<string, Schema> = {
      content: { t: 'string' },
      due_date: { t: 'string', format: 'date-time', nullable: true },
      owner_id: id(false),
      resource_type: { t: 'string', enum: ['lead', 'contact', 'deal'], nullable: true },
      resource_id: id(),
      completed: { t: 'boolean' },
      remind_at: { t: 'string', format: 'date-time', nullable: true },
    };
    return { create: { t: 'object', props, required: ['content'] }, update: { t: 'object', props } };
  })(),
  calls: (() => {
    const props: Record<string, Schema> = {
      user_id: id(),
      summary: str(),
      recording_url: str(),
      outcome_id: id(),
      duration: { t: 'integer', nullable: true },
      phone_number: { t: 'string' },
      incoming: { t: 'boolean' },
      missed: { t: 'boolean' },
      external_id: str(),
      resource_type: { t: 'string', enum: ['lead', 'contact'], nullable: true },
      resource_id: id(),
      associated_deal_ids: { t: 'array', items: { t: 'integer' } },
      made_at: { t: 'string', format: 'date-time' },
    };
    // "Update a call: allows to attach a Contact or Lead to an existing Call, or change its current association."
    return { create: { t: 'object', props, required: ['phone_number'] }, update: { t: 'object', props: { resource_type: props.resource_type!, resource_id: props.resource_id! } } };
  })(),
};
