/**
 * Field mapping on Salesforce: the custom fields (`…__c`) of Contacts, Accounts (companies) and
 * Opportunities (deals), listed from the sObject describe, read from and written to the record's own
 * field, converted by the field's type.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { unsupported, type Describes, type SfField } from './api';
import { asBoolean, asDate, asDateTime, asList, asNumber, asText } from '../custom-values';

export const FIELD_SOBJECT: Record<string, string> = { 'crm.contact': 'Contact', 'crm.company': 'Account', 'crm.deal': 'Opportunity' };

const isCustom = (f: SfField) => f.custom === true || f.name.endsWith('__c');

function badValue(def: SfField, message: string): AppError {
  return new AppError('unprocessable', `field_mappings: Salesforce field ${def.name}: ${message}`, { field: 'field_mappings', remote_field_id: def.name });
}

/** A mapped value (already of the attribute's declared type) as the field's Salesforce value. */
export function toSalesforceValue(def: SfField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const fail = (reason: string): never => {
    throw badValue(def, reason);
  };
  switch (def.type) {
    case 'double':
    case 'currency':
    case 'percent':
    case 'int':
      return asNumber(value, def.type === 'int', fail);
    case 'boolean':
      return asBoolean(value, fail);
    case 'date':
      return asDate(value, fail);
    case 'datetime':
      return asDateTime(value, fail).toISOString();
    case 'multipicklist':
      // Values separated by semicolons.
      return asList(value).join(';');
    default:
      return asText(value, fail);
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
