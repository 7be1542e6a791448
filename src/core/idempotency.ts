import { createHash, randomUUID } from 'node:crypto';
import { inSlices } from './slices';
import { PURGE_SLICE } from '../store/purge';
import { AppError } from './errors';
import type { IdempotencyRepo, IdempotencyScope } from '../store/idempotency.repo';
import type { SecretBox } from './secrets';

/** What to do with a write that carries an Idempotency-Key. */
export type IdempotencyDecision =
  /** `claimedAt`: when this use of the key began (a takeover keeps it; a use after expiry is a new one). */
  | { kind: 'proceed'; scope: IdempotencyScope; claimedAt: Date; lostAttempt?: { startedAt: Date } }
  | { kind: 'replay'; status: number; body: string; contentType: string | null };

/** Answers that prove the request did nothing: the key is released so the client may retry with it. */
const NOTHING_DONE = new Set(['rate_limited', 'provider_rate_limited', 'provider_unavailable', 'database_unavailable', 'idempotency_in_progress']);

/** Stored answers are JSON or empty; a sealed value starts with its version. */
export const isSealed = (stored: string) => /^v[12]\./.test(stored);

const KEY = /^[\x21-\x7e]{1,255}$/;

/** Writes whose provider calls go through the adapters' lost-write checks: run again after a takeover. */
const RESUMABLE = /^\/(ticketing|crm)\//;

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
 * is refused (422); a retry while the first one runs waits (409).
 *
 * A claim has an owner (this process) and a heartbeat, refreshed every `staleMs / 3` while the request runs,
 * however long it takes. A claim whose heartbeat is older than `staleMs` lost its process (on the embedded
 * database, one process: any other owner's claim at once): a retry takes it over. A ticketing or CRM write is
 * then run again with `lostAttempt` (core/lost-attempt.ts): nothing the first attempt may have sent is sent
 * blindly; the adapter finds out what it wrote where the provider allows it, and the answer is the real
 * outcome (`outcome_unknown` where it cannot be known). Any other write answers `outcome_unknown`.
 */
export class IdempotencyService {
  constructor(
    private readonly repo: IdempotencyRepo,
    /** Stored answers hold secrets (connection tokens, API keys, magic links): they are kept encrypted. */
    private readonly box: SecretBox,
    private readonly opts: { ttlHours: number; staleMs: number; singleProcess: boolean },
  ) {}

  /** This process, as the owner of the claims it runs. */
  private readonly owner = randomUUID();
  private readonly running = new Map<string, IdempotencyScope>();
  private heartbeats?: NodeJS.Timeout;

  /** Keeps the claim alive while its request runs. */
  private track(scope: IdempotencyScope) {
    this.running.set(JSON.stringify(scope), scope);
    this.heartbeats ??= setInterval(() => {
      if (this.running.size === 0) {
        clearInterval(this.heartbeats);
        this.heartbeats = undefined;
        return;
      }
      // A missed beat (database briefly gone) is caught up by the next one, well within staleMs.
      this.repo.heartbeat(this.owner, [...this.running.values()]).catch(() => undefined);
    }, Math.max(100, this.opts.staleMs / 3)).unref();
  }

  async begin(projectId: string, method: string, path: string, key: string, request: { query: unknown; body: unknown }): Promise<IdempotencyDecision> {
    if (!KEY.test(key)) {
      throw new AppError('validation_failed', 'headers.idempotency-key: 1 to 255 printable ASCII characters', { field: 'headers.idempotency-key' });
    }
    const scope = { projectId, method, path, key };
    const hash = createHash('sha256').update(canonical(request)).digest('hex');
    const { claimed, row } = await this.repo.claim(scope, hash, new Date(Date.now() + this.opts.ttlHours * 3600_000), this.owner);
    if (claimed) {
      this.track(scope);
      return { kind: 'proceed', scope, claimedAt: row.createdAt };
    }
    if (row.requestHash !== hash) {
      throw new AppError('idempotency_key_reused', 'this Idempotency-Key was already used with another request; use a new key for a new request', {
        field: 'headers.idempotency-key',
      });
    }
    if (row.state === 'done') return { kind: 'replay', status: row.responseStatus!, body: this.open(row.responseBody), contentType: row.responseContentType };
    const taken = await this.repo.takeOver(scope, this.owner, this.opts.staleMs, this.opts.singleProcess);
    if (!taken) {
      // Alive: its owner beats. Retry-After is when the claim would be stale if the owner stopped now.
      const wait = Math.min(Math.max(1, Math.ceil((row.heartbeatAt.getTime() + this.opts.staleMs - Date.now()) / 1000)), Math.ceil(this.opts.staleMs / 1000));
      throw new AppError('idempotency_in_progress', 'a request with this Idempotency-Key is still being processed by a running Omniport process; retry after Retry-After seconds', {}, {
        'retry-after': String(wait),
      });
    }
    if (RESUMABLE.test(path)) {
      this.track(scope);
      return { kind: 'proceed', scope, claimedAt: taken.createdAt, lostAttempt: { startedAt: taken.createdAt } };
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
  async finish(scope: IdempotencyScope, response: { status: number; code?: string; elementCodes?: (string | undefined)[]; body: string; contentType: string | null }): Promise<void> {
    this.running.delete(JSON.stringify(scope));
    const nothingDone = (code: string | undefined) => code !== undefined && NOTHING_DONE.has(code);
    // A batch whose every element failed before anything was sent (connection refused …) did nothing either.
    const noElementDone = Boolean(response.elementCodes?.length) && response.elementCodes!.every(nothingDone);
    if (response.status === 429 || nothingDone(response.code) || noElementDone) return this.repo.release(scope);
    const { elementCodes: _e, ...kept } = response;
    await this.repo.complete(scope, { ...kept, body: this.box.encrypt(response.body) });
  }

  /** A stored answer: encrypted, or in clear if an older version stored it (until `omniport keys rotate`). */
  private open(stored: string | null): string {
    if (stored === null) return '';
    return isSealed(stored) ? this.box.decrypt(stored) : stored;
  }

  /** In slices, requests answered between them. */
  purgeExpired(): Promise<number> {
    return inSlices(() => this.repo.purgeExpired(PURGE_SLICE), PURGE_SLICE);
  }
}
