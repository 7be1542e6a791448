import type { TagFields } from '../../core/unified/ticketing';
import type { UnifiedRecord } from '../types';
import type { GhLabel } from './types';
import { asRecord } from './util';

/**
 * GitHub label → unified tag. Labels belong to a repository (the same name in two repositories is two
 * labels): the remote id is the label's numeric id; its repository is in `remote_data.url`
 * (`…/repos/{owner}/{repo}/labels/{name}`). Tickets carry label names in `tags`. No timestamps.
 */
export function unifyLabel(l: GhLabel & { id: number; name: string }): UnifiedRecord {
  const data = { name: l.name } satisfies TagFields;
  return { objectType: 'ticketing.tag', remoteId: String(l.id), data, remoteData: asRecord(l), remoteCreatedAt: null, remoteUpdatedAt: null };
}
