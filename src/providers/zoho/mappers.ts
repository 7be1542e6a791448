/**
 * Zoho CRM records ↔ unified CRM objects: Contacts, Accounts (companies), Deals, Deals Stage picklist
 * values (stages), users, Notes, Tasks, and engagements (Calls; Meetings, the Events module). Mapping
 * tables: docs/providers/zoho.md.
 */
import { AppError } from '../../core/errors';
import type { Address, Email, EmailFields, Phone } from '../../core/unified/crm';
import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import { decimalToNumber, numberToDecimal } from '../decimals';
import { required, toDate, toIso, unsupported, zohoDateTime, zohoId, type ZRecord } from './api';
import { has, nonEmpty, readAddresses, readPhones, writeAddresses, writePhones, type AddressSlots } from '../kit';

/** The id of a lookup (`{id, name}`), or of a plain id. */
export const lookupId = (v: unknown): string | null =>
  v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : typeof v === 'string' && v !== '' ? v : null;
const ref = (field: string, v: unknown) => (v === null ? null : { id: zohoId(v, field) });

const stamps = (r: ZRecord) => ({ remoteCreatedAt: toDate(r.Created_Time), remoteUpdatedAt: toDate(r.Modified_Time) });
const base = (objectType: string, r: ZRecord, data: Record<string, unknown>): UnifiedRecord => ({ objectType, remoteId: r.id, data, remoteData: r, ...stamps(r) });

/** The standard fields each module's lists ask (`fields`, mandatory in v8); custom fields are added. */
export const FIELDS = {
  Contacts: ['First_Name', 'Last_Name', 'Email', 'Secondary_Email', 'Phone', 'Mobile', 'Home_Phone', 'Other_Phone', 'Fax', 'Mailing_Street', 'Mailing_City', 'Mailing_State', 'Mailing_Zip', 'Mailing_Country', 'Other_Street', 'Other_City', 'Other_State', 'Other_Zip', 'Other_Country', 'Account_Name', 'Owner', 'Title', 'Created_Time', 'Modified_Time'],
  Accounts: ['Account_Name', 'Industry', 'Employees', 'Phone', 'Fax', 'Website', 'Description', 'Billing_Street', 'Billing_City', 'Billing_State', 'Billing_Code', 'Billing_Country', 'Shipping_Street', 'Shipping_City', 'Shipping_State', 'Shipping_Code', 'Shipping_Country', 'Owner', 'Created_Time', 'Modified_Time'],
  Deals: ['Deal_Name', 'Description', 'Amount', 'Currency', 'Stage', 'Closing_Date', 'Account_Name', 'Contact_Name', 'Owner', 'Created_Time', 'Modified_Time'],
  Notes: ['Note_Title', 'Note_Content', 'Parent_Id', 'Owner', 'Created_By', 'Modified_By', 'Created_Time', 'Modified_Time'],
  Tasks: ['Subject', 'Description', 'Status', 'Due_Date', 'Closed_Time', 'Who_Id', 'What_Id', 'Owner', 'Created_Time', 'Modified_Time'],
  Calls: ['Subject', 'Description', 'Call_Type', 'Call_Start_Time', 'Call_Duration_in_seconds', 'Who_Id', 'What_Id', 'Owner', 'Created_Time', 'Modified_Time'],
  Events: ['Event_Title', 'Description', 'Start_DateTime', 'End_DateTime', 'Participants', 'Who_Id', 'What_Id', 'Owner', 'Created_Time', 'Modified_Time'],
} as const;

export type Module = keyof typeof FIELDS;

// ---------------------------------------------------------------- phones, emails, addresses

const CONTACT_PHONES: Record<string, string> = { WORK: 'Phone', MOBILE: 'Mobile', HOME: 'Home_Phone', OTHER: 'Other_Phone', FAX: 'Fax' };
const ACCOUNT_PHONES: Record<string, string> = { WORK: 'Phone', FAX: 'Fax' };
/** An address by its field prefix and the name of its postal code field (`Mailing_Zip`, `Billing_Code`): one street field. */
const address = (p: string, zip: string) => ({ street1: `${p}_Street`, city: `${p}_City`, state: `${p}_State`, postalCode: `${p}_${zip}`, country: `${p}_Country` });
const CONTACT_ADDRESSES: AddressSlots = { WORK: address('Mailing', 'Zip'), OTHER: address('Other', 'Zip') };
const ACCOUNT_ADDRESSES: AddressSlots = { BILLING: address('Billing', 'Code'), SHIPPING: address('Shipping', 'Code') };
const EMAILS = ['Email', 'Secondary_Email'];

