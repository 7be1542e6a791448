/**
 * Field mapping on Pipedrive: custom fields of persons, organizations and deals, keyed by their
 * 40-character hash. Listed from the `*Fields` endpoints, written in `custom_fields: {<hash>: value}`
 * (API v2) converted by the field's definition, and read from `remote_data.custom_fields` (fetched with
 * `include_option_labels=true`, so single and multiple options carry their labels).
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import type { FieldDefinitions, FieldEntity } from './api';
import type { PdFieldDef } from './types';
import { unsupported } from './util';

export const FIELD_ENTITY: Record<string, FieldEntity> = { 'crm.contact': 'person', 'crm.company': 'organization', 'crm.deal': 'deal' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOption = (v: unknown): v is { id: unknown; label: unknown } => isObject(v) && 'id' in v && 'label' in v;

/**
 * The value of a custom field as the core converts it to the attribute's type: an option's label (a
 * multiple-option field: the list of labels), a monetary field's amount, an address's formatted text,
 * anything else as Pipedrive stores it.
 */
export function readCustomValue(remoteData: Record<string, unknown>, fieldId: string): unknown {
  const custom = remoteData.custom_fields;
  if (!isObject(custom)) return undefined;
  const v = custom[fieldId];
  if (isOption(v)) return v.label;
  if (Array.isArray(v) && v.length > 0 && v.every(isOption)) return v.map((o) => o.label);
  if (isObject(v) && 'value' in v && 'currency' in v) return v.value;
  if (isObject(v) && typeof v.value === 'string') return v.value;
  return v;
}

/** A 422 for one mapped value, naming Pipedrive's field. */
function badValue(def: PdFieldDef, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unprocessable', `field_mappings: Pipedrive field "${def.field_name}" (${def.field_code}): ${message}`, {
    field: 'field_mappings',
    remote_field_id: def.field_code,
    ...extra,
  });
}

const numeric = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
};

function optionId(def: PdFieldDef, v: unknown): number | undefined {
  const options = def.options ?? [];
  if (typeof v === 'number') return options.find((o) => o.id === v)?.id;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    return options.find((o) => o.label.toLowerCase() === s)?.id ?? (/^\d+$/.test(s) ? options.find((o) => o.id === Number(s))?.id : undefined);
  }
  return undefined;
}

/** Thrown by `toPipedriveValue` when an option label is not known: the definitions are read again once. */
export class UnknownOption extends Error {}

/** A mapped value (already of the attribute's declared type) as the custom field's Pipedrive value. */
export function toPipedriveValue(def: PdFieldDef, value: unknown, opts: { currency?: string } = {}): unknown {
  if (value === null || value === undefined) return null;
  switch (def.field_type) {
    case 'double': {
      const n = numeric(value);
      if (n === undefined) throw badValue(def, 'expected a number');
      return n;
    }
    case 'int': {
      const n = numeric(value);
      if (n === undefined || !Number.isInteger(n)) throw badValue(def, 'expected an integer');
      return n;
    }
    case 'monetary': {
      if (isObject(value) && numeric(value.value) !== undefined) {
        return { value: numeric(value.value), ...(typeof value.currency === 'string' ? { currency: value.currency } : {}) };
      }
      const n = numeric(value);
      if (n === undefined) throw badValue(def, 'expected an amount (a number, or {value, currency})');
      return { value: n, ...(opts.currency ? { currency: opts.currency } : {}) };
    }
    case 'date': {
      const s = typeof value === 'string' ? value.slice(0, 10) : '';
      if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) throw badValue(def, 'expected a date (YYYY-MM-DD)');
      return s;
    }
    case 'time': {
      if (typeof value !== 'string' || !/^\d{2}:\d{2}(:\d{2})?$/.test(value)) throw badValue(def, 'expected a time (HH:MM)');
      return value.slice(0, 5);
    }
    case 'enum': {
      const id = optionId(def, value);
      if (id === undefined) throw new UnknownOption(JSON.stringify(value));
      return id;
    }
    case 'set': {
      const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : [value];
      if (list.length === 0) return null; // Pipedrive clears a multiple-option field with null, never []
      return list.map((v) => {
        const id = optionId(def, v);
        if (id === undefined) throw new UnknownOption(JSON.stringify(v));
        return id;
      });
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw badValue(def, 'expected a boolean');
    case 'user':
    case 'org':
    case 'people':
    case 'deal': {
      const n = numeric(value);
      if (n === undefined || !Number.isInteger(n)) throw badValue(def, 'expected the Pipedrive id of the linked object');
      return n;
    }
    case 'address':
      if (typeof value === 'string') return { value };
      if (isObject(value) && typeof value.value === 'string') return value;
      throw badValue(def, 'expected an address (text, or an object with value)');
    case 'varchar':
    case 'varchar_auto':
    case 'varchar_options':
    case 'text':
    case 'phone':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw badValue(def, 'expected text');
    default:
      return value;
  }
}

