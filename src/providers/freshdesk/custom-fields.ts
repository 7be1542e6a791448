/**
 * Freshdesk ticket custom fields for field mapping. Definitions: `GET /api/v2/ticket_fields` (custom ones
 * have `default: false`); a field is named by its `name` (`cf_…`), the key of the ticket's
 * `custom_fields` object, which Freshdesk reads and writes by name (a PUT changes only the keys sent).
 */
import type { AdapterContext, CustomFieldSupport, RemoteField } from '../types';
import type { FdTicketField } from './types';

async function list(ctx: AdapterContext, objectType: string): Promise<RemoteField[]> {
  if (objectType !== 'ticketing.ticket') return [];
  const res = await ctx.http.get<FdTicketField[]>('/api/v2/ticket_fields');
  return (Array.isArray(res.data) ? res.data : [])
    .filter((f) => f && f.default === false && typeof f.name === 'string')
    .map((f) => ({ id: f.name, label: f.label ?? f.name, type: f.type ?? 'custom_text', object_type: objectType }));
}

export function readFreshdeskCustomField(objectType: string, remoteData: Record<string, unknown>, fieldId: string): unknown {
  if (objectType !== 'ticketing.ticket') return undefined;
  const values = remoteData.custom_fields;
  return values && typeof values === 'object' && !Array.isArray(values) ? (values as Record<string, unknown>)[fieldId] : undefined;
}

export const freshdeskCustomFields: CustomFieldSupport = { objectTypes: ['ticketing.ticket'], list, read: readFreshdeskCustomField };
