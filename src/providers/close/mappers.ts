/**
 * Close objects ↔ unified CRM objects. Companies are Close leads, deals are opportunities, tasks are lead
 * tasks, notes and engagements (calls, meetings) are activities. Mapping tables: docs/providers/close.md.
 */
import { AppError } from '../../core/errors';
import type { Address, AddressFields, Email, EmailFields, Phone, PhoneFields } from '../../core/unified/crm';
import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import type { CloseActivity, CloseAddress, CloseContact, CloseEmail, CloseLead, CloseOpportunity, ClosePhone, CloseStatus, CloseTask, CloseUser } from './types';
import { asRecord, centsToDecimal, closeId, decimalToCents, has, needLead, nonEmpty, toDate, toIso, unsupported } from './util';

const invert = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [v, k])) as Record<string, string>;

/** Unified type → Close type, and back (Close's `direct` reads as WORK, unknown types as OTHER). */
const EMAIL_TYPES: Record<string, string> = { WORK: 'office', PERSONAL: 'home', OTHER: 'other' };
const PHONE_TYPES: Record<string, string> = { WORK: 'office', MOBILE: 'mobile', HOME: 'home', FAX: 'fax', OTHER: 'other' };
const ADDRESS_LABELS: Record<string, string> = { WORK: 'business', BILLING: 'mailing', OTHER: 'other' };
const EMAIL_BACK: Record<string, string> = { ...invert(EMAIL_TYPES), direct: 'WORK' };
const PHONE_BACK: Record<string, string> = { ...invert(PHONE_TYPES), direct: 'WORK' };
const ADDRESS_BACK = invert(ADDRESS_LABELS);

const stamps = (o: { date_created?: string | null; date_updated?: string | null }) => ({
  remoteCreatedAt: toDate(o.date_created),
  remoteUpdatedAt: toDate(o.date_updated),
});

// ---------------------------------------------------------------- contacts

function unifyEmails(list: CloseEmail[] | null | undefined): EmailFields[] {
  return (list ?? [])
    .filter((e) => e && nonEmpty(e.email))
    .map((e) => ({ email_address: e.email!, email_address_type: EMAIL_BACK[e.type ?? ''] ?? 'OTHER', owner_type: 'CONTACT' }));
}

function unifyPhones(list: ClosePhone[] | null | undefined): PhoneFields[] {
  return (list ?? [])
    .filter((p) => p && nonEmpty(p.phone))
    .map((p) => ({ phone_number: p.phone!, phone_type: PHONE_BACK[p.type ?? ''] ?? 'OTHER', owner_type: 'CONTACT' }));
}

/** First word, then the rest: Close keeps one `name`. */
export function splitName(name: string | null | undefined): { first: string | null; last: string | null } {
  const s = (name ?? '').trim();
  if (!s) return { first: null, last: null };
  const i = s.search(/\s/);
  return i < 0 ? { first: s, last: null } : { first: s.slice(0, i), last: s.slice(i).trim() || null };
}

export function unifyContact(c: CloseContact, ids: IdOf): UnifiedRecord {
  const { first, last } = splitName(c.name);
  return {
    objectType: 'crm.contact',
    remoteId: c.id,
    data: {
      first_name: first,
      last_name: last,
      email_addresses: unifyEmails(c.emails),
      phone_numbers: unifyPhones(c.phones),
      addresses: [],
      user_id: null,
      company_id: ids('crm.company', c.lead_id),
    },
    remoteData: asRecord(c),
    ...stamps(c),
  };
}

