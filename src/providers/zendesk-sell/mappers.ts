/**
 * Zendesk Sell objects ↔ unified CRM objects: person contacts (contacts), organization contacts
 * (companies), deals, stages (with their pipeline), users, notes, tasks and calls (engagements). Mapping
 * tables: docs/providers/zendesk-sell.md.
 */
import { AppError } from '../../core/errors';
import type { Address, AddressFields, Email, EmailFields, Phone, PhoneFields } from '../../core/unified/crm';
import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import { idText, required, sellId, toDate, toIso, unsupported, type SellObject } from './api';
import { has, nonEmpty } from '../kit';

const base = (objectType: string, o: SellObject, data: Record<string, unknown>): UnifiedRecord => ({
  objectType,
  remoteId: String(o.id),
  data,
  remoteData: o,
  remoteCreatedAt: toDate(o.created_at),
  remoteUpdatedAt: toDate(o.updated_at),
});

// ---------------------------------------------------------------- contacts and companies (both Sell contacts)

const PHONES: Record<string, string> = { WORK: 'phone', MOBILE: 'mobile', FAX: 'fax' };

function readPhones(o: SellObject, owner: string): PhoneFields[] {
  return Object.entries(PHONES)
    .filter(([, f]) => nonEmpty(o[f]))
    .map(([type, f]) => ({ phone_number: o[f] as string, phone_type: type, owner_type: owner }));
}

function writePhones(list: Phone[]): Record<string, unknown> {
  const body: Record<string, unknown> = { phone: null, mobile: null, fax: null };
  const seen = new Set<string>();
  list.forEach((p, i) => {
    const type = p.phone_type ?? 'WORK';
    const field = PHONES[type];
    if (!field) throw unsupported(`phone_numbers[${i}].phone_type`, `Zendesk Sell has no ${type} phone`, { allowed: Object.keys(PHONES) });
    if (seen.has(type)) throw unsupported(`phone_numbers[${i}].phone_type`, `Zendesk Sell keeps one ${type} phone number`);
    seen.add(type);
    body[field] = p.phone_number;
  });
  return body;
}

function readAddress(o: SellObject, owner: string, type: string): AddressFields[] {
  const a = (o.address ?? null) as Record<string, unknown> | null;
  if (!a) return [];
  const out = { street_1: nonEmpty(a.line1), street_2: null, city: nonEmpty(a.city), state: nonEmpty(a.state), postal_code: nonEmpty(a.postal_code), country: nonEmpty(a.country), address_type: type, owner_type: owner };
  return [out.street_1, out.city, out.state, out.postal_code, out.country].some((v) => v !== null) ? [out] : [];
}

function writeAddress(list: Address[], type: string): Record<string, unknown> {
  if (list.length > 1) throw unsupported('addresses', 'a Zendesk Sell contact has one address', { max: 1 });
  const a = list[0];
  if (!a) return { address: { line1: null, city: null, postal_code: null, state: null, country: null } };
  if (a.address_type && a.address_type !== type) throw unsupported('addresses[0].address_type', `Zendesk Sell keeps one address (${type})`, { allowed: [type] });
  return { address: { line1: [a.street_1, a.street_2].filter((s) => s).join('\n') || null, city: a.city ?? null, postal_code: a.postal_code ?? null, state: a.state ?? null, country: a.country ?? null } };
}

function writeEmail(list: Email[]): Record<string, unknown> {
  if (list.length > 1) throw unsupported('email_addresses', 'a Zendesk Sell contact has one email address', { max: 1 });
  return { email: list[0]?.email_address ?? null };
}

export function unifyPerson(o: SellObject, ids: IdOf): UnifiedRecord {
  const emails: EmailFields[] = nonEmpty(o.email) ? [{ email_address: o.email as string, email_address_type: 'WORK', owner_type: 'CONTACT' }] : [];
  return base('crm.contact', o, {
    first_name: nonEmpty(o.first_name),
    last_name: nonEmpty(o.last_name),
    email_addresses: emails,
    phone_numbers: readPhones(o, 'CONTACT'),
    addresses: readAddress(o, 'CONTACT', 'WORK'),
    user_id: ids('crm.user', idText(o.owner_id)),
    company_id: ids('crm.company', idText(o.contact_id)),
  });
}

