import { AppError } from '../../core/errors';
import { ProviderError } from '../http-client';

/**
 * A provider's refusal of a field it cannot take: answered as 422 `unsupported_by_provider` naming the field,
 * never dropped silently. `unsupportedBy('asana')` gives that provider's `unsupported(field, why)`.
 */
export function unsupportedBy(provider: string) {
  return (field: string, message: string, extra: Record<string, unknown> = {}): AppError =>
    new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider, ...extra });
}

/** The provider answered that the object does not exist (404, or the other statuses a provider uses for it). */
export function isNotFound(e: unknown, statuses: readonly number[] = [404]): boolean {
  return e instanceof ProviderError && statuses.includes(e.providerStatus);
}

/**
 * A remote id Omniport was given, checked to be one of the provider's numeric ids before it goes into a path:
 * `numericIdOf('Zendesk')(remoteId, field)`. Anything else cannot name an object there: 422 naming the field.
 */
export function numericIdOf(providerLabel: string, opts: { maxDigits?: number } = {}) {
  const pattern = new RegExp(`^\\d{1,${opts.maxDigits ?? 16}}$`);
  return (remoteId: unknown, field: string): number => {
    const s = String(remoteId ?? '').trim();
    if (!pattern.test(s) || !Number.isSafeInteger(Number(s)) || Number(s) < 1) {
      throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a ${providerLabel} id`, { field });
    }
    return Number(s);
  };
}
