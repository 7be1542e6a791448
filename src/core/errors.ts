/** The closed set of machine-readable error codes, carried in `details.code`. */
export const errorCodes = {
  validation_failed: 400,
  malformed_json: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_connection_token: 401,
  needs_reauth: 401,
  /** The caller is known but may not do this (an MCP tool outside the key's or session's scope). */
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** A request with the same Idempotency-Key is still being processed. */
  idempotency_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  unknown_reference: 422,
  unsupported_by_provider: 422,
  /** The Idempotency-Key was already used with another request body. */
  idempotency_key_reused: 422,
  rate_limited: 429,
  provider_error: 502,
  /** The write may or may not have reached the provider, and Omniport could not find out. */
  outcome_unknown: 502,
  provider_unavailable: 503,
  provider_rate_limited: 503,
  provider_timeout: 504,
  /** Omniport's own database cannot be reached right now (retry after Retry-After). */
  database_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** A failure the client should see, with its HTTP status implied by its code. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Response headers such as Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorCodes[code];
  }
}

export const notFound = (what: string, field?: string) =>
  new AppError('not_found', `${what} not found`, field ? { field } : {});

export const unknownReference = (field: string, id: unknown) =>
  new AppError('unknown_reference', `${field}: no object with id ${JSON.stringify(id)} in this connection`, { field });

export const badRequest = (message: string, field?: string) =>
  new AppError('bad_request', message, field ? { field } : {});

/**
 * A provider name Omniport does not serve, with the allowed names. The built-in sandbox products
 * (`sandbox_zendesk`, `sandbox_hubspot`) exist only where the sandbox runs: the answer says how to turn it on.
 */
export function unknownProvider(name: string, field: string, allowed: string[]): AppError {
  const hint = name.startsWith('sandbox_')
    ? ': the built-in sandbox is off — it runs by default with the embedded database only; set OMNIPORT_SANDBOX=true to run it with PostgreSQL'
    : '';
  return new AppError('validation_failed', `unknown provider ${JSON.stringify(name)}${hint}`, { field, allowed });
}
