import type { CollectionFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GhRepository } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/**
 * GitHub repository → unified collection. The remote id is the repository's `full_name`
 * (`owner/name`), which is what the API addresses it by; the name is the full name too, so repositories
 * of different owners with the same name stay apart. `collection_type` is PROJECT.
 */
export function unifyRepository(r: GhRepository): UnifiedRecord {
  const data = {
    name: r.full_name,
    description: nonEmpty(r.description),
    collection_type: 'PROJECT',
    parent_id: null,
  } satisfies CollectionFields;
  return {
    objectType: 'ticketing.collection',
    remoteId: r.full_name,
    data,
    remoteData: asRecord(r),
    remoteCreatedAt: toDate(r.created_at),
    remoteUpdatedAt: toDate(r.updated_at),
  };
}
