import { AppError } from '../../core/errors';
import type { IdOf } from '../../core/unified/ids';
import type { CrmWrite, UnifiedRecord } from '../types';
import type { PdNote } from './types';
import { asRecord, has, nonEmpty, pdId, toDate } from './util';

/** Pipedrive note (API v1; `content` is HTML) → crm.note. */
export function unifyNote(n: PdNote, ids: IdOf): UnifiedRecord {
  return {
    objectType: 'crm.note',
    remoteId: String(n.id),
    data: {
      content: nonEmpty(n.content),
      user_id: ids('crm.user', n.user_id),
      company_id: ids('crm.company', n.org_id),
      contact_id: ids('crm.contact', n.person_id),
      deal_id: ids('crm.deal', n.deal_id),
    },
    remoteData: asRecord(n),
    remoteCreatedAt: toDate(n.add_time),
    remoteUpdatedAt: toDate(n.update_time),
    ...(n.active_flag === false ? { deleted: true } : {}),
  };
}

/** crm.note fields → Pipedrive note body (API v1). A new note must be attached to a deal, contact or company. */
export function desunifyNote(input: CrmWrite, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (has(input, 'content')) body.content = input.content;
  if (has(input, 'user_id')) body.user_id = pdId(input.user_id, 'user_id');
  if (has(input, 'company_id')) body.org_id = pdId(input.company_id, 'company_id');
  if (has(input, 'contact_id')) body.person_id = pdId(input.contact_id, 'contact_id');
  if (has(input, 'deal_id')) body.deal_id = pdId(input.deal_id, 'deal_id');
  if (create && body.org_id === undefined && body.person_id === undefined && body.deal_id === undefined) {
    const message = 'a Pipedrive note belongs to a deal, a contact or a company: give deal_id, contact_id or company_id';
    throw new AppError('validation_failed', `deal_id: ${message}`, { field: 'deal_id', issues: [{ path: 'deal_id', message }] });
  }
  return body;
}
