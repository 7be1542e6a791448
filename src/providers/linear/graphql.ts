/**
 * The one way the adapter talks to Linear: a GraphQL document POSTed to `/graphql` through the
 * connection's client (`ctx.http`), with Linear's errors classified by `extensions.code` and
 * RATELIMITED answers (which Linear sends with HTTP 400, not 429) retried here with backoff.
 */
import { AppError } from '../../core/errors';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import { graphQLErrorMessage, linearIsRateLimited } from './http';
import type { LnConnection, LnGraphQLError, LnResponse } from './types';

export interface LinearAdapterOptions {
  /** `first` of paginated queries (Linear's default is 50, its maximum 250). */
  pageSize?: number;
  /** How many times a RATELIMITED answer is retried before Omniport answers 503. Default 3. */
  rateLimitRetries?: number;
  /** First wait after a RATELIMITED answer; doubles on each retry (with jitter). Default 1 s. */
  rateLimitBaseMs?: number;
  /** Longest single wait after a RATELIMITED answer. Default 10 s. */
  rateLimitMaxWaitMs?: number;
  /**
   * Hosts of Linear's file storage. Markdown links to them in comment bodies are the comment's
   * attachments. Default `uploads.linear.app`.
   */
  uploadHosts?: string[];
  /** Issues per issueBatchCreate call. Default 50. */
  batchSize?: number;
}

export type ResolvedOptions = Required<LinearAdapterOptions>;

export function resolveOptions(o: LinearAdapterOptions = {}): ResolvedOptions {
  return {
    pageSize: Math.min(250, Math.max(1, o.pageSize ?? 50)),
    rateLimitRetries: Math.max(0, o.rateLimitRetries ?? 3),
    rateLimitBaseMs: Math.max(1, o.rateLimitBaseMs ?? 1_000),
    rateLimitMaxWaitMs: Math.max(1, o.rateLimitMaxWaitMs ?? 10_000),
    uploadHosts: (o.uploadHosts ?? ['uploads.linear.app']).map((h) => h.toLowerCase()),
    batchSize: Math.min(100, Math.max(1, o.batchSize ?? 50)),
  };
}

const PROVIDER = 'linear';

/** HTTP status Omniport reports for a Linear error code (Linear sends most errors with HTTP 400 or 200). */
const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  AUTHENTICATION_ERROR: 401,
  FORBIDDEN: 403,
  INVALID_INPUT: 400,
  BAD_USER_INPUT: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  GRAPHQL_PARSE_FAILED: 400,
  USER_ERROR: 400,
  FEATURE_NOT_ACCESSIBLE: 403,
  USAGE_LIMIT_EXCEEDED: 402,
  INTERNAL_SERVER_ERROR: 500,
  INTERNAL_ERROR: 500,
  LOCK_TIMEOUT: 503,
};

/** Linear's error type (the SDK's `extensions.type`) → code, for answers that only carry a type. */
const CODE_OF_TYPE: Readonly<Record<string, string>> = {
  ratelimited: 'RATELIMITED',
  'authentication error': 'AUTHENTICATION_ERROR',
  forbidden: 'FORBIDDEN',
  'invalid input': 'INVALID_INPUT',
  'user error': 'USER_ERROR',
  'feature not accessible': 'FEATURE_NOT_ACCESSIBLE',
  'usage limit exceeded': 'USAGE_LIMIT_EXCEEDED',
  'internal error': 'INTERNAL_ERROR',
  'lock timeout': 'LOCK_TIMEOUT',
};

export function errorCodeOf(e: LnGraphQLError | undefined): string | undefined {
  const ext = e?.extensions;
  if (!ext) return undefined;
  if (typeof ext.code === 'string' && ext.code) return ext.code.toUpperCase();
  return typeof ext.type === 'string' ? CODE_OF_TYPE[ext.type.toLowerCase()] : undefined;
}

function errorsOf(body: unknown): LnGraphQLError[] {
  const errors = body && typeof body === 'object' ? (body as LnResponse<unknown>).errors : undefined;
  return Array.isArray(errors) ? errors : [];
}

export const isRateLimited = (body: unknown) => linearIsRateLimited(0, {}, body);

/**
 * Linear refused the call: answered as 502 with the status the error code stands for in
 * `provider_status`, Linear's own code in `provider_code` and the HTTP status it actually sent in
 * `provider_http_status`.
 */
