import type { CollectionFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GlProject } from './types';
import { asRecord, nonEmpty, toDate } from './util';

/**
 * GitLab project → unified collection (`collection_type` PROJECT). `name` is the name with its
 * namespace ("Acme / Support desk") so that projects of different groups stay apart; GitLab projects
 * have no parent collection (their group is a namespace, synced as a team).
 */
export function unifyProject(p: GlProject): UnifiedRecord {
  const data = {
    name: nonEmpty(p.name_with_namespace) ?? nonEmpty(p.name),
    description: nonEmpty(p.description),
    collection_type: 'PROJECT',
    parent_id: null,
  } satisfies CollectionFields;
  return {
    objectType: 'ticketing.collection',
    remoteId: String(p.id),
    data,
    remoteData: asRecord(p),
    remoteCreatedAt: toDate(p.created_at),
    remoteUpdatedAt: toDate(p.updated_at) ?? toDate(p.last_activity_at),
  };
}
