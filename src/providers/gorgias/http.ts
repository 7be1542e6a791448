import { rateLimitUsage, type RateLimitHeaders } from '../manifest';
import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/**
 * Authentication headers. API-key connections use HTTP Basic with the user's email as username and the
 * REST API key as password (Settings → REST API). A connection holding an OAuth `access_token` (Gorgias
 * OAuth2 apps, not offered yet) sends it as a bearer token.
 */
export function gorgiasAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  if (credentials.access_token) return { authorization: `Bearer ${credentials.access_token}` };
  const { email, api_token: apiToken } = credentials;
  if (!email || !apiToken) return {};
  return { authorization: `Basic ${Buffer.from(`${email}:${apiToken}`, 'utf8').toString('base64')}` };
}

/**
 * Field errors of a validation failure, flattened to `path: message` (Gorgias nests them by field and,
 * for arrays, by index: `{"messages": {"0": {"channel": ["Missing data for required field."]}}}`).
 */
function fieldErrors(data: unknown, path: string[] = []): string[] {
  if (data === null || data === undefined) return [];
  if (typeof data === 'string') return trimmed(data) ? [path.length ? `${path.join('.')}: ${data.trim()}` : data.trim()] : [];
  if (Array.isArray(data)) return data.flatMap((d) => fieldErrors(d, path));
  if (typeof data !== 'object') return [];
  return Object.entries(data as Record<string, unknown>).flatMap(([k, v]) => fieldErrors(v, [...path, k]));
}

/**
 * The human message of a Gorgias error body. The reference documents the status codes and says to
 * "read the error attribute contained in the data of the HTTP response"; bodies seen are
 *  - `{"error": {"msg": "Invalid data", "data": {"subject": ["Longer than maximum length 998."]}}}`
 *  - `{"error": {"msg": "Resource not found"}}`, `{"error": "…"}`, `{"message": "…"}`
 * so every form is read; the first field error is kept with a count of the others.
 */
export function gorgiasErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  let head: string | undefined;
  let data: unknown;
  if (typeof b.error === 'string') head = trimmed(b.error);
  else if (b.error && typeof b.error === 'object') {
    const e = b.error as Record<string, unknown>;
    head = trimmed(e.msg) ?? trimmed(e.message);
    data = e.data ?? e.errors;
  }
  head ??= trimmed(b.message) ?? trimmed(b.msg) ?? trimmed(b.detail);
  data ??= b.errors ?? b.data;
  const details = fieldErrors(data);
  if (details.length === 0) return head;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return head ? `${head}: ${details[0]}${more}` : `${details[0]}${more}`;
}

/** `X-Gorgias-Account-Api-Call-Limit: 10/40` — calls used in the current leaky-bucket window, and the limit. */
export const CALL_LIMIT_HEADER = 'x-gorgias-account-api-call-limit';

/**
 * The header as the manifest's rate-limit headers: "10/40" is 10 used of 40, 30 left
 * (https://developers.gorgias.com/reference/limitations). A full bucket leaks a call every window/limit
 * (0.5 s for API keys), so a full one holds the connection a second rather than a whole window.
 */
export const CALL_LIMIT_HEADERS: RateLimitHeaders = { remaining: CALL_LIMIT_HEADER, usage: { pattern: /^\s*(\d+)\s*\/\s*(\d+)\s*$/, holdMs: 1_000 } };

export type CallLimit = NonNullable<ReturnType<typeof rateLimitUsage>>;

export function parseCallLimit(value: string | undefined): CallLimit | undefined {
  return value === undefined ? undefined : rateLimitUsage(CALL_LIMIT_HEADERS, { [CALL_LIMIT_HEADER]: value });
}

export const gorgiasHttpProfile: ProviderHttpProfile = {
  authHeaders: gorgiasAuthHeaders,
  errorMessage: gorgiasErrorMessage,
};
