import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** The API version every call asks for (`Intercom-Version`); the simulator checks against its description. */
export const INTERCOM_VERSION = '2.14';

/** Bearer access token (an app's token, or one from OAuth), and the API version. */
export function intercomAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  const version = { 'intercom-version': INTERCOM_VERSION, accept: 'application/json' };
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}`, ...version } : version;
}

/** `{"type": "error.list", "request_id", "errors": [{"code", "message", "field"?}]}` → its first message. */
export function intercomErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { errors?: unknown; message?: unknown };
  const errors = Array.isArray(b.errors) ? (b.errors as Array<{ code?: unknown; message?: unknown; field?: unknown }>) : [];
  const first = errors[0];
  if (!first) return trimmed(b.message);
  const text = [trimmed(first.field), trimmed(first.message) ?? trimmed(first.code)].filter(Boolean).join(': ');
  return errors.length > 1 ? `${text} (and ${errors.length - 1} more)` : text;
}

export const intercomHttpProfile: ProviderHttpProfile = { authHeaders: intercomAuthHeaders, errorMessage: intercomErrorMessage };
