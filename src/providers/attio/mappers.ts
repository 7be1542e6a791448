/**
 * Attio records ↔ unified CRM objects: people (contacts), companies, deals, deal stage statuses, workspace
 * members (users), notes and tasks. Mapping tables: docs/providers/attio.md.
 */
import type { Address, Email, Phone } from '../../core/unified/crm';
import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import { decimalToNumber, numberToDecimal } from '../decimals';
import { first, required, unsupported, uuid, valuesOf, type AttioObject, type AttioRecord, type AttioValue } from './api';
import { has, nonEmpty } from '../kit';

const date = (v: unknown): Date | null => {
  const d = typeof v === 'string' ? new Date(v.replace(/(\.\d{3})\d+/, '$1')) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};
const record = (objectType: string, r: AttioRecord, data: Record<string, unknown>): UnifiedRecord => ({
  objectType,
  remoteId: r.id.record_id,
  data,
  remoteData: r as unknown as Record<string, unknown>,
  remoteCreatedAt: date(r.created_at),
  // Attio keeps no last-modified time on records.
  remoteUpdatedAt: null,
});
const ref = (object: AttioObject, id: unknown, field: string) => ({ target_object: object, target_record_id: uuid(id, field) });

function readAddress(v: AttioValue | undefined, owner: string) {
  if (!v) return [];
  const out = { street_1: nonEmpty(v.line_1), street_2: nonEmpty(v.line_2), city: nonEmpty(v.locality), state: nonEmpty(v.region), postal_code: nonEmpty(v.postcode), country: nonEmpty(v.country_code), address_type: 'WORK', owner_type: owner };
  return [out.street_1, out.street_2, out.city, out.state, out.postal_code, out.country].some((x) => x !== null) ? [out] : [];
}

function writeAddress(list: Address[]): unknown[] {
  if (list.length > 1) throw unsupported('addresses', 'an Attio record has one address (primary_location)', { max: 1 });
  return list.map((a) => {
    if (a.country && !/^[A-Za-z]{2}$/.test(a.country)) throw unsupported('addresses[0].country', 'Attio takes the country as an ISO 3166-1 alpha-2 code (e.g. US)');
    return { line_1: a.street_1 ?? null, line_2: a.street_2 ?? null, line_3: null, line_4: null, locality: a.city ?? null, region: a.state ?? null, postcode: a.postal_code ?? null, country_code: a.country?.toUpperCase() ?? null, latitude: null, longitude: null };
  });
}

// ---------------------------------------------------------------- contacts (people)

export function unifyPerson(r: AttioRecord, ids: IdOf): UnifiedRecord {
  const name = first(r, 'name');
  return record('crm.contact', r, {
    first_name: nonEmpty(name?.first_name),
    last_name: nonEmpty(name?.last_name),
    email_addresses: valuesOf(r, 'email_addresses').map((e) => ({ email_address: String(e.original_email_address ?? e.email_address), email_address_type: 'WORK', owner_type: 'CONTACT' })),
    phone_numbers: valuesOf(r, 'phone_numbers').map((p) => ({ phone_number: String(p.original_phone_number ?? p.phone_number), phone_type: 'WORK', owner_type: 'CONTACT' })),
    addresses: readAddress(first(r, 'primary_location'), 'CONTACT'),
    user_id: null,
    company_id: ids('crm.company', nonEmpty(first(r, 'company')?.target_record_id)),
  });
}

export function desunifyPerson(input: CrmWrite, current: AttioRecord | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (has(input, 'first_name') || has(input, 'last_name')) {
    const now = current ? first(current, 'name') : undefined;
    const f = has(input, 'first_name') ? String(input.first_name ?? '') : String(now?.first_name ?? '');
    const l = has(input, 'last_name') ? String(input.last_name ?? '') : String(now?.last_name ?? '');
    values.name = [{ first_name: f, last_name: l, full_name: [f, l].filter(Boolean).join(' ') }];
  }
  if (has(input, 'email_addresses')) values.email_addresses = (input.email_addresses as Email[]).map((e) => ({ email_address: e.email_address }));
  if (has(input, 'phone_numbers')) values.phone_numbers = (input.phone_numbers as Phone[]).map((p) => ({ original_phone_number: p.phone_number }));
  if (has(input, 'addresses')) values.primary_location = writeAddress(input.addresses as Address[]);
  if (has(input, 'user_id')) throw unsupported('user_id', 'Attio people have no owner');
  if (has(input, 'company_id')) values.company = input.company_id === null ? [] : [ref('companies', input.company_id, 'company_id')];
  return values;
}

// ---------------------------------------------------------------- companies

