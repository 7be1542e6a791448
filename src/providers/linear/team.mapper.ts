import type { IdOf } from '../../core/unified/ids';
import type { CollectionFields, TeamFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { LnTeam } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/** Collection type of a Linear team (Linear's own word). */
export const TEAM_COLLECTION_TYPE = 'TEAM';

/**
 * A Linear team is both a unified team (the people in it) and a unified collection (the issues in it:
 * every issue belongs to one team, so it is the ticket's `project_id`). Sub-teams name their parent
 * collection. An archived team is reported deleted.
 */
export function unifyTeam(t: LnTeam, ids: IdOf): UnifiedRecord[] {
  const name = nonEmpty(t.name) ?? nonEmpty(t.displayName);
  const description = nonEmpty(t.description);
  const common = {
    remoteId: t.id,
    remoteData: asRecord(t),
    remoteCreatedAt: toDate(t.createdAt),
    remoteUpdatedAt: toDate(t.updatedAt),
    ...(t.archivedAt ? { deleted: true } : {}),
  };
  const team = { name, description } satisfies TeamFields;
  const collection = {
    name,
    description,
    collection_type: TEAM_COLLECTION_TYPE,
    parent_id: ids('ticketing.collection', t.parent?.id),
  } satisfies CollectionFields;
  return [
    { objectType: 'ticketing.team', data: team, ...common },
    { objectType: 'ticketing.collection', data: collection, ...common },
  ];
}
