/**
 * Mapped custom field values (already of the attribute's declared type) checked and converted as CRMs take them.
 * Each takes `fail`, which throws the adapter's own 422 naming the provider's field.
 */
type Fail = (reason: string) => never;

export function asNumber(value: unknown, integer: boolean, fail: Fail): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) fail(`expected ${integer ? 'an integer' : 'a number'}`);
  return n;
}

export function asBoolean(value: unknown, fail: Fail): boolean {
  if (typeof value !== 'boolean') fail('expected true or false');
  return value as boolean;
}

/** A calendar date, `YYYY-MM-DD` (the date part of a date-time too). */
export function asDate(value: unknown, fail: Fail): string {
  const s = typeof value === 'string' ? value.slice(0, 10) : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) fail('expected a date (YYYY-MM-DD)');
  return s;
}

export function asDateTime(value: unknown, fail: Fail): Date {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) fail('expected a date-time');
  return new Date(value as string);
}

/** Text, or a number or boolean written as text. */
export function asText(value: unknown, fail: Fail): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fail('expected text');
}

/** The values of a multi-select field. */
export const asList = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).map(String);