export function desunifyContact(input: CrmWrite, current: { name?: string | null } | undefined, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (create || has(input, 'first_name') || has(input, 'last_name')) {
    const now = splitName(current?.name);
    const first = has(input, 'first_name') ? String(input.first_name) : (now.first ?? '');
    const last = has(input, 'last_name') ? String(input.last_name) : (now.last ?? '');
    const name = [first, last].map((s) => s.trim()).filter(Boolean).join(' ');
    if (!name && create) {
      const message = 'Close needs a contact name; give first_name or last_name';
      throw new AppError('validation_failed', `first_name: ${message}`, { field: 'first_name', issues: [{ path: 'first_name', message }] });
    }
    body.name = name;
  }
  if (has(input, 'email_addresses')) {
    body.emails = (input.email_addresses as Email[]).map((e, i) => {
      const type = EMAIL_TYPES[e.email_address_type ?? 'WORK'];
      if (!type) throw unsupported(`email_addresses[${i}].email_address_type`, `Close has no ${e.email_address_type} email type`, { allowed: Object.keys(EMAIL_TYPES) });
      return { email: e.email_address, type };
    });
  }
  if (has(input, 'phone_numbers')) {
    body.phones = (input.phone_numbers as Phone[]).map((p, i) => {
      const type = PHONE_TYPES[p.phone_type ?? 'WORK'];
      if (!type) throw unsupported(`phone_numbers[${i}].phone_type`, `Close has no ${p.phone_type} phone type`, { allowed: Object.keys(PHONE_TYPES) });
      return { phone: p.phone_number, type };
    });
  }
  if (has(input, 'addresses') && (input.addresses as unknown[]).length > 0) {
    throw unsupported('addresses', 'Close contacts have no addresses (their lead, the company, has them)');
  }
  if (has(input, 'user_id')) throw unsupported('user_id', 'Close contacts have no owner');
  if (has(input, 'company_id')) {
    if (!create) throw unsupported('company_id', 'a Close contact cannot move to another lead');
    body.lead_id = closeId(input.company_id, 'company_id');
  }
  return body;
}

// ---------------------------------------------------------------- companies (leads)

function unifyAddress(a: CloseAddress): AddressFields | null {
  const out: AddressFields = {
    street_1: nonEmpty(a.address_1),
    street_2: nonEmpty(a.address_2),
    city: nonEmpty(a.city),
    state: nonEmpty(a.state),
    postal_code: nonEmpty(a.zipcode),
    country: nonEmpty(a.country),
    address_type: ADDRESS_BACK[a.label ?? ''] ?? 'OTHER',
    owner_type: 'COMPANY',
  };
  return [out.street_1, out.street_2, out.city, out.state, out.postal_code, out.country].some((v) => v !== null) ? out : null;
}

export function unifyLead(l: CloseLead): UnifiedRecord {
  return {
    objectType: 'crm.company',
    remoteId: l.id,
    data: {
      name: nonEmpty(l.name) ?? nonEmpty(l.display_name),
      industry: null,
      number_of_employees: null,
      email_addresses: [],
      phone_numbers: [],
      addresses: (l.addresses ?? []).filter(Boolean).map(unifyAddress).filter((a): a is AddressFields => a !== null),
      user_id: null,
    },
    remoteData: asRecord(l),
    ...stamps(l),
  };
}

export function desunifyLead(input: CrmWrite): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.name = input.name;
  for (const [field, what] of [
    ['industry', 'an industry'],
    ['number_of_employees', 'an employee count'],
    ['user_id', 'an owner'],
  ] as const) {
    if (has(input, field)) throw unsupported(field, `Close leads have no ${what.replace(/^an? /, '')}`);
  }
  for (const field of ['email_addresses', 'phone_numbers'] as const) {
    if (has(input, field) && (input[field] as unknown[]).length > 0) {
      throw unsupported(field, 'Close keeps email addresses and phone numbers on contacts, not on leads');
    }
  }
  if (has(input, 'addresses')) {
    body.addresses = (input.addresses as Address[]).map((a, i) => {
      const label = ADDRESS_LABELS[a.address_type ?? 'WORK'];
      if (!label) throw unsupported(`addresses[${i}].address_type`, `Close has no ${a.address_type} address label`, { allowed: Object.keys(ADDRESS_LABELS) });
      return { label, address_1: a.street_1 ?? null, address_2: a.street_2 ?? null, city: a.city ?? null, state: a.state ?? null, zipcode: a.postal_code ?? null, country: a.country ?? null };
    });
  }
  return body;
}

// ---------------------------------------------------------------- deals (opportunities)

export function unifyOpportunity(o: CloseOpportunity, ids: IdOf): UnifiedRecord {
  return {
    objectType: 'crm.deal',
    remoteId: o.id,
    data: {
      name: nonEmpty(o.note)?.split('\n')[0] ?? null,
      description: nonEmpty(o.note),
      amount: typeof o.value === 'number' && Number.isSafeInteger(o.value) ? centsToDecimal(o.value) : null,
      currency: nonEmpty(o.value_currency),
      stage_id: ids('crm.stage', o.status_id),
      user_id: ids('crm.user', o.user_id),
      company_id: ids('crm.company', o.lead_id),
      contact_ids: o.contact_id ? [ids('crm.contact', o.contact_id)!] : [],
      close_date: nonEmpty(o.date_won),
    },
    remoteData: asRecord(o),
    ...stamps(o),
  };
}

