import { unsupportedBy } from '../unsupported';

export const PROVIDER = 'asana';
export const unsupported = unsupportedBy(PROVIDER);

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;
export const dateOf = (v: unknown): Date | null => {
  if (typeof v !== 'string' || v === '') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};
export const seg = (gid: string) => encodeURIComponent(gid);
