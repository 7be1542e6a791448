import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { Address } from '../../core/unified/crm';
import type { CrmWrite, UnifiedRecord } from '../types';
import { desunifyAddresses, unifyAddress } from './address';
import type { PdFieldDef, PdOrganization } from './types';
import { asRecord, has, nonEmpty, pdId, toDate, unsupported } from './util';

/** Pipedrive's organisation address is untyped; it is read back as WORK. */
export const COMPANY_ADDRESS_TYPE = 'WORK';

/** Option labels of the organisation `industry` field, by option id. */
export type IndustryOptions = PdFieldDef['options'];

export function industryLabel(options: IndustryOptions, id: number | null | undefined): string | null {
  if (id === null || id === undefined) return null;
  return options?.find((o) => o.id === id)?.label ?? String(id);
}

/** Pipedrive organization (API v2) → crm.company; `industry` as its option label. */
export function unifyOrganization(o: PdOrganization, ids: IdOf, industries: IndustryOptions): UnifiedRecord {
  const address = unifyAddress(o.address, COMPANY_ADDRESS_TYPE, 'COMPANY');
  return {
    objectType: 'crm.company',
    remoteId: String(o.id),
    data: {
      name: nonEmpty(o.name),
      industry: industryLabel(industries, o.industry),
      number_of_employees: typeof o.employee_count === 'number' ? o.employee_count : null,
      email_addresses: [],
      phone_numbers: [],
      addresses: address ? [address] : [],
      user_id: ids('crm.user', o.owner_id),
    },
    remoteData: asRecord(o),
    remoteCreatedAt: toDate(o.add_time),
    remoteUpdatedAt: toDate(o.update_time),
    ...(o.is_deleted === true ? { deleted: true } : {}),
  };
}

/** The option id of an industry label (case-insensitive); an unknown label is a 422 listing the options. */
export function industryId(options: IndustryOptions, label: string): number | null {
  if (label.trim() === '') return null;
  const found = options?.find((o) => o.label.toLowerCase() === label.trim().toLowerCase());
  if (found) return found.id;
  const allowed = (options ?? []).map((o) => o.label);
  throw new AppError('unprocessable', `industry: ${JSON.stringify(label)} is not an industry of this Pipedrive company (one of ${allowed.join(', ')})`, {
    field: 'industry',
    allowed,
  });
}

/** crm.company fields → Pipedrive organization body (API v2). */
export function desunifyOrganization(input: CrmWrite, industries: IndustryOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.name = input.name;
  if (has(input, 'industry')) body.industry = industryId(industries, input.industry as string);
  if (has(input, 'number_of_employees')) body.employee_count = input.number_of_employees;
  for (const field of ['email_addresses', 'phone_numbers'] as const) {
    if (has(input, field) && (input[field] as unknown[]).length > 0) {
      throw unsupported(field, `Pipedrive organizations have no ${field === 'email_addresses' ? 'email addresses' : 'phone numbers'}`);
    }
  }
  if (has(input, 'addresses')) body.address = desunifyAddresses('addresses', input.addresses as Address[], COMPANY_ADDRESS_TYPE);
  if (has(input, 'user_id')) body.owner_id = pdId(input.user_id, 'user_id');
  return body;
}
