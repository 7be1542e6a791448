import { AppError } from '../../core/errors';
import type { HsProperties } from './types';
import { fromEpochMs, nonEmpty, toDate, unsupportedBy } from '../kit';
export { nonEmpty } from '../kit';

export const PROVIDER = 'hubspot';

/** A HubSpot date value (epoch milliseconds as a number or digits, or ISO 8601 / a date alone) as a Date, or null. */
export const hubspotDate = (v: unknown): Date | null => fromEpochMs(v) ?? toDate(v);

/** ISO 8601 text of a HubSpot date value; null when absent or unreadable. */
export const hubspotIso = (v: unknown): string | null => hubspotDate(v)?.toISOString() ?? null;

/** A property value: null when absent or empty (HubSpot returns "" for cleared values in places). */
export const prop = (p: HsProperties | undefined, name: string): string | null => nonEmpty(p?.[name]);

/** What the product cannot store: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy(PROVIDER);

/** A remote id as HubSpot's ids look (digits); anything else cannot exist in HubSpot. */
export function hsId(remoteId: string, field: string): string {
  const s = String(remoteId).trim();
  if (!/^\d{1,20}$/.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a HubSpot id`, { field });
  return s;
}

/**
 * A value for a HubSpot property: every value travels as a string. Booleans as `true`/`false`, numbers
 * as written, JSON values serialised, null as the empty string (which clears the property).
 */
export function propertyValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** An ISO date-time for a HubSpot datetime property; a date alone is midnight UTC. */
export function dateTimeValue(v: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : new Date(v).toISOString();
}
