import type { IdOf } from '../../core/unified/ids';
import type { ContactFields, UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { ZdRole, ZdUser } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/** Agents and admins are `ticketing.user`; end-users are `ticketing.contact` (one Zendesk user list). */
export function userObjectType(role: ZdRole | null | undefined): 'ticketing.user' | 'ticketing.contact' {
  return role === 'end-user' || !role ? 'ticketing.contact' : 'ticketing.user';
}

/**
 * Zendesk user → unified user (agent, admin) or contact (end-user). A user Zendesk reports inactive
 * (`active: false`, i.e. deleted) comes out with `deleted: true`.
 */
export function unifyUser(u: ZdUser & { id: number }, ids: IdOf): UnifiedRecord {
  const objectType = userObjectType(u.role);
  const account_id = ids('ticketing.account', u.organization_id);
  const data =
    objectType === 'ticketing.user'
      ? ({
          name: u.name ?? null,
          email_address: nonEmpty(u.email),
          teams: u.default_group_id != null ? [ids('ticketing.team', u.default_group_id)!] : [],
          account_id,
        } satisfies UserFields)
      : ({
          name: u.name ?? null,
          email_address: nonEmpty(u.email),
          phone_number: nonEmpty(u.phone),
          details: nonEmpty(u.details),
          account_id,
        } satisfies ContactFields);
  return {
    objectType,
    remoteId: String(u.id),
    data,
    remoteData: asRecord(u),
    remoteCreatedAt: toDate(u.created_at),
    remoteUpdatedAt: toDate(u.updated_at),
    ...(u.active === false ? { deleted: true } : {}),
  };
}
