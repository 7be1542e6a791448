import type { ProviderHttpProfile } from '../types';

/**
 * `Authorization: <token>`: a personal token (`pk_…`) is sent as it is, an OAuth access token as a Bearer token
 * (Authentication: personal tokens and OAuth tokens both go in the Authorization header).
 */
export function clickupAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  const token = credentials.access_token;
  const accept = { accept: 'application/json' };
  if (!token) return accept;
  return { authorization: /^pk_/.test(token) ? token : `Bearer ${token}`, ...accept };
}

/** `{"err": "Task not found", "ECODE": "ITEM_013"}` → its message and code. */
export function clickupErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { err?: unknown; ECODE?: unknown };
  const err = typeof b.err === 'string' && b.err.trim() ? b.err.trim() : undefined;
  return err && typeof b.ECODE === 'string' ? `${err} (${b.ECODE})` : err;
}

export const clickupHttpProfile: ProviderHttpProfile = { authHeaders: clickupAuthHeaders, errorMessage: clickupErrorMessage };
