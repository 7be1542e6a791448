import { unsupportedBy } from '../unsupported';

export const PROVIDER = 'clickup';
export const unsupported = unsupportedBy(PROVIDER);

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;
/** A UNIX time in milliseconds (ClickUp sends them as strings) as a Date, or null. */
export const fromMs = (v: unknown): Date | null => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && n > 0 ? new Date(n) : null;
};
export const seg = (id: string) => encodeURIComponent(id);
