import { unifiedId } from './ids';
import type { UnifiedRecord } from '../../providers/types';
import { storable } from '../../store/storable';
import type { UnifiedInsert } from '../../store/unified.repo';

export { storable };

/** Turns adapter records into store rows of one connection (their text made storable). */
export function toRows(
  connection: { id: string; projectId: string },
  records: UnifiedRecord[],
  runId: string | null,
): UnifiedInsert[] {
  return records.map((r) => ({
    id: unifiedId(connection.id, r.objectType, r.remoteId),
    projectId: connection.projectId,
    connectionId: connection.id,
    objectType: r.objectType,
    remoteId: storable(r.remoteId),
    parentId: r.parent ? unifiedId(connection.id, r.parent.objectType, r.parent.remoteId) : null,
    data: storable(r.data),
    remoteData: storable(r.remoteData),
    remoteCreatedAt: r.remoteCreatedAt,
    remoteUpdatedAt: r.remoteUpdatedAt,
    remoteWasDeleted: r.deleted ?? false,
    lastSeenRun: runId,
    ...(r.unread?.length ? { keepData: r.unread } : {}),
  }));
}
