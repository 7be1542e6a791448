import type { ProviderHttpProfile } from '../types';
import { trimmed } from '../kit';

/** Personal access tokens and OAuth access tokens alike: `Authorization: Bearer <token>`. */
export function zendeskSellAuthHeaders(credentials: Record<string, string>): Record<string, string> {
  return credentials.access_token ? { authorization: `Bearer ${credentials.access_token}`, accept: 'application/json' } : {};
}

/**
 * The message of a Sell error: `{errors: [{error: {code, message, details, field}, meta}], meta: {type: "errors"}}`;
 * OAuth errors are `{error, error_description}`.
 */
export function zendeskSellErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return trimmed(body)?.slice(0, 300);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const first = Array.isArray(b.errors) ? ((b.errors[0] as { error?: Record<string, unknown> } | undefined)?.error ?? undefined) : undefined;
  if (first) {
    const field = trimmed(first.field) ? ` (${trimmed(first.field)})` : '';
    return [trimmed(first.code), trimmed(first.message), trimmed(first.details)].filter(Boolean).join(': ') + field || undefined;
  }
  return [trimmed(b.error), trimmed(b.error_description)].filter(Boolean).join(': ') || undefined;
}

export const zendeskSellHttpProfile: ProviderHttpProfile = {
  authHeaders: zendeskSellAuthHeaders,
  errorMessage: zendeskSellErrorMessage,
};
