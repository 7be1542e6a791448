import { AppError } from '../../core/errors';

/** A Zendesk timestamp (`2024-05-01T10:20:30Z`) as a Date, or null. */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v === '') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 text of a Zendesk timestamp, normalised; null when absent or unreadable. */
export function toIso(v: unknown): string | null {
  return toDate(v)?.toISOString() ?? null;
}

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A remote id we were given (as text) in the numeric form Zendesk's JSON uses. */
export function zdId(remoteId: string | number, field: string): number {
  const s = String(remoteId).trim();
  if (!/^\d{1,16}$/.test(s) || !Number.isSafeInteger(Number(s))) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Zendesk id`, { field });
  }
  return Number(s);
}

/** Zendesk refuses the field: answered as 422 with the field named, never dropped silently. */
export function unsupported(field: string, message: string): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: 'zendesk' });
}

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;
