import { AppError } from '../../core/errors';

/**
 * A Pipedrive timestamp as a Date: API v2 answers RFC 3339 (`2025-01-01T10:20:00Z`), API v1
 * `YYYY-MM-DD HH:MM:SS` in UTC. Null when absent or unreadable.
 */
export function toDate(v: unknown): Date | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const s = v.trim();
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

export const toIso = (v: unknown): string | null => toDate(v)?.toISOString() ?? null;

/** RFC 3339 without fractions, as Pipedrive's `updated_since` wants it (rounded down to the second). */
export function rfc3339(d: Date): string {
  return new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const nonEmpty = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A remote id (text in the store) in the numeric form Pipedrive's JSON uses. */
export function pdId(remoteId: unknown, field: string): number {
  const s = String(remoteId).trim();
  if (!/^\d{1,16}$/.test(s) || !Number.isSafeInteger(Number(s))) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Pipedrive id`, { field });
  }
  return Number(s);
}

/** What Pipedrive cannot store: a 422 naming the field, never a silent drop. */
export function unsupported(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider: 'pipedrive', ...extra });
}

export const asRecord = (v: object): Record<string, unknown> => v as Record<string, unknown>;

export const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key) && (o as Record<string, unknown>)[key] !== undefined;

// ---------------------------------------------------------------- amounts

/**
 * Plain decimal text of a JS number, never in exponent form: the shortest text that reads back as the
 * same double (ECMAScript's Number-to-String), with the exponent expanded. `1234.56` → `"1234.56"`,
 * `1e21` → `"1000000000000000000000"`, `1e-7` → `"0.0000001"`.
 */
export function numberToDecimal(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  if (Object.is(n, -0) || n === 0) return '0';
  const s = String(n);
  return s.includes('e') ? expandExponent(s) : s;
}

/** `"-1.5e-3"` → `"-0.0015"`; text without an exponent is returned as is. */
function expandExponent(s: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]?\d+)$/i.exec(s);
  if (!m) return s;
  const [, sign, int, frac = '', expText] = m;
  const exp = Number(expText);
  const digits = `${int}${frac}`;
  const point = int!.length + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = `${digits}${'0'.repeat(point - digits.length)}`;
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}${canonicalDecimal(out)}`;
}

/** Leading zeros of the integer part and trailing zeros of the fraction removed; `-0` is `0`. */
export function canonicalDecimal(s: string): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(s.trim());
  if (!m) return s;
  const int = m[2]!.replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return body === '0' ? '0' : `${m[1]}${body}`;
}

/**
 * A unified decimal amount (`"1234.56"`) as the JSON number Pipedrive stores (`value` of a deal). Pipedrive
 * keeps an IEEE 754 double, so a decimal is accepted only when that double reads back as the very same
 * decimal — every decimal of up to 15 significant digits does. Anything else is a 422 naming the field,
 * never a rounded value.
 */
export function decimalToNumber(amount: string, field: string): number {
  const text = expandExponent(amount.trim());
  if (!/^-?\d+(\.\d+)?$/.test(text)) {
    throw new AppError('validation_failed', `${field}: expected a decimal number such as 1234.56`, { field });
  }
  const n = Number(text);
  if (!Number.isFinite(n) || numberToDecimal(n) !== canonicalDecimal(text)) {
    throw unsupported(
      field,
      `Pipedrive stores amounts as JSON numbers (IEEE 754 doubles) and cannot hold ${amount} exactly; use at most 15 significant digits`,
    );
  }
  return n;
}
