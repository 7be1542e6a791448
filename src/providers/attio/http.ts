import type { ProviderHttpProfile } from '../types';

export const attioAuthHeaders = (credentials: Record<string, string>): Record<string, string> =>
  credentials.access_token ? { authorization: `Bearer ${credentials.access_token}` } : {};

/** Attio errors: `{status_code, type, code, message}`. */
export function attioErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const message = typeof b.message === 'string' ? b.message : undefined;
  const code = typeof b.code === 'string' ? b.code : undefined;
  return [code, message].filter(Boolean).join(': ') || undefined;
}

export const attioHttpProfile: ProviderHttpProfile = { authHeaders: attioAuthHeaders, errorMessage: attioErrorMessage };
