import { z } from 'zod';
import { fieldMappingsInput, isoDate, isoDateTime, unifiedMeta, upperEnum } from './common';

export const EMAIL_TYPES = ['PERSONAL', 'WORK', 'OTHER'] as const;
export const PHONE_TYPES = ['MOBILE', 'WORK', 'HOME', 'FAX', 'OTHER'] as const;
export const ADDRESS_TYPES = ['PERSONAL', 'WORK', 'BILLING', 'SHIPPING', 'OTHER'] as const;
export const TASK_STATUSES = ['PENDING', 'COMPLETED'] as const;
export const ENGAGEMENT_TYPES = ['EMAIL', 'CALL', 'MEETING'] as const;
export const DIRECTIONS = ['INBOUND', 'OUTBOUND'] as const;

export const CRM_OBJECTS = ['crm.contact', 'crm.company', 'crm.deal', 'crm.stage', 'crm.user', 'crm.note', 'crm.task', 'crm.engagement'] as const;
export type CrmObject = (typeof CRM_OBJECTS)[number];
/** Objects that can be written through the API. */
export type CrmWritable = 'crm.contact' | 'crm.company' | 'crm.deal' | 'crm.note' | 'crm.task' | 'crm.engagement';

const idString = z.string().min(1);
const ownerType = z.string().min(1).optional().describe('What the entry belongs to (e.g. CONTACT, COMPANY); informational.');

export const emailInput = z.strictObject({
  email_address: z.email(),
  email_address_type: upperEnum(EMAIL_TYPES).optional(),
  owner_type: ownerType,
});
export const phoneInput = z.strictObject({
  phone_number: z.string().min(1).max(64),
  phone_type: upperEnum(PHONE_TYPES).optional(),
  owner_type: ownerType,
});
export const addressInput = z.strictObject({
  street_1: z.string().optional(),
  street_2: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  postal_code: z.string().optional(),
  country: z.string().optional(),
  address_type: upperEnum(ADDRESS_TYPES).optional(),
  owner_type: ownerType,
});
export type Email = z.infer<typeof emailInput>;
export type Phone = z.infer<typeof phoneInput>;
export type Address = z.infer<typeof addressInput>;

