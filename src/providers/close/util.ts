import { AppError } from '../../core/errors';
import { unsupportedBy } from '../kit';
export { asRecord, has, nonEmpty, toDate, toIso } from '../kit';

/** What the product cannot take: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy('close');

/** A remote id as Close writes it (`lead_…`, `cont_…`, `user_…`): refused before any call when it is not one. */
export function closeId(remoteId: unknown, field: string): string {
  const s = String(remoteId ?? '').trim();
  if (!/^[a-z_]+_[A-Za-z0-9]+$/.test(s) || s.length > 100) {
    throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Close id`, { field });
  }
  return s;
}

/** A required lead for objects that belong to one (deals, notes, tasks, calls): a 400 naming the field. */
export function needLead(field: string, what: string): AppError {
  const message = `a Close ${what} belongs to a lead: give ${field}`;
  return new AppError('validation_failed', `${field}: ${message}`, { field, issues: [{ path: field, message }] });
}

// ---------------------------------------------------------------- amounts in cents

/**
 * A unified decimal amount (`"1234.56"`) as the whole cents Close stores, by text (no floating point): at
 * most two decimals, else a 422 naming the field rather than a rounded value.
 */
export function decimalToCents(amount: string, field: string): number {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) throw new AppError('validation_failed', `${field}: expected a decimal number such as 1234.56`, { field });
  const [, sign, int, frac = ''] = m;
  if (frac.replace(/0+$/, '').length > 2) throw unsupported(field, `Close keeps amounts in whole cents and cannot hold ${amount} exactly; use at most two decimals`);
  const cents = BigInt(`${int}${frac.padEnd(2, '0').slice(0, 2)}`);
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) throw unsupported(field, `${amount} is larger than Close can store`);
  return Number(sign ? -cents : cents);
}

/** Whole cents → plain decimal text without trailing zeros: 123456 → "1234.56", 100 → "1", -5 → "-0.05". */
export function centsToDecimal(cents: number): string {
  const neg = cents < 0;
  const digits = String(Math.abs(Math.trunc(cents))).padStart(3, '0');
  const int = digits.slice(0, -2).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(-2).replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return neg && body !== '0' ? `-${body}` : body;
}
