import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/**
 * `Authorization: Bearer <access_token>` for OAuth connections, else HTTP basic auth with the API key as
 * the user name and an empty password, as Close asks.
 */
export function closeAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  if (credentials.access_token) return { authorization: `Bearer ${credentials.access_token}` };
  if (credentials.api_key) return { authorization: `Basic ${Buffer.from(`${credentials.api_key}:`).toString('base64')}` };
  return {};
}

/**
 * The message of a Close error body: `{error: "…"}`, `{error: {message}}` on 429s, and for validation
 * errors `{errors: [...], "field-errors": {field: "message"}}`.
 */
export function closeErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const fieldErrors = b['field-errors'];
  if (fieldErrors && typeof fieldErrors === 'object' && Object.keys(fieldErrors).length > 0) {
    return Object.entries(fieldErrors as Record<string, unknown>).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('; ');
  }
  if (trimmed(b.error)) return trimmed(b.error);
  if (b.error && typeof b.error === 'object') return trimmed((b.error as Record<string, unknown>).message);
  if (Array.isArray(b.errors) && b.errors.length > 0) return typeof b.errors[0] === 'string' ? trimmed(b.errors[0]) : JSON.stringify(b.errors[0]);
  return undefined;
}

export const closeHttpProfile: ProviderHttpProfile = {
  authHeaders: closeAuthHeaders,
  errorMessage: closeErrorMessage,
};
