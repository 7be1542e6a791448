/**
 * Field mapping on Dynamics: the custom columns (publisher-prefixed, `IsCustomAttribute`) of contacts,
 * accounts (companies) and opportunities (deals), listed from the table's metadata, read from the row's own
 * column, converted by the column's AttributeType when written.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { unsupported, type Column, type Metadata } from './api';
import { asBoolean, asDateTime, asNumber, asText } from '../custom-values';

export const FIELD_TABLE: Record<string, string> = { 'crm.contact': 'contact', 'crm.company': 'account', 'crm.deal': 'opportunity' };

function badValue(c: Column, message: string): AppError {
  return new AppError('unprocessable', `field_mappings: Dynamics column ${c.LogicalName}: ${message}`, { field: 'field_mappings', remote_field_id: c.LogicalName });
}

/** A mapped value (already of the attribute's declared type) as the column's Web API value. */
export function toDynamicsValue(c: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const fail = (reason: string): never => {
    throw badValue(c, reason);
  };
  switch (c.AttributeType) {
    case 'Integer':
    case 'BigInt':
    case 'Picklist':
    case 'State':
    case 'Status':
    case 'Decimal':
    case 'Double':
    case 'Money':
      return asNumber(value, ['Integer', 'BigInt', 'Picklist', 'State', 'Status'].includes(c.AttributeType), fail);
    case 'Boolean':
      return asBoolean(value, fail);
    case 'DateTime':
      // A date-only column takes the date as given.
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : asDateTime(value, fail).toISOString();
    case 'String':
    case 'Memo':
    case undefined:
      return asText(value, fail);
    default:
      return fail(`${c.AttributeType} columns are not written through field mapping`);
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
