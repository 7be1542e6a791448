import type { TagFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GgTag } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/**
 * Gorgias tag → unified tag. Tags have ids in Gorgias (the remote id); tickets name them, so the unified
 * ticket's `tags` are names. A tag Gorgias reports deleted (`deleted_datetime`) comes out deleted.
 */
export function unifyTag(t: GgTag): UnifiedRecord {
  const data = { name: t.name } satisfies TagFields;
  const created = toDate(t.created_datetime);
  return {
    objectType: 'ticketing.tag',
    remoteId: String(t.id),
    data,
    remoteData: asRecord(t),
    remoteCreatedAt: created,
    remoteUpdatedAt: toDate(t.deleted_datetime) ?? created,
    ...(nonEmpty(t.deleted_datetime) ? { deleted: true } : {}),
  };
}
