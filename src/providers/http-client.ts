import { errors as undiciErrors, request, type Dispatcher } from 'undici';
import pLimit, { type LimitFunction } from 'p-limit';
import { AppError } from '../core/errors';
import { lostAttemptOf } from '../core/lost-attempt';
import { isBlockedAddress, outboundAgent } from '../core/network';
import { processBudgets, type ProviderBudgets } from './budgets';
import { rateLimitUsage, type ProviderManifest } from './manifest';
import { observeProviderCall, type ProviderCallRecord } from '../observability/provider-calls';

export interface HttpClientOptions {
  manifest: ProviderManifest;
  connectionId: string;
  baseUrl: string;
  /** Headers that authenticate a request; called before every attempt (tokens may have been refreshed). */
  authHeaders: () => Promise<Record<string, string>> | Record<string, string>;
  errorMessage: (body: unknown) => string | undefined;
  /** Answers other than 429 that mean "rate-limited" for this provider. */
  isRateLimited?: (status: number, headers: Record<string, string>, body: unknown) => boolean;
  /** Called once on a 401; returns true when new credentials are worth a retry (OAuth refresh). */
  onUnauthorized?: () => Promise<boolean>;
  timeoutMs?: number;
  maxRetries?: number;
  /** Base delay of the exponential backoff. */
  retryBaseMs?: number;
  /** Longest wait honoured from Retry-After before giving up with a 503. */
  maxRetryAfterMs?: number;
  /**
   * Pace calls to the manifest's `budgets` and hold them while the provider says its budget is spent
   * (waits, or 503 when the wait is longer than `maxRetryAfterMs`).
   */
  paceBudgets?: boolean;
  /** Where budgets are counted (shared by the processes on one PostgreSQL database); this process by default. */
  budgets?: ProviderBudgets;
  /** Calls of one connection in flight at once in this process, per lane (default 8). */
  concurrency?: number;
  /**
   * Background work (syncs, webhook processing) has its own lane of `concurrency`: a client's request never
   * queues in this process behind a sync's hundreds of per-ticket reads; both still share the provider's budget,
   * where a sync holds at most `concurrency` slots ahead of it.
   */
  background?: boolean;
  /** Let the connection dial private and loopback addresses (OMNIPORT_ALLOW_PRIVATE_URLS); refused by default. */
  allowPrivateAddresses?: boolean;
  /** Told of every attempt when it ends (the dashboard's call log); must return at once and never throw. */
  onCall?: (call: ProviderCallReport) => void;
}

/** One attempt of a call, as `onCall` hears of it: the full URL and headers, for the listener to strip. */
export interface ProviderCallReport {
  connectionId: string;
  manifest: ProviderManifest;
  method: string;
  url: URL;
  startedAt: Date;
  durationMs: number;
  /** The answer's status and headers (lower-cased); absent when no answer came. */
  status?: number;
  headers?: Record<string, string>;
  /** Why no answer came (a timeout, a refused connection). */
  error?: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | (string | number)[]>;
  json?: unknown;
  body?: Buffer | string;
  headers?: Record<string, string>;
  /** A read sent with another method than GET (a search, a GraphQL query): retried and failing like a GET. */
  read?: boolean;
  /**
   * Whether repeating this write is harmless. Defaults: PUT and DELETE yes, POST and PATCH no. Say `true`
   * for a POST the provider deduplicates (its idempotency key), `false` for a PUT that appends (a comment).
   */
  idempotent?: boolean;
  /**
   * The adapter checked that the first attempt of an interrupted request did not make this write (HubSpot:
   * no contact has the email): it is sent even while `lostAttempt` is set.
   */
  confirmedAbsent?: boolean;
}

export interface ProviderResponse<T> {
  status: number;
  headers: Record<string, string>;
  data: T;
}

const limiters = new Map<string, LimitFunction>();

/** The one outbound client: timeouts, retries with backoff and jitter, Retry-After, per-connection concurrency. */
export class ProviderHttpClient {
  private readonly limit: LimitFunction;
  private readonly opts: Required<Pick<HttpClientOptions, 'timeoutMs' | 'maxRetries' | 'retryBaseMs' | 'maxRetryAfterMs'>> & HttpClientOptions;

