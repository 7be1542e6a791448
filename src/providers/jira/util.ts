import { AppError } from '../../core/errors';

/**
 * A Jira timestamp (`2024-05-01T10:20:30.123+0000`) or date (`2024-05-01`, read as UTC midnight) as
 * a Date, or null.
 */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v === '') return null;
  const s = /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 text of a Jira timestamp or date, normalised; null when absent or unreadable. */
export function toIso(v: unknown): string | null {
  return toDate(v)?.toISOString() ?? null;
}

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A numeric Jira id (issue, project, comment, attachment) we were given as a remote id. */
export function jiraId(remoteId: string | number, field: string): string {
  const s = String(remoteId).trim();
  if (!/^\d{1,19}$/.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Jira id`, { field });
  return s;
}

/** Jira cannot take the field: answered as 422 with the field named, never dropped silently. */
export function unsupported(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: 'jira', ...extra });
}

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;