export function desunifyPerson(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = create ? { is_organization: false } : {};
  if (has(input, 'first_name')) body.first_name = input.first_name;
  if (has(input, 'last_name')) body.last_name = input.last_name;
  if (create && !nonEmpty(body.last_name)) throw required('last_name', 'Zendesk Sell requires a person’s last name');
  if (has(input, 'email_addresses')) Object.assign(body, writeEmail(input.email_addresses as Email[]));
  if (has(input, 'phone_numbers')) Object.assign(body, writePhones(input.phone_numbers as Phone[]));
  if (has(input, 'addresses')) Object.assign(body, writeAddress(input.addresses as Address[], 'WORK'));
  if (has(input, 'user_id')) body.owner_id = input.user_id === null ? null : sellId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.contact_id = input.company_id === null ? null : sellId(input.company_id, 'company_id');
  return body;
}

export function unifyOrganization(o: SellObject, ids: IdOf): UnifiedRecord {
  return base('crm.company', o, {
    name: nonEmpty(o.name),
    industry: nonEmpty(o.industry),
    number_of_employees: null,
    email_addresses: nonEmpty(o.email) ? [{ email_address: o.email as string, email_address_type: 'WORK', owner_type: 'COMPANY' }] : [],
    phone_numbers: readPhones(o, 'COMPANY'),
    addresses: readAddress(o, 'COMPANY', 'BILLING'),
    user_id: ids('crm.user', idText(o.owner_id)),
  });
}

export function desunifyOrganization(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = create ? { is_organization: true } : {};
  if (has(input, 'name')) body.name = input.name;
  if (create && !nonEmpty(body.name)) throw required('name', 'Zendesk Sell requires an organization’s name');
  if (has(input, 'industry')) body.industry = input.industry;
  if (has(input, 'number_of_employees') && input.number_of_employees !== null) throw unsupported('number_of_employees', 'Zendesk Sell organizations have no employee count');
  if (has(input, 'email_addresses')) Object.assign(body, writeEmail(input.email_addresses as Email[]));
  if (has(input, 'phone_numbers')) Object.assign(body, writePhones(input.phone_numbers as Phone[]));
  if (has(input, 'addresses')) Object.assign(body, writeAddress(input.addresses as Address[], 'BILLING'));
  if (has(input, 'user_id')) body.owner_id = input.user_id === null ? null : sellId(input.user_id, 'user_id');
  return body;
}

// ---------------------------------------------------------------- deals

/** Sell answers a whole value as a number and a value with cents as a string with two decimals. */
function valueText(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return null;
}

/** The deal's primary contact (a person or an organization) and its organization. */
export function unifyDeal(o: SellObject, primaryIsOrganization: boolean, ids: IdOf): UnifiedRecord {
  const contact = idText(o.contact_id);
  return base('crm.deal', o, {
    name: nonEmpty(o.name),
    description: null,
    amount: valueText(o.value),
    currency: nonEmpty(o.currency),
    stage_id: ids('crm.stage', idText(o.stage_id)),
    user_id: ids('crm.user', idText(o.owner_id)),
    company_id: ids('crm.company', idText(o.organization_id) ?? (primaryIsOrganization ? contact : null)),
    contact_ids: contact && !primaryIsOrganization ? [ids('crm.contact', contact)!] : [],
    close_date: nonEmpty(o.estimated_close_date),
  });
}

