import type { CollectionFields, TagFields, TeamFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { FrInbox, FrTag, FrTeamPreview } from './types';
import { asRecord, nonEmpty, fromEpochSeconds } from './util';

export const INBOX_COLLECTION_TYPE = 'INBOX';

/** Front inbox → unified collection (`collection_type` INBOX): conversations live in inboxes. */
export function unifyInbox(i: FrInbox): UnifiedRecord {
  const data = { name: nonEmpty(i.name), description: null, collection_type: INBOX_COLLECTION_TYPE, parent_id: null } satisfies CollectionFields;
  return { objectType: 'ticketing.collection', remoteId: i.id, data, remoteData: asRecord(i), remoteCreatedAt: null, remoteUpdatedAt: null };
}

/** Front team (workspace) → unified team. */
export function unifyTeam(t: FrTeamPreview): UnifiedRecord {
  const data = { name: nonEmpty(t.name), description: null } satisfies TeamFields;
  return { objectType: 'ticketing.team', remoteId: t.id, data, remoteData: asRecord(t), remoteCreatedAt: null, remoteUpdatedAt: null };
}

/** Front tag → unified tag (tickets carry tag names). */
export function unifyTag(t: FrTag): UnifiedRecord {
  const data = { name: t.name } satisfies TagFields;
  return {
    objectType: 'ticketing.tag',
    remoteId: t.id,
    data,
    remoteData: asRecord(t),
    remoteCreatedAt: fromEpochSeconds(t.created_at),
    remoteUpdatedAt: fromEpochSeconds(t.updated_at),
  };
}
