import type { UnifiedRecord } from '../types';
import type { PdUser } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/**
 * Pipedrive user (API v1) → crm.user. A deactivated user stays a user (deals keep their owner); only a
 * deleted one is reported deleted.
 */
export function unifyUser(u: PdUser): UnifiedRecord {
  return {
    objectType: 'crm.user',
    remoteId: String(u.id),
    data: { name: nonEmpty(u.name), email: nonEmpty(u.email) },
    remoteData: asRecord(u),
    remoteCreatedAt: toDate(u.created),
    remoteUpdatedAt: toDate(u.modified) ?? toDate(u.created),
    ...(u.is_deleted === true ? { deleted: true } : {}),
  };
}
