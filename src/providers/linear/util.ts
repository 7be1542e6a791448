import { AppError } from '../../core/errors';

/** A Linear timestamp (`2024-05-01T10:20:30.000Z`) as a Date, or null. */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v === '') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 text of a Linear timestamp, normalised; null when absent or unreadable. */
export function toIso(v: unknown): string | null {
  return toDate(v)?.toISOString() ?? null;
}

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** Linear cannot take the field: answered as 422 with the field named, never dropped silently. */
export function unsupported(field: string, message: string): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: 'linear' });
}

/** Linear ids are UUIDs; anything else given as a remote id cannot name a Linear object. */
export function linearId(remoteId: string, field: string): string {
  const s = String(remoteId).trim();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Linear id`, { field });
  }
  return s;
}

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;
