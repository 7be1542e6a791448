/**
 * Gorgias ticket custom fields for field mapping. Definitions: `GET /api/custom-fields?object_type=Ticket`
 * (cursor pagination). Values: written with the ticket on create (`custom_fields: [{id, value}]`) and
 * through `PUT /api/tickets/{id}/custom-fields` on update (only the fields sent change); read from the
 * ticket's `custom_fields`.
 *
 * The reference types the ticket's `custom_fields` as "object | null" without describing its keys; the
 * reader accepts the forms in use — an object keyed by field id holding `{id, value}` (or the bare value)
 * and an array of `{id, value}` — so stored data of either form maps.
 */
import type { AdapterContext, CustomFieldSupport, RemoteField } from '../types';
import { listPages, type ResolvedOptions } from './api';
import type { GgCustomFieldDefinition } from './types';

async function list(ctx: AdapterContext, objectType: string, o: ResolvedOptions): Promise<RemoteField[]> {
  if (objectType !== 'ticketing.ticket') return [];
  const out: RemoteField[] = [];
  for await (const page of listPages<GgCustomFieldDefinition>(ctx, '/api/custom-fields', o, { query: { object_type: 'Ticket' } })) {
    for (const f of page.items) {
      if (!f || typeof f.id !== 'number' || f.deactivated_datetime) continue;
      out.push({ id: String(f.id), label: f.label ?? String(f.id), type: f.definition?.data_type ?? 'text', object_type: objectType });
    }
  }
  return out;
}

const isEntry = (v: unknown): v is { id?: unknown; value?: unknown } => Boolean(v) && typeof v === 'object' && !Array.isArray(v) && 'value' in (v as object);

/** The raw value of a ticket custom field in a stored Gorgias ticket; undefined when it has none. */
export function readGorgiasCustomField(objectType: string, remoteData: Record<string, unknown>, fieldId: string): unknown {
  if (objectType !== 'ticketing.ticket') return undefined;
  const values = remoteData.custom_fields;
  if (Array.isArray(values)) {
    const hit = values.find((v) => isEntry(v) && String(v.id) === fieldId);
    return isEntry(hit) ? hit.value : undefined;
  }
  if (!values || typeof values !== 'object') return undefined;
  const own = (values as Record<string, unknown>)[fieldId];
  if (own !== undefined) return isEntry(own) ? own.value : own;
  const nested = Object.values(values as Record<string, unknown>).find((v) => isEntry(v) && String(v.id) === fieldId);
  return isEntry(nested) ? nested.value : undefined;
}

export function gorgiasCustomFields(o: ResolvedOptions): CustomFieldSupport {
  return {
    objectTypes: ['ticketing.ticket'],
    list: (ctx, objectType) => list(ctx, objectType, o),
    read: readGorgiasCustomField,
  };
}