// ---------------------------------------------------------------- contacts

export function unifyContact(r: ZRecord, ids: IdOf): UnifiedRecord {
  const emails: EmailFields[] = EMAILS.filter((f) => nonEmpty(r[f])).map((f, i) => ({
    email_address: r[f] as string,
    email_address_type: f === 'Email' || i === 0 ? 'WORK' : 'PERSONAL',
    owner_type: 'CONTACT',
  }));
  return base('crm.contact', r, {
    first_name: nonEmpty(r.First_Name),
    last_name: nonEmpty(r.Last_Name),
    email_addresses: emails,
    phone_numbers: readPhones(r, CONTACT_PHONES, 'CONTACT'),
    addresses: readAddresses(r, CONTACT_ADDRESSES, 'CONTACT'),
    user_id: ids('crm.user', lookupId(r.Owner)),
    company_id: ids('crm.company', lookupId(r.Account_Name)),
  });
}

export function desunifyContact(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'first_name')) body.First_Name = input.first_name;
  if (has(input, 'last_name')) body.Last_Name = input.last_name;
  if (create && !nonEmpty(body.Last_Name)) throw required('last_name', 'Zoho CRM requires a contact’s last name');
  if (has(input, 'email_addresses')) {
    const list = input.email_addresses as Email[];
    if (list.length > 2) throw unsupported('email_addresses', 'a Zoho CRM contact has two email addresses (Email and Secondary_Email)', { max: 2 });
    body.Email = list[0]?.email_address ?? null;
    body.Secondary_Email = list[1]?.email_address ?? null;
  }
  if (has(input, 'phone_numbers')) Object.assign(body, writePhones(input.phone_numbers as Phone[], CONTACT_PHONES, 'Zoho CRM contacts', unsupported));
  if (has(input, 'addresses')) Object.assign(body, writeAddresses(input.addresses as Address[], CONTACT_ADDRESSES, 'Zoho CRM contacts', unsupported));
  if (has(input, 'user_id')) body.Owner = ref('user_id', input.user_id);
  if (has(input, 'company_id')) body.Account_Name = ref('company_id', input.company_id);
  return body;
}

// ---------------------------------------------------------------- companies (accounts)

export function unifyAccount(r: ZRecord, ids: IdOf): UnifiedRecord {
  return base('crm.company', r, {
    name: nonEmpty(r.Account_Name),
    industry: nonEmpty(r.Industry),
    number_of_employees: typeof r.Employees === 'number' ? r.Employees : null,
    email_addresses: [],
    phone_numbers: readPhones(r, ACCOUNT_PHONES, 'COMPANY'),
    addresses: readAddresses(r, ACCOUNT_ADDRESSES, 'COMPANY'),
    user_id: ids('crm.user', lookupId(r.Owner)),
  });
}

export function desunifyAccount(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.Account_Name = input.name;
  if (create && !nonEmpty(body.Account_Name)) throw required('name', 'Zoho CRM requires an account name');
  if (has(input, 'industry')) body.Industry = input.industry;
  if (has(input, 'number_of_employees')) body.Employees = input.number_of_employees;
  if (has(input, 'email_addresses') && (input.email_addresses as unknown[]).length > 0) {
    throw unsupported('email_addresses', 'Zoho CRM accounts have no email addresses (their contacts have)');
  }
  if (has(input, 'phone_numbers')) Object.assign(body, writePhones(input.phone_numbers as Phone[], ACCOUNT_PHONES, 'Zoho CRM accounts', unsupported));
  if (has(input, 'addresses')) Object.assign(body, writeAddresses(input.addresses as Address[], ACCOUNT_ADDRESSES, 'Zoho CRM accounts', unsupported));
  if (has(input, 'user_id')) body.Owner = ref('user_id', input.user_id);
  return body;
}

// ---------------------------------------------------------------- deals

export function unifyDeal(r: ZRecord, ids: IdOf): UnifiedRecord {
  const contact = lookupId(r.Contact_Name);
  return base('crm.deal', r, {
    name: nonEmpty(r.Deal_Name),
    description: nonEmpty(r.Description),
    amount: numberToDecimal(r.Amount, 2),
    currency: nonEmpty(r.Currency),
    stage_id: ids('crm.stage', nonEmpty(r.Stage)),
    user_id: ids('crm.user', lookupId(r.Owner)),
    company_id: ids('crm.company', lookupId(r.Account_Name)),
    contact_ids: contact ? [ids('crm.contact', contact)!] : [],
    close_date: nonEmpty(r.Closing_Date),
  });
}