/** Mapped values → Pipedrive's `custom_fields` body member, converted by each field's definition. */
export async function customFieldsBody(
  defs: FieldDefinitions,
  ctx: AdapterContext,
  objectType: string,
  values: CustomFieldValue[] | undefined,
  opts: { currency?: string } = {},
): Promise<Record<string, unknown> | undefined> {
  if (!values || values.length === 0) return undefined;
  const entity = FIELD_ENTITY[objectType];
  if (!entity) throw unsupported('field_mappings', `Pipedrive has no custom fields on ${objectType}`);
  const out: Record<string, unknown> = {};
  for (const { remoteFieldId, value } of values) {
    const def = await defs.get(ctx, entity, remoteFieldId);
    if (!def) {
      throw new AppError('unprocessable', `field_mappings: Pipedrive has no ${entity} field ${remoteFieldId}`, {
        field: 'field_mappings',
        remote_field_id: remoteFieldId,
      });
    }
    if (def.is_custom_field === false) {
      throw unsupported('field_mappings', `${def.field_code} is a Pipedrive system field; only custom fields can be mapped`, { remote_field_id: remoteFieldId });
    }
    out[remoteFieldId] = await convert(defs, ctx, entity, def, value, opts);
  }
  return out;
}

async function convert(defs: FieldDefinitions, ctx: AdapterContext, entity: FieldEntity, def: PdFieldDef, value: unknown, opts: { currency?: string }) {
  try {
    return toPipedriveValue(def, value, opts);
  } catch (err) {
    if (!(err instanceof UnknownOption)) throw err;
  }
  // An option created since the definitions were read: read them again once.
  const fresh = (await defs.all(ctx, entity, { fresh: true })).get(def.field_code) ?? def;
  try {
    return toPipedriveValue(fresh, value, opts);
  } catch (err) {
    if (!(err instanceof UnknownOption)) throw err;
    const allowed = (fresh.options ?? []).map((o) => o.label);
    throw badValue(fresh, `${err.message} is not one of its options (${allowed.join(', ')})`, { allowed });
  }
}

/**
 * Whether an answer of a write holds option values without their labels (POST and PATCH take no
 * `include_option_labels`): then the object is read again with labels, so `remote_data` matches sync.
 */
export function hasBareOptions(customFields: unknown, known: Map<string, PdFieldDef> | undefined): boolean {
  if (!isObject(customFields)) return false;
  return Object.entries(customFields).some(([code, v]) => {
    if (v === null || v === undefined) return false;
    const def = known?.get(code);
    if (def) return def.field_type === 'enum' || def.field_type === 'set';
    return typeof v === 'number' || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number'));
  });
}

export function customFieldSupport(defs: FieldDefinitions): CustomFieldSupport {
  return {
    objectTypes: Object.keys(FIELD_ENTITY),
    async list(ctx, objectType): Promise<RemoteField[]> {
      const entity = FIELD_ENTITY[objectType];
      if (!entity) return [];
      const all = await defs.all(ctx, entity, { fresh: true });
      return [...all.values()]
        .filter((f) => f.is_custom_field === true)
        .map((f) => ({ id: f.field_code, label: f.field_name, type: f.field_type, object_type: objectType }));
    },
    read: (_objectType, remoteData, fieldId) => readCustomValue(remoteData, fieldId),
  };
}
