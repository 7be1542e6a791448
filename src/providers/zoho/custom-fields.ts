/**
 * Field mapping on Zoho CRM: the custom fields of Contacts, Accounts (companies) and Deals, listed from
 * the module's field definitions (`/settings/fields`), read from and written to the record's own field
 * (its API name), converted by the field's data type.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { unsupported, zohoDateTime, type FieldDefinitions, type ZField } from './api';

export const FIELD_MODULE: Record<string, string> = { 'crm.contact': 'Contacts', 'crm.company': 'Accounts', 'crm.deal': 'Deals' };

function badValue(def: ZField, message: string): AppError {
  return new AppError('unprocessable', `field_mappings: Zoho CRM field ${def.api_name}: ${message}`, { field: 'field_mappings', remote_field_id: def.api_name });
}

/** A mapped value (already of the attribute's declared type) as the field's Zoho value. */
export function toZohoValue(def: ZField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (def.data_type) {
    case 'integer':
    case 'bigint':
    case 'double':
    case 'currency':
    case 'decimal':
    case 'percent': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      const whole = def.data_type === 'integer' || def.data_type === 'bigint';
      if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) throw badValue(def, `expected ${whole ? 'an integer' : 'a number'}`);
      return n;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw badValue(def, 'expected true or false');
      return value;
    case 'date': {
      const s = typeof value === 'string' ? value.slice(0, 10) : '';
      if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) throw badValue(def, 'expected a date (YYYY-MM-DD)');
      return s;
    }
    case 'datetime':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw badValue(def, 'expected a date-time');
      return zohoDateTime(new Date(value));
    case 'multiselectpicklist':
      return (Array.isArray(value) ? value : [value]).map(String);
    default:
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw badValue(def, 'expected text');
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
