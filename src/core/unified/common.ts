import { z } from 'zod';

/** Fields every unified object carries in responses. */
export const unifiedMeta = {
  id: z.string().describe('Omniport’s id of the object.'),
  remote_id: z.string().describe('The id of the object in the provider.'),
  remote_data: z.record(z.string(), z.unknown()).nullable().optional().describe('The provider’s original object (with remote_data=true).'),
  field_mappings: z.record(z.string(), z.unknown()).describe('Values of the project’s custom attributes mapped for this object.'),
  created_at: z.string().nullable().describe('When the object entered Omniport’s store (ISO 8601); `created_after` / `created_before` filter on it.'),
  modified_at: z
    .string()
    .nullable()
    .describe('When the object last changed in Omniport’s store: created, a unified field changed, deleted or restored (ISO 8601); `modified_after` / `modified_before` filter on it.'),
  remote_created_at: z.string().nullable().describe('When the object was created in the provider, if it says (ISO 8601); `remote_created_after` / `_before` filter on it.'),
  remote_updated_at: z.string().nullable().describe('When the object last changed in the provider, if it says (ISO 8601); `remote_updated_after` / `_before` filter on it.'),
  remote_was_deleted: z.boolean().describe('True once the provider no longer has the object.'),
};

/**
 * Dates a client may send: years 1900 to 9999 (UTC). Wider ISO 8601 text (year 0000, five-digit years)
 * is not a date PostgreSQL, JavaScript and every provider agree on.
 */
export const DATE_RANGE = { min: Date.UTC(1900, 0, 1), max: Date.UTC(10000, 0, 1) - 1 } as const;
const inDateRange = (value: string) => {
  const time = Date.parse(value);
  return time >= DATE_RANGE.min && time <= DATE_RANGE.max;
};
const dateRangeError = 'must be between 1900-01-01 and 9999-12-31 (UTC)';

export const isoDateTime = z.iso.datetime({ offset: true }).refine(inDateRange, dateRangeError);
/** A calendar date (YYYY-MM-DD) in the same range. */
export const isoDate = z.iso.date().refine(inDateRange, dateRangeError);

/** An upper-case enumeration whose error lists the allowed values. */
export function upperEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: () => `must be one of ${values.join(', ')}` });
}

export const fieldMappingsInput = z.record(z.string(), z.unknown()).optional().describe('Values for custom attributes mapped with /field-mapping.');
