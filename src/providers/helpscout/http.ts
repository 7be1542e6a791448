import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** Every Mailbox API 2.0 request carries `Authorization: Bearer <access token>` (Authentication). */
export function helpscoutAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}` } : {};
}

/**
 * The human message of a Help Scout error body (Overview → Status codes, Error responses):
 * `{"message": "Bad request", "logRef": "…", "_embedded": {"errors": [{"path", "message", "source"}]}}`.
 */
export function helpscoutErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { message?: unknown; error_description?: unknown; _embedded?: { errors?: Array<{ path?: unknown; message?: unknown }> } };
  const head = trimmed(b.message) ?? trimmed(b.error_description);
  const errors = Array.isArray(b._embedded?.errors) ? b._embedded.errors : [];
  const first = errors.find((e) => e && (trimmed(e.message) || trimmed(e.path)));
  if (!first) return head;
  const detail = [trimmed(first.path), trimmed(first.message)].filter(Boolean).join(': ');
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return head ? `${head}: ${detail}${more}` : `${detail}${more}`;
}

export const helpscoutHttpProfile: ProviderHttpProfile = { authHeaders: helpscoutAuthHeaders, errorMessage: helpscoutErrorMessage };
