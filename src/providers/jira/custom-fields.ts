/**
 * Jira custom fields for field mapping: issue fields `customfield_NNNNN` (listed by `GET /rest/api/3/field`),
 * written in `fields` of create and edit in the shape their type needs, and read back from the issue's
 * `fields` as plain values. Only tickets (issues) have custom fields.
 */
import type { AdapterContext, CustomFieldSupport, CustomFieldValue, RemoteField } from '../types';
import { adfToText, isAdfDoc, textToAdf } from './adf';
import { fieldDefinitions, type ResolvedOptions } from './api';
import type { JiraFieldDefinition } from './types';
import { unsupported } from './util';

/** The short type of a field: the custom type key (`textfield`, `select`, …) or the schema type. */
export function fieldType(def: JiraFieldDefinition): string {
  const custom = def.schema?.custom;
  if (custom) return custom.slice(custom.lastIndexOf(':') + 1);
  const t = def.schema?.type ?? 'any';
  return t === 'array' && def.schema?.items ? `array<${def.schema.items}>` : t;
}

async function list(ctx: AdapterContext, objectType: string, o: ResolvedOptions): Promise<RemoteField[]> {
  if (objectType !== 'ticketing.ticket') return [];
  const defs = await fieldDefinitions(ctx, o);
  return defs.filter((d) => d.custom === true && typeof d.id === 'string').map((d) => ({ id: d.id, label: d.name ?? d.id, type: fieldType(d), object_type: objectType }));
}

/**
 * A Jira field value as a plain value: ADF (multi-line text) → its text; options → their value;
 * users → their account id; named objects (versions, groups, components) → their name; arrays item
 * by item. `undefined` when the issue has no such field.
 */
export function plainCustomValue(v: unknown): unknown {
  if (v === null || v === undefined) return v;
  if (Array.isArray(v)) return v.map(plainCustomValue);
  if (isAdfDoc(v)) return adfToText(v);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('value' in o) return o.value;
    if (typeof o.accountId === 'string') return o.accountId;
    if (typeof o.name === 'string') return o.name;
    if (typeof o.id === 'string' || typeof o.id === 'number') return o.id;
  }
  return v;
}

/** The raw value of a custom field in a stored Jira issue, as a plain value; undefined when absent. */
export function readJiraCustomField(objectType: string, remoteData: Record<string, unknown>, fieldId: string): unknown {
  if (objectType !== 'ticketing.ticket') return undefined;
  const fields = remoteData.fields;
  if (!fields || typeof fields !== 'object') return undefined;
  return plainCustomValue((fields as Record<string, unknown>)[fieldId]);
}

const wrap = (v: unknown) => (Array.isArray(v) ? v : [v]);

/** A datetime in the form Jira's datetime fields take (`2024-05-01T10:20:30.000+0000`). */
function jiraDateTime(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? v : d.toISOString().replace(/Z$/, '+0000');
}

/** A plain value in the shape the field's type takes on create and edit. */
export function shapeCustomValue(def: JiraFieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const type = def.schema?.type;
  const items = def.schema?.items;
  const custom = def.schema?.custom ?? '';
  if (type === 'string') {
    // Multi-line text fields take ADF in REST v3.
    if (custom.endsWith(':textarea') && typeof value === 'string') return textToAdf(value);
    return value;
  }
  if (type === 'date') return typeof value === 'string' ? value.slice(0, 10) : value;
  if (type === 'datetime') return jiraDateTime(value);
  if (type === 'option') return typeof value === 'object' ? value : { value: String(value) };
  if (type === 'option-with-child') return typeof value === 'object' ? value : { value: String(value) };
  if (type === 'user') return typeof value === 'object' ? value : { accountId: String(value) };
  if (type === 'group' || type === 'version') return typeof value === 'object' ? value : { name: String(value) };
  if (type === 'project') return typeof value === 'object' ? value : { id: String(value) };
  if (type === 'array') {
    if (items === 'option') return wrap(value).map((x) => (typeof x === 'object' && x !== null ? x : { value: String(x) }));
    if (items === 'user') return wrap(value).map((x) => (typeof x === 'object' && x !== null ? x : { accountId: String(x) }));
    if (items === 'group' || items === 'version' || items === 'component') return wrap(value).map((x) => (typeof x === 'object' && x !== null ? x : { name: String(x) }));
    return wrap(value);
  }
  return value;
}

/** Custom field values as `fields` entries; a field the site does not have is refused (422). */
export async function customFieldEntries(ctx: AdapterContext, o: ResolvedOptions, values: CustomFieldValue[] | undefined): Promise<Record<string, unknown>> {
  if (!values?.length) return {};
  const defs = new Map((await fieldDefinitions(ctx, o)).map((d) => [d.id, d]));
  const out: Record<string, unknown> = {};
  for (const v of values) {
    const def = defs.get(v.remoteFieldId);
    if (!def || def.custom !== true) throw unsupported('field_mappings', `Jira has no custom field ${JSON.stringify(v.remoteFieldId)} (map a customfield_NNNNN id from GET /field-mapping/remote-fields)`);
    out[def.id] = shapeCustomValue(def, v.value);
  }
  return out;
}

export function jiraCustomFields(o: ResolvedOptions): CustomFieldSupport {
  return {
    objectTypes: ['ticketing.ticket'],
    list: (ctx, objectType) => list(ctx, objectType, o),
    read: readJiraCustomField,
  };
}
