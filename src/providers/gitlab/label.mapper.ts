import type { TagFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GlLabel } from './types';
import { asRecord } from './util';

/**
 * GitLab label → unified tag. The remote id is the label id: a group label is one label in all the
 * group's projects, while two projects may each have their own label of the same name. Tickets carry
 * label names in `tags`. Labels have no timestamps.
 */
export function unifyLabel(l: GlLabel): UnifiedRecord {
  const data = { name: l.name } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: String(l.id), data, remoteData: asRecord(l), remoteCreatedAt: null, remoteUpdatedAt: null };
}
