import type { Address, AddressFields } from '../../core/unified/crm';
import type { PdAddress } from './types';
import { unsupported } from './util';
import { nonEmpty } from '../kit';

/**
 * Pipedrive address → unified address. `street_1` is the street number and route (`"123 Main St"`), or
 * the formatted `value` when Pipedrive has no components (an address typed as free text).
 */
export function unifyAddress(a: PdAddress | null | undefined, addressType: string, ownerType: string): AddressFields | null {
  if (!a || typeof a !== 'object') return null;
  const street = [nonEmpty(a.street_number), nonEmpty(a.route)].filter(Boolean).join(' ') || null;
  const out: AddressFields = {
    street_1: street,
    street_2: nonEmpty(a.subpremise),
    city: nonEmpty(a.locality),
    state: nonEmpty(a.admin_area_level_1),
    postal_code: nonEmpty(a.postal_code),
    country: nonEmpty(a.country),
    address_type: addressType,
    owner_type: ownerType,
  };
  const hasParts = [out.street_1, out.street_2, out.city, out.state, out.postal_code, out.country].some((v) => v !== null);
  if (!hasParts) {
    const value = nonEmpty(a.value);
    if (!value) return null;
    out.street_1 = value;
  }
  return out;
}

/**
 * Unified addresses → the one Pipedrive address slot (`null` clears it). Pipedrive addresses have no
 * type: the slot is read back with `addressType`, so only that type (or none) is accepted.
 */
export function desunifyAddresses(field: string, list: Address[] | undefined, addressType: string): PdAddress | null | undefined {
  if (list === undefined) return undefined;
  if (list.length === 0) return null;
  if (list.length > 1) throw unsupported(field, 'Pipedrive keeps one address here; send at most one', { max: 1 });
  const a = list[0]!;
  if (a.address_type !== undefined && a.address_type !== addressType) {
    throw unsupported(`${field}[0].address_type`, `Pipedrive addresses have no type; this one is read back as ${addressType}`, { allowed: [addressType] });
  }
  const out: PdAddress = {};
  const set = (k: keyof PdAddress, v: string | undefined) => {
    if (v !== undefined && v.trim() !== '') out[k] = v;
  };
  set('route', a.street_1);
  set('subpremise', a.street_2);
  set('locality', a.city);
  set('admin_area_level_1', a.state);
  set('postal_code', a.postal_code);
  set('country', a.country);
  const line2 = [a.state, a.postal_code].filter((v) => v && v.trim()).join(' ');
  const value = [a.street_1, a.street_2, a.city, line2, a.country].filter((v) => v && v.trim()).join(', ');
  if (!value) return null;
  out.value = value;
  return out;
}
