import type { TeamFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GlGroup } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/** GitLab group → unified team (`name` is the full name, e.g. "Acme / Support"). */
export function unifyGroup(g: GlGroup): UnifiedRecord {
  const data = { name: nonEmpty(g.full_name) ?? nonEmpty(g.name), description: nonEmpty(g.description) } satisfies TeamFields;
  return {
    objectType: 'ticketing.team',
    remoteId: String(g.id),
    data,
    remoteData: asRecord(g),
    remoteCreatedAt: toDate(g.created_at),
    remoteUpdatedAt: null,
  };
}