export function desunifyDeal(input: CrmWrite, create: boolean, multiCurrency: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.Deal_Name = input.name;
  if (has(input, 'description')) body.Description = input.description;
  if (has(input, 'amount')) body.Amount = input.amount === null ? null : decimalToNumber(String(input.amount), 'amount', { provider: 'zoho', displayName: 'Zoho CRM', maxDecimals: 2 });
  if (has(input, 'currency')) {
    if (!multiCurrency) throw unsupported('currency', 'this Zoho CRM organization has one currency (multi-currency is not enabled): currency cannot be set');
    body.Currency = input.currency;
  }
  // Stage ids are the Stage picklist's actual values.
  if (has(input, 'stage_id')) body.Stage = input.stage_id;
  if (has(input, 'user_id')) body.Owner = ref('user_id', input.user_id);
  if (has(input, 'company_id')) body.Account_Name = ref('company_id', input.company_id);
  if (has(input, 'contact_ids')) {
    const list = (input.contact_ids as string[] | null) ?? [];
    if (list.length > 1) throw unsupported('contact_ids', 'a Zoho CRM deal has one contact (Contact_Name)', { max: 1 });
    body.Contact_Name = list[0] ? ref('contact_ids', list[0]) : null;
  }
  if (has(input, 'close_date')) body.Closing_Date = input.close_date === null ? null : String(input.close_date).slice(0, 10);
  if (create) {
    if (!nonEmpty(body.Deal_Name)) throw required('name', 'Zoho CRM requires a deal name');
    if (!nonEmpty(body.Stage)) throw required('stage_id', 'Zoho CRM requires a deal stage');
    if (!nonEmpty(body.Closing_Date)) throw required('close_date', 'Zoho CRM requires a deal closing date');
  }
  return body;
}

// ---------------------------------------------------------------- stages, users

export function unifyStage(v: { actual_value?: string; display_value?: string; id?: string }): UnifiedRecord {
  return {
    objectType: 'crm.stage',
    remoteId: String(v.actual_value ?? v.display_value),
    data: { name: nonEmpty(v.display_value) ?? nonEmpty(v.actual_value), pipeline_id: null, pipeline_name: null },
    remoteData: v as Record<string, unknown>,
    remoteCreatedAt: null,
    remoteUpdatedAt: null,
  };
}

export function unifyUser(u: ZRecord): UnifiedRecord {
  return {
    objectType: 'crm.user',
    remoteId: u.id,
    data: { name: nonEmpty(u.full_name) ?? ([u.first_name, u.last_name].filter((p) => nonEmpty(p)).join(' ') || null), email: nonEmpty(u.email) },
    remoteData: u,
    remoteCreatedAt: toDate(u.created_time),
    remoteUpdatedAt: toDate(u.Modified_Time),
  };
}

// ---------------------------------------------------------------- notes

const PARENT_MODULE: Record<string, string> = { deal_id: 'Deals', contact_id: 'Contacts', company_id: 'Accounts' };

export function unifyNote(r: ZRecord, ids: IdOf): UnifiedRecord {
  const parent = (r.Parent_Id ?? {}) as { id?: string; module?: { api_name?: string } };
  const module = parent.module?.api_name ?? (typeof r.$se_module === 'string' ? r.$se_module : undefined);
  const id = nonEmpty(parent.id);
  return base('crm.note', r, {
    content: nonEmpty(r.Note_Content) ?? nonEmpty(r.Note_Title),
    user_id: ids('crm.user', lookupId(r.Owner)),
    company_id: module === 'Accounts' ? ids('crm.company', id) : null,
    contact_id: module === 'Contacts' ? ids('crm.contact', id) : null,
    deal_id: module === 'Deals' ? ids('crm.deal', id) : null,
  });
}

/** One parent of a note: the single reference given. */
function oneOf(input: CrmWrite, fields: string[], what: string): [string, string] | undefined {
  const given = fields.filter((f) => has(input, f) && input[f] !== null);
  if (given.length > 1) throw unsupported(given[1]!, `a Zoho CRM ${what} is linked to one of ${fields.join(', ')}; give one`);
  return given[0] ? [given[0], zohoId(input[given[0]], given[0])] : undefined;
}