/**
 * crm.deal → Close opportunity. Close opportunities have no name: the name is the first line of the
 * opportunity's `note` and the description the lines after it, so both read back as written.
 */
export function desunifyOpportunity(input: CrmWrite, current: CloseOpportunity | undefined, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name') || has(input, 'description')) {
    const was = (current?.note ?? '').split('\n');
    const name = has(input, 'name') ? String(input.name) : (was[0] ?? '');
    if (name.includes('\n')) throw unsupported('name', 'a Close opportunity name is the first line of its note: one line only');
    const description = has(input, 'description') ? String(input.description ?? '') : was.slice(1).join('\n');
    body.note = description ? `${name}\n${description}` : name;
  }
  if (has(input, 'amount')) body.value = decimalToCents(String(input.amount), 'amount');
  if (has(input, 'currency')) body.value_currency = input.currency;
  if (has(input, 'amount') && create) body.value_period = 'one_time';
  if (has(input, 'stage_id')) body.status_id = closeId(input.stage_id, 'stage_id');
  if (has(input, 'user_id')) body.user_id = closeId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.lead_id = closeId(input.company_id, 'company_id');
  else if (create) throw needLead('company_id', 'opportunity');
  if (has(input, 'contact_ids')) {
    const list = input.contact_ids as string[];
    if (list.length > 1) throw unsupported('contact_ids', 'a Close opportunity has one contact; send at most one id', { max: 1 });
    body.contact_id = list.length ? closeId(list[0], 'contact_ids') : null;
  }
  if (has(input, 'close_date')) body.date_won = String(input.close_date).slice(0, 10);
  return body;
}

// ---------------------------------------------------------------- stages, users

export function unifyStatus(s: CloseStatus, pipeline: { id: string; name?: string | null }): UnifiedRecord {
  return {
    objectType: 'crm.stage',
    remoteId: s.id,
    data: { name: nonEmpty(s.label), pipeline_id: pipeline.id, pipeline_name: nonEmpty(pipeline.name) },
    remoteData: asRecord(s),
    remoteCreatedAt: null,
    remoteUpdatedAt: null,
  };
}

export function unifyUser(u: CloseUser): UnifiedRecord {
  const name = [u.first_name, u.last_name].filter((p) => nonEmpty(p)).join(' ');
  return {
    objectType: 'crm.user',
    remoteId: u.id,
    data: { name: name || null, email: nonEmpty(u.email) },
    remoteData: asRecord(u),
    ...stamps(u),
  };
}

// ---------------------------------------------------------------- notes, tasks

export function unifyNote(n: CloseActivity, ids: IdOf): UnifiedRecord {
  return {
    objectType: 'crm.note',
    remoteId: n.id,
    data: {
      content: nonEmpty(n.note),
      user_id: ids('crm.user', n.user_id),
      company_id: ids('crm.company', n.lead_id),
      contact_id: ids('crm.contact', n.contact_id),
      deal_id: null,
    },
    remoteData: asRecord(n),
    ...stamps(n),
  };
}

/** Where a note, task or call goes: its lead (company_id, else the contact's lead, resolved by the caller). */
function refs(input: CrmWrite, body: Record<string, unknown>) {
  if (has(input, 'company_id')) body.lead_id = closeId(input.company_id, 'company_id');
  if (has(input, 'contact_id')) body.contact_id = closeId(input.contact_id, 'contact_id');
}

export function desunifyNote(input: CrmWrite): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'content')) body.note = input.content;
  if (has(input, 'user_id')) body.user_id = closeId(input.user_id, 'user_id');
  if (has(input, 'deal_id')) throw unsupported('deal_id', 'Close notes belong to a lead (and a contact), not to an opportunity');
  refs(input, body);
  return body;
}

export function unifyTask(t: CloseTask, ids: IdOf): UnifiedRecord {
  return {
    objectType: 'crm.task',
    remoteId: t.id,
    data: {
      subject: nonEmpty(t.text),
      content: null,
      status: t.is_complete === true ? 'COMPLETED' : 'PENDING',
      due_date: toIso(t.date),
      finished_date: null,
      user_id: ids('crm.user', t.assigned_to),
      company_id: ids('crm.company', t.lead_id),
      contact_id: ids('crm.contact', t.contact_id),
      deal_id: null,
    },
    remoteData: asRecord(t),
    ...stamps(t),
  };
}

