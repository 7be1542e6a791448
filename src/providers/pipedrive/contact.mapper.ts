import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { Address, Email, EmailFields, Phone, PhoneFields } from '../../core/unified/crm';
import type { CrmWrite, UnifiedRecord } from '../types';
import { desunifyAddresses, unifyAddress } from './address';
import type { PdContactPoint, PdPerson } from './types';
import { asRecord, has, nonEmpty, pdId, toDate, unsupported } from './util';

/** Unified email type → Pipedrive email label, and back (unknown labels read as OTHER). */
export const EMAIL_LABELS = { WORK: 'work', PERSONAL: 'home', OTHER: 'other' } as const;
/** Unified phone type → Pipedrive phone label, and back (unknown labels read as OTHER; no FAX). */
export const PHONE_LABELS = { MOBILE: 'mobile', WORK: 'work', HOME: 'home', OTHER: 'other' } as const;

const invert = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [v, k])) as Record<string, string>;
const EMAIL_TYPE_OF = invert(EMAIL_LABELS);
const PHONE_TYPE_OF = invert(PHONE_LABELS);

/** Pipedrive's postal address of a person is untyped; it is read back as PERSONAL. */
export const CONTACT_ADDRESS_TYPE = 'PERSONAL';

/** Primary entries first, then the others in Pipedrive's order; empty values dropped. */
function ordered(points: PdContactPoint[] | null | undefined): PdContactPoint[] {
  const list = (Array.isArray(points) ? points : []).filter((p) => p && typeof p.value === 'string' && p.value.trim() !== '');
  return [...list.filter((p) => p.primary === true), ...list.filter((p) => p.primary !== true)];
}

const labelType = (label: unknown, map: Record<string, string>) => (typeof label === 'string' ? (map[label.toLowerCase()] ?? 'OTHER') : 'OTHER');

export function unifyEmails(points: PdContactPoint[] | null | undefined, ownerType: string): EmailFields[] {
  return ordered(points).map((p) => ({ email_address: p.value!, email_address_type: labelType(p.label, EMAIL_TYPE_OF), owner_type: ownerType }));
}

export function unifyPhones(points: PdContactPoint[] | null | undefined, ownerType: string): PhoneFields[] {
  return ordered(points).map((p) => ({ phone_number: p.value!, phone_type: labelType(p.label, PHONE_TYPE_OF), owner_type: ownerType }));
}

/** Unified emails → Pipedrive `emails`: the first is primary; no type → Pipedrive's default label (work). */
export function desunifyEmails(list: Email[]): PdContactPoint[] {
  return list.map((e, i) => ({
    value: e.email_address,
    primary: i === 0,
    ...(e.email_address_type ? { label: EMAIL_LABELS[e.email_address_type as keyof typeof EMAIL_LABELS] } : {}),
  }));
}

export function desunifyPhones(list: Phone[], field = 'phone_numbers'): PdContactPoint[] {
  return list.map((p, i) => {
    let label: string | undefined;
    if (p.phone_type) {
      label = PHONE_LABELS[p.phone_type as keyof typeof PHONE_LABELS];
      if (!label) throw unsupported(`${field}[${i}].phone_type`, `Pipedrive has no ${p.phone_type} phone label`, { allowed: Object.keys(PHONE_LABELS) });
    }
    return { value: p.phone_number, primary: i === 0, ...(label ? { label } : {}) };
  });
}

/** Pipedrive person (API v2) → crm.contact. */
export function unifyPerson(p: PdPerson, ids: IdOf): UnifiedRecord {
  const address = unifyAddress(p.postal_address, CONTACT_ADDRESS_TYPE, 'CONTACT');
  return {
    objectType: 'crm.contact',
    remoteId: String(p.id),
    data: {
      first_name: nonEmpty(p.first_name),
      last_name: nonEmpty(p.last_name),
      email_addresses: unifyEmails(p.emails, 'CONTACT'),
      phone_numbers: unifyPhones(p.phones, 'CONTACT'),
      addresses: address ? [address] : [],
      user_id: ids('crm.user', p.owner_id),
      company_id: ids('crm.company', p.org_id),
    },
    remoteData: asRecord(p),
    remoteCreatedAt: toDate(p.add_time),
    remoteUpdatedAt: toDate(p.update_time),
    ...(p.is_deleted === true ? { deleted: true } : {}),
  };
}

export interface PersonWriteContext {
  /** The person as it is now (PATCH of one name part). */
  current?: Pick<PdPerson, 'first_name' | 'last_name'>;
  /** The company has the person postal address (contact sync). */
  postalAddress: boolean;
}

/**
 * crm.contact fields → Pipedrive person body (API v2). Pipedrive takes one `name` and derives first and
 * last name from it, so both parts are joined; references are already remote ids.
 */
export function desunifyPerson(input: CrmWrite, ctx: PersonWriteContext, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (create || has(input, 'first_name') || has(input, 'last_name')) {
    const first = has(input, 'first_name') ? (input.first_name as string) : (ctx.current?.first_name ?? '');
    const last = has(input, 'last_name') ? (input.last_name as string) : (ctx.current?.last_name ?? '');
    const name = [first, last].map((s) => (s ?? '').trim()).filter(Boolean).join(' ');
    if (!name) {
      throw new AppError('validation_failed', 'first_name: Pipedrive needs a name; give first_name or last_name', {
        field: 'first_name',
        issues: [{ path: 'first_name', message: 'Pipedrive needs a name; give first_name or last_name' }],
      });
    }
    body.name = name;
  }
  if (has(input, 'email_addresses')) body.emails = desunifyEmails(input.email_addresses as Email[]);
  if (has(input, 'phone_numbers')) body.phones = desunifyPhones(input.phone_numbers as Phone[]);
  if (has(input, 'addresses')) {
    const list = input.addresses as Address[];
    if (!ctx.postalAddress) {
      if (list.length > 0) {
        throw unsupported('addresses', 'this Pipedrive company has no postal address on persons (Pipedrive adds it with contact sync)');
      }
    } else {
      body.postal_address = desunifyAddresses('addresses', list, CONTACT_ADDRESS_TYPE);
    }
  }
  if (has(input, 'user_id')) body.owner_id = pdId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.org_id = pdId(input.company_id, 'company_id');
  return body;
}