  constructor(opts: HttpClientOptions) {
    this.opts = { timeoutMs: 30_000, maxRetries: 4, retryBaseMs: 250, maxRetryAfterMs: 60_000, ...opts };
    const key = `${opts.connectionId}:${opts.background ? 'background' : 'request'}`;
    let limit = limiters.get(key);
    if (!limit) {
      limit = pLimit(opts.concurrency ?? 8);
      limiters.set(key, limit);
    }
    this.limit = limit;
  }

  /** The address policy of this client, for a client made from it (pre-signed upload targets). */
  get allowsPrivateAddresses(): boolean {
    return this.opts.allowPrivateAddresses === true;
  }

  get<T>(path: string, o?: RequestOptions) {
    return this.request<T>('GET', path, o);
  }
  post<T>(path: string, o?: RequestOptions) {
    return this.request<T>('POST', path, o);
  }
  put<T>(path: string, o?: RequestOptions) {
    return this.request<T>('PUT', path, o);
  }
  patch<T>(path: string, o?: RequestOptions) {
    return this.request<T>('PATCH', path, o);
  }
  delete<T>(path: string, o?: RequestOptions) {
    return this.request<T>('DELETE', path, o);
  }

  /** `path` is relative to the connection's base URL, or an absolute URL on the same origin (next-page links). */
  request<T>(method: Dispatcher.HttpMethod, path: string, o: RequestOptions = {}): Promise<ProviderResponse<T>> {
    return observeProviderCall(this.opts.manifest.name, method, (record) => this.limit(() => this.withRetries<T>(method, this.url(path, o.query), o, record)));
  }

  private url(path: string, query?: RequestOptions['query']): URL {
    const base = new URL(this.opts.baseUrl.endsWith('/') ? this.opts.baseUrl : `${this.opts.baseUrl}/`);
    const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(path.replace(/^\//, ''), base);
    // Never follow a provider-supplied link to another host with our credentials.
    if (url.origin !== base.origin) throw new AppError('provider_error', `${this.opts.manifest.name} pointed at another host`, { provider: this.opts.manifest.name });
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined) continue;
      url.searchParams.set(k, Array.isArray(v) ? v.join(',') : String(v));
    }
    return url;
  }