export function desunifyTask(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = create ? { _type: 'lead' } : {};
  if (has(input, 'subject')) body.text = input.subject;
  if (has(input, 'content')) throw unsupported('content', 'a Close task has one text: use subject');
  if (has(input, 'status')) body.is_complete = input.status === 'COMPLETED';
  if (has(input, 'due_date')) body.date = input.due_date;
  if (has(input, 'finished_date')) throw unsupported('finished_date', 'Close keeps no completion date on tasks; set status COMPLETED');
  if (has(input, 'user_id')) body.assigned_to = closeId(input.user_id, 'user_id');
  if (has(input, 'deal_id')) throw unsupported('deal_id', 'Close tasks belong to a lead, not to an opportunity');
  if (has(input, 'contact_id')) throw unsupported('contact_id', 'Close lead tasks are not linked to a contact; give company_id');
  if (has(input, 'company_id')) body.lead_id = closeId(input.company_id, 'company_id');
  return body;
}

// ---------------------------------------------------------------- engagements (calls, meetings)

const plusSeconds = (iso: string | null, s: number | null | undefined) =>
  iso && typeof s === 'number' && Number.isFinite(s) ? new Date(new Date(iso).getTime() + s * 1000).toISOString() : null;

export function unifyActivityEngagement(a: CloseActivity, ids: IdOf): UnifiedRecord {
  const meeting = a._type === 'Meeting';
  const start = meeting ? toIso(a.starts_at) : toIso(a.activity_at);
  const contacts = meeting
    ? [...new Set((a.attendees ?? []).map((x) => x?.contact_id).filter((x): x is string => Boolean(x)))]
    : a.contact_id ? [a.contact_id] : [];
  return {
    objectType: 'crm.engagement',
    remoteId: a.id,
    data: {
      type: meeting ? 'MEETING' : 'CALL',
      subject: meeting ? nonEmpty(a.title) : null,
      content: nonEmpty(a.note),
      direction: a.direction === 'inbound' ? 'INBOUND' : a.direction === 'outbound' ? 'OUTBOUND' : null,
      start_at: start,
      end_time: meeting ? toIso(a.ends_at) : plusSeconds(start, a.duration),
      user_id: ids('crm.user', a.user_id),
      company_id: ids('crm.company', a.lead_id),
      contact_ids: contacts.map((id) => ids('crm.contact', id)!),
    },
    remoteData: asRecord(a),
    ...stamps(a),
  };
}

/** crm.engagement (calls only) → Close call activity; `end_time` becomes the duration in seconds. */
export function desunifyCall(input: CrmWrite, currentStart: string | null): Record<string, unknown> {
  if (has(input, 'type') && input.type !== 'CALL') {
    throw unsupported('type', `Close engagements written through the API are calls; ${String(input.type)} is read only`, { allowed: ['CALL'] });
  }
  if (has(input, 'subject')) throw unsupported('subject', 'Close calls have no subject');
  const body: Record<string, unknown> = {};
  if (has(input, 'content')) body.note = input.content;
  if (has(input, 'direction')) body.direction = String(input.direction).toLowerCase();
  const start = has(input, 'start_at') ? String(input.start_at) : currentStart;
  if (has(input, 'start_at')) body.activity_at = input.start_at;
  if (has(input, 'end_time')) {
    if (!start) throw unsupported('end_time', 'a Close call keeps a duration from its start: give start_at too');
    const seconds = Math.round((new Date(String(input.end_time)).getTime() - new Date(start).getTime()) / 1000);
    if (!(seconds >= 0)) throw new AppError('validation_failed', 'end_time: must not be before start_at', { field: 'end_time' });
    body.duration = seconds;
  }
  if (has(input, 'user_id')) body.user_id = closeId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.lead_id = closeId(input.company_id, 'company_id');
  if (has(input, 'contact_ids')) {
    const list = input.contact_ids as string[];
    if (list.length > 1) throw unsupported('contact_ids', 'a Close call has one contact; send at most one id', { max: 1 });
    body.contact_id = list.length ? closeId(list[0], 'contact_ids') : null;
  }
  return body;
}
