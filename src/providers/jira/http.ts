import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/**
 * Authentication headers: `Authorization: Bearer <access_token>` for OAuth 2.0 (3LO) connections,
 * else HTTP Basic with `{email}:{api_token}` (Atlassian's API-token scheme).
 */
export function jiraAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  if (credentials.access_token) return { authorization: `Bearer ${credentials.access_token}` };
  const { email, api_token: apiToken } = credentials;
  if (!email || !apiToken) return {};
  return { authorization: `Basic ${Buffer.from(`${email}:${apiToken}`, 'utf8').toString('base64')}` };
}

/**
 * The human message of a Jira error body. Jira answers an ErrorCollection
 * `{"errorMessages": ["…"], "errors": {"summary": "You must specify a summary of the issue."}}`,
 * bulk-create results `{"errors": [{"elementErrors": {…}, "failedElementNumber": 0}]}`, and (behind
 * the gateway, e.g. on 401 or 429) plain text or `{"message": "…"}`.
 */
export function jiraErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '))?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const parts: string[] = [];
  if (Array.isArray(b.errorMessages)) for (const m of b.errorMessages) if (trimmed(m)) parts.push(trimmed(m)!);
  if (b.errors && typeof b.errors === 'object' && !Array.isArray(b.errors)) {
    for (const [field, m] of Object.entries(b.errors as Record<string, unknown>)) if (trimmed(m)) parts.push(`${field}: ${trimmed(m)}`);
  }
  if (Array.isArray(b.errors)) {
    for (const e of b.errors) {
      const inner = jiraErrorMessage((e as Record<string, unknown> | undefined)?.elementErrors);
      if (inner) parts.push(inner);
    }
  }
  if (parts.length === 0) {
    const m = trimmed(b.message) ?? trimmed(b.error);
    if (m) parts.push(m);
  }
  if (parts.length === 0) return undefined;
  const more = parts.length > 3 ? ` (and ${parts.length - 3} more)` : '';
  return parts.slice(0, 3).join('; ') + more;
}

export const jiraHttpProfile: ProviderHttpProfile = {
  authHeaders: jiraAuthHeaders,
  errorMessage: jiraErrorMessage,
};
