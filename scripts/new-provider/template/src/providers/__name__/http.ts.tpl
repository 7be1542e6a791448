import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** `Authorization: Bearer <api_token>` (TODO(new-provider): the reference's Authentication section). */
export function __camel__AuthHeaders(credentials: Record<string, string>): Record<string, string> {
  return credentials.api_token ? { authorization: `Bearer ${credentials.api_token}` } : {};
}

/** The human message of an error body, `{"error": {"message": "…"}}` (TODO(new-provider): the documented error shape). */
export function __camel__ErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const error = (body as { error?: { message?: unknown } }).error;
  return trimmed(error?.message);
}

export const __camel__HttpProfile: ProviderHttpProfile = {
  authHeaders: __camel__AuthHeaders,
  errorMessage: __camel__ErrorMessage,
};
