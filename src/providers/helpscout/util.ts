import { AppError } from '../../core/errors';
import { unsupportedBy } from '../unsupported';

export const PROVIDER = 'helpscout';

/** Help Scout cannot take the field: answered as 422 with the field named, never dropped silently. */
export const unsupported = unsupportedBy(PROVIDER);

/** A Help Scout datetime (ISO 8601 UTC, `2012-07-24T20:18:33Z`) as a Date, or null. */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

export const toIso = (v: unknown): string | null => toDate(v)?.toISOString() ?? null;

/** To the second, as Help Scout reads `modifiedSince`. */
export const hsTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;

/** A remote id we were given (as text) in the integer form Help Scout's JSON uses. */
export function hsId(remoteId: string | number, field: string): number {
  const s = String(remoteId).trim();
  if (!/^\d{1,15}$/.test(s) || Number(s) < 1) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Help Scout id`, { field });
  return Number(s);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Plain text paragraphs → thread HTML (one `<p>` each). */
export const paragraphsToHtml = (paragraphs: string[]) => paragraphs.map((p) => `<p>${p.replace(/[&<>"']/g, (c) => ENTITIES[c]!).replace(/\n/g, '<br>')}</p>`).join('');

/** Thread HTML → plain text paragraphs. */
export function htmlToParagraphs(html: string | null): string[] {
  if (!html) return [];
  return html
    .split(/<\/p>|<\/div>|\n{2,}/i)
    .map((p) => p.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').trim())
    .filter(Boolean);
}
