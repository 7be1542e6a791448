import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/**
 * `Authorization: Bearer <access_token>` for OAuth connections, else Pipedrive's API-token header
 * `x-api-token` (never the `api_token` query parameter, which would end up in URLs and logs).
 */
export function pipedriveAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  if (credentials.access_token) return { authorization: `Bearer ${credentials.access_token}` };
  if (credentials.api_token) return { 'x-api-token': credentials.api_token };
  return {};
}

/**
 * The human message of a Pipedrive error body: `{success: false, error: "…", error_info: "…", errorCode}`
 * (v1 and v2 alike), or `{errors: [{message}]}` on a few newer endpoints.
 */
export function pipedriveErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const error = trimmed(b.error) ?? trimmed(b.message);
  if (error) return error;
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    const first = b.errors[0] as Record<string, unknown> | string;
    return typeof first === 'string' ? trimmed(first) : (trimmed(first?.message) ?? trimmed(first?.error));
  }
  return undefined;
}

export const pipedriveHttpProfile: ProviderHttpProfile = {
  authHeaders: pipedriveAuthHeaders,
  errorMessage: pipedriveErrorMessage,
};
