import type { IdOf } from '../../core/unified/ids';
import type { UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { FrTeammate } from './types';
import { asRecord, nonEmpty } from './util';

/** A teammate's display name: first and last name, else the username, else the email address. */
export function teammateName(t: FrTeammate): string | null {
  const full = [t.first_name, t.last_name].filter((p) => typeof p === 'string' && p.trim() !== '').join(' ');
  return nonEmpty(full) ?? nonEmpty(t.username) ?? nonEmpty(t.email);
}

/**
 * Front teammate → unified user. `teamIds` are the Front teams (workspaces) the teammate is a member
 * of. Front gives teammates no timestamps; a blocked teammate stays a user (`is_blocked` in remote_data).
 */
export function unifyTeammate(t: FrTeammate, ids: IdOf, teamIds: string[] = []): UnifiedRecord {
  const data = {
    name: teammateName(t),
    email_address: nonEmpty(t.email),
    teams: teamIds.map((id) => ids('ticketing.team', id)!),
    account_id: null,
  } satisfies UserFields;
  return { objectType: 'ticketing.user', remoteId: t.id, data, remoteData: asRecord(t), remoteCreatedAt: null, remoteUpdatedAt: null };
}
