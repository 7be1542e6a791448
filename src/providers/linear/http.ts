import type { ProviderHttpProfile } from '../types';
import type { LnGraphQLError } from './types';
import { trimmed } from '../kit';

/**
 * Linear's two schemes: a personal API key goes bare (`Authorization: lin_api_…`), an OAuth access token
 * with `Bearer`. The key's prefix decides; without a known prefix, credentials that came from an OAuth
 * flow (token type, refresh token or expiry stored beside the token) are sent as bearer tokens, anything
 * else as an API key.
 */
export function linearAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  const token = credentials.access_token?.trim();
  if (!token) return {};
  if (token.startsWith('lin_api_')) return { authorization: token };
  const oauth =
    token.startsWith('lin_oauth_') ||
    credentials.token_type?.toLowerCase() === 'bearer' ||
    Boolean(credentials.refresh_token) ||
    Boolean(credentials.expires_at);
  return { authorization: oauth ? `Bearer ${token}` : token };
}

/** The human message of one GraphQL error: Linear's user-presentable text first, then the message. */
export function graphQLErrorMessage(e: LnGraphQLError | undefined): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const ext = e.extensions ?? {};
  const presentable = trimmed(ext.userPresentableMessage);
  const message = trimmed(e.message);
  const text = presentable && message && presentable !== message ? `${message}: ${presentable}` : (presentable ?? message);
  const code = trimmed(ext.code);
  return code && text ? `${code}: ${text}` : (text ?? code);
}

/**
 * The message of a Linear error body `{"errors":[{message, extensions:{code, type, userPresentableMessage}}]}`
 * (the first error, with a count of the others); plain text bodies (upload storage, proxies) are cut short.
 */
export function linearErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    const first = graphQLErrorMessage(b.errors[0] as LnGraphQLError);
    const more = b.errors.length > 1 ? ` (and ${b.errors.length - 1} more)` : '';
    return first ? first + more : undefined;
  }
  return trimmed(b.message) ?? trimmed(b.error);
}

/** Linear answers an exhausted budget with HTTP 400 and `RATELIMITED` in the body, not with 429. */
export function linearIsRateLimited(_status: number, _headers: Record<string, string>, body: unknown): boolean {
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(errors)) return false;
  return errors.some((e: LnGraphQLError) => {
    const ext = e?.extensions;
    return ext?.code === 'RATELIMITED' || (typeof ext?.type === 'string' && ext.type.toLowerCase() === 'ratelimited');
  });
}

export const linearHttpProfile: ProviderHttpProfile = {
  authHeaders: linearAuthHeaders,
  errorMessage: linearErrorMessage,
  // Waited out by the shared client like a 429, until the reset its headers give.
  isRateLimited: linearIsRateLimited,
};
