import type { ListedRow, UnifiedInsert } from '../../store/unified.repo';

type Stored = ListedRow | UnifiedInsert;

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
    created_at: row.remoteCreatedAt ? row.remoteCreatedAt.toISOString() : null,
    modified_at: row.remoteUpdatedAt ? row.remoteUpdatedAt.toISOString() : null,
    remote_was_deleted: row.remoteWasDeleted ?? false,
    ...(opts.remoteData ? { remote_data: row.remoteData } : {}),
  };
}
