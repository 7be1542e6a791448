import type { AppError } from '../../core/errors';
import type { Address, AddressFields, Phone, PhoneFields } from '../../core/unified/crm';
import { nonEmpty } from './values';

/**
 * CRM records that keep phones and addresses in fixed fields (Salesforce `MobilePhone`, Zoho `Mailing_City`,
 * Dynamics `address1_line1`) rather than in lists: the unified lists are read from and written to those slots
 * here, once. A write sets every slot (a phone left out is cleared), refuses a type the record has no slot for
 * and a type given twice, naming the item.
 */

/** Unified phone type (WORK, MOBILE …) → the record's field. */
export type PhoneSlots = Readonly<Record<string, string>>;

/** The fields of one address; without `street2`, both street lines are kept on two lines of `street1`. */
export interface AddressSlot {
  street1: string;
  street2?: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}
/** Unified address type (WORK, BILLING …) → its fields; the first type is the default. */
export type AddressSlots = Readonly<Record<string, AddressSlot>>;

type Refuse = (field: string, message: string, extra?: Record<string, unknown>) => AppError;
type Row = Record<string, unknown>;

export function readPhones(r: Row, slots: PhoneSlots, owner: string): PhoneFields[] {
  return Object.entries(slots)
    .filter(([, f]) => nonEmpty(r[f]))
    .map(([type, f]) => ({ phone_number: r[f] as string, phone_type: type, owner_type: owner }));
}

/** `who` names the records in refusals ("Salesforce contacts"); `refuse` is the provider's `unsupported`. */
export function writePhones(list: readonly Phone[], slots: PhoneSlots, who: string, refuse: Refuse): Row {
  const body: Row = Object.fromEntries(Object.values(slots).map((f) => [f, null]));
  const seen = new Set<string>();
  list.forEach((p, i) => {
    const type = p.phone_type ?? 'WORK';
    const field = slots[type];
    if (!field) throw refuse(`phone_numbers[${i}].phone_type`, `${who} have no ${type} phone`, { allowed: Object.keys(slots) });
    if (seen.has(type)) throw refuse(`phone_numbers[${i}].phone_type`, `${who} have one ${type} phone number`);
    seen.add(type);
    body[field] = p.phone_number;
  });
  return body;
}

export function readAddresses(r: Row, slots: AddressSlots, owner: string): AddressFields[] {
  return Object.entries(slots)
    .map(([type, s]) => ({
      street_1: nonEmpty(r[s.street1]),
      street_2: s.street2 ? nonEmpty(r[s.street2]) : null,
      city: nonEmpty(r[s.city]),
      state: nonEmpty(r[s.state]),
      postal_code: nonEmpty(r[s.postalCode]),
      country: nonEmpty(r[s.country]),
      address_type: type,
      owner_type: owner,
    }))
    .filter((a) => [a.street_1, a.street_2, a.city, a.state, a.postal_code, a.country].some((v) => v !== null));
}

export function writeAddresses(list: readonly Address[], slots: AddressSlots, who: string, refuse: Refuse): Row {
  const body: Row = {};
  for (const s of Object.values(slots)) for (const f of [s.street1, s.street2, s.city, s.state, s.postalCode, s.country]) if (f) body[f] = null;
  const seen = new Set<string>();
  const dflt = Object.keys(slots)[0]!;
  list.forEach((a, i) => {
    const type = a.address_type ?? dflt;
    const s = slots[type];
    if (!s) throw refuse(`addresses[${i}].address_type`, `${who} have no ${type} address`, { allowed: Object.keys(slots) });
    if (seen.has(type)) throw refuse(`addresses[${i}].address_type`, `${who} have one ${type} address`);
    seen.add(type);
    if (s.street2) {
      body[s.street1] = a.street_1 ?? null;
      body[s.street2] = a.street_2 ?? null;
    } else body[s.street1] = [a.street_1, a.street_2].filter((x) => x).join('\n') || null;
    body[s.city] = a.city ?? null;
    body[s.state] = a.state ?? null;
    body[s.postalCode] = a.postal_code ?? null;
    body[s.country] = a.country ?? null;
  });
  return body;
}
