/**
 * Field mapping on Attio: the workspace's own attributes (not system ones) of people, companies and deals,
 * by slug, read from and written to `values.{slug}`.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue } from '../types';
import { attributes, first, unsupported, type AttioObject, type Cache } from './api';

export const FIELD_OBJECT: Record<string, AttioObject> = { 'crm.contact': 'people', 'crm.company': 'companies', 'crm.deal': 'deals' };

/** Mapped values → `values` members (Attio takes plain values for text, number, checkbox, date, timestamp, select). */
export async function customValues(cache: Cache, ctx: AdapterContext, objectType: string, values: CustomFieldValue[] | undefined): Promise<Record<string, unknown>> {
  if (!values?.length) return {};
  const object = FIELD_OBJECT[objectType];
  if (!object) throw unsupported('field_mappings', `Attio has no custom attributes on ${objectType} here`);
  const out: Record<string, unknown> = {};
  for (const { remoteFieldId, value } of values) {
    const def = (await attributes(cache, ctx, object)).get(remoteFieldId) ?? (await attributes(cache, ctx, object, true)).get(remoteFieldId);
    if (!def || def.is_system_attribute) {
      throw new AppError('unprocessable', `field_mappings: Attio ${object} have no custom attribute ${remoteFieldId}`, { field: 'field_mappings', remote_field_id: remoteFieldId });
    }
    out[def.api_slug] = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  }
  return out;
}

export function customFieldSupport(cache: Cache): CustomFieldSupport {
  return {
    objectTypes: Object.keys(FIELD_OBJECT),
    async list(ctx, objectType) {
      const object = FIELD_OBJECT[objectType];
      if (!object) return [];
      return [...(await attributes(cache, ctx, object, true)).values()]
        .filter((a) => !a.is_system_attribute)
        .map((a) => ({ id: a.api_slug, label: a.title ?? a.api_slug, type: a.type ?? 'text', object_type: objectType }));
    },
    read(_objectType, remoteData, fieldId) {
      const v = first(remoteData as { values?: Record<string, never> }, fieldId);
      if (!v) return undefined;
      if ('value' in v) return v.value;
      if ('option' in v) return (v.option as { title?: string } | null)?.title;
      if ('currency_value' in v) return v.currency_value;
      return undefined;
    },
  };
}
