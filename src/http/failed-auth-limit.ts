import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppError } from '../core/errors';

/**
 * A budget of failed authentications per key (a source address, an attempted key's prefix): past `perMinute`
 * failures within a minute, further *failed* attempts are answered 429 with Retry-After instead of 401, until the
 * minute is over. A valid key is always served, however many bad attempts share its address: the budget slows
 * guessing, it never locks out a client that authenticates (behind a proxy every client may share one address).
 * Counted in memory, per process.
 */
export class FailedAuthLimit {
  private readonly failures: RateLimiterMemory | undefined;

  constructor(private readonly perMinute: number) {
    this.failures = perMinute > 0 ? new RateLimiterMemory({ points: perMinute, duration: 60 }) : undefined;
  }

  /** Seconds to wait when any of `keys` is over its budget, else undefined. */
  async retryAfter(keys: string[]): Promise<number | undefined> {
    if (!this.failures) return undefined;
    let wait: number | undefined;
    for (const key of keys) {
      const seen = await this.failures.get(key);
      if (seen && seen.consumedPoints >= this.perMinute) wait = Math.max(wait ?? 0, Math.max(1, Math.ceil(seen.msBeforeNext / 1000)));
    }
    return wait;
  }

  /** Counts a failed attempt against each of `keys`. */
  async fail(keys: string[]): Promise<void> {
    if (!this.failures) return;
    for (const key of keys) await this.failures.penalty(key, 1);
  }

  /**
   * The error for a failed attempt: `unauthorized` while within the budget, `rate_limited` with Retry-After past it.
   * The attempt is counted either way.
   */
  async refusal(keys: string[], unauthorized: AppError, what: string): Promise<AppError> {
    const wait = await this.retryAfter(keys);
    await this.fail(keys);
    if (wait === undefined) return unauthorized;
    return new AppError('rate_limited', `too many ${what} from this address; retry in ${wait} s (a valid API key is still accepted)`, {}, { 'retry-after': String(wait) });
  }
}

/** The prefix of an attempted key that the sign-in budget is also counted by (a key's listed prefix is longer). */
export const attemptedKeyPrefix = (key: string) => `prefix:${key.slice(0, 12)}`;
