import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '../store/database';
import { rateLimits } from '../store/schema';

/**
 * A store for @fastify/rate-limit that counts in the database (rate-limiter-flexible's Drizzle store), so
 * every API process on one database spends the same per-key budget instead of one budget each.
 */
export function sharedRateLimitStore(db: Database, max: number, windowMs: number): new () => FastifyRateLimitStore {
  const limiter = new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, points: max, duration: windowMs / 1000, keyPrefix: 'api_key' });
  const counted = (res: RateLimiterRes) => ({ current: res.consumedPoints, ttl: res.msBeforeNext });
  class SharedStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
      limiter.consume(key).then(
        (res) => callback(null, counted(res)),
        // Past the budget the limiter rejects with its count; anything else is a failure of the store.
        (err: unknown) => (err instanceof RateLimiterRes ? callback(null, counted(err)) : callback(err as Error)),
      );
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return SharedStore;
}
