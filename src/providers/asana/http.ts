import type { ProviderHttpProfile } from '../types';

/** Bearer token: a personal access token or an OAuth access token (Authentication → Personal access token, OAuth). */
export function asanaAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  const accept = { accept: 'application/json' };
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}`, ...accept } : accept;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** `{"errors": [{"message", "help"?, "phrase"?}]}` (Errors) → its first message. */
export function asanaErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return str(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || !errors.length) return undefined;
  const first = str((errors[0] as { message?: unknown }).message);
  return first && errors.length > 1 ? `${first} (and ${errors.length - 1} more)` : first;
}

export const asanaHttpProfile: ProviderHttpProfile = { authHeaders: asanaAuthHeaders, errorMessage: asanaErrorMessage };