  private async withRetries<T>(method: Dispatcher.HttpMethod, url: URL, o: RequestOptions, record: ProviderCallRecord): Promise<ProviderResponse<T>> {
    const provider = this.opts.manifest.name;
    const write = !(method === 'GET' || method === 'HEAD' || o.read === true);
    // A write is sent again only when repeating it is harmless; otherwise only when it surely did not arrive.
    const repeatable = !write || (o.idempotent ?? (method === 'PUT' || method === 'DELETE'));
    // The retry of an interrupted request: its first attempt may have sent this write (core/lost-attempt.ts).
    if (!repeatable && !o.confirmedAbsent && lostAttemptOf()) {
      throw new OutcomeUnknownError(provider, 'the first attempt of this request was interrupted (its process stopped) and may have sent it', { interrupted: true });
    }
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.opts.maxRetries;
      const budgetCall = { provider, connectionId: this.opts.connectionId, baseUrl: this.opts.baseUrl, method, path: url.pathname };
      if (this.opts.paceBudgets) await this.budgets.spend(budgetCall, this.opts.manifest.budgets, this.opts.maxRetryAfterMs);
      let res: Dispatcher.ResponseData;
      const startedAt = new Date();
      try {
        const headers: Record<string, string> = { accept: 'application/json', ...(await this.opts.authHeaders()), ...o.headers };
        let body: Buffer | string | undefined = o.body;
        if (o.json !== undefined) {
          body = JSON.stringify(o.json);
          headers['content-type'] = 'application/json';
        }
        res = await request(url, {
          method,
          headers,
          body,
          dispatcher: outboundAgent(this.opts.allowPrivateAddresses === true),
          headersTimeout: this.opts.timeoutMs,
          bodyTimeout: this.opts.timeoutMs,
        });
      } catch (err) {
        if (isBlockedAddress(err)) {
          throw new AppError('unprocessable', `${provider}: the connection's address is not public, and private addresses are not allowed; set OMNIPORT_ALLOW_PRIVATE_URLS=true to allow them`, { provider, field: 'base_url' });
        }
        const timedOut = err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError;
        const code = (err as { code?: string }).code;
        this.report({ method, url, startedAt, error: timedOut ? 'timeout' : (code ?? 'network error') });
        if ((repeatable || (!timedOut && nothingSent(code))) && !last) {
          await sleep(this.backoff(attempt));
          continue;
        }
        if (write && !nothingSent(code)) throw new OutcomeUnknownError(provider, timedOut ? `no answer within ${this.opts.timeoutMs} ms` : `the connection failed (${code ?? 'network error'})`);
        if (timedOut) throw new AppError('provider_timeout', `${provider} did not answer within ${this.opts.timeoutMs} ms`, { provider });
        throw new AppError('provider_unavailable', `${provider} could not be reached (${code ?? 'network error'})`, { provider });
      }

      const headers = flatHeaders(res.headers);
      const text = await res.body.text();
      const data = parseBody(text, headers['content-type']);
      const status = res.statusCode;
      this.report({ method, url, startedAt, status, headers });
      if (this.opts.paceBudgets) {
        // Budgets charged by the answer's cost (Linear's complexity) are charged what the call actually cost.
        await this.budgets.settle(budgetCall, this.opts.manifest.budgets, headers);
        // A budget the provider reports spent holds the connection's next calls, in every process, until its reset.
        await this.budgets.hold(budgetCall, this.exhaustedBudgetResetMs(headers) ?? 0, this.opts.manifest.budgets);
      }
      if (status < 300) return { status, headers, data: data as T };

      if (status === 401 && !refreshed && this.opts.onUnauthorized) {
        refreshed = true;
        if (await this.opts.onUnauthorized()) {
          attempt--;
          continue;
        }
      }
      // A rate-limit answer means the provider refused the call: any call, writes included, may be sent again.
      const rateLimited = status === 429 || (status !== 503 && this.opts.isRateLimited?.(status, headers, data) === true);
      if (status >= 500 && write && !repeatable) {
        throw new OutcomeUnknownError(provider, `it answered ${status}`, { provider_status: status, provider_message: this.message(data) });
      }
      if (rateLimited || status === 503) {
        const waitMs = this.retryAfterMs(headers) ?? (rateLimited ? Math.max(this.backoff(attempt), this.opts.manifest.rateLimitMinWaitMs ?? 0) : this.backoff(attempt));
        if (rateLimited && this.opts.paceBudgets) await this.budgets.hold(budgetCall, waitMs, this.opts.manifest.budgets);
        if (!last && waitMs <= this.opts.maxRetryAfterMs) {
          if (rateLimited) record.rateLimitWaits++;
          await sleep(waitMs);
          continue;
        }
        if (!rateLimited && write) throw new OutcomeUnknownError(provider, `it answered ${status}`, { provider_status: status, provider_message: this.message(data) });
        const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
        throw new AppError(
          rateLimited ? 'provider_rate_limited' : 'provider_unavailable',
          rateLimited ? `${provider} is rate-limiting this connection; retry later` : `${provider} is unavailable; retry later`,
          { provider, provider_status: status, provider_message: this.message(data) },
          { 'retry-after': retryAfter },
        );
      }
      if (status >= 500) {
        if (!last) {
          await sleep(this.backoff(attempt));
          continue;
        }
        if (write) throw new OutcomeUnknownError(provider, `it answered ${status}`, { provider_status: status, provider_message: this.message(data) });
      }
      throw new ProviderError(provider, status, this.message(data), data, headers);
    }
  }

  private report(call: Pick<ProviderCallReport, 'method' | 'url' | 'startedAt' | 'status' | 'headers' | 'error'>) {
    if (!this.opts.onCall) return;
    try {
      this.opts.onCall({ ...call, connectionId: this.opts.connectionId, manifest: this.opts.manifest, durationMs: Date.now() - call.startedAt.getTime() });
    } catch {
      // A listener's fault never fails the call.
    }
  }

  private message(body: unknown): string | undefined {
    try {
      return this.opts.errorMessage(body)?.slice(0, 1000);
    } catch {
      return undefined;
    }
  }

  private get budgets(): ProviderBudgets {
    return this.opts.budgets ?? processBudgets;
  }

  /** Retry-After (seconds or HTTP date), or the provider's own reset header when nothing is left. */
  private retryAfterMs(headers: Record<string, string>): number | undefined {
    const retryAfter = headers['retry-after'];
    if (retryAfter) {
      const seconds = Number(retryAfter);
      if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
      const date = Date.parse(retryAfter);
      if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
    }
    return this.exhaustedBudgetResetMs(headers);
  }

  /** How long until the provider's reset, when its rate-limit headers say a budget has nothing left. */
  private exhaustedBudgetResetMs(headers: Record<string, string>): number | undefined {
    // Every exhausted budget is waited out: the longest reset wins.
    let wait: number | undefined;
    for (const rl of [this.opts.manifest.rateLimitHeaders ?? []].flat()) {
      if (rl.usage) {
        const u = rateLimitUsage(rl, headers);
        if (u && u.limit > 0 && u.remaining === 0) wait = Math.max(wait ?? 0, rl.usage.holdMs);
        continue;
      }
      if (!rl.reset || headers[rl.remaining] !== '0') continue;
      const reset = Number(headers[rl.reset]);
      if (!Number.isFinite(reset)) continue;
      const ms = rl.resetKind === 'epoch' ? reset * 1000 - Date.now() : rl.resetKind === 'epoch-ms' ? reset - Date.now() : reset * 1000;
      wait = Math.max(wait ?? 0, ms, 0);
    }
    return wait;
  }

  /** Exponential backoff with full jitter. */
  private backoff(attempt: number): number {
    return Math.random() * this.opts.retryBaseMs * 2 ** attempt;
  }
}

