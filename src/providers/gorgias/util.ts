import { AppError } from '../../core/errors';

export const PROVIDER = 'gorgias';

/**
 * A Gorgias datetime as a Date, or null. Gorgias writes most datetimes without a zone
 * (`2019-07-05T14:42:00.384938`, see the Ticket object reference); they are UTC, but JavaScript reads a
 * zoneless date-time as *local* time, so a `Z` is added before parsing. Microseconds are accepted.
 */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const s = v.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(s) || !/T\d{2}:\d{2}/.test(s) ? s : `${s}Z`;
  const d = new Date(zoned);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 text (UTC, with zone) of a Gorgias datetime; null when absent or unreadable. */
export function toIso(v: unknown): string | null {
  return toDate(v)?.toISOString() ?? null;
}

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A remote id we were given (as text) in the integer form Gorgias's JSON uses. */
export function ggId(remoteId: string | number, field: string): number {
  const s = String(remoteId).trim();
  if (!/^\d{1,15}$/.test(s) || Number(s) < 1) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Gorgias id`, { field });
  }
  return Number(s);
}

/** Gorgias cannot take the field: answered as 422 with the field named, never dropped silently. */
export function unsupported(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: PROVIDER, ...extra });
}

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;

/** Full name of a Gorgias person: `name`, else first and last name. */
export function personName(p: { name?: string | null; firstname?: string | null; lastname?: string | null } | null | undefined): string | null {
  if (!p) return null;
  const name = nonEmpty(p.name);
  if (name) return name;
  const joined = [p.firstname, p.lastname].filter((x) => typeof x === 'string' && x.trim() !== '').join(' ');
  return joined === '' ? null : joined;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Plain text → HTML paragraphs (blank lines separate paragraphs, single newlines become `<br>`). */
export function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/[&<>"']/g, (c) => ENTITIES[c]!).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** HTML → plain text, for the `body_text` Gorgias shows in notifications and search. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
