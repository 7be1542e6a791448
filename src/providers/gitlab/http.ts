import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/**
 * Authentication headers. A personal (or project/group) access token typed into POST /connections is
 * sent as `PRIVATE-TOKEN`; a token obtained through OAuth (the stored credentials then carry a
 * `refresh_token`, `token_type` or `expires_at`) as `Authorization: Bearer`.
 */
export function gitlabAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  const token = credentials.access_token;
  if (!token) return {};
  const oauth = Boolean(credentials.refresh_token || credentials.token_type || credentials.expires_at);
  return oauth ? { authorization: `Bearer ${token}` } : { 'private-token': token };
}

/** `{"title": ["can't be blank"], "base": ["…"]}` → `title can't be blank; …`. */
function fieldMessages(v: unknown): string[] {
  if (typeof v === 'string') return trimmed(v) ? [v.trim()] : [];
  if (Array.isArray(v)) return v.flatMap(fieldMessages);
  if (!v || typeof v !== 'object') return [];
  return Object.entries(v as Record<string, unknown>).flatMap(([field, msgs]) =>
    fieldMessages(msgs).map((m) => (field === 'base' || field === 'error' ? m : `${field} ${m}`)),
  );
}

/**
 * The human message of a GitLab error body. GitLab answers
 *  - `{"message": "404 Project Not Found"}` (most errors),
 *  - `{"message": {"title": ["can't be blank"]}}` (model validation, 400/422),
 *  - `{"error": "title is missing"}` (parameter validation, 400),
 *  - `{"error": "insufficient_scope", "error_description": "…"}` (OAuth scope, 403),
 *  - `Retry later` as text/plain (rate limit, 429).
 */
export function gitlabErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const parts: string[] = [];
  if (b.message !== undefined) parts.push(...fieldMessages(b.message));
  const error = trimmed(b.error);
  const description = trimmed(b.error_description);
  if (error) parts.push(description ? `${error}: ${description}` : error);
  else if (description) parts.push(description);
  if (parts.length === 0) return undefined;
  const more = parts.length > 3 ? ` (and ${parts.length - 3} more)` : '';
  return parts.slice(0, 3).join('; ') + more;
}

export const gitlabHttpProfile: ProviderHttpProfile = {
  authHeaders: gitlabAuthHeaders,
  errorMessage: gitlabErrorMessage,
};
