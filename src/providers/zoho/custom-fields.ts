/**
 * Field mapping on Zoho CRM: the custom fields of Contacts, Accounts (companies) and Deals, listed from
 * the module's field definitions (`/settings/fields`), read from and written to the record's own field
 * (its API name), converted by the field's data type.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { unsupported, zohoDateTime, type FieldDefinitions, type ZField } from './api';
import { asBoolean, asDate, asDateTime, asList, asNumber, asText } from '../custom-values';

export const FIELD_MODULE: Record<string, string> = { 'crm.contact': 'Contacts', 'crm.company': 'Accounts', 'crm.deal': 'Deals' };

function badValue(def: ZField, message: string): AppError {
  return new AppError('unprocessable', `field_mappings: Zoho CRM field ${def.api_name}: ${message}`, { field: 'field_mappings', remote_field_id: def.api_name });
}

/** A mapped value (already of the attribute's declared type) as the field's Zoho value. */
export function toZohoValue(def: ZField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const fail = (reason: string): never => {
    throw badValue(def, reason);
  };
  switch (def.data_type) {
    case 'integer':
    case 'bigint':
    case 'double':
    case 'currency':
    case 'decimal':
    case 'percent':
      return asNumber(value, def.data_type === 'integer' || def.data_type === 'bigint', fail);
    case 'boolean':
      return asBoolean(value, fail);
    case 'date':
      return asDate(value, fail);
    case 'datetime':
      return zohoDateTime(asDateTime(value, fail));
    case 'multiselectpicklist':
      return asList(value);
    default:
      return asText(value, fail);
  }
}

/** Mapped values → record fields. */
export async function customFieldsBody(defs: FieldDefinitions, ctx: AdapterContext, objectType: string, values: CustomFieldValue[] | undefined): Promise<Record<string, unknown>> {
  if (!values || values.length === 0) return {};
  const module = FIELD_MODULE[objectType];
  if (!module) throw unsupported('field_mappings', `custom fields of ${objectType} are not mapped for Zoho CRM`);
  const out: Record<string, unknown> = {};
  for (const { remoteFieldId, value } of values) {
    let def = (await defs.all(ctx, module)).get(remoteFieldId);
    def ??= (await defs.all(ctx, module, { fresh: true })).get(remoteFieldId);
    if (!def || def.custom_field !== true) {
      throw new AppError('unprocessable', `field_mappings: the Zoho CRM ${module} module has no custom field ${remoteFieldId}`, { field: 'field_mappings', remote_field_id: remoteFieldId });
    }
    out[def.api_name] = toZohoValue(def, value);
  }
  return out;
}

export function customFieldSupport(defs: FieldDefinitions): CustomFieldSupport {
  return {
    objectTypes: Object.keys(FIELD_MODULE),
    async list(ctx, objectType): Promise<RemoteField[]> {
      const module = FIELD_MODULE[objectType];
      if (!module) return [];
      const fields = await defs.all(ctx, module, { fresh: true });
      return [...fields.values()].filter((f) => f.custom_field === true).map((f) => ({ id: f.api_name, label: f.field_label ?? f.api_name, type: f.data_type ?? 'text', object_type: objectType }));
    },
    read: (_objectType, remoteData, fieldId) => remoteData[fieldId],
  };
}
