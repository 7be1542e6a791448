import { AppError } from '../../core/errors';

export const PROVIDER = 'intercom';

/** A UNIX timestamp (seconds) as a Date, or null. */
export const fromUnix = (v: unknown): Date | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? new Date(v * 1000) : null);
export const toUnix = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);
export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;

/** Intercom cannot take the field: answered as 422 with the field named, never dropped silently. */
export function unsupported(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: PROVIDER, ...extra });
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const textToHtml = (text: string) => text.split(/\n{2,}/).map((p) => `<p>${p.replace(/[&<>"']/g, (c) => ENTITIES[c]!).replace(/\n/g, '<br>')}</p>`).join('');
export const htmlToText = (html: string) =>
  html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>/gi, '\n\n').replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\n{3,}/g, '\n\n').trim();
