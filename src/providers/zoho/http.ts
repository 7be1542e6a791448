import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** Zoho's own scheme for OAuth access tokens: `Authorization: Zoho-oauthtoken <token>`. */
export function zohoAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  return credentials.access_token ? { authorization: `Zoho-oauthtoken ${credentials.access_token}` } : {};
}

/**
 * The message of a Zoho error: `{code, details, message, status: "error"}`, or for record writes the same
 * per record in `data` (`details.api_name` names the field); OAuth errors are `{error}`.
 */
export function zohoErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const first = Array.isArray(b.data) ? (b.data.find((d) => d && typeof d === 'object' && (d as Record<string, unknown>).status === 'error') as Record<string, unknown> | undefined) : b;
  if (!first) return undefined;
  const details = first.details && typeof first.details === 'object' ? (first.details as Record<string, unknown>) : {};
  const field = trimmed(details.api_name) ? ` (${trimmed(details.api_name)})` : '';
  const text = [trimmed(first.code), trimmed(first.message) ?? trimmed(first.error)].filter(Boolean).join(': ');
  return text ? text + field : undefined;
}

export const zohoHttpProfile: ProviderHttpProfile = {
  authHeaders: zohoAuthHeaders,
  errorMessage: zohoErrorMessage,
};