export function desunifyDeal(input: CrmWrite): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.name = input.name;
  if (has(input, 'description') && input.description !== null) throw unsupported('description', 'Zendesk Sell deals have no description (add a note to the deal)');
  if (has(input, 'amount')) {
    if (input.amount === null) body.value = 0;
    else {
      const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(input.amount).trim());
      if (!m) throw new AppError('validation_failed', 'amount: expected a decimal number such as 1234.56', { field: 'amount' });
      const frac = (m[3] ?? '').replace(/0+$/, '');
      if (frac.length > 2) throw unsupported('amount', `Zendesk Sell keeps deal values with two decimals and cannot hold ${String(input.amount)} exactly`);
      // Sent as text: Sell takes decimal values as strings, so no float rounding happens on the way.
      body.value = `${m[1]}${m[2]!.replace(/^0+(?=\d)/, '')}${frac ? `.${frac.padEnd(2, '0')}` : ''}`;
    }
  }
  if (has(input, 'currency')) body.currency = input.currency;
  if (has(input, 'stage_id')) body.stage_id = sellId(input.stage_id, 'stage_id');
  if (has(input, 'user_id')) body.owner_id = input.user_id === null ? null : sellId(input.user_id, 'user_id');
  if (has(input, 'close_date')) body.estimated_close_date = input.close_date === null ? null : String(input.close_date).slice(0, 10);
  return body;
}

// ---------------------------------------------------------------- stages, users

export function unifyStage(o: SellObject, pipelines: Map<number, string>): UnifiedRecord {
  const pipeline = typeof o.pipeline_id === 'number' ? o.pipeline_id : null;
  return base('crm.stage', o, { name: nonEmpty(o.name), pipeline_id: pipeline === null ? null : String(pipeline), pipeline_name: pipeline === null ? null : (pipelines.get(pipeline) ?? null) });
}

export function unifyUser(o: SellObject): UnifiedRecord {
  return base('crm.user', o, { name: nonEmpty(o.name), email: nonEmpty(o.email) });
}

// ---------------------------------------------------------------- notes and tasks (attached to one resource)

/** The unified references of a resource (`resource_type`, `resource_id`): organizations are companies. */
export function resourceRefs(o: SellObject, organizations: Set<string>, ids: IdOf) {
  const id = idText(o.resource_id);
  const type = o.resource_type;
  return {
    company_id: type === 'contact' && id && organizations.has(id) ? ids('crm.company', id) : null,
    contact_id: type === 'contact' && id && !organizations.has(id) ? ids('crm.contact', id) : null,
    deal_id: type === 'deal' ? ids('crm.deal', id) : null,
  };
}

/** The one resource a note or task is attached to. */
export function writeResource(input: CrmWrite, create: boolean, what: string): Record<string, unknown> {
  const given = ['deal_id', 'contact_id', 'company_id'].filter((f) => has(input, f) && input[f] !== null);
  if (given.length > 1) throw unsupported(given[1]!, `a Zendesk Sell ${what} is attached to one of deal_id, contact_id, company_id; give one`);
  const f = given[0];
  if (!f) {
    if (create && what === 'note') throw required('contact_id', 'a Zendesk Sell note is attached to a contact, company or deal');
    return {};
  }
  return { resource_type: f === 'deal_id' ? 'deal' : 'contact', resource_id: sellId(input[f], f) };
}

export function unifyNote(o: SellObject, organizations: Set<string>, ids: IdOf): UnifiedRecord {
  return base('crm.note', o, { content: nonEmpty(o.content), user_id: ids('crm.user', idText(o.creator_id)), ...resourceRefs(o, organizations, ids) });
}

export function desunifyNote(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'content')) body.content = input.content;
  if (create && !nonEmpty(body.content)) throw required('content', 'a Zendesk Sell note needs content');
  if (has(input, 'user_id')) throw unsupported('user_id', 'a Zendesk Sell note’s author is the token’s user (creator_id, read only)');
  Object.assign(body, writeResource(input, create, 'note'));
  return body;
}

export function unifyTask(o: SellObject, organizations: Set<string>, ids: IdOf): UnifiedRecord {
  const content = nonEmpty(o.content);
  return base('crm.task', o, {
    subject: content ? content.split('\n')[0]!.slice(0, 255) : null,
    content,
    status: o.completed === true ? 'COMPLETED' : 'PENDING',
    due_date: toIso(o.due_date),
    finished_date: toIso(o.completed_at),
    user_id: ids('crm.user', idText(o.owner_id)),
    ...resourceRefs(o, organizations, ids),
  });
}

