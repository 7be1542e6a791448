import type { TeamFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GgTeam } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/** Gorgias team → unified team (members become the users' `teams`, see user.mapper.ts). */
export function unifyTeam(t: GgTeam): UnifiedRecord {
  const data = { name: nonEmpty(t.name), description: nonEmpty(t.description) } satisfies TeamFields;
  const created = toDate(t.created_datetime);
  return { objectType: 'ticketing.team', remoteId: String(t.id), data, remoteData: asRecord(t), remoteCreatedAt: created, remoteUpdatedAt: created };
}
