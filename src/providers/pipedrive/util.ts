import { AppError } from '../../core/errors';
import { numericIdOf, unsupportedBy } from '../kit';
export { asRecord, has, isoSeconds, nonEmpty, toDate, toIso } from '../kit';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy('pipedrive');

/** A remote id (text in the store) in the numeric form Pipedrive's JSON uses. */
export const pdId = numericIdOf('Pipedrive');

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
