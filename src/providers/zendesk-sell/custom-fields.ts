/**
 * Field mapping on Zendesk Sell: custom fields of contacts (persons), companies (organizations) and deals,
 * listed from `/v2/{contact|deal}/custom_fields` and written in the object's `custom_fields` object, which
 * Sell keys by the custom field's name. The remote field id is that name.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { unsupported, type CustomFieldDefinitions, type SellCustomField } from './api';
import { asBoolean, asDate, asList, asNumber, asText } from '../custom-values';

const RESOURCE: Record<string, { resource: 'contact' | 'deal'; applies(f: SellCustomField): boolean }> = {
  'crm.contact': { resource: 'contact', applies: (f) => f.for_contact !== false },
  'crm.company': { resource: 'contact', applies: (f) => f.for_organization !== false },
  'crm.deal': { resource: 'deal', applies: () => true },
};

function badValue(def: SellCustomField, message: string): AppError {
  return new AppError('unprocessable', `field_mappings: Zendesk Sell field ${def.name}: ${message}`, { field: 'field_mappings', remote_field_id: def.name });
}

export function toSellValue(def: SellCustomField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const fail = (reason: string): never => {
    throw badValue(def, reason);
  };
  switch (def.type) {
    case 'number':
      return asNumber(value, false, fail);
    case 'bool':
      return asBoolean(value, fail);
    case 'date':
      return asDate(value, fail);
    case 'multi_select_list':
      return asList(value);
    default:
      return asText(value, fail);
  }
}

export async function customFieldsBody(defs: CustomFieldDefinitions, ctx: AdapterContext, objectType: string, values: CustomFieldValue[] | undefined): Promise<Record<string, unknown>> {
  if (!values || values.length === 0) return {};
  const r = RESOURCE[objectType];
  if (!r) throw unsupported('field_mappings', `custom fields of ${objectType} are not mapped for Zendesk Sell`);
  const out: Record<string, unknown> = {};
  for (const { remoteFieldId, value } of values) {
    const find = (list: SellCustomField[]) => list.find((f) => f.name === remoteFieldId && r.applies(f));
    const def = find(await defs.all(ctx, r.resource)) ?? find(await defs.all(ctx, r.resource, { fresh: true }));
    if (!def) throw new AppError('unprocessable', `field_mappings: Zendesk Sell has no ${objectType} custom field ${remoteFieldId}`, { field: 'field_mappings', remote_field_id: remoteFieldId });
    out[def.name] = toSellValue(def, value);
  }
  return { custom_fields: out };
}

export function customFieldSupport(defs: CustomFieldDefinitions): CustomFieldSupport {
  return {
    objectTypes: Object.keys(RESOURCE),
    async list(ctx, objectType): Promise<RemoteField[]> {
      const r = RESOURCE[objectType];
      if (!r) return [];
      return (await defs.all(ctx, r.resource, { fresh: true })).filter(r.applies).map((f) => ({ id: f.name, label: f.name, type: f.type ?? 'string', object_type: objectType }));
    },
    read: (_objectType, remoteData, fieldId) => (remoteData.custom_fields as Record<string, unknown> | undefined)?.[fieldId],
  };
}
