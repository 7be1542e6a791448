import type { UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GhUser } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/**
 * GitHub user → unified user. The remote id is the login (what GitHub assigns issues by); the name is
 * the profile name where GitHub gives it (GET /user), else the login (assignee lists carry no names).
 * Only a public email is visible.
 */
export function unifyUser(u: GhUser): UnifiedRecord {
  const data = {
    name: nonEmpty(u.name) ?? u.login,
    email_address: nonEmpty(u.email),
    teams: [],
    account_id: null,
  } satisfies UserFields;
  return {
    objectType: 'ticketing.user',
    remoteId: u.login,
    data,
    remoteData: asRecord(u),
    remoteCreatedAt: toDate(u.created_at),
    remoteUpdatedAt: toDate(u.updated_at),
  };
}