/** Amounts are decimals, kept as strings so nothing is rounded; a JSON number is accepted and converted. */
export const decimalInput = z
  .union([z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal number such as 1234.56'), z.number().finite()])
  .transform((v) => (typeof v === 'number' ? String(v) : v));

export const contactInput = z.strictObject({
  first_name: z.string().max(1000).optional(),
  last_name: z.string().max(1000).optional(),
  email_addresses: z.array(emailInput).max(100).optional(),
  phone_numbers: z.array(phoneInput).max(100).optional(),
  addresses: z.array(addressInput).max(100).optional(),
  user_id: idString.optional().describe('Omniport id of the owner (crm user).'),
  company_id: idString.optional().describe('Omniport id of the contact’s company.'),
  field_mappings: fieldMappingsInput,
});

export const companyInput = z.strictObject({
  name: z.string().min(1).max(1000),
  industry: z.string().optional(),
  number_of_employees: z.number().int().min(0).optional(),
  email_addresses: z.array(emailInput).max(100).optional(),
  phone_numbers: z.array(phoneInput).max(100).optional(),
  addresses: z.array(addressInput).max(100).optional(),
  user_id: idString.optional(),
  field_mappings: fieldMappingsInput,
});

export const dealInput = z.strictObject({
  name: z.string().min(1).max(1000),
  description: z.string().optional(),
  amount: decimalInput.optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as EUR').optional(),
  stage_id: idString.optional(),
  user_id: idString.optional(),
  company_id: idString.optional(),
  contact_ids: z.array(idString).max(100).optional(),
  close_date: z.union([isoDateTime, isoDate]).optional(),
  field_mappings: fieldMappingsInput,
});

export const noteInput = z.strictObject({
  content: z.string().min(1),
  user_id: idString.optional(),
  company_id: idString.optional(),
  contact_id: idString.optional(),
  deal_id: idString.optional(),
  field_mappings: fieldMappingsInput,
});

export const taskInput = z.strictObject({
  subject: z.string().min(1),
  content: z.string().optional(),
  status: upperEnum(TASK_STATUSES).optional(),
  due_date: isoDateTime.optional(),
  finished_date: isoDateTime.optional(),
  user_id: idString.optional(),
  company_id: idString.optional(),
  contact_id: idString.optional(),
  deal_id: idString.optional(),
  field_mappings: fieldMappingsInput,
});

export const engagementInput = z.strictObject({
  type: upperEnum(ENGAGEMENT_TYPES),
  subject: z.string().optional(),
  content: z.string().optional(),
  direction: upperEnum(DIRECTIONS).optional(),
  start_at: isoDateTime.optional(),
  end_time: isoDateTime.optional(),
  user_id: idString.optional(),
  company_id: idString.optional(),
  contact_ids: z.array(idString).max(100).optional(),
  field_mappings: fieldMappingsInput,
});

/** Input schema and reference fields of each writable CRM object. */
export const crmWritables = {
  'crm.contact': {
    input: contactInput,
    patch: contactInput.partial(),
    refs: { user_id: 'crm.user', company_id: 'crm.company' },
  },
  'crm.company': { input: companyInput, patch: companyInput.partial(), refs: { user_id: 'crm.user' } },
  'crm.deal': {
    input: dealInput,
    patch: dealInput.partial(),
    refs: { stage_id: 'crm.stage', user_id: 'crm.user', company_id: 'crm.company', contact_ids: 'crm.contact' },
  },
  'crm.note': {
    input: noteInput,
    patch: noteInput.partial(),
    refs: { user_id: 'crm.user', company_id: 'crm.company', contact_id: 'crm.contact', deal_id: 'crm.deal' },
  },
  'crm.task': {
    input: taskInput,
    patch: taskInput.partial(),
    refs: { user_id: 'crm.user', company_id: 'crm.company', contact_id: 'crm.contact', deal_id: 'crm.deal' },
  },
  'crm.engagement': {
    input: engagementInput,
    patch: engagementInput.partial(),
    refs: { user_id: 'crm.user', company_id: 'crm.company', contact_ids: 'crm.contact' },
  },
} as const satisfies Record<CrmWritable, { input: z.ZodType; patch: z.ZodType; refs: Record<string, CrmObject> }>;

// ---- Unified fields as adapters produce them (references are Omniport ids)

export interface EmailFields {
  email_address: string;
  email_address_type: string | null;
  owner_type: string | null;
}
export interface PhoneFields {
  phone_number: string;
  phone_type: string | null;
  owner_type: string | null;
}
export interface AddressFields {
  street_1: string | null;
  street_2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  address_type: string | null;
  owner_type: string | null;
}

// ---- Response schemas

const s = z.string().nullable();
const emailSchema = z.object({ email_address: z.string(), email_address_type: s, owner_type: s }).meta({ id: 'Email' });
const phoneSchema = z.object({ phone_number: z.string(), phone_type: s, owner_type: s }).meta({ id: 'Phone' });
const addressSchema = z
  .object({ street_1: s, street_2: s, city: s, state: s, postal_code: s, country: s, address_type: s, owner_type: s })
  .meta({ id: 'Address' });

export const crmContactSchema = z
  .object({
    ...unifiedMeta,
    first_name: s,
    last_name: s,
    email_addresses: z.array(emailSchema),
    phone_numbers: z.array(phoneSchema),
    addresses: z.array(addressSchema),
    user_id: s,
    company_id: s,
  })
  .meta({ id: 'CrmContact' });

export const crmCompanySchema = z
  .object({
    ...unifiedMeta,
    name: s,
    industry: s,
    number_of_employees: z.number().nullable(),
    email_addresses: z.array(emailSchema),
    phone_numbers: z.array(phoneSchema),
    addresses: z.array(addressSchema),
    user_id: s,
  })
  .meta({ id: 'CrmCompany' });

export const crmDealSchema = z
  .object({
    ...unifiedMeta,
    name: s,
    description: s,
    amount: s.describe('Decimal, as a string so nothing is rounded (e.g. "1234.56").'),
    currency: s,
    stage_id: s,
    user_id: s,
    company_id: s,
    contact_ids: z.array(z.string()),
    close_date: s,
  })
  .meta({ id: 'CrmDeal' });

export const crmStageSchema = z.object({ ...unifiedMeta, name: s, pipeline_id: s, pipeline_name: s }).meta({ id: 'CrmStage' });
export const crmUserSchema = z.object({ ...unifiedMeta, name: s, email: s }).meta({ id: 'CrmUser' });
export const crmNoteSchema = z
  .object({ ...unifiedMeta, content: s, user_id: s, company_id: s, contact_id: s, deal_id: s })
  .meta({ id: 'CrmNote' });
export const crmTaskSchema = z
  .object({ ...unifiedMeta, subject: s, content: s, status: s, due_date: s, finished_date: s, user_id: s, company_id: s, contact_id: s, deal_id: s })
  .meta({ id: 'CrmTask' });
export const crmEngagementSchema = z
  .object({
    ...unifiedMeta,
    type: s,
    subject: s,
    content: s,
    direction: s,
    start_at: s,
    end_time: s,
    user_id: s,
    company_id: s,
    contact_ids: z.array(z.string()),
  })
  .meta({ id: 'CrmEngagement' });
