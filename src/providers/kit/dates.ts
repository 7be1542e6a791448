/**
 * Provider times, read one way for every provider. Text times are ISO 8601 or the close variants products
 * write; every one without a zone is UTC, as each product documents its API times (JavaScript would read a
 * zoneless date-time as *local* time):
 * - `2024-05-01T10:20:30Z`, `…+02:00`, `…+0200` (Jira), fractions of any length (Close, Gorgias: microseconds);
 * - `2024-05-01T10:20:30.384938` (Gorgias), `2024-05-01 10:20:30` (ServiceNow, Pipedrive v1): UTC;
 * - `2024-05-01` (a date alone, Jira and HubSpot dates): midnight UTC.
 * Numbers are epoch times and have their own readers, since a product says which unit it uses.
 * An absent, blank or unreadable value is `null`, never an invalid Date.
 */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string') return null;
  let s = v.trim();
  if (s === '') return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) s = `${s}T00:00:00Z`;
  else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s)) {
    s = s.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
    if (!/(Z|[+-]\d{2}:\d{2})$/i.test(s)) s = `${s}Z`;
  }
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 text (UTC, milliseconds) of a provider time; null when absent or unreadable. */
export const toIso = (v: unknown): string | null => toDate(v)?.toISOString() ?? null;

/** An epoch time in milliseconds (a number, or digits as text: ClickUp, HubSpot) as a Date; null otherwise. */
export function fromEpochMs(v: unknown): Date | null {
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : typeof v === 'number' ? v : NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  const d = new Date(n);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An epoch time in seconds, fractions allowed (Front, Intercom), as a Date; null otherwise. */
export const fromEpochSeconds = (v: unknown): Date | null =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? fromEpochMs(Math.round(v * 1000)) : null;

/** A time as whole epoch seconds (rounded down), as Intercom and Front filters take it. */
export const toEpochSeconds = (d: Date | string): number => Math.floor(new Date(d).getTime() / 1000);

/** ISO 8601 to the second, rounded down (`2024-05-01T10:20:30Z`): the `since` form many APIs document. */
export const isoSeconds = (d: Date): string => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
