import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/**
 * HTTP Basic with the agent's API key as username and any password ("X" by convention): Freshdesk API v2
 * → Authentication. The key is the agent's (Profile settings → View API key); calls act as that agent.
 */
export function freshdeskAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  const key = credentials.api_key;
  if (!key) return {};
  return { authorization: `Basic ${Buffer.from(`${key}:X`, 'utf8').toString('base64')}` };
}

/**
 * The human message of a Freshdesk error body. Validation errors are
 * `{"description": "Validation failed", "errors": [{"field", "message", "code"}]}`; others
 * `{"code": "invalid_credentials", "message": "…"}` (API v2 → Error handling).
 */
export function freshdeskErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { description?: unknown; message?: unknown; code?: unknown; errors?: unknown };
  const head = trimmed(b.description) ?? trimmed(b.message) ?? trimmed(b.code);
  const errors = Array.isArray(b.errors) ? (b.errors as Array<{ field?: unknown; message?: unknown }>) : [];
  const first = errors.find((e) => e && (trimmed(e.message) || trimmed(e.field)));
  if (!first) return head;
  const detail = [trimmed(first.field), trimmed(first.message)].filter(Boolean).join(': ');
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return head ? `${head}: ${detail}${more}` : `${detail}${more}`;
}

export const freshdeskHttpProfile: ProviderHttpProfile = {
  authHeaders: freshdeskAuthHeaders,
  errorMessage: freshdeskErrorMessage,
};
