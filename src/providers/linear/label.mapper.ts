import type { TagFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { LnLabel } from './types';
import { asRecord, toDate } from './util';

/**
 * Linear issue label → unified tag (remote id: the label's id; a ticket's `tags` are label names).
 * Label groups are not tags (they cannot be put on an issue); an archived label is deleted.
 */
export function unifyLabel(l: LnLabel): UnifiedRecord {
  const data = { name: l.name } satisfies TagFields;
  return {
    objectType: 'ticketing.tag',
    remoteId: l.id,
    data,
    remoteData: asRecord(l),
    remoteCreatedAt: toDate(l.createdAt),
    remoteUpdatedAt: toDate(l.updatedAt),
    ...(l.archivedAt ? { deleted: true } : {}),
  };
}
