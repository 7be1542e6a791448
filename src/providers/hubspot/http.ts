import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** Private-app tokens and OAuth access tokens both go in `Authorization: Bearer`. */
export function hubspotAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}` } : {};
}

const PROPERTY_ERRORS = 'Property values were not valid: ';

/**
 * `Property values were not valid: [{"name":"amount","message":"abc was not a valid number.",…}]` — HubSpot
 * embeds the list as JSON in the message; it is shortened to `name: message; …`.
 */
function propertyErrors(message: string): string | undefined {
  if (!message.startsWith(PROPERTY_ERRORS)) return undefined;
  try {
    const list = JSON.parse(message.slice(PROPERTY_ERRORS.length)) as { name?: string; message?: string; localizedErrorMessage?: string }[];
    if (!Array.isArray(list) || list.length === 0) return undefined;
    return PROPERTY_ERRORS + list.map((e) => `${e.name ?? '?'}: ${e.message ?? e.localizedErrorMessage ?? 'invalid'}`).join('; ');
  } catch {
    return undefined;
  }
}

/**
 * The human message of a HubSpot error body: `{status: "error", message, category, errors?: [{message}]}`,
 * rate-limit bodies `{errorType: "RATE_LIMIT", policyName, message}`, or plain text.
 */
export function hubspotErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const message = trimmed(b.message);
  const nested = Array.isArray(b.errors) ? (b.errors as { message?: unknown }[]).map((e) => trimmed(e?.message)).filter((m): m is string => Boolean(m)) : [];
  const main = message ? (propertyErrors(message) ?? message) : nested[0];
  if (!main) return trimmed(b.category);
  const extra = message && nested.length > 0 && !nested.includes(message) ? ` (${nested.slice(0, 3).join('; ')})` : '';
  return main + extra;
}

/** HubSpot error category → the HTTP status HubSpot answers it with (per-input errors of a 207 carry no status). */
export function statusOfCategory(category: string | undefined): number {
  switch (category) {
    case 'CONFLICT':
    case 'OBJECT_ALREADY_EXISTS':
      return 409;
    case 'OBJECT_NOT_FOUND':
      return 404;
    case 'RATE_LIMITS':
      return 429;
    case 'MISSING_SCOPES':
      return 403;
    default:
      return 400;
  }
}

export const hubspotHttpProfile: ProviderHttpProfile = {
  authHeaders: hubspotAuthHeaders,
  errorMessage: hubspotErrorMessage,
};
