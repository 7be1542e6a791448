/**
 * Field mapping on Close: custom fields of contacts, leads (companies) and opportunities (deals), by their
 * `cf_…` id. Listed from `/custom_field/{type}/`, read from and written to the object's top-level
 * `custom.cf_…` keys, converted by the field's type.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import type { FieldDefinitions, FieldEntity } from './api';
import type { CloseCustomField } from './types';
import { unsupported } from './util';

export const FIELD_ENTITY: Record<string, FieldEntity> = { 'crm.contact': 'contact', 'crm.company': 'lead', 'crm.deal': 'opportunity' };

const key = (id: string) => `custom.${id}`;

function badValue(def: CloseCustomField, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unprocessable', `field_mappings: Close field "${def.name ?? def.id}" (${def.id}): ${message}`, {
    field: 'field_mappings',
    remote_field_id: def.id,
    ...extra,
  });
}

/** A mapped value (already of the attribute's declared type) as the custom field's Close value. */
export function toCloseValue(def: CloseCustomField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const many = def.accepts_multiple_values === true;
  const one = (v: unknown): unknown => {
    switch (def.type) {
      case 'number': {
        const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        if (!Number.isFinite(n)) throw badValue(def, 'expected a number');
        return n;
      }
      case 'date': {
        const s = typeof v === 'string' ? v.slice(0, 10) : '';
        if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) throw badValue(def, 'expected a date (YYYY-MM-DD)');
        return s;
      }
      case 'datetime':
        if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw badValue(def, 'expected a date-time');
        return new Date(v).toISOString();
      case 'choices': {
        const choice = (def.choices ?? []).find((c) => c.toLowerCase() === String(v).trim().toLowerCase());
        if (choice === undefined) throw badValue(def, `${JSON.stringify(v)} is not one of its choices (${(def.choices ?? []).join(', ')})`, { allowed: def.choices ?? [] });
        return choice;
      }
      default:
        if (typeof v === 'string') return v;
        if (typeof v === 'number' || typeof v === 'boolean') return String(v);
        throw badValue(def, 'expected text');
    }
  };
  if (many) return (Array.isArray(value) ? value : [value]).map(one);
  if (Array.isArray(value)) throw badValue(def, 'takes one value');
  return one(value);
}

/** Mapped values → `custom.cf_…` body members. */
export async function customFieldsBody(
  defs: FieldDefinitions,
  ctx: AdapterContext,
  objectType: string,
  values: CustomFieldValue[] | undefined,
): Promise<Record<string, unknown>> {
  if (!values || values.length === 0) return {};
  const entity = FIELD_ENTITY[objectType];
  if (!entity) throw unsupported('field_mappings', `Close has no custom fields on ${objectType} here`);
  const out: Record<string, unknown> = {};
  for (const { remoteFieldId, value } of values) {
    const def = await defs.get(ctx, entity, remoteFieldId);
    if (!def) {
      throw new AppError('unprocessable', `field_mappings: Close has no ${entity} custom field ${remoteFieldId}`, { field: 'field_mappings', remote_field_id: remoteFieldId });
    }
    out[key(remoteFieldId)] = toCloseValue(def, value);
  }
  return out;
}

export function customFieldSupport(defs: FieldDefinitions): CustomFieldSupport {
  return {
    objectTypes: Object.keys(FIELD_ENTITY),
    async list(ctx, objectType): Promise<RemoteField[]> {
      const entity = FIELD_ENTITY[objectType];
      if (!entity) return [];
      const all = await defs.all(ctx, entity, { fresh: true });
      return [...all.values()].map((f) => ({ id: f.id, label: f.name ?? f.id, type: f.type ?? 'text', object_type: objectType }));
    },
    read: (_objectType, remoteData, fieldId) => remoteData[key(fieldId)],
  };
}