export function unifyCompany(r: AttioRecord): UnifiedRecord {
  return record('crm.company', r, {
    name: nonEmpty(first(r, 'name')?.value),
    industry: null,
    number_of_employees: null,
    email_addresses: [],
    phone_numbers: [],
    addresses: readAddress(first(r, 'primary_location'), 'COMPANY'),
    user_id: null,
  });
}

export function desunifyCompany(input: CrmWrite): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (has(input, 'name')) values.name = input.name === null ? [] : [String(input.name)];
  if (has(input, 'addresses')) values.primary_location = writeAddress(input.addresses as Address[]);
  for (const [field, what] of [['industry', 'industry'], ['number_of_employees', 'employee count (only ranges)'], ['user_id', 'owner']] as const) {
    if (has(input, field)) throw unsupported(field, `Attio companies have no ${what} here`);
  }
  for (const field of ['email_addresses', 'phone_numbers'] as const) {
    if (has(input, field) && (input[field] as unknown[]).length > 0) throw unsupported(field, 'Attio keeps email addresses and phone numbers on people');
  }
  return values;
}

// ---------------------------------------------------------------- deals

export function unifyDeal(r: AttioRecord, ids: IdOf): UnifiedRecord {
  const value = first(r, 'value');
  const stage = first(r, 'stage')?.status as { id?: { status_id?: string } } | undefined;
  return record('crm.deal', r, {
    name: nonEmpty(first(r, 'name')?.value),
    description: null,
    amount: numberToDecimal(value?.currency_value),
    currency: nonEmpty(value?.currency_code),
    stage_id: ids('crm.stage', stage?.id?.status_id ?? null),
    user_id: ids('crm.user', nonEmpty(first(r, 'owner')?.referenced_actor_id)),
    company_id: ids('crm.company', nonEmpty(first(r, 'associated_company')?.target_record_id)),
    contact_ids: valuesOf(r, 'associated_people').map((v) => ids('crm.contact', String(v.target_record_id))!),
    close_date: null,
  });
}

export function desunifyDeal(input: CrmWrite, create: boolean, currency: string | null): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (has(input, 'name')) values.name = [String(input.name)];
  if (has(input, 'description')) throw unsupported('description', 'Attio deals have no description');
  if (has(input, 'close_date')) throw unsupported('close_date', 'Attio deals have no close date');
  if (has(input, 'currency') && input.currency !== currency) {
    throw unsupported('currency', `Attio keeps deal values in the currency of the value attribute (${currency ?? 'none set'})`, { allowed: currency ? [currency] : [] });
  }
  if (has(input, 'amount')) values.value = input.amount === null ? [] : [{ currency_value: decimalToNumber(String(input.amount), 'amount', { provider: 'attio', displayName: 'Attio', maxDecimals: 4 }) }];
  if (has(input, 'stage_id')) values.stage = [{ status: uuid(input.stage_id, 'stage_id') }];
  if (has(input, 'user_id')) values.owner = [{ referenced_actor_type: 'workspace-member', referenced_actor_id: uuid(input.user_id, 'user_id') }];
  if (has(input, 'company_id')) values.associated_company = input.company_id === null ? [] : [ref('companies', input.company_id, 'company_id')];
  if (has(input, 'contact_ids')) values.associated_people = (input.contact_ids as string[]).map((id) => ref('people', id, 'contact_ids'));
  if (create) {
    if (!values.name) throw required('name', 'Attio requires a deal name');
    if (!values.stage) throw required('stage_id', 'Attio requires a deal stage');
    if (!values.owner) throw required('user_id', 'Attio requires a deal owner');
  }
  return values;
}

// ---------------------------------------------------------------- stages, users

export function unifyStatus(s: { id: { status_id: string }; title?: string }): UnifiedRecord {
  return { objectType: 'crm.stage', remoteId: s.id.status_id, data: { name: nonEmpty(s.title), pipeline_id: null, pipeline_name: null }, remoteData: s as unknown as Record<string, unknown>, remoteCreatedAt: null, remoteUpdatedAt: null };
}

export function unifyMember(m: { id: { workspace_member_id: string }; first_name?: string; last_name?: string; email_address?: string; created_at?: string }): UnifiedRecord {
  return {
    objectType: 'crm.user',
    remoteId: m.id.workspace_member_id,
    data: { name: [m.first_name, m.last_name].filter((x) => nonEmpty(x)).join(' ') || null, email: nonEmpty(m.email_address) },
    remoteData: m as unknown as Record<string, unknown>,
    remoteCreatedAt: date(m.created_at),
    remoteUpdatedAt: null,
  };
}

// ---------------------------------------------------------------- notes, tasks

const TYPE_OF: Record<string, string> = { people: 'crm.contact', companies: 'crm.company', deals: 'crm.deal' };
const FIELD_OF: Record<string, string> = { people: 'contact_id', companies: 'company_id', deals: 'deal_id' };

