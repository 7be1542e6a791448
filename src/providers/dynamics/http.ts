import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** The OAuth access token as a bearer token. */
export function dynamicsAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}` } : {};
}

/** Dataverse errors are `{error: {code, message}}`; the identity platform's `{error, error_description}`. */
export function dynamicsErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const e = b.error;
  if (e && typeof e === 'object') {
    const inner = e as Record<string, unknown>;
    return [trimmed(inner.code), trimmed(inner.message)].filter(Boolean).join(': ') || undefined;
  }
  return [trimmed(e), trimmed(b.error_description)].filter(Boolean).join(': ') || undefined;
}

export const dynamicsHttpProfile: ProviderHttpProfile = {
  authHeaders: dynamicsAuthHeaders,
  errorMessage: dynamicsErrorMessage,
};
