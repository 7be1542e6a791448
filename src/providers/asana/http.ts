import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** Bearer token: a personal access token or an OAuth access token (Authentication → Personal access token, OAuth). */
export function asanaAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  const accept = { accept: 'application/json' };
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}`, ...accept } : accept;
}

/** `{"errors": [{"message", "help"?, "phrase"?}]}` (Errors) → its first message. */
export function asanaErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || !errors.length) return undefined;
  const first = trimmed((errors[0] as { message?: unknown }).message);
  return first && errors.length > 1 ? `${first} (and ${errors.length - 1} more)` : first;
}

export const asanaHttpProfile: ProviderHttpProfile = { authHeaders: asanaAuthHeaders, errorMessage: asanaErrorMessage };
