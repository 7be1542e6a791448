import { AppError } from '../core/errors';

/**
 * A provider's refusal of a field it cannot take: answered as 422 `unsupported_by_provider` naming the field,
 * never dropped silently. `unsupportedBy('asana')` gives that provider's `unsupported(field, why)`.
 */
export function unsupportedBy(provider: string) {
  return (field: string, message: string, extra: Record<string, unknown> = {}): AppError =>
    new AppError('unsupported_by_provider', `${field}: ${message}`, { field, provider, ...extra });
}