export class LinearApiError extends ProviderError {
  constructor(
    readonly httpStatus: number,
    readonly linearCode: string | undefined,
    message: string | undefined,
    body: unknown,
  ) {
    const fromBody = errorsOf(body)[0]?.extensions?.statusCode;
    const byCode = linearCode ? STATUS_OF_CODE[linearCode] : undefined;
    const status = byCode ?? (typeof fromBody === 'number' ? fromBody : httpStatus >= 400 ? httpStatus : 400);
    super(PROVIDER, status, message, body);
    Object.assign(this.details, { provider_http_status: httpStatus, ...(linearCode ? { provider_code: linearCode } : {}) });
  }
}

function linearError(httpStatus: number, body: unknown, fallback?: string): LinearApiError {
  const errors = errorsOf(body);
  const message = errors.length
    ? `${graphQLErrorMessage(errors[0]) ?? 'error'}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`
    : fallback;
  return new LinearApiError(httpStatus, errorCodeOf(errors[0]), message, body);
}

export interface GqlOptions {
  /** A mutation: not retried on 5xx or timeouts (a query is, being idempotent). */
  mutation?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Executes one GraphQL operation and returns its `data`; any error in the answer throws. */
export async function gql<T>(ctx: AdapterContext, o: ResolvedOptions, query: string, variables: Record<string, unknown> = {}, opts: GqlOptions = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let status: number;
    let body: LnResponse<T> | undefined;
    try {
      const res = await ctx.http.post<LnResponse<T>>('/graphql', { json: { query, variables }, read: !opts.mutation });
      status = res.status;
      body = res.data;
    } catch (err) {
      if (err instanceof AppError && err.code === 'provider_rate_limited' && err.details.provider_status === 400) {
        // RATELIMITED, waited out by the client until it would wait too long: reported as the rate limit it is.
        Object.assign(err.details, { provider_status: 429, provider_http_status: 400, provider_code: 'RATELIMITED' });
      }
      if (!(err instanceof ProviderError) || err instanceof LinearApiError) throw err;
      if (!isRateLimited(err.providerBody)) throw linearError(err.providerStatus, err.providerBody, err.providerMessage);
      status = err.providerStatus;
      body = err.providerBody as LnResponse<T>;
    }
    const errors = errorsOf(body);
    if (errors.length > 0) {
      if (isRateLimited(body)) {
        const waitMs = Math.min(o.rateLimitMaxWaitMs, o.rateLimitBaseMs * 2 ** attempt * (0.5 + Math.random() / 2));
        if (attempt < o.rateLimitRetries) {
          await sleep(waitMs);
          continue;
        }
        throw new AppError(
          'provider_rate_limited',
          'linear is rate-limiting this connection; retry later',
          {
            provider: PROVIDER,
            // Linear answers RATELIMITED with HTTP 400; Omniport reports it as the rate limit it is.
            provider_status: 429,
            provider_http_status: status,
            provider_code: 'RATELIMITED',
            provider_message: graphQLErrorMessage(errors.find((e) => errorCodeOf(e) === 'RATELIMITED')),
          },
          { 'retry-after': String(Math.max(1, Math.ceil((o.rateLimitBaseMs * 2 ** (attempt + 1)) / 1000))) },
        );
      }
      throw linearError(status, body);
    }
    if (!body || typeof body !== 'object' || !body.data) {
      throw new LinearApiError(status, undefined, 'Linear answered without data', body);
    }
    return body.data;
  }
}

export interface Page<T> {
  nodes: T[];
  /** Cursor after this page (to resume from). */
  endCursor: string | null;
  last: boolean;
}

/**
 * Walks a connection with `first`/`after` to its last page. `query` must take `$first: Int` and
 * `$after: String`; `pick` finds the connection in the answer.
 */
export async function* pages<T>(
  ctx: AdapterContext,
  o: ResolvedOptions,
  query: string,
  variables: Record<string, unknown>,
  pick: (data: never) => LnConnection<T> | null | undefined,
  after?: string | null,
): AsyncGenerator<Page<T>> {
  let cursor = after ?? null;
  for (;;) {
    const data = await gql<unknown>(ctx, o, query, { ...variables, first: o.pageSize, after: cursor });
    const conn = pick(data as never);
    const nodes = Array.isArray(conn?.nodes) ? conn.nodes : [];
    const next = conn?.pageInfo?.hasNextPage === true ? (conn.pageInfo.endCursor ?? null) : null;
    const endCursor = conn?.pageInfo?.endCursor ?? cursor;
    const last = next === null || next === cursor;
    yield { nodes, endCursor, last };
    if (last) return;
    cursor = next;
  }
}
