/**
 * Dataverse rows ↔ unified CRM objects: contact, account (company), opportunity (deal), the sales stage
 * option set (stages), systemuser (users), annotation (notes), task, and engagements (phonecall: CALL,
 * appointment: MEETING). Mapping tables: docs/providers/dynamics.md.
 */
import { AppError } from '../../core/errors';
import type { Address, Email, EmailFields, Phone } from '../../core/unified/crm';
import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import { decimalToNumber, numberToDecimal } from '../decimals';
import { FORMATTED, LOOKUP_TABLE, guid, required, toDate, toIso, unsupported, type OptionValue, type Row } from './api';
import { has, nonEmpty, readAddresses, readPhones, writeAddresses, writePhones, type AddressSlots } from '../kit';

/** A table: its entity set (the URL segment), its primary key, and the columns read. */
export interface Table {
  name: string;
  set: string;
  key: string;
  select: readonly string[];
}

const stamps = ['createdon', 'modifiedon'];
const address = (n: number) => ['line1', 'line2', 'city', 'stateorprovince', 'postalcode', 'country'].map((p) => `address${n}_${p}`);
export const TABLES = {
  systemuser: { name: 'systemuser', set: 'systemusers', key: 'systemuserid', select: ['systemuserid', 'fullname', 'firstname', 'lastname', 'internalemailaddress', 'isdisabled', ...stamps] },
  account: {
    name: 'account',
    set: 'accounts',
    key: 'accountid',
    select: ['accountid', 'name', 'industrycode', 'numberofemployees', 'emailaddress1', 'emailaddress2', 'emailaddress3', 'telephone1', 'telephone2', 'fax', ...address(1), ...address(2), '_ownerid_value', ...stamps],
  },
  contact: {
    name: 'contact',
    set: 'contacts',
    key: 'contactid',
    select: ['contactid', 'firstname', 'lastname', 'emailaddress1', 'emailaddress2', 'emailaddress3', 'telephone1', 'telephone2', 'telephone3', 'mobilephone', 'fax', ...address(1), ...address(2), '_parentcustomerid_value', '_ownerid_value', ...stamps],
  },
  opportunity: {
    name: 'opportunity',
    set: 'opportunities',
    key: 'opportunityid',
    select: ['opportunityid', 'name', 'description', 'estimatedvalue', '_transactioncurrencyid_value', 'salesstage', 'estimatedclosedate', 'statecode', '_parentaccountid_value', '_parentcontactid_value', '_ownerid_value', ...stamps],
  },
  annotation: { name: 'annotation', set: 'annotations', key: 'annotationid', select: ['annotationid', 'subject', 'notetext', '_objectid_value', '_ownerid_value', ...stamps] },
  task: { name: 'task', set: 'tasks', key: 'activityid', select: ['activityid', 'subject', 'description', 'scheduledend', 'actualend', 'statecode', 'statuscode', '_regardingobjectid_value', '_ownerid_value', ...stamps] },
  phonecall: {
    name: 'phonecall',
    set: 'phonecalls',
    key: 'activityid',
    select: ['activityid', 'subject', 'description', 'directioncode', 'scheduledstart', 'scheduledend', 'actualdurationminutes', '_regardingobjectid_value', '_ownerid_value', ...stamps],
  },
  appointment: { name: 'appointment', set: 'appointments', key: 'activityid', select: ['activityid', 'subject', 'description', 'scheduledstart', 'scheduledend', 'location', '_regardingobjectid_value', '_ownerid_value', ...stamps] },
} as const satisfies Record<string, Table>;
export type TableName = keyof typeof TABLES;

/** The row's id (its primary key column, lower case). */
export const idOf = (table: Table, r: Row) => String(r[table.key]).toLowerCase();

const base = (objectType: string, table: Table, r: Row, data: Record<string, unknown>): UnifiedRecord => ({
  objectType,
  remoteId: idOf(table, r),
  data,
  remoteData: r,
  remoteCreatedAt: toDate(r.createdon),
  remoteUpdatedAt: toDate(r.modifiedon),
});

