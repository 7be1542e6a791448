import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/**
 * `Authorization: Bearer <access_token>` for OAuth connections (the instance's OAuth endpoint), else HTTP Basic
 * with the user's name and password (REST API → Authentication: basic and OAuth 2.0 are both accepted).
 */
export function servicenowAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  if (credentials.access_token) return { authorization: `Bearer ${credentials.access_token}` };
  const { username, password } = credentials;
  if (!username || !password) return {};
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
}

/**
 * The human message of a ServiceNow error body: `{"error": {"message": "…", "detail": "…"}, "status": "failure"}`
 * (REST API → REST API HTTP response codes).
 */
export function servicenowErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const e = (body as { error?: unknown }).error;
  if (typeof e === 'string') return trimmed(e);
  if (!e || typeof e !== 'object') return undefined;
  const { message, detail } = e as { message?: unknown; detail?: unknown };
  const m = trimmed(message);
  const d = trimmed(detail);
  return m && d ? `${m}: ${d}` : (m ?? d);
}

export const servicenowHttpProfile: ProviderHttpProfile = { authHeaders: servicenowAuthHeaders, errorMessage: servicenowErrorMessage };
