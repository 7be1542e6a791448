import type { IdOf } from '../../core/unified/ids';
import type { z } from 'zod';
import type { companyInput } from '../../core/unified/crm';
import type { UnifiedRecord } from '../types';
import { COMPANY_ADDRESS, COMPANY_PHONES, readAddress, readPhones, writeAddress, writePhones, type WriteContext } from './contact-info';
import { record, type Desunified } from './record';
import type { HsObject } from './types';
import { prop, unsupported } from './util';

export type CompanyWrite = Partial<z.infer<typeof companyInput>>;

export const COMPANY_PROPERTIES = [
  'name',
  'industry',
  'numberofemployees',
  'phone',
  'address',
  'address2',
  'city',
  'state',
  'zip',
  'country',
  'hubspot_owner_id',
  'createdate',
  'hs_lastmodifieddate',
];

function integer(v: string | null): number | null {
  if (v === null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : null;
}

/** HubSpot company → crm.company. Companies have no email addresses in HubSpot (their `domain` is not one). */
export function unifyCompany(o: HsObject, ids: IdOf): UnifiedRecord {
  const p = o.properties ?? {};
  return record('crm.company', o, {
    name: prop(p, 'name'),
    industry: prop(p, 'industry'),
    number_of_employees: integer(prop(p, 'numberofemployees')),
    email_addresses: [],
    phone_numbers: readPhones(p, COMPANY_PHONES, 'COMPANY'),
    addresses: readAddress(p, COMPANY_ADDRESS, 'COMPANY'),
    user_id: ids('crm.user', prop(p, 'hubspot_owner_id')),
  });
}

export function desunifyCompany(input: CompanyWrite, ctx: WriteContext): Desunified {
  const properties: Record<string, string> = {};
  if (input.name !== undefined) properties.name = input.name;
  if (input.industry !== undefined) properties.industry = input.industry;
  if (input.number_of_employees !== undefined) properties.numberofemployees = String(input.number_of_employees);
  if (input.email_addresses !== undefined && input.email_addresses.length > 0) {
    throw unsupported('email_addresses', 'HubSpot companies have no email address property');
  }
  writePhones(input.phone_numbers, COMPANY_PHONES, 'companies', ctx, properties);
  writeAddress(input.addresses, COMPANY_ADDRESS, 'company', ctx, properties);
  if (input.user_id !== undefined) properties.hubspot_owner_id = input.user_id;
  return { properties, intents: [] };
}
