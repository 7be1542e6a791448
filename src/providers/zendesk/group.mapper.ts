import type { TeamFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { ZdGroup } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/** Zendesk group → unified team. */
export function unifyGroup(g: ZdGroup): UnifiedRecord {
  const data = { name: g.name ?? null, description: nonEmpty(g.description) } satisfies TeamFields;
  return {
    objectType: 'ticketing.team',
    remoteId: String(g.id),
    data,
    remoteData: asRecord(g),
    remoteCreatedAt: toDate(g.created_at),
    remoteUpdatedAt: toDate(g.updated_at),
    ...(g.deleted === true ? { deleted: true } : {}),
  };
}
