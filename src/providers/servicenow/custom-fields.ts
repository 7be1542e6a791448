/**
 * Incident custom fields for field mapping: the incident's `u_` columns, defined in `sys_dictionary`
 * (`name=incident^elementSTARTSWITHu_`). A field is named by its column name; the Table API reads and writes it
 * like any other column (values are strings: `"true"`, `"42"`).
 */
import type { AdapterContext, CustomFieldSupport, RemoteField } from '../types';
import { READ_PARAMS, tablePath } from './api';
import type { SnDictionaryEntry } from './types';

async function list(ctx: AdapterContext, objectType: string): Promise<RemoteField[]> {
  if (objectType !== 'ticketing.ticket') return [];
  const res = await ctx.http.get<{ result?: SnDictionaryEntry[] }>(tablePath('sys_dictionary'), {
    query: { ...READ_PARAMS, sysparm_query: 'name=incident^elementSTARTSWITHu_', sysparm_fields: 'sys_id,element,column_label,internal_type' },
  });
  return (Array.isArray(res.data?.result) ? res.data.result : [])
    .filter((f) => typeof f.element === 'string' && f.element.startsWith('u_'))
    .map((f) => ({ id: f.element!, label: f.column_label || f.element!, type: f.internal_type || 'string', object_type: objectType }));
}

export function readServiceNowCustomField(objectType: string, remoteData: Record<string, unknown>, fieldId: string): unknown {
  return objectType === 'ticketing.ticket' ? remoteData[fieldId] : undefined;
}

export const servicenowCustomFields: CustomFieldSupport = { objectTypes: ['ticketing.ticket'], list, read: readServiceNowCustomField };
