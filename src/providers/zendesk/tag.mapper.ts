import type { TagFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { ZdTag } from './types';
import { asRecord } from './util';

/** Zendesk tag → unified tag. Zendesk tags have no id: the remote id is the tag name. No timestamps. */
export function unifyTag(t: ZdTag): UnifiedRecord {
  const data = { name: t.name } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: t.name, data, remoteData: asRecord(t), remoteCreatedAt: null, remoteUpdatedAt: null };
}
