import type { IdOf } from '../../core/unified/ids';
import type { AccountFields, ContactFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { FrAccount, FrContact } from './types';
import { asRecord, nonEmpty, fromEpochSeconds } from './util';

/**
 * Front contact → unified contact: the first email handle and the first phone handle, the description
 * as details. `accountId` is the Front account that lists the contact (Front contacts do not name their
 * account themselves).
 */
export function unifyContact(c: FrContact, ids: IdOf, accountId?: string | null): UnifiedRecord {
  const handles = c.handles ?? [];
  const data = {
    name: nonEmpty(c.name),
    email_address: handles.find((h) => h.source === 'email')?.handle ?? null,
    phone_number: handles.find((h) => h.source === 'phone')?.handle ?? null,
    details: nonEmpty(c.description),
    account_id: ids('ticketing.account', accountId),
  } satisfies ContactFields;
  return {
    objectType: 'ticketing.contact',
    remoteId: c.id,
    data,
    remoteData: asRecord(c),
    remoteCreatedAt: fromEpochSeconds(c.created_at),
    remoteUpdatedAt: fromEpochSeconds(c.updated_at),
  };
}

/** Front account → unified account. */
export function unifyAccount(a: FrAccount): UnifiedRecord {
  const data = { name: nonEmpty(a.name), domains: Array.isArray(a.domains) ? [...a.domains] : [] } satisfies AccountFields;
  return {
    objectType: 'ticketing.account',
    remoteId: a.id,
    data,
    remoteData: asRecord(a),
    remoteCreatedAt: fromEpochSeconds(a.created_at),
    remoteUpdatedAt: fromEpochSeconds(a.updated_at),
  };
}
