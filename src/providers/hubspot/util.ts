import { AppError } from '../../core/errors';
import type { HsProperties } from './types';

export const PROVIDER = 'hubspot';

/** A HubSpot date value (ISO 8601 or epoch milliseconds, as a string or number) as a Date, or null. */
export function toDate(v: unknown): Date | null {
  if (v === null || v === undefined || v === '') return null;
  const s = String(v).trim();
  const d = /^-?\d+$/.test(s) ? new Date(Number(s)) : new Date(s.length === 10 ? `${s}T00:00:00Z` : s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 text of a HubSpot date value; null when absent or unreadable. */
export function toIso(v: unknown): string | null {
  return toDate(v)?.toISOString() ?? null;
}

/** A non-empty string, else null. */
export const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A property value: null when absent or empty (HubSpot returns "" for cleared values in places). */
export const prop = (p: HsProperties | undefined, name: string): string | null => text(p?.[name]);

/** HubSpot cannot hold this: a 422 naming the field, never a silent drop. */
export function unsupported(field: string, message: string): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: PROVIDER });
}

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