/** A lookup's value and the table it points at (`_x_value` with its lookuplogicalname annotation). */
function lookup(r: Row, column: string): { id: string; table: string | null } | null {
  const v = r[`_${column}_value`];
  if (typeof v !== 'string' || v === '') return null;
  return { id: v.toLowerCase(), table: nonEmpty(r[`_${column}_value${LOOKUP_TABLE}`]) };
}
const owner = (r: Row, ids: IdOf) => {
  const o = lookup(r, 'ownerid');
  return o && o.table !== 'team' ? ids('crm.user', o.id) : null;
};
const bind = (set: string, id: string) => `/${set}(${id})`;

// ---------------------------------------------------------------- emails, phones, addresses

const EMAIL_SLOTS = ['emailaddress1', 'emailaddress2', 'emailaddress3'];
const EMAIL_TYPES = ['WORK', 'PERSONAL', 'OTHER'];
const CONTACT_PHONES: Record<string, string> = { WORK: 'telephone1', HOME: 'telephone2', OTHER: 'telephone3', MOBILE: 'mobilephone', FAX: 'fax' };
const ACCOUNT_PHONES: Record<string, string> = { WORK: 'telephone1', OTHER: 'telephone2', FAX: 'fax' };
/** The composite address `n` (address1_…, address2_…): two street lines. */
const addressSlot = (n: number) => ({
  street1: `address${n}_line1`, street2: `address${n}_line2`, city: `address${n}_city`, state: `address${n}_stateorprovince`, postalCode: `address${n}_postalcode`, country: `address${n}_country`,
});
const CONTACT_ADDRESSES: AddressSlots = { WORK: addressSlot(1), OTHER: addressSlot(2) };
const ACCOUNT_ADDRESSES: AddressSlots = { BILLING: addressSlot(1), SHIPPING: addressSlot(2) };

function readEmails(r: Row, owner: string): EmailFields[] {
  return EMAIL_SLOTS.map((f, i) => [r[f], EMAIL_TYPES[i]!] as const)
    .filter(([v]) => nonEmpty(v))
    .map(([v, type]) => ({ email_address: v as string, email_address_type: type, owner_type: owner }));
}

/** Emails in the order given, into emailaddress1–3. */
function writeEmails(list: Email[]): Record<string, unknown> {
  if (list.length > 3) throw unsupported('email_addresses', 'a Dynamics record has at most three email addresses (emailaddress1–3)', { max: 3 });
  return Object.fromEntries(EMAIL_SLOTS.map((f, i) => [f, list[i]?.email_address ?? null]));
}

const ownerBind = (input: CrmWrite, body: Record<string, unknown>) => {
  if (!has(input, 'user_id')) return;
  if (input.user_id === null) throw unsupported('user_id', 'a Dynamics record always has an owner: give another user instead of null');
  body['ownerid@odata.bind'] = bind('systemusers', guid(input.user_id, 'user_id'));
};

// ---------------------------------------------------------------- contacts

export function unifyContact(r: Row, ids: IdOf): UnifiedRecord {
  const parent = lookup(r, 'parentcustomerid');
  return base('crm.contact', TABLES.contact, r, {
    first_name: nonEmpty(r.firstname),
    last_name: nonEmpty(r.lastname),
    email_addresses: readEmails(r, 'CONTACT'),
    phone_numbers: readPhones(r, CONTACT_PHONES, 'CONTACT'),
    addresses: readAddresses(r, CONTACT_ADDRESSES, 'CONTACT'),
    user_id: owner(r, ids),
    company_id: parent && parent.table !== 'contact' ? ids('crm.company', parent.id) : null,
  });
}

export function desunifyContact(input: CrmWrite): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'first_name')) body.firstname = input.first_name;
  if (has(input, 'last_name')) body.lastname = input.last_name;
  if (has(input, 'email_addresses')) Object.assign(body, writeEmails(input.email_addresses as Email[]));
  if (has(input, 'phone_numbers')) Object.assign(body, writePhones(input.phone_numbers as Phone[], CONTACT_PHONES, 'Dynamics contacts', unsupported));
  if (has(input, 'addresses')) Object.assign(body, writeAddresses(input.addresses as Address[], CONTACT_ADDRESSES, 'Dynamics contacts', unsupported));
  ownerBind(input, body);
  if (has(input, 'company_id')) body['parentcustomerid_account@odata.bind'] = input.company_id === null ? null : bind('accounts', guid(input.company_id, 'company_id'));
  return body;
}

// ---------------------------------------------------------------- companies (accounts)

