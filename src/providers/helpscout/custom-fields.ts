/**
 * Conversation custom fields for field mapping: the custom fields of each mailbox (`GET /v2/mailboxes/{id}/fields`),
 * named by their numeric id. A conversation carries them as `customFields: [{id, name, value, text}]`; they are
 * written with Create Conversation's `fields` and with `PUT /v2/conversations/{id}/fields`.
 */
import type { AdapterContext, CustomFieldSupport, RemoteField } from '../types';
import { listPages } from './api';
import type { HsField, HsMailbox } from './types';

async function list(ctx: AdapterContext, objectType: string): Promise<RemoteField[]> {
  if (objectType !== 'ticketing.ticket') return [];
  const out = new Map<string, RemoteField>();
  for await (const page of listPages<HsMailbox>(ctx, '/v2/mailboxes', 'mailboxes')) {
    for (const m of page.items) {
      for await (const fields of listPages<HsField>(ctx, `/v2/mailboxes/${m.id}/fields`, 'fields')) {
        for (const f of fields.items) out.set(String(f.id), { id: String(f.id), label: f.name ?? String(f.id), type: f.type ?? 'SINGLE_LINE', object_type: objectType });
      }
    }
  }
  return [...out.values()];
}

export function readHelpScoutCustomField(objectType: string, remoteData: Record<string, unknown>, fieldId: string): unknown {
  if (objectType !== 'ticketing.ticket' || !Array.isArray(remoteData.customFields)) return undefined;
  const f = (remoteData.customFields as Array<{ id?: unknown; value?: unknown }>).find((x) => String(x?.id) === fieldId);
  return f ? (f.value ?? null) : undefined;
}

export const helpscoutCustomFields: CustomFieldSupport = { objectTypes: ['ticketing.ticket'], list, read: readHelpScoutCustomField };
