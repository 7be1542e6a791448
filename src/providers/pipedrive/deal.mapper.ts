import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import type { PdDeal } from './types';
import { asRecord, decimalToNumber, has, nonEmpty, numberToDecimal, pdId, toDate, unsupported } from './util';

/** Pipedrive deal (API v2) → crm.deal; `value` (a JSON number) as a decimal string, never rounded. */
export function unifyDeal(d: PdDeal, ids: IdOf): UnifiedRecord {
  return {
    objectType: 'crm.deal',
    remoteId: String(d.id),
    data: {
      name: nonEmpty(d.title),
      description: null,
      amount: typeof d.value === 'number' && Number.isFinite(d.value) ? numberToDecimal(d.value) : null,
      currency: nonEmpty(d.currency),
      stage_id: ids('crm.stage', d.stage_id),
      user_id: ids('crm.user', d.owner_id),
      company_id: ids('crm.company', d.org_id),
      contact_ids: d.person_id ? [ids('crm.contact', d.person_id)!] : [],
      close_date: nonEmpty(d.expected_close_date),
    },
    remoteData: asRecord(d),
    remoteCreatedAt: toDate(d.add_time),
    remoteUpdatedAt: toDate(d.update_time),
    ...(d.is_deleted === true ? { deleted: true } : {}),
  };
}

/** crm.deal fields → Pipedrive deal body (API v2). */
export function desunifyDeal(input: CrmWrite): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'name')) body.title = input.name;
  if (has(input, 'description')) throw unsupported('description', 'Pipedrive deals have no description (add a note to the deal instead)');
  if (has(input, 'amount')) body.value = decimalToNumber(String(input.amount), 'amount');
  if (has(input, 'currency')) body.currency = input.currency;
  if (has(input, 'stage_id')) body.stage_id = pdId(input.stage_id, 'stage_id');
  if (has(input, 'user_id')) body.owner_id = pdId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.org_id = pdId(input.company_id, 'company_id');
  if (has(input, 'contact_ids')) {
    const list = input.contact_ids as string[];
    if (list.length > 1) throw unsupported('contact_ids', 'a Pipedrive deal has one contact person; send at most one id', { max: 1 });
    body.person_id = list.length ? pdId(list[0], 'contact_ids') : null;
  }
  // A date, or the date part of a date-time as written (Pipedrive's expected close date has no time).
  if (has(input, 'close_date')) body.expected_close_date = String(input.close_date).slice(0, 10);
  return body;
}
