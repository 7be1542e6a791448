/**
 * Front custom fields for field mapping. Values live in `custom_fields`, an object keyed by the field's
 * *name* (not its id), on conversations (written too), contacts, accounts and teammates (read only). The
 * remote field id Omniport maps is therefore the field's name, as `GET /…/custom_fields` lists it.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { conversationCustomFields, listAll } from './api';
import type { FrCustomField } from './types';
import { PROVIDER, toSeconds } from './util';

const SOURCES: Record<string, string> = {
  'ticketing.ticket': '/conversations/custom_fields',
  'ticketing.contact': '/contacts/custom_fields',
  'ticketing.account': '/accounts/custom_fields',
  'ticketing.user': '/teammates/custom_fields',
};

async function list(ctx: AdapterContext, objectType: string): Promise<RemoteField[]> {
  const path = SOURCES[objectType];
  if (!path) return [];
  const fields = await listAll<FrCustomField>(ctx, path);
  return fields
    .filter((f) => typeof f.name === 'string' && f.name !== '')
    .map((f) => ({ id: f.name, label: f.description?.trim() || f.name, type: f.type ?? 'string', object_type: objectType }));
}

/** The raw value of a custom field (by name) in a stored Front object; undefined when it has none. */
export function readFrontCustomField(_objectType: string, remoteData: Record<string, unknown>, fieldId: string): unknown {
  const bag = remoteData.custom_fields;
  return bag && typeof bag === 'object' && !Array.isArray(bag) ? (bag as Record<string, unknown>)[fieldId] : undefined;
}

/**
 * Mapped values as Front's `custom_fields` object. Every name must be a conversation custom field of
 * the company (else 422 naming field_mappings); a date-time for a `datetime` field is sent as epoch
 * seconds, as Front stores it.
 */
export async function conversationCustomFieldValues(ctx: AdapterContext, values: CustomFieldValue[]): Promise<Record<string, unknown>> {
  if (values.length === 0) return {};
  const fields = await conversationCustomFields(ctx);
  const out: Record<string, unknown> = {};
  for (const v of values) {
    const field = fields.find((f) => f.name === v.remoteFieldId);
    if (!field) {
      throw new AppError('unsupported_by_provider', `field_mappings: Front has no conversation custom field named ${JSON.stringify(v.remoteFieldId)}`, {
        field: 'field_mappings',
        provider: PROVIDER,
      });
    }
    let value = v.value ?? null;
    if (field.type === 'datetime' && typeof value === 'string') value = Math.floor(toSeconds(value));
    out[field.name] = value;
  }
  return out;
}

export function frontCustomFields(): CustomFieldSupport {
  return { objectTypes: Object.keys(SOURCES), list, read: readFrontCustomField };
}
