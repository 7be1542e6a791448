import type { IdOf } from '../../core/unified/ids';
import type { UserFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GgTeam, GgUser } from './types';
import { asRecord, nonEmpty, personName, toDate } from './util';

/** Team ids per user id, from the teams' `members` (a Gorgias user object does not name its teams). */
export function teamsByUser(teams: GgTeam[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const t of teams) {
    for (const m of t.members ?? []) {
      if (typeof m?.id !== 'number') continue;
      const list = out.get(m.id) ?? [];
      if (!list.includes(t.id)) list.push(t.id);
      out.set(m.id, list);
    }
  }
  return out;
}

/** Gorgias user (agent, admin, bot …) → unified user. Deactivated users stay users (their tickets keep them). */
export function unifyUser(u: GgUser, ids: IdOf, teamIds: number[] = []): UnifiedRecord {
  const data = {
    name: personName(u),
    email_address: nonEmpty(u.email),
    teams: teamIds.map((t) => ids('ticketing.team', t)!),
    account_id: null,
  } satisfies UserFields;
  return {
    objectType: 'ticketing.user',
    remoteId: String(u.id),
    data,
    remoteData: asRecord(u),
    remoteCreatedAt: toDate(u.created_datetime),
    remoteUpdatedAt: toDate(u.updated_datetime) ?? toDate(u.created_datetime),
  };
}
