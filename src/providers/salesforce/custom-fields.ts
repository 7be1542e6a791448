/**
 * Field mapping on Salesforce: the custom fields (`…__c`) of Contacts, Accounts (companies) and
 * Opportunities (deals), listed from the sObject describe, read from and written to the record's own
 * field, converted by the field's type.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { unsupported, type Describes, type SfField } from './api';

export const FIELD_SOBJECT: Record<string, string> = { 'crm.contact': 'Contact', 'crm.company': 'Account', 'crm.deal': 'Opportunity' };

const isCustom = (f: SfField) => f.custom === true || f.name.endsWith('__c');

function badValue(def: SfField, message: string): AppError {
  return new AppError('unprocessable', `field_mappings: Salesforce field ${def.name}: ${message}`, { field: 'field_mappings', remote_field_id: def.name });
}

/** A mapped value (already of the attribute's declared type) as the field's Salesforce value. */
export function toSalesforceValue(def: SfField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (def.type) {
    case 'double':
    case 'currency':
    case 'percent':
    case 'int': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n) || (def.type === 'int' && !Number.isInteger(n))) throw badValue(def, `expected ${def.type === 'int' ? 'an integer' : 'a number'}`);
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
      return new Date(value).toISOString();
    case 'multipicklist':
      // Values separated by semicolons.
      return (Array.isArray(value) ? value : [value]).map(String).join(';');
    default:
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw badValue(def, 'expected text');
  }
}

/** Mapped values → record fields. */
export async function customFieldsBody(describes: Describes, ctx: AdapterContext, objectType: string, values: CustomFieldValue[] | undefined): Promise<Record<string, unknown>> {
  if (!values || values.length === 0) return {};
  const sobject = FIELD_SOBJECT[objectType];
  if (!sobject) throw unsupported('field_mappings', `custom fields of ${objectType} are not mapped for Salesforce`);
  const out: Record<string, unknown> = {};
  for (const { remoteFieldId, value } of values) {
    let def = (await describes.fields(ctx, sobject)).get(remoteFieldId);
    def ??= (await describes.fields(ctx, sobject, { fresh: true })).get(remoteFieldId);
    if (!def || !isCustom(def)) {
      throw new AppError('unprocessable', `field_mappings: the Salesforce ${sobject} has no custom field ${remoteFieldId}`, { field: 'field_mappings', remote_field_id: remoteFieldId });
    }
    out[def.name] = toSalesforceValue(def, value);
  }
  return out;
}

export function customFieldSupport(describes: Describes): CustomFieldSupport {
  return {
    objectTypes: Object.keys(FIELD_SOBJECT),
    async list(ctx, objectType): Promise<RemoteField[]> {
      const sobject = FIELD_SOBJECT[objectType];
      if (!sobject) return [];
      const fields = await describes.fields(ctx, sobject, { fresh: true });
      return [...fields.values()].filter(isCustom).map((f) => ({ id: f.name, label: f.label ?? f.name, type: f.type ?? 'string', object_type: objectType }));
    },
    read: (_objectType, remoteData, fieldId) => remoteData[fieldId],
  };
}
