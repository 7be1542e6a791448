import type { ProviderHttpProfile } from '../types';
import type { FrErrorBody } from './types';
import { trimmed } from '../kit';

/** `Authorization: Bearer <access_token>`: a Front API token (JWT) or, later, an OAuth access token. */
export function frontAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}` } : {};
}

function detailMessages(details: unknown): string[] {
  if (details === null || details === undefined) return [];
  if (typeof details === 'string') return trimmed(details) ? [details.trim()] : [];
  if (Array.isArray(details)) return details.flatMap(detailMessages);
  if (typeof details === 'object') {
    const d = details as Record<string, unknown>;
    const own = trimmed(d.message) ?? trimmed(d.description);
    if (own) return [own];
    return Object.entries(d).flatMap(([k, v]) => detailMessages(v).map((m) => `${k}: ${m}`));
  }
  return [];
}

/**
 * The human message of a Front error body:
 *  - `{"_error": {"status": 404, "title": "Not found", "message": "Unknown conversation"}}`
 *  - `{"_error": {"status": 400, "title": "Bad request", "message": "Body did not satisfy requirements", "details": ["…"]}}`
 * The first detail is kept (with a count of the others).
 */
export function frontErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const e = (body as FrErrorBody)._error;
  if (!e || typeof e !== 'object') {
    const b = body as Record<string, unknown>;
    return trimmed(b.message) ?? trimmed(b.error);
  }
  const head = [trimmed(e.title), trimmed(e.message)].filter(Boolean).join(': ') || undefined;
  const details = detailMessages(e.details);
  if (details.length === 0) return head;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return head ? `${head}: ${details[0]}${more}` : `${details[0]}${more}`;
}

export const frontHttpProfile: ProviderHttpProfile = {
  authHeaders: frontAuthHeaders,
  errorMessage: frontErrorMessage,
};