export interface AttioNote {
  id: { note_id: string };
  parent_object?: string;
  parent_record_id?: string;
  title?: string;
  content_plaintext?: string;
  created_by_actor?: { type?: string | null; id?: string | null };
  created_at?: string;
}

export function unifyNote(n: AttioNote, ids: IdOf): UnifiedRecord {
  const data: Record<string, unknown> = { content: nonEmpty(n.content_plaintext) ?? nonEmpty(n.title), user_id: n.created_by_actor?.type === 'workspace-member' ? ids('crm.user', n.created_by_actor.id ?? null) : null, company_id: null, contact_id: null, deal_id: null };
  const field = FIELD_OF[n.parent_object ?? ''];
  if (field) data[field] = ids(TYPE_OF[n.parent_object!]!, n.parent_record_id ?? null);
  return { objectType: 'crm.note', remoteId: n.id.note_id, data, remoteData: n as unknown as Record<string, unknown>, remoteCreatedAt: date(n.created_at), remoteUpdatedAt: null };
}

export function desunifyNote(input: CrmWrite): Record<string, unknown> {
  if (has(input, 'user_id')) throw unsupported('user_id', 'an Attio note’s author is the token that writes it');
  const parents = (['deal_id', 'contact_id', 'company_id'] as const).filter((f) => has(input, f));
  if (parents.length > 1) throw unsupported(parents[1]!, 'an Attio note belongs to one record: give one of deal_id, contact_id, company_id');
  if (parents.length === 0) throw required('company_id', 'an Attio note belongs to a record: give deal_id, contact_id or company_id');
  const object = ({ deal_id: 'deals', contact_id: 'people', company_id: 'companies' } as const)[parents[0]!];
  const content = String(input.content ?? '');
  return { parent_object: object, parent_record_id: uuid(input[parents[0]!], parents[0]!), title: content.split('\n')[0]!.slice(0, 200), format: 'plaintext', content };
}

export interface AttioTask {
  id: { task_id: string };
  content_plaintext?: string;
  deadline_at?: string | null;
  is_completed?: boolean;
  linked_records?: { target_object_id: string; target_record_id: string }[];
  assignees?: { referenced_actor_type?: string; referenced_actor_id?: string | null }[];
  created_at?: string;
}

export function unifyTask(t: AttioTask, ids: IdOf, slugs: Map<string, string>): UnifiedRecord {
  const linked = (object: string) => (t.linked_records ?? []).find((l) => (slugs.get(l.target_object_id) ?? l.target_object_id) === object)?.target_record_id ?? null;
  const assignee = (t.assignees ?? []).find((a) => a.referenced_actor_type === 'workspace-member');
  return {
    objectType: 'crm.task',
    remoteId: t.id.task_id,
    data: {
      subject: nonEmpty(t.content_plaintext),
      content: null,
      status: t.is_completed ? 'COMPLETED' : 'PENDING',
      due_date: date(t.deadline_at)?.toISOString() ?? null,
      finished_date: null,
      user_id: ids('crm.user', assignee?.referenced_actor_id ?? null),
      company_id: ids('crm.company', linked('companies')),
      contact_id: ids('crm.contact', linked('people')),
      deal_id: ids('crm.deal', linked('deals')),
    },
    remoteData: t as unknown as Record<string, unknown>,
    remoteCreatedAt: date(t.created_at),
    remoteUpdatedAt: null,
  };
}

export function desunifyTask(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'subject')) {
    if (!create) throw unsupported('subject', 'the text of an Attio task cannot change after creation');
    Object.assign(body, { content: input.subject, format: 'plaintext' });
  }
  if (has(input, 'content')) throw unsupported('content', 'an Attio task has one text: use subject');
  if (has(input, 'finished_date')) throw unsupported('finished_date', 'Attio keeps no completion date on tasks; set status COMPLETED');
  if (has(input, 'status')) body.is_completed = input.status === 'COMPLETED';
  if (has(input, 'due_date')) body.deadline_at = input.due_date;
  if (has(input, 'user_id')) body.assignees = input.user_id === null ? [] : [{ referenced_actor_type: 'workspace-member', referenced_actor_id: uuid(input.user_id, 'user_id') }];
  const links = ([['company_id', 'companies'], ['contact_id', 'people'], ['deal_id', 'deals']] as const).filter(([f]) => has(input, f) && input[f] !== null);
  if (links.length) body.linked_records = links.map(([f, object]) => ref(object, input[f], f));
  if (create) {
    body.assignees ??= [];
    body.linked_records ??= [];
    body.deadline_at ??= null;
    body.is_completed ??= false;
  }
  return body;
}
