import type { ListedRow, StoreTimes, UnifiedInsert } from '../../store/unified.repo';

/** A row as read from the store, or as just written with the times the store gave it. */
type Stored = ListedRow | (UnifiedInsert & StoreTimes);
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * A stored unified object as the API answers it; `remote_data` only when asked for. `field_mappings`
 * is filled by the caller, which knows the connection's mappings.
 */
export function unifiedView(row: Stored, opts: { remoteData: boolean }): Record<string, unknown> {
  return {
    ...row.data,
    id: row.id,
    remote_id: row.remoteId,
    field_mappings: {},
    created_at: iso(row.createdAt),
    modified_at: iso(row.modifiedAt),
    remote_created_at: iso(row.remoteCreatedAt),
    remote_updated_at: iso(row.remoteUpdatedAt),
    remote_was_deleted: row.remoteWasDeleted ?? false,
    ...(opts.remoteData ? { remote_data: row.remoteData } : {}),
  };
}
