/**
 * Email addresses, phone numbers and postal addresses of contacts and companies. HubSpot has one property
 * per slot (email, phone, mobilephone, fax, address…), so a unified list maps to a fixed set of
 * properties; what has no slot is refused with 422, never dropped.
 */
import type { AddressFields, EmailFields, PhoneFields } from '../../core/unified/crm';
import type { HsProperties, HsPropertyDefinition } from './types';
import { prop, unsupported } from './util';

export interface WriteContext {
  mode: 'create' | 'update';
  /** Property definitions of the HubSpot object type; when absent, existence is not checked. */
  defs?: Map<string, HsPropertyDefinition>;
  now: Date;
}

type Email = { email_address: string; email_address_type?: string; owner_type?: string };
type Phone = { phone_number: string; phone_type?: string; owner_type?: string };
type Address = {
  street_1?: string;
  street_2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
  address_type?: string;
  owner_type?: string;
};

/** A property the account lacks cannot be written; clearing it is skipped. */
function ensureExists(ctx: WriteContext, name: string, field: string, what: string) {
  if (ctx.defs && !ctx.defs.has(name)) throw unsupported(field, `this HubSpot account has no ${name} property for ${what}`);
}

const exists = (ctx: WriteContext, name: string) => !ctx.defs || ctx.defs.has(name);

// ------------------------------------------------------------------ emails

/** `email` then the read-only `hs_additional_emails` (semicolon-separated). HubSpot does not type emails. */
export function readEmails(p: HsProperties, ownerType: string): EmailFields[] {
  const out: EmailFields[] = [];
  const seen = new Set<string>();
  const addresses = [prop(p, 'email'), ...(prop(p, 'hs_additional_emails') ?? '').split(';')];
  for (const raw of addresses) {
    const e = raw?.trim();
    if (!e || seen.has(e.toLowerCase())) continue;
    seen.add(e.toLowerCase());
    out.push({ email_address: e, email_address_type: null, owner_type: ownerType });
  }
  return out;
}

/** The first (only) email goes to `email`; HubSpot's further emails cannot be written through the CRM API. */
export function writeContactEmails(list: Email[] | undefined, ctx: WriteContext, out: Record<string, string>) {
  if (list === undefined) return;
  if (list.length > 1) {
    throw unsupported(
      'email_addresses[1]',
      'a HubSpot contact has one writable email address (email); further addresses (hs_additional_emails) are read-only in the CRM API',
    );
  }
  if (list.length === 1) out.email = list[0]!.email_address;
  else if (ctx.mode === 'update') out.email = '';
}

// ------------------------------------------------------------------ phones

export interface PhoneSlot {
  property: string;
  type: 'WORK' | 'MOBILE' | 'FAX';
}

export const CONTACT_PHONES: PhoneSlot[] = [
  { property: 'phone', type: 'WORK' },
  { property: 'mobilephone', type: 'MOBILE' },
  { property: 'fax', type: 'FAX' },
];
export const COMPANY_PHONES: PhoneSlot[] = [{ property: 'phone', type: 'WORK' }];

export function readPhones(p: HsProperties, slots: PhoneSlot[], ownerType: string): PhoneFields[] {
  return slots.flatMap((s) => {
    const v = prop(p, s.property);
    return v ? [{ phone_number: v, phone_type: s.type, owner_type: ownerType }] : [];
  });
}

/**
 * Each phone goes to the property of its type; an untyped phone to the first free one. A type without a
 * property, or a second phone of one type, is a 422. On update the list replaces every phone property.
 */
export function writePhones(list: Phone[] | undefined, slots: PhoneSlot[], what: string, ctx: WriteContext, out: Record<string, string>) {
  if (list === undefined) return;
  const used = new Map<string, string>();
  const allowed = slots.map((s) => `${s.type} (${s.property})`).join(', ');
  list.forEach((phone, i) => {
    const field = `phone_numbers[${i}]`;
    let slot: PhoneSlot | undefined;
    if (phone.phone_type) {
      slot = slots.find((s) => s.type === phone.phone_type);
      if (!slot) throw unsupported(`${field}.phone_type`, `HubSpot ${what} have no ${phone.phone_type} phone; allowed: ${allowed}`);
      if (used.has(slot.property)) throw unsupported(field, `HubSpot ${what} have one ${slot.type} phone (${slot.property})`);
    } else {
      slot = slots.find((s) => !used.has(s.property) && exists(ctx, s.property));
      if (!slot) throw unsupported(field, `HubSpot ${what} have no further phone property (${allowed})`);
    }
    ensureExists(ctx, slot.property, field, `${slot.type} phones`);
    used.set(slot.property, phone.phone_number);
  });
  for (const s of slots) {
    const v = used.get(s.property);
    if (v !== undefined) out[s.property] = v;
    else if (ctx.mode === 'update' && exists(ctx, s.property)) out[s.property] = '';
  }
}

// --------------------------------------------------------------- addresses

export interface AddressProps {
  street_1: string;
  /** Absent: no second street line. */
  street_2?: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

export const CONTACT_ADDRESS: AddressProps = { street_1: 'address', city: 'city', state: 'state', postal_code: 'zip', country: 'country' };
export const COMPANY_ADDRESS: AddressProps = { street_1: 'address', street_2: 'address2', city: 'city', state: 'state', postal_code: 'zip', country: 'country' };

const ADDRESS_PARTS = ['street_1', 'street_2', 'city', 'state', 'postal_code', 'country'] as const;

/** One address (HubSpot does not type it); absent when every part is empty. */
export function readAddress(p: HsProperties, props: AddressProps, ownerType: string): AddressFields[] {
  const a: AddressFields = {
    street_1: prop(p, props.street_1),
    street_2: props.street_2 ? prop(p, props.street_2) : null,
    city: prop(p, props.city),
    state: prop(p, props.state),
    postal_code: prop(p, props.postal_code),
    country: prop(p, props.country),
    address_type: null,
    owner_type: ownerType,
  };
  return ADDRESS_PARTS.some((k) => a[k] !== null) ? [a] : [];
}

/** One address at most; on update the list replaces the address (an empty list clears it). */
export function writeAddress(list: Address[] | undefined, props: AddressProps, what: string, ctx: WriteContext, out: Record<string, string>) {
  if (list === undefined) return;
  if (list.length > 1) throw unsupported('addresses[1]', `a HubSpot ${what} has one address`);
  const a = list[0];
  for (const part of ADDRESS_PARTS) {
    const name = props[part];
    const value = a?.[part];
    if (!name) {
      if (value) throw unsupported(`addresses[0].${part}`, `a HubSpot ${what} address has no second street line`);
      continue;
    }
    if (value !== undefined && value !== '') {
      ensureExists(ctx, name, `addresses[0].${part}`, 'addresses');
      out[name] = value;
    } else if (ctx.mode === 'update' && exists(ctx, name)) {
      out[name] = '';
    }
  }
}
