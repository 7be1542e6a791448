import { AppError } from '../core/errors';

/**
 * A unified decimal amount (`"1234.56"`) as the JSON number a provider takes, by text: refused with a 422
 * naming the field when the provider keeps fewer decimals, or when a number cannot hold it exactly.
 */
export function decimalToNumber(amount: string, field: string, o: { provider: string; displayName: string; maxDecimals: number }): number {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) throw new AppError('validation_failed', `${field}: expected a decimal number such as 1234.56`, { field });
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const refuse = (why: string) => new AppError('unsupported_by_provider', `${field}: ${why}`, { field, provider: o.provider });
  if (frac.length > o.maxDecimals) throw refuse(`${o.displayName} keeps amounts with ${o.maxDecimals} decimals and cannot hold ${amount} exactly`);
  const int = m[2]!.replace(/^0+(?=\d)/, '');
  if (int.length + frac.length > 15) throw refuse(`${amount} has more digits than ${o.displayName} keeps exactly`);
  return Number(`${m[1]}${int}${frac ? `.${frac}` : ''}`);
}

/** A JSON number as decimal text without exponent; null when it is not a finite number. */
export function numberToDecimal(v: unknown, maxDecimals = 4): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v)) return null;
  const s = String(v);
  return /e/i.test(s) ? v.toFixed(maxDecimals).replace(/\.?0+$/, '') : s;
}
