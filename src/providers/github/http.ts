import type { ProviderHttpProfile } from '../types';
import type { GhErrorBody } from './types';
import { trimmed } from '../kit';

/** The REST API version the adapter is written against (`X-GitHub-Api-Version`). */
export const GITHUB_API_VERSION = '2022-11-28';
/** GitHub's JSON media type; `full` adds `body_text` and `body_html` to issues and comments. */
export const MEDIA_TYPE = 'application/vnd.github+json';
export const MEDIA_TYPE_FULL = 'application/vnd.github.full+json';

/**
 * Headers of every request: `Authorization: Bearer <access_token>` (a personal access token, classic
 * or fine-grained, or an OAuth token), GitHub's media type, the API version, and a User-Agent —
 * GitHub refuses requests without one (403).
 */
export function githubAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    accept: MEDIA_TYPE,
    'x-github-api-version': GITHUB_API_VERSION,
    'user-agent': 'Omniport (+https://github.com/omniport)',
  };
  if (credentials.access_token) headers.authorization = `Bearer ${credentials.access_token}`;
  return headers;
}

/**
 * The human message of a GitHub error body:
 *  - `{"message": "Not Found", "documentation_url": "…"}`
 *  - `{"message": "Validation Failed", "errors": [{"resource": "Issue", "field": "assignees", "code": "invalid", "value": "x"}]}`
 *  - `{"message": "Validation Failed", "errors": ["…"]}` (some endpoints give bare strings)
 * The first field error is kept (with a count of the others).
 */
export function githubErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as GhErrorBody;
  const head = trimmed(b.message);
  const errors = Array.isArray(b.errors) ? b.errors : [];
  if (errors.length === 0) return head;
  const e = errors[0]!;
  let first: string | undefined;
  if (typeof e === 'string') first = trimmed(e);
  else if (e && typeof e === 'object') {
    const value = e.value !== undefined && e.value !== null ? ` (${JSON.stringify(e.value)})` : '';
    first = trimmed(e.message) ?? ([trimmed(e.field), trimmed(e.code)].filter(Boolean).join(' ') + value || undefined);
  }
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  if (!first) return head;
  return head ? `${head}: ${first}${more}` : `${first}${more}`;
}

/**
 * GitHub answers an exhausted primary limit with 403 (or 429) and `x-ratelimit-remaining: 0`, and a
 * secondary limit with 403/429 and a message saying so (with `retry-after`): both are waited out.
 */
export function githubIsRateLimited(status: number, headers: Record<string, string>, body: unknown): boolean {
  if (status !== 403 && status !== 429) return false;
  return headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(githubErrorMessage(body) ?? '');
}

export const githubHttpProfile: ProviderHttpProfile = {
  authHeaders: githubAuthHeaders,
  errorMessage: githubErrorMessage,
  isRateLimited: githubIsRateLimited,
};