export function desunifyNote(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'content')) body.Note_Content = input.content;
  if (has(input, 'user_id')) body.Owner = ref('user_id', input.user_id);
  const parent = oneOf(input, ['deal_id', 'contact_id', 'company_id'], 'note');
  if (parent && !create) throw unsupported(parent[0], 'a Zoho CRM note cannot move to another record');
  if (parent) body.Parent_Id = { module: { api_name: PARENT_MODULE[parent[0]] }, id: parent[1] };
  else if (create) throw required('company_id', 'a Zoho CRM note belongs to a record: give deal_id, contact_id or company_id');
  return body;
}

// ---------------------------------------------------------------- tasks

const dateToIso = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : toIso(v));

/** Who (a contact) and what (an account, or for tasks a deal) of an activity. */
function whoWhat(input: CrmWrite, body: Record<string, unknown>, contactField: 'contact_id' | 'contact_ids', what: string) {
  if (has(input, contactField)) {
    const v = input[contactField];
    const list = Array.isArray(v) ? (v as string[]) : v === null ? [] : [v as string];
    if (list.length > 1) throw unsupported(contactField, `a Zoho CRM ${what} is linked to one contact`, { max: 1 });
    body.Who_Id = list[0] ? { id: zohoId(list[0], contactField) } : null;
  }
  const target = oneOf(input, what === 'task' ? ['deal_id', 'company_id'] : ['company_id'], what);
  if (target) {
    body.What_Id = { id: target[1] };
    body.$se_module = target[0] === 'deal_id' ? 'Deals' : 'Accounts';
  }
}

function activityRefs(r: ZRecord, ids: IdOf) {
  const what = lookupId(r.What_Id);
  const module = typeof r.$se_module === 'string' ? r.$se_module : null;
  return {
    user_id: ids('crm.user', lookupId(r.Owner)),
    company_id: module === 'Accounts' ? ids('crm.company', what) : null,
    contactId: ids('crm.contact', lookupId(r.Who_Id)),
    dealId: module === 'Deals' ? ids('crm.deal', what) : null,
  };
}

export function unifyTask(r: ZRecord, ids: IdOf): UnifiedRecord {
  const refs = activityRefs(r, ids);
  return base('crm.task', r, {
    subject: nonEmpty(r.Subject),
    content: nonEmpty(r.Description),
    status: r.Status === 'Completed' ? 'COMPLETED' : 'PENDING',
    due_date: dateToIso(r.Due_Date),
    finished_date: toIso(r.Closed_Time),
    user_id: refs.user_id,
    company_id: refs.company_id,
    contact_id: refs.contactId,
    deal_id: refs.dealId,
  });
}

export function desunifyTask(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = create ? { Status: 'Not Started' } : {};
  if (has(input, 'subject')) body.Subject = input.subject;
  if (create && !nonEmpty(body.Subject)) throw required('subject', 'Zoho CRM requires a task subject');
  if (has(input, 'content')) body.Description = input.content;
  if (has(input, 'status')) body.Status = input.status === 'COMPLETED' ? 'Completed' : 'Not Started';
  if (has(input, 'due_date')) body.Due_Date = input.due_date === null ? null : String(input.due_date).slice(0, 10);
  if (has(input, 'finished_date')) throw unsupported('finished_date', 'Zoho CRM sets a task’s closing time itself (Closed_Time); set status COMPLETED');
  if (has(input, 'user_id')) body.Owner = ref('user_id', input.user_id);
  whoWhat(input, body, 'contact_id', 'task');
  return body;
}

// ---------------------------------------------------------------- engagements (calls, meetings)