export function unifyAccount(r: Row, ids: IdOf): UnifiedRecord {
  return base('crm.company', TABLES.account, r, {
    name: nonEmpty(r.name),
    industry: nonEmpty(r[`industrycode${FORMATTED}`]) ?? (typeof r.industrycode === 'number' ? String(r.industrycode) : null),
    number_of_employees: typeof r.numberofemployees === 'number' ? r.numberofemployees : null,
    email_addresses: readEmails(r, 'COMPANY'),
    phone_numbers: readPhones(r, ACCOUNT_PHONES, 'COMPANY'),
    addresses: readAddresses(r, ACCOUNT_ADDRESSES, 'COMPANY'),
    user_id: owner(r, ids),
  });
}

export function desunifyAccount(input: CrmWrite, industries: OptionValue[] | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.name = input.name;
  if (has(input, 'industry')) {
    if (input.industry === null) body.industrycode = null;
    else {
      const wanted = String(input.industry).trim().toLowerCase();
      const option = industries?.find((x) => x.label.toLowerCase() === wanted || String(x.value) === wanted);
      if (!option) throw unsupported('industry', `not an industry of this Dynamics environment (industrycode options: ${(industries ?? []).map((x) => x.label).join(', ')})`);
      body.industrycode = option.value;
    }
  }
  if (has(input, 'number_of_employees')) body.numberofemployees = input.number_of_employees;
  if (has(input, 'email_addresses')) Object.assign(body, writeEmails(input.email_addresses as Email[]));
  if (has(input, 'phone_numbers')) Object.assign(body, writePhones(input.phone_numbers as Phone[], ACCOUNT_PHONES, 'Dynamics accounts', unsupported));
  if (has(input, 'addresses')) Object.assign(body, writeAddresses(input.addresses as Address[], ACCOUNT_ADDRESSES, 'Dynamics accounts', unsupported));
  ownerBind(input, body);
  return body;
}

// ---------------------------------------------------------------- deals (opportunities)

export function unifyOpportunity(r: Row, ids: IdOf, currencies: Map<string, string>): UnifiedRecord {
  const currency = lookup(r, 'transactioncurrencyid');
  const contact = lookup(r, 'parentcontactid');
  const account = lookup(r, 'parentaccountid');
  return base('crm.deal', TABLES.opportunity, r, {
    name: nonEmpty(r.name),
    description: nonEmpty(r.description),
    amount: numberToDecimal(r.estimatedvalue, 2),
    currency: currency ? (currencies.get(currency.id) ?? null) : null,
    stage_id: typeof r.salesstage === 'number' ? ids('crm.stage', String(r.salesstage)) : null,
    user_id: owner(r, ids),
    company_id: account ? ids('crm.company', account.id) : null,
    contact_ids: contact ? [ids('crm.contact', contact.id)!] : [],
    close_date: nonEmpty(r.estimatedclosedate)?.slice(0, 10) ?? null,
  });
}

export function desunifyOpportunity(input: CrmWrite, currencies: Map<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.name = input.name;
  if (has(input, 'description')) body.description = input.description;
  if (has(input, 'amount')) body.estimatedvalue = input.amount === null ? null : decimalToNumber(String(input.amount), 'amount', { provider: 'dynamics', displayName: 'Dynamics', maxDecimals: 2 });
  if (has(input, 'currency')) {
    if (input.currency === null) throw unsupported('currency', 'a Dynamics opportunity always has a transaction currency');
    const code = String(input.currency).toUpperCase();
    const id = [...currencies].find(([, iso]) => iso.toUpperCase() === code)?.[0];
    if (!id) throw unsupported('currency', `this Dynamics environment has no transaction currency ${code} (it has ${[...currencies.values()].join(', ') || 'none'})`);
    body['transactioncurrencyid@odata.bind'] = bind('transactioncurrencies', id);
  }
  if (has(input, 'stage_id')) {
    const v = Number(input.stage_id);
    if (input.stage_id === null || !Number.isInteger(v)) throw unsupported('stage_id', 'a Dynamics stage is a value of the sales stage option set');
    body.salesstage = v;
  }
  ownerBind(input, body);
  if (has(input, 'company_id')) body['parentaccountid@odata.bind'] = input.company_id === null ? null : bind('accounts', guid(input.company_id, 'company_id'));
  if (has(input, 'contact_ids')) {
    const list = input.contact_ids as string[];
    if (list.length > 1) throw unsupported('contact_ids', 'a Dynamics opportunity has one contact (parentcontactid)', { max: 1 });
    body['parentcontactid@odata.bind'] = list[0] ? bind('contacts', guid(list[0], 'contact_ids')) : null;
  }
  if (has(input, 'close_date')) body.estimatedclosedate = input.close_date === null ? null : String(input.close_date).slice(0, 10);
  return body;
}