export function desunifyTask(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const subject = has(input, 'subject') ? nonEmpty(input.subject) : null;
  const content = has(input, 'content') ? nonEmpty(input.content) : null;
  if (subject && content && !content.startsWith(subject)) throw unsupported('subject', 'a Zendesk Sell task has one text (content): give the subject as the content’s first line, or only one of them');
  if (has(input, 'content') || has(input, 'subject')) body.content = content ?? subject;
  if (create && !nonEmpty(body.content)) throw required('content', 'a Zendesk Sell task needs content');
  if (has(input, 'status')) body.completed = input.status === 'COMPLETED';
  if (has(input, 'due_date')) body.due_date = input.due_date === null ? null : new Date(String(input.due_date)).toISOString();
  if (has(input, 'finished_date')) throw unsupported('finished_date', 'Zendesk Sell sets a task’s completion time itself (completed_at); set status COMPLETED');
  if (has(input, 'user_id')) body.owner_id = input.user_id === null ? null : sellId(input.user_id, 'user_id');
  Object.assign(body, writeResource(input, create, 'task'));
  return body;
}

// ---------------------------------------------------------------- calls (engagements)

export function unifyCall(o: SellObject, organizations: Set<string>, ids: IdOf): UnifiedRecord {
  const start = toIso(o.made_at);
  const seconds = typeof o.duration === 'number' ? o.duration : null;
  const refs = resourceRefs(o, organizations, ids);
  return base('crm.engagement', o, {
    type: 'CALL',
    subject: null,
    content: nonEmpty(o.summary),
    direction: o.incoming === true ? 'INBOUND' : o.incoming === false ? 'OUTBOUND' : null,
    start_at: start,
    end_time: start && seconds !== null ? new Date(Date.parse(start) + seconds * 1000).toISOString() : null,
    user_id: ids('crm.user', idText(o.user_id)),
    company_id: refs.company_id,
    contact_ids: refs.contact_id ? [refs.contact_id] : [],
  });
}

/** A call's fields; `phone` is the number called (Sell requires one: the contact's, when not given). */
export function desunifyCall(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'type') && input.type !== 'CALL') throw unsupported('type', 'Zendesk Sell engagements are calls (CALL): meetings and emails are not in the Core API', { allowed: ['CALL'] });
  if (!create) {
    const other = ['subject', 'content', 'direction', 'start_at', 'end_time', 'user_id', 'company_id'].find((f) => has(input, f));
    if (other) throw unsupported(other, 'an update of a Zendesk Sell call changes only its contact (contact_ids)');
  } else {
    if (has(input, 'subject') && input.subject !== null) throw unsupported('subject', 'Zendesk Sell calls have no subject (content is the call summary)');
    if (has(input, 'content')) body.summary = input.content;
    if (has(input, 'direction')) body.incoming = input.direction === 'INBOUND';
    if (has(input, 'start_at')) body.made_at = new Date(String(input.start_at)).toISOString();
    if (has(input, 'end_time')) {
      if (!has(input, 'start_at')) throw unsupported('end_time', 'a Zendesk Sell call keeps a duration from its start: give start_at too');
      const seconds = Math.round((Date.parse(String(input.end_time)) - Date.parse(String(input.start_at))) / 1000);
      if (!(seconds >= 0)) throw new AppError('validation_failed', 'end_time: must not be before start_at', { field: 'end_time' });
      body.duration = seconds;
    } else body.duration = 0;
    if (has(input, 'user_id')) body.user_id = input.user_id === null ? null : sellId(input.user_id, 'user_id');
    if (has(input, 'company_id') && input.company_id !== null) throw unsupported('company_id', 'a Zendesk Sell call is linked to one contact (contact_ids)');
  }
  if (has(input, 'contact_ids')) {
    const list = (input.contact_ids as string[] | null) ?? [];
    if (list.length > 1) throw unsupported('contact_ids', 'a Zendesk Sell call is linked to one contact', { max: 1 });
    Object.assign(body, list[0] ? { resource_type: 'contact', resource_id: sellId(list[0], 'contact_ids') } : { resource_type: null, resource_id: null });
  }
  return body;
}
