/**
 * Salesforce records ↔ unified CRM objects: Contact, Account (company), Opportunity (deal, contacts from
 * OpportunityContactRole), OpportunityStage, User, Note, Task, and engagements (Event meetings; Task calls
 * and emails). Mapping tables: docs/providers/salesforce.md.
 */
import { AppError } from '../../core/errors';
import type { Address, Email, EmailFields, Phone } from '../../core/unified/crm';
import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import { decimalToNumber, numberToDecimal } from '../decimals';
import { isOf, required, sfId, toDate, toIso, unsupported, type SfRecord } from './api';
import { NOTE_DOCUMENT_FIELDS } from './content-notes';
import { has, nonEmpty, readAddresses, readPhones, writeAddresses, writePhones, type AddressSlots } from '../kit';

const stamps = (r: SfRecord) => ({ remoteCreatedAt: toDate(r.CreatedDate), remoteUpdatedAt: toDate(r.LastModifiedDate ?? r.SystemModstamp) });
const base = (objectType: string, r: SfRecord, data: Record<string, unknown>): UnifiedRecord => ({
  objectType,
  remoteId: r.Id,
  data,
  remoteData: r,
  ...stamps(r),
  ...(r.IsDeleted === true ? { deleted: true } : {}),
});

/** The standard fields each stream selects (those the org lacks are left out; custom fields are added). */
export const FIELDS = {
  User: ['Name', 'FirstName', 'LastName', 'Email', 'IsActive', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'],
  OpportunityStage: ['ApiName', 'MasterLabel', 'IsActive', 'IsClosed', 'IsWon', 'SortOrder', 'DefaultProbability', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'],
  Account: ['Name', 'Industry', 'NumberOfEmployees', 'OwnerId', 'Phone', 'Fax', 'Website', 'Description', 'BillingStreet', 'BillingCity', 'BillingState', 'BillingPostalCode', 'BillingCountry', 'ShippingStreet', 'ShippingCity', 'ShippingState', 'ShippingPostalCode', 'ShippingCountry', 'IsDeleted', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'],
  Contact: ['FirstName', 'LastName', 'Email', 'Phone', 'MobilePhone', 'HomePhone', 'OtherPhone', 'Fax', 'MailingStreet', 'MailingCity', 'MailingState', 'MailingPostalCode', 'MailingCountry', 'OtherStreet', 'OtherCity', 'OtherState', 'OtherPostalCode', 'OtherCountry', 'AccountId', 'OwnerId', 'Title', 'IsDeleted', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'],
  Opportunity: ['Name', 'Description', 'Amount', 'CurrencyIsoCode', 'StageName', 'CloseDate', 'AccountId', 'OwnerId', 'IsClosed', 'IsWon', 'IsDeleted', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'],
  Note: ['Title', 'Body', 'ParentId', 'OwnerId', 'IsPrivate', 'IsDeleted', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'],
  ContentDocument: NOTE_DOCUMENT_FIELDS,
  Task: ['Subject', 'Description', 'Status', 'IsClosed', 'ActivityDate', 'CompletedDateTime', 'OwnerId', 'WhoId', 'WhatId', 'AccountId', 'TaskSubtype', 'CallType', 'CallDurationInSeconds', 'IsDeleted', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'],
  Event: ['Subject', 'Description', 'StartDateTime', 'EndDateTime', 'OwnerId', 'WhoId', 'WhatId', 'AccountId', 'IsDeleted', 'CreatedDate', 'LastModifiedDate', 'SystemModstamp'],
} as const;

// ---------------------------------------------------------------- phones, emails, addresses

/** Unified phone type ↔ the record's phone field. */
const CONTACT_PHONES: Record<string, string> = { WORK: 'Phone', MOBILE: 'MobilePhone', HOME: 'HomePhone', OTHER: 'OtherPhone', FAX: 'Fax' };
const ACCOUNT_PHONES: Record<string, string> = { WORK: 'Phone', FAX: 'Fax' };
/** A compound address field (`MailingAddress`) by its parts: one street field. */
const address = (p: string) => ({ street1: `${p}Street`, city: `${p}City`, state: `${p}State`, postalCode: `${p}PostalCode`, country: `${p}Country` });
const CONTACT_ADDRESSES: AddressSlots = { WORK: address('Mailing'), OTHER: address('Other') };
const ACCOUNT_ADDRESSES: AddressSlots = { BILLING: address('Billing'), SHIPPING: address('Shipping') };

// ---------------------------------------------------------------- contacts

export function unifyContact(r: SfRecord, ids: IdOf): UnifiedRecord {
  const emails: EmailFields[] = nonEmpty(r.Email) ? [{ email_address: r.Email as string, email_address_type: 'WORK', owner_type: 'CONTACT' }] : [];
  return base('crm.contact', r, {
    first_name: nonEmpty(r.FirstName),
    last_name: nonEmpty(r.LastName),
    email_addresses: emails,
    phone_numbers: readPhones(r, CONTACT_PHONES, 'CONTACT'),
    addresses: readAddresses(r, CONTACT_ADDRESSES, 'CONTACT'),
    user_id: ids('crm.user', nonEmpty(r.OwnerId)),
    company_id: ids('crm.company', nonEmpty(r.AccountId)),
  });
}

export function desunifyContact(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'first_name')) body.FirstName = input.first_name;
  if (has(input, 'last_name')) body.LastName = input.last_name;
  if (create && !nonEmpty(body.LastName)) throw required('last_name', 'Salesforce requires a contact’s last name');
  if (has(input, 'email_addresses')) {
    const list = input.email_addresses as Email[];
    if (list.length > 1) throw unsupported('email_addresses', 'a Salesforce contact has one email address', { max: 1 });
    body.Email = list[0]?.email_address ?? null;
  }
  if (has(input, 'phone_numbers')) Object.assign(body, writePhones(input.phone_numbers as Phone[], CONTACT_PHONES, 'Salesforce contacts', unsupported));
  if (has(input, 'addresses')) Object.assign(body, writeAddresses(input.addresses as Address[], CONTACT_ADDRESSES, 'Salesforce contacts', unsupported));
  if (has(input, 'user_id')) body.OwnerId = sfId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.AccountId = input.company_id === null ? null : sfId(input.company_id, 'company_id');
  return body;
}

// ---------------------------------------------------------------- companies (accounts)

export function unifyAccount(r: SfRecord, ids: IdOf): UnifiedRecord {
  const employees = typeof r.NumberOfEmployees === 'number' ? r.NumberOfEmployees : null;
  return base('crm.company', r, {
    name: nonEmpty(r.Name),
    industry: nonEmpty(r.Industry),
    number_of_employees: employees,
    email_addresses: [],
    phone_numbers: readPhones(r, ACCOUNT_PHONES, 'COMPANY'),
    addresses: readAddresses(r, ACCOUNT_ADDRESSES, 'COMPANY'),
    user_id: ids('crm.user', nonEmpty(r.OwnerId)),
  });
}

export function desunifyAccount(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.Name = input.name;
  if (create && !nonEmpty(body.Name)) throw required('name', 'Salesforce requires an account name');
  if (has(input, 'industry')) body.Industry = input.industry;
  if (has(input, 'number_of_employees')) body.NumberOfEmployees = input.number_of_employees;
  if (has(input, 'email_addresses') && (input.email_addresses as unknown[]).length > 0) {
    throw unsupported('email_addresses', 'Salesforce accounts have no email addresses (their contacts have)');
  }
  if (has(input, 'phone_numbers')) Object.assign(body, writePhones(input.phone_numbers as Phone[], ACCOUNT_PHONES, 'Salesforce accounts', unsupported));
  if (has(input, 'addresses')) Object.assign(body, writeAddresses(input.addresses as Address[], ACCOUNT_ADDRESSES, 'Salesforce accounts', unsupported));
  if (has(input, 'user_id')) body.OwnerId = sfId(input.user_id, 'user_id');
  return body;
}

// ---------------------------------------------------------------- deals (opportunities)

export function unifyOpportunity(r: SfRecord, contactIds: string[], ids: IdOf): UnifiedRecord {
  return base('crm.deal', r, {
    name: nonEmpty(r.Name),
    description: nonEmpty(r.Description),
    amount: numberToDecimal(r.Amount, 2),
    currency: nonEmpty(r.CurrencyIsoCode),
    stage_id: ids('crm.stage', nonEmpty(r.StageName)),
    user_id: ids('crm.user', nonEmpty(r.OwnerId)),
    company_id: ids('crm.company', nonEmpty(r.AccountId)),
    contact_ids: contactIds.map((id) => ids('crm.contact', id)!),
    close_date: nonEmpty(r.CloseDate),
  });
}

/** The opportunity's fields; contact_ids are written apart (OpportunityContactRole records). */
export function desunifyOpportunity(input: CrmWrite, create: boolean, multiCurrency: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.Name = input.name;
  if (has(input, 'description')) body.Description = input.description;
  if (has(input, 'amount')) body.Amount = input.amount === null ? null : decimalToNumber(String(input.amount), 'amount', { provider: 'salesforce', displayName: 'Salesforce', maxDecimals: 2 });
  if (has(input, 'currency')) {
    if (!multiCurrency) throw unsupported('currency', 'this Salesforce org has one currency (multi-currency is not enabled): currency cannot be set');
    body.CurrencyIsoCode = input.currency;
  }
  // Stage ids are the stages' API names (the picklist values of StageName).
  if (has(input, 'stage_id')) body.StageName = input.stage_id;
  if (has(input, 'user_id')) body.OwnerId = sfId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.AccountId = input.company_id === null ? null : sfId(input.company_id, 'company_id');
  if (has(input, 'close_date')) body.CloseDate = String(input.close_date).slice(0, 10);
  if (create) {
    if (!nonEmpty(body.Name)) throw required('name', 'Salesforce requires an opportunity name');
    if (!nonEmpty(body.StageName)) throw required('stage_id', 'Salesforce requires an opportunity stage');
    if (!nonEmpty(body.CloseDate)) throw required('close_date', 'Salesforce requires an opportunity close date');
  }
  return body;
}

// ---------------------------------------------------------------- stages, users

export function unifyStage(r: SfRecord): UnifiedRecord {
  return {
    objectType: 'crm.stage',
    remoteId: String(r.ApiName ?? r.MasterLabel),
    data: { name: nonEmpty(r.MasterLabel) ?? nonEmpty(r.ApiName), pipeline_id: null, pipeline_name: null },
    remoteData: r,
    ...stamps(r),
  };
}

export function unifyUser(r: SfRecord): UnifiedRecord {
  return base('crm.user', r, { name: nonEmpty(r.Name) ?? ([r.FirstName, r.LastName].filter((p) => nonEmpty(p)).join(' ') || null), email: nonEmpty(r.Email) });
}

// ---------------------------------------------------------------- notes

export function unifyNote(r: SfRecord, ids: IdOf): UnifiedRecord {
  const parent = nonEmpty(r.ParentId);
  return base('crm.note', r, {
    content: nonEmpty(r.Body) ?? nonEmpty(r.Title),
    user_id: ids('crm.user', nonEmpty(r.OwnerId)),
    company_id: isOf(parent, 'Account') ? ids('crm.company', parent) : null,
    contact_id: isOf(parent, 'Contact') ? ids('crm.contact', parent) : null,
    deal_id: isOf(parent, 'Opportunity') ? ids('crm.deal', parent) : null,
  });
}

/** One parent of a note: the single reference given. */
function oneOf(input: CrmWrite, fields: string[], what: string): [string, string] | undefined {
  const given = fields.filter((f) => has(input, f) && input[f] !== null);
  if (given.length > 1) throw unsupported(given[1]!, `a Salesforce ${what} is linked to one of ${fields.join(', ')}; give one`);
  return given[0] ? [given[0], sfId(input[given[0]], given[0])] : undefined;
}

export function desunifyNote(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'content')) {
    const content = String(input.content);
    body.Body = content;
    // Title is required (80 characters at most): the first line of the content.
    body.Title = (content.split('\n')[0]!.trim() || 'Note').slice(0, 80);
  }
  if (has(input, 'user_id')) body.OwnerId = sfId(input.user_id, 'user_id');
  const parent = oneOf(input, ['deal_id', 'contact_id', 'company_id'], 'note');
  if (parent && !create) throw unsupported(parent[0], 'a Salesforce note cannot move to another record');
  if (parent) body.ParentId = parent[1];
  else if (create) throw required('company_id', 'a Salesforce note belongs to a record: give deal_id, contact_id or company_id');
  return body;
}

// ---------------------------------------------------------------- tasks

const dateOnly = (v: unknown) => String(v).slice(0, 10);
const dateToIso = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : toIso(v));

/** Who (a contact) and what (an account or an opportunity) of an activity. */
function whoWhat(input: CrmWrite, body: Record<string, unknown>, contactField: 'contact_id' | 'contact_ids', what: string) {
  if (has(input, contactField)) {
    const v = input[contactField];
    const list = Array.isArray(v) ? (v as string[]) : v === null ? [] : [v as string];
    if (list.length > 1) throw unsupported(contactField, `a Salesforce ${what} is linked to one contact`, { max: 1 });
    body.WhoId = list[0] ? sfId(list[0], contactField) : null;
  }
  const target = oneOf(input, ['deal_id', 'company_id'].filter((f) => f !== 'deal_id' || what === 'task'), what);
  if (target) body.WhatId = target[1];
}

function activityRefs(r: SfRecord, ids: IdOf) {
  const what = nonEmpty(r.WhatId);
  const account = nonEmpty(r.AccountId) ?? (isOf(what, 'Account') ? what : null);
  return {
    user_id: ids('crm.user', nonEmpty(r.OwnerId)),
    company_id: ids('crm.company', account),
    contactId: isOf(r.WhoId, 'Contact') ? ids('crm.contact', r.WhoId as string) : null,
    dealId: isOf(what, 'Opportunity') ? ids('crm.deal', what) : null,
  };
}

export function unifyTask(r: SfRecord, ids: IdOf): UnifiedRecord {
  const refs = activityRefs(r, ids);
  return base('crm.task', r, {
    subject: nonEmpty(r.Subject),
    content: nonEmpty(r.Description),
    status: r.IsClosed === true || r.Status === 'Completed' ? 'COMPLETED' : 'PENDING',
    due_date: dateToIso(r.ActivityDate),
    finished_date: toIso(r.CompletedDateTime),
    user_id: refs.user_id,
    company_id: refs.company_id,
    contact_id: refs.contactId,
    deal_id: refs.dealId,
  });
}

export function desunifyTask(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = create ? { TaskSubtype: 'Task', Status: 'Not Started' } : {};
  if (has(input, 'subject')) body.Subject = input.subject;
  if (has(input, 'content')) body.Description = input.content;
  if (has(input, 'status')) body.Status = input.status === 'COMPLETED' ? 'Completed' : 'Not Started';
  if (has(input, 'due_date')) body.ActivityDate = input.due_date === null ? null : dateOnly(input.due_date);
  if (has(input, 'finished_date')) throw unsupported('finished_date', 'Salesforce sets a task’s completion time itself (CompletedDateTime); set status COMPLETED');
  if (has(input, 'user_id')) body.OwnerId = sfId(input.user_id, 'user_id');
  whoWhat(input, body, 'contact_id', 'task');
  return body;
}

// ---------------------------------------------------------------- engagements (events, call and email tasks)

const TYPE_OF_SUBTYPE: Record<string, string> = { Call: 'CALL', Email: 'EMAIL' };
const SUBTYPE_OF_TYPE: Record<string, string> = { CALL: 'Call', EMAIL: 'Email' };

export function unifyEngagement(r: SfRecord, ids: IdOf): UnifiedRecord {
  const refs = activityRefs(r, ids);
  const event = isOf(r.Id, 'Event');
  const start = event ? toIso(r.StartDateTime) : dateToIso(r.ActivityDate);
  const seconds = typeof r.CallDurationInSeconds === 'number' ? r.CallDurationInSeconds : null;
  return base('crm.engagement', r, {
    type: event ? 'MEETING' : (TYPE_OF_SUBTYPE[String(r.TaskSubtype)] ?? 'CALL'),
    subject: nonEmpty(r.Subject),
    content: nonEmpty(r.Description),
    direction: r.CallType === 'Inbound' ? 'INBOUND' : r.CallType === 'Outbound' ? 'OUTBOUND' : null,
    start_at: start,
    end_time: event ? toIso(r.EndDateTime) : start && seconds !== null ? new Date(Date.parse(start) + seconds * 1000).toISOString() : null,
    user_id: refs.user_id,
    company_id: refs.company_id,
    contact_ids: refs.contactId ? [refs.contactId] : [],
  });
}

/** The sObject an engagement is written to: an Event for meetings, a Task for calls and emails. */
export const engagementSObject = (type: unknown) => (type === 'MEETING' ? 'Event' : 'Task');

export function desunifyEngagement(input: CrmWrite, sobject: 'Event' | 'Task', current: { start: string | null } | null): Record<string, unknown> {
  const create = current === null;
  const body: Record<string, unknown> = {};
  if (has(input, 'type') && engagementSObject(input.type) !== sobject) {
    throw unsupported('type', `a Salesforce ${sobject === 'Event' ? 'meeting (Event)' : 'call or email (Task)'} cannot change its type`);
  }
  if (has(input, 'subject')) body.Subject = input.subject;
  if (has(input, 'content')) body.Description = input.content;
  if (has(input, 'user_id')) body.OwnerId = sfId(input.user_id, 'user_id');
  whoWhat(input, body, 'contact_ids', 'engagement');
  if (sobject === 'Event') {
    if (has(input, 'direction')) throw unsupported('direction', 'Salesforce events (meetings) have no direction');
    if (has(input, 'start_at')) body.StartDateTime = input.start_at;
    if (has(input, 'end_time')) body.EndDateTime = input.end_time;
    if (create && (!body.StartDateTime || !body.EndDateTime)) throw required(body.StartDateTime ? 'end_time' : 'start_at', 'a Salesforce event needs start_at and end_time');
    return body;
  }
  if (create) Object.assign(body, { TaskSubtype: SUBTYPE_OF_TYPE[String(input.type)] ?? 'Call', Status: 'Completed', Subject: body.Subject ?? (input.type === 'EMAIL' ? 'Email' : 'Call') });
  if (has(input, 'direction')) body.CallType = input.direction === 'INBOUND' ? 'Inbound' : 'Outbound';
  if (has(input, 'start_at')) body.ActivityDate = dateOnly(input.start_at);
  if (has(input, 'end_time')) {
    const start = has(input, 'start_at') ? String(input.start_at) : current?.start;
    if (!start) throw unsupported('end_time', 'a Salesforce call keeps a duration from its start: give start_at too');
    const seconds = Math.round((Date.parse(String(input.end_time)) - Date.parse(start)) / 1000);
    if (!(seconds >= 0)) throw new AppError('validation_failed', 'end_time: must not be before start_at', { field: 'end_time' });
    body.CallDurationInSeconds = seconds;
  }
  return body;
}
