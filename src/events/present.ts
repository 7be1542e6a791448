import type { EventRow } from '../store/events.repo';
import type { SecretBox } from '../core/secrets';
import { isRecordEvent } from './catalog';

/** An event as the feed and webhooks carry it (Standard Webhooks' `{type, timestamp, data}`, plus its id and sequence). */
export interface PresentedEvent {
  id: string;
  type: string;
  timestamp: string;
  /** Increasing in the order events happened (per connection too): receivers order by it. */
  sequence: number;
  data: Record<string, unknown>;
}

interface StoredRecord {
  id: string;
  remote_id: string;
  data: Record<string, unknown>;
  /** Omniport's times (absent from events stored before they were recorded). */
  created_at?: string;
  modified_at?: string;
  remote_created_at: string | null;
  remote_updated_at: string | null;
  remote_was_deleted: boolean;
}

/** The `webhook-id` of a delivery: the same for every attempt, so receivers can deduplicate. */
export const webhookIdOf = (deliveryId: string) => `msg_${deliveryId.replace(/-/g, '')}`;

const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);

/**
 * The stored payload turned into what a user sees: a record event carries the unified object as the API
 * answers it (without remote_data and field_mappings); a connection event carries the connection token,
 * decrypted here — it is only ever stored encrypted.
 */
export function presentEvent(row: EventRow, box: SecretBox): PresentedEvent {
  const payload = row.payload;
  let data: Record<string, unknown>;
  if (isRecordEvent(row.type)) {
    const stored = payload.object as StoredRecord;
    data = {
      id_connection: row.connectionId,
      object_type: payload.object_type,
      object: {
        ...stored.data,
        id: stored.id,
        remote_id: stored.remote_id,
        created_at: iso(stored.created_at ?? null),
        // The change's own time: an older event without it was written by that change.
        modified_at: iso(stored.modified_at ?? row.createdAt.toISOString()),
        remote_created_at: iso(stored.remote_created_at),
        remote_updated_at: iso(stored.remote_updated_at),
        remote_was_deleted: stored.remote_was_deleted,
      },
    };
  } else {
    const { connection_token_encrypted: sealed, ...rest } = payload;
    data = typeof sealed === 'string' ? { ...rest, connection_token: box.decrypt(sealed) } : rest;
  }
  return { id: row.id, type: row.type, timestamp: row.createdAt.toISOString(), sequence: row.seq, data };
}