// ---------------------------------------------------------------- stages, users

export function unifyStage(o: OptionValue, order: number): UnifiedRecord {
  return { objectType: 'crm.stage', remoteId: String(o.value), data: { name: o.label, pipeline_id: null, pipeline_name: null }, remoteData: { value: o.value, label: o.label, order }, remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyUser(r: Row): UnifiedRecord {
  return base('crm.user', TABLES.systemuser, r, {
    name: nonEmpty(r.fullname) ?? ([r.firstname, r.lastname].filter((p) => nonEmpty(p)).join(' ') || null),
    email: nonEmpty(r.internalemailaddress),
  });
}

// ---------------------------------------------------------------- what an activity or a note is about

/** Unified reference field → the table and entity set it names. */
const PARENTS: Record<string, { table: string; set: string }> = {
  deal_id: { table: 'opportunity', set: 'opportunities' },
  contact_id: { table: 'contact', set: 'contacts' },
  company_id: { table: 'account', set: 'accounts' },
};

/** The one record a note or an activity is about: the single reference given, as `[field, table, set, id]`. */
function oneParent(input: CrmWrite, fields: string[], what: string): { field: string; table: string; set: string; id: string } | null | undefined {
  const given = fields.filter((f) => has(input, f));
  const set = given.filter((f) => input[f] !== null && !(Array.isArray(input[f]) && (input[f] as unknown[]).length === 0));
  if (set.length > 1) throw unsupported(set[1]!, `a Dynamics ${what} is about one record: give only one of ${fields.join(', ')}`);
  if (set.length === 0) return given.length ? null : undefined;
  const field = set[0]!;
  const v = input[field];
  const list = Array.isArray(v) ? (v as string[]) : [v as string];
  if (list.length > 1) throw unsupported(field, `a Dynamics ${what} is about one contact`, { max: 1 });
  const p = PARENTS[field === 'contact_ids' ? 'contact_id' : field]!;
  return { field, ...p, id: guid(list[0], field) };
}

/** The unified references of a lookup to an account, a contact or an opportunity. */
function refs(r: Row, column: string, ids: IdOf) {
  const l = lookup(r, column);
  return {
    company_id: l?.table === 'account' ? ids('crm.company', l.id) : null,
    contact_id: l?.table === 'contact' ? ids('crm.contact', l.id) : null,
    deal_id: l?.table === 'opportunity' ? ids('crm.deal', l.id) : null,
  };
}

// ---------------------------------------------------------------- notes (annotations)

export function unifyNote(r: Row, ids: IdOf): UnifiedRecord {
  return base('crm.note', TABLES.annotation, r, { content: nonEmpty(r.notetext) ?? nonEmpty(r.subject), user_id: owner(r, ids), ...refs(r, 'objectid', ids) });
}

export function desunifyNote(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'content')) body.notetext = input.content;
  ownerBind(input, body);
  const parent = oneParent(input, ['deal_id', 'contact_id', 'company_id'], 'note');
  if (parent && !create) throw unsupported(parent.field, 'a Dynamics note cannot move to another record');
  if (parent) body[`objectid_${parent.table}@odata.bind`] = `/${parent.set}(${parent.id})`;
  else if (create) throw required('company_id', 'a Dynamics note belongs to a record: give deal_id, contact_id or company_id');
  return body;
}

// ---------------------------------------------------------------- tasks

const dateToIso = (v: unknown) => toIso(v);

export function unifyTask(r: Row, ids: IdOf): UnifiedRecord {
  return base('crm.task', TABLES.task, r, {
    subject: nonEmpty(r.subject),
    content: nonEmpty(r.description),
    status: r.statecode === 1 ? 'COMPLETED' : 'PENDING',
    due_date: dateToIso(r.scheduledend),
    finished_date: toIso(r.actualend),
    user_id: owner(r, ids),
    ...refs(r, 'regardingobjectid', ids),
  });
}

