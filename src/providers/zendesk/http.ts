import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/**
 * Authentication headers: `Authorization: Bearer <access_token>` when the connection holds an OAuth
 * token, else HTTP Basic with `{email}/token:{api_token}` (Zendesk's API-token scheme).
 */
export function zendeskAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  if (credentials.access_token) return { authorization: `Bearer ${credentials.access_token}` };
  const { email, api_token: apiToken } = credentials;
  if (!email || !apiToken) return {};
  return { authorization: `Basic ${Buffer.from(`${email}/token:${apiToken}`, 'utf8').toString('base64')}` };
}

/** `details` of a RecordInvalid: `{field: [{description, error}]}`, a string (bulk job results) or an array. */
function detailMessages(details: unknown): string[] {
  if (details === null || details === undefined) return [];
  if (typeof details === 'string') return trimmed(details) ? [details.trim()] : [];
  if (Array.isArray(details)) return details.flatMap(detailMessages);
  if (typeof details !== 'object') return [];
  const d = details as Record<string, unknown>;
  const own = trimmed(d.description) ?? trimmed(d.message) ?? trimmed(d.detail);
  if (own) return [own];
  return Object.entries(d).flatMap(([field, v]) => {
    const msgs = detailMessages(v);
    // Bare codes (e.g. {"type": ["invalid"]}) get the field name in front.
    return msgs.map((m) => (/^[a-z_]+$/.test(m) ? `${field}: ${m}` : m));
  });
}

/**
 * The human message of a Zendesk error body. Zendesk answers
 *  - `{"error": "RecordInvalid", "description": "Record validation errors", "details": {"type": [{"description": "Type: …"}]}}`
 *  - `{"error": "Couldn't authenticate you"}`
 *  - `{"error": {"title": "Forbidden", "message": "…"}}`
 *  - `{"errors": [{"code": "…", "title": "…", "detail": "…"}]}` (newer endpoints)
 * The first field error is kept (with a count of the others).
 */
export function zendeskErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    const e = b.errors[0] as Record<string, unknown>;
    const head = trimmed(e.title) ?? trimmed(e.code);
    const detail = trimmed(e.detail) ?? trimmed(e.message);
    const more = b.errors.length > 1 ? ` (and ${b.errors.length - 1} more)` : '';
    return [head, detail].filter(Boolean).join(': ') + more || undefined;
  }
  let head: string | undefined;
  if (typeof b.error === 'string') head = trimmed(b.error);
  else if (b.error && typeof b.error === 'object') {
    const e = b.error as Record<string, unknown>;
    head = [trimmed(e.title), trimmed(e.message)].filter(Boolean).join(': ') || undefined;
  }
  const description = trimmed(b.description);
  const main = [head, description].filter(Boolean).join(': ');
  const details = detailMessages(b.details);
  if (details.length === 0) return main || undefined;
  const first = details[0]!;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return main ? `${main}: ${first}${more}` : `${first}${more}`;
}

export const zendeskHttpProfile: ProviderHttpProfile = {
  authHeaders: zendeskAuthHeaders,
  errorMessage: zendeskErrorMessage,
};
