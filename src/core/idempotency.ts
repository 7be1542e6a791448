import { createHash } from 'node:crypto';
import { AppError } from './errors';
import type { IdempotencyRepo, IdempotencyScope } from '../store/idempotency.repo';
import type { SecretBox } from './secrets';

/** What to do with a write that carries an Idempotency-Key. */
export type IdempotencyDecision =
  | { kind: 'proceed'; scope: IdempotencyScope }
  | { kind: 'replay'; status: number; body: string; contentType: string | null };

/** Answers that prove the request did nothing: the key is released so the client may retry with it. */
const NOTHING_DONE = new Set(['rate_limited', 'provider_rate_limited', 'provider_unavailable', 'database_unavailable', 'idempotency_in_progress']);

/** Stored answers are JSON or empty; a sealed value starts with its version. */
export const isSealed = (stored: string) => /^v[12]\./.test(stored);

const KEY = /^[\x21-\x7e]{1,255}$/;

/** Canonical JSON: object keys sorted, so the same request hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Idempotency-Key, as Stripe defines it: per project and route, the first answer of a write is kept for
 * `ttlHours` and replayed to a retry with the same key and the same request; another request with that key
 * is refused (422); a retry while the first one runs waits (409). A first request that never finished
 * (its process died) is answered `outcome_unknown` after `lockTimeoutMs`: running it again could write twice.
 */
export class IdempotencyService {
  constructor(
    private readonly repo: IdempotencyRepo,
    /** Stored answers hold secrets (connection tokens, API keys, magic links): they are kept encrypted. */
    private readonly box: SecretBox,
    private readonly opts: { ttlHours: number; lockTimeoutMs: number },
  ) {}

  async begin(projectId: string, method: string, path: string, key: string, request: { query: unknown; body: unknown }): Promise<IdempotencyDecision> {
    if (!KEY.test(key)) {
      throw new AppError('validation_failed', 'headers.idempotency-key: 1 to 255 printable ASCII characters', { field: 'headers.idempotency-key' });
    }
    const scope = { projectId, method, path, key };
    const hash = createHash('sha256').update(canonical(request)).digest('hex');
    const { claimed, row } = await this.repo.claim(scope, hash, new Date(Date.now() + this.opts.ttlHours * 3600_000));
    if (claimed) return { kind: 'proceed', scope };
    if (row.requestHash !== hash) {
      throw new AppError('idempotency_key_reused', 'this Idempotency-Key was already used with another request; use a new key for a new request', {
        field: 'headers.idempotency-key',
      });
    }
    if (row.state === 'done') return { kind: 'replay', status: row.responseStatus!, body: this.open(row.responseBody), contentType: row.responseContentType };
    if (Date.now() - row.createdAt.getTime() < this.opts.lockTimeoutMs) {
      throw new AppError('idempotency_in_progress', 'a request with this Idempotency-Key is still being processed; retry shortly', {}, { 'retry-after': '2' });
    }
    // The first request was cut off (its process died): its writes may or may not have happened.
    const body = JSON.stringify({
      statusCode: 502,
      error: 'Bad Gateway',
      message: 'the first request with this Idempotency-Key was interrupted; its outcome is unknown (the next sync shows what it wrote)',
      details: { code: 'outcome_unknown' },
    });
    await this.repo.complete(scope, { status: 502, body: this.box.encrypt(body), contentType: 'application/json; charset=utf-8' });
    return { kind: 'replay', status: 502, body, contentType: 'application/json; charset=utf-8' };
  }

  /** Keeps the answer for replay, unless it proves nothing happened (then the key is free again). */
  async finish(scope: IdempotencyScope, response: { status: number; code?: string; body: string; contentType: string | null }): Promise<void> {
    if (response.status === 429 || (response.code !== undefined && NOTHING_DONE.has(response.code))) return this.repo.release(scope);
    await this.repo.complete(scope, { ...response, body: this.box.encrypt(response.body) });
  }

  /** A stored answer: encrypted, or in clear if an older version stored it (until `omniport keys rotate`). */
  private open(stored: string | null): string {
    if (stored === null) return '';
    return isSealed(stored) ? this.box.decrypt(stored) : stored;
  }

  purgeExpired(): Promise<number> {
    return this.repo.purgeExpired();
  }
}
