import { AppError } from '../../core/errors';

export const PROVIDER = 'freshdesk';

/** A Freshdesk datetime as a Date, or null. */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

export const toIso = (v: unknown): string | null => toDate(v)?.toISOString() ?? null;

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;

/** A remote id we were given (as text) in the integer form Freshdesk's JSON uses. */
export function fdId(remoteId: string | number, field: string): number {
  const s = String(remoteId).trim();
  if (!/^\d{1,15}$/.test(s) || Number(s) < 1) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Freshdesk id`, { field });
  return Number(s);
}

/** Freshdesk cannot take the field: answered as 422 with the field named, never dropped silently. */
export function unsupported(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: PROVIDER, ...extra });
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Plain text paragraphs → the HTML Freshdesk stores (`description`, conversation `body`). */
export function paragraphsToHtml(paragraphs: string[]): string {
  return paragraphs.map((p) => `<div>${p.replace(/[&<>"']/g, (c) => ENTITIES[c]!).replace(/\n/g, '<br>')}</div>`).join('');
}
