import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** An OAuth access token (a session id) as a bearer token. */
export function salesforceAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}` } : {};
}

/** The error objects of an answer: REST errors are `[{message, errorCode, fields}]`, OAuth ones `{error, error_description}`. */
function errorsOf(body: unknown): Record<string, unknown>[] {
  if (Array.isArray(body)) return body.filter((e): e is Record<string, unknown> => Boolean(e) && typeof e === 'object');
  return body && typeof body === 'object' ? [body as Record<string, unknown>] : [];
}

export function salesforceErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  const first = errorsOf(body)[0];
  if (!first) return undefined;
  const code = trimmed(first.errorCode) ?? trimmed(first.error);
  const message = trimmed(first.message) ?? trimmed(first.error_description);
  const fields = Array.isArray(first.fields) && first.fields.length > 0 ? ` (${first.fields.join(', ')})` : '';
  return [code, message].filter(Boolean).join(': ') + fields || undefined;
}

/**
 * Salesforce answers a spent API request limit with 403 REQUEST_LIMIT_EXCEEDED (never 429): waited out
 * and retried like a rate limit.
 */
export function salesforceRateLimited(status: number, _headers: Record<string, string>, body: unknown): boolean {
  return status === 403 && errorsOf(body).some((e) => e.errorCode === 'REQUEST_LIMIT_EXCEEDED');
}

export const salesforceHttpProfile: ProviderHttpProfile = {
  authHeaders: salesforceAuthHeaders,
  errorMessage: salesforceErrorMessage,
  isRateLimited: salesforceRateLimited,
};