/** The regarding lookup of an activity: one navigation property per table it may point at (`regardingobjectid_contact_task`). */
function regarding(body: Record<string, unknown>, activity: string, parent: ReturnType<typeof oneParent>) {
  if (parent === undefined) return;
  if (parent === null) {
    for (const t of ['contact', 'account', 'opportunity']) body[`regardingobjectid_${t}_${activity}@odata.bind`] = null;
    return;
  }
  body[`regardingobjectid_${parent.table}_${activity}@odata.bind`] = `/${parent.set}(${parent.id})`;
}

/** A task's fields, and its state (open or completed) apart: a create sets it in a second call. */
export function desunifyTask(input: CrmWrite): { body: Record<string, unknown>; state?: Record<string, unknown> } {
  const body: Record<string, unknown> = {};
  if (has(input, 'subject')) body.subject = input.subject;
  if (has(input, 'content')) body.description = input.content;
  if (has(input, 'due_date')) body.scheduledend = input.due_date === null ? null : new Date(String(input.due_date)).toISOString();
  if (has(input, 'finished_date')) body.actualend = input.finished_date === null ? null : new Date(String(input.finished_date)).toISOString();
  ownerBind(input, body);
  regarding(body, 'task', oneParent(input, ['deal_id', 'contact_id', 'company_id'], 'task'));
  // Completed: statecode 1 with statuscode 5; open: statecode 0 with statuscode 2 (Not Started).
  const state = has(input, 'status') ? (input.status === 'COMPLETED' ? { statecode: 1, statuscode: 5 } : { statecode: 0, statuscode: 2 }) : undefined;
  return { body, state };
}

// ---------------------------------------------------------------- engagements (phone calls, appointments)

export function unifyEngagement(r: Row, ids: IdOf, table: 'phonecall' | 'appointment'): UnifiedRecord {
  const about = refs(r, 'regardingobjectid', ids);
  const start = toIso(r.scheduledstart);
  return base('crm.engagement', TABLES[table], r, {
    type: table === 'appointment' ? 'MEETING' : 'CALL',
    subject: nonEmpty(r.subject),
    content: nonEmpty(r.description),
    direction: table === 'phonecall' && typeof r.directioncode === 'boolean' ? (r.directioncode ? 'OUTBOUND' : 'INBOUND') : null,
    start_at: start,
    end_time: toIso(r.scheduledend),
    user_id: owner(r, ids),
    company_id: about.company_id,
    contact_ids: about.contact_id ? [about.contact_id] : [],
  });
}

/** The activity table of an engagement type; EMAIL is refused. */
export function engagementTable(type: unknown): 'phonecall' | 'appointment' {
  if (type === 'MEETING') return 'appointment';
  if (type === 'CALL' || type === undefined || type === null) return 'phonecall';
  throw unsupported('type', `Dynamics engagements here are phone calls (CALL) and appointments (MEETING), not ${String(type)}`, { allowed: ['CALL', 'MEETING'] });
}

export function desunifyEngagement(input: CrmWrite, table: 'phonecall' | 'appointment', create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'type') && engagementTable(input.type) !== table) throw unsupported('type', `a Dynamics ${table} cannot change its type`);
  if (has(input, 'subject')) body.subject = input.subject;
  if (create && !nonEmpty(body.subject)) body.subject = table === 'appointment' ? 'Meeting' : 'Call';
  if (has(input, 'content')) body.description = input.content;
  if (has(input, 'direction')) {
    if (table === 'appointment') throw unsupported('direction', 'Dynamics appointments (meetings) have no direction');
    body.directioncode = input.direction === 'OUTBOUND';
  }
  if (has(input, 'start_at')) body.scheduledstart = input.start_at === null ? null : new Date(String(input.start_at)).toISOString();
  if (has(input, 'end_time')) body.scheduledend = input.end_time === null ? null : new Date(String(input.end_time)).toISOString();
  if (typeof body.scheduledstart === 'string' && typeof body.scheduledend === 'string' && Date.parse(body.scheduledend) < Date.parse(body.scheduledstart)) {
    throw new AppError('validation_failed', 'end_time: must not be before start_at', { field: 'end_time' });
  }
  ownerBind(input, body);
  regarding(body, table, oneParent(input, ['contact_ids', 'company_id'], table === 'appointment' ? 'appointment' : 'phone call'));
  return body;
}