/** A provider refused the call (4xx other than 429, or a 5xx not retried): answered as 502 with its status and message. */
export class ProviderError extends AppError {
  constructor(
    readonly provider: string,
    readonly providerStatus: number,
    readonly providerMessage: string | undefined,
    readonly providerBody: unknown,
    /** The answer's headers (lower-cased), where the client saw them. */
    readonly providerHeaders: Record<string, string> = {},
  ) {
    super(
      'provider_error',
      `${provider} answered ${providerStatus}${providerMessage ? `: ${providerMessage}` : ''}`,
      { provider, provider_status: providerStatus, provider_message: providerMessage },
    );
  }
}

/**
 * A write that may or may not have reached the provider: it was sent, and no answer (a timeout, a reset
 * connection) or a server error came back. Never retried blindly; the caller finds out or says so.
 */
export class OutcomeUnknownError extends AppError {
  constructor(
    readonly provider: string,
    why: string,
    details: Record<string, unknown> = {},
  ) {
    super('outcome_unknown', `${provider} may or may not have applied this write: ${why}. Omniport did not send it again; the next sync shows whether it happened`, {
      provider,
      ...details,
    });
  }
}

/**
 * For a step that prepares a write (an upload before the comment that carries it): its own unknown outcome
 * leaves at most an orphan behind, and the write itself surely did not happen, so it fails plainly.
 */
export async function beforeTheWrite<T>(step: Promise<T>, what: string): Promise<T> {
  try {
    return await step;
  } catch (err) {
    // An interrupted first attempt may have gone past this step and sent the write itself.
    if (!(err instanceof OutcomeUnknownError) || err.details.interrupted) throw err;
    throw new AppError('provider_error', `${what} failed (${err.details.provider_status ?? 'no answer'}); nothing else was sent`, {
      provider: err.provider,
      provider_status: err.details.provider_status,
    });
  }
}

/** Connection failures where the request surely never left: nothing can have happened at the provider. */
function nothingSent(code: string | undefined): boolean {
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  if (contentType?.includes('json') || /^[[{]/.test(text.trimStart())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
