/**
 * Field mapping on Dynamics: the custom columns (publisher-prefixed, `IsCustomAttribute`) of contacts,
 * accounts (companies) and opportunities (deals), listed from the table's metadata, read from the row's own
 * column, converted by the column's AttributeType when written.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { unsupported, type Column, type Metadata } from './api';

export const FIELD_TABLE: Record<string, string> = { 'crm.contact': 'contact', 'crm.company': 'account', 'crm.deal': 'opportunity' };

function badValue(c: Column, message: string): AppError {
  return new AppError('unprocessable', `field_mappings: Dynamics column ${c.LogicalName}: ${message}`, { field: 'field_mappings', remote_field_id: c.LogicalName });
}

/** A mapped value (already of the attribute's declared type) as the column's Web API value. */
export function toDynamicsValue(c: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (c.AttributeType) {
    case 'Integer':
    case 'BigInt':
    case 'Picklist':
    case 'State':
    case 'Status':
    case 'Decimal':
    case 'Double':
    case 'Money': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      const integer = ['Integer', 'BigInt', 'Picklist', 'State', 'Status'].includes(c.AttributeType);
      if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) throw badValue(c, `expected ${integer ? 'an integer' : 'a number'}`);
      return n;
    }
    case 'Boolean':
      if (typeof value !== 'boolean') throw badValue(c, 'expected true or false');
      return value;
    case 'DateTime':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw badValue(c, 'expected a date-time');
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : new Date(value).toISOString();
    case 'String':
    case 'Memo':
    case undefined:
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw badValue(c, 'expected text');
    default:
      throw badValue(c, `${c.AttributeType} columns are not written through field mapping`);
  }
}

/** Mapped values → row columns. */
export async function customFieldsBody(metadata: Metadata, ctx: AdapterContext, objectType: string, values: CustomFieldValue[] | undefined): Promise<Record<string, unknown>> {
  if (!values || values.length === 0) return {};
  const table = FIELD_TABLE[objectType];
  if (!table) throw unsupported('field_mappings', `custom fields of ${objectType} are not mapped for Dynamics`);
  const out: Record<string, unknown> = {};
  for (const { remoteFieldId, value } of values) {
    let c = (await metadata.columns(ctx, table)).get(remoteFieldId);
    c ??= (await metadata.columns(ctx, table, { fresh: true })).get(remoteFieldId);
    if (!c || c.IsCustomAttribute !== true) {
      throw new AppError('unprocessable', `field_mappings: the Dynamics ${table} table has no custom column ${remoteFieldId}`, { field: 'field_mappings', remote_field_id: remoteFieldId });
    }
    out[c.LogicalName] = toDynamicsValue(c, value);
  }
  return out;
}

export function customFieldSupport(metadata: Metadata): CustomFieldSupport {
  return {
    objectTypes: Object.keys(FIELD_TABLE),
    async list(ctx, objectType): Promise<RemoteField[]> {
      const table = FIELD_TABLE[objectType];
      if (!table) return [];
      await metadata.columns(ctx, table, { fresh: true });
      return (await metadata.custom(ctx, table)).map((c) => ({ id: c.LogicalName, label: c.DisplayName?.UserLocalizedLabel?.Label ?? c.LogicalName, type: c.AttributeType ?? 'String', object_type: objectType }));
    },
    // A custom lookup column is read as `_<name>_value` (its row's id).
    read: (_objectType, remoteData, fieldId) => remoteData[fieldId] ?? remoteData[`_${fieldId}_value`],
  };
}
