import type { IdOf } from '../../core/unified/ids';
import type { UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { LnUser } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/**
 * Linear user → unified user, with the teams they belong to (`teamIds`: all of them when the nested
 * list was longer than one page). Suspended users (`active: false`) stay users (their issues still
 * name them); only a user Linear reports archived is deleted. Linear has no organisations of users.
 */
export function unifyUser(u: LnUser, ids: IdOf, teamIds: string[] = (u.teams?.nodes ?? []).map((t) => t.id)): UnifiedRecord {
  const data = {
    name: nonEmpty(u.name) ?? nonEmpty(u.displayName),
    email_address: nonEmpty(u.email),
    teams: [...new Set(teamIds)].map((t) => ids('ticketing.team', t)!),
    account_id: null,
  } satisfies UserFields;
  return {
    objectType: 'ticketing.user',
    remoteId: u.id,
    data,
    remoteData: asRecord(u),
    remoteCreatedAt: toDate(u.createdAt),
    remoteUpdatedAt: toDate(u.updatedAt),
    ...(u.archivedAt ? { deleted: true } : {}),
  };
}