export function unifyEngagement(r: ZRecord, module: 'Calls' | 'Events', ids: IdOf): UnifiedRecord {
  const refs = activityRefs(r, ids);
  if (module === 'Events') {
    const participants = Array.isArray(r.Participants) ? (r.Participants as { type?: string; participant?: string }[]) : [];
    const contacts = participants.filter((p) => p?.type === 'contact' && typeof p.participant === 'string').map((p) => ids('crm.contact', p.participant!)!);
    if (refs.contactId && !contacts.includes(refs.contactId)) contacts.unshift(refs.contactId);
    return base('crm.engagement', r, {
      type: 'MEETING',
      subject: nonEmpty(r.Event_Title),
      content: nonEmpty(r.Description),
      direction: null,
      start_at: toIso(r.Start_DateTime),
      end_time: toIso(r.End_DateTime),
      user_id: refs.user_id,
      company_id: refs.company_id,
      contact_ids: contacts,
    });
  }
  const start = toIso(r.Call_Start_Time);
  const seconds = Number(r.Call_Duration_in_seconds);
  return base('crm.engagement', r, {
    type: 'CALL',
    subject: nonEmpty(r.Subject),
    content: nonEmpty(r.Description),
    direction: r.Call_Type === 'Inbound' ? 'INBOUND' : r.Call_Type === 'Outbound' ? 'OUTBOUND' : null,
    start_at: start,
    end_time: start && Number.isFinite(seconds) && r.Call_Duration_in_seconds !== null ? new Date(Date.parse(start) + seconds * 1000).toISOString() : null,
    user_id: refs.user_id,
    company_id: refs.company_id,
    contact_ids: refs.contactId ? [refs.contactId] : [],
  });
}

/** The module an engagement type is written to. */
export function engagementModule(type: unknown): 'Calls' | 'Events' {
  if (type === 'MEETING') return 'Events';
  if (type === 'CALL') return 'Calls';
  throw unsupported('type', `Zoho CRM engagements are calls (CALL) and meetings (MEETING), not ${String(type)}`, { allowed: ['CALL', 'MEETING'] });
}

const mmss = (seconds: number) => `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
const dt = (v: unknown, field: string) => {
  const d = toDate(v);
  if (!d) throw new AppError('validation_failed', `${field}: expected a date-time`, { field });
  return zohoDateTime(d);
};

export function desunifyEngagement(input: CrmWrite, module: 'Calls' | 'Events', current: { start: string | null } | null): Record<string, unknown> {
  const create = current === null;
  const body: Record<string, unknown> = {};
  if (has(input, 'type') && engagementModule(input.type) !== module) {
    throw unsupported('type', `a Zoho CRM ${module === 'Events' ? 'meeting' : 'call'} cannot change its type`);
  }
  if (has(input, 'content')) body.Description = input.content;
  if (has(input, 'user_id')) body.Owner = ref('user_id', input.user_id);
  if (module === 'Events') {
    if (has(input, 'subject')) body.Event_Title = input.subject;
    if (has(input, 'direction')) throw unsupported('direction', 'Zoho CRM meetings have no direction');
    if (has(input, 'start_at')) body.Start_DateTime = dt(input.start_at, 'start_at');
    if (has(input, 'end_time')) body.End_DateTime = dt(input.end_time, 'end_time');
    if (has(input, 'contact_ids')) body.Participants = ((input.contact_ids as string[] | null) ?? []).map((id) => ({ type: 'contact', participant: zohoId(id, 'contact_ids') }));
    whoWhat({ ...input, contact_ids: undefined }, body, 'contact_ids', 'meeting');
    if (create) {
      body.Event_Title ??= 'Meeting';
      if (!body.Start_DateTime || !body.End_DateTime) throw required(body.Start_DateTime ? 'end_time' : 'start_at', 'a Zoho CRM meeting needs start_at and end_time');
    }
    return body;
  }
  if (has(input, 'subject')) body.Subject = input.subject;
  whoWhat(input, body, 'contact_ids', 'call');
  if (create) Object.assign(body, { Subject: body.Subject ?? 'Call', Call_Type: 'Outbound' });
  if (has(input, 'direction')) body.Call_Type = input.direction === 'INBOUND' ? 'Inbound' : 'Outbound';
  if (has(input, 'start_at')) body.Call_Start_Time = dt(input.start_at, 'start_at');
  if (create && !body.Call_Start_Time) throw required('start_at', 'a Zoho CRM call needs its start time');
  if (has(input, 'end_time')) {
    const start = has(input, 'start_at') ? String(input.start_at) : current?.start;
    if (!start) throw unsupported('end_time', 'a Zoho CRM call keeps a duration from its start: give start_at too');
    const seconds = Math.round((Date.parse(String(input.end_time)) - Date.parse(start)) / 1000);
    if (!(seconds >= 0)) throw new AppError('validation_failed', 'end_time: must not be before start_at', { field: 'end_time' });
    body.Call_Duration = mmss(seconds);
  } else if (create) {
    body.Call_Duration = '00:00';
  }
  return body;
}
