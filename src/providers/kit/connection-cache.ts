import { LRUCache } from 'lru-cache';
import type { AdapterContext } from '../types';

/** The most entries one cache keeps: the least recently used go first (50,000 connections stay bounded). */
export const CONNECTION_CACHE_MAX = 10_000;

/**
 * What an adapter reads about a connection's account (its own user, field definitions, describes, metadata),
 * kept per connection and key for `ttlMs`; concurrent reads of one key share one request, and a failed read is
 * not kept. Every per-connection cache of a provider is one of these: bounded, so a long-running process with
 * many connections does not grow without end.
 */
export class ConnectionCache {
  private readonly entries: LRUCache<string, { value: unknown }>;
  private readonly inflight = new Map<string, Promise<unknown>>();

  constructor(private readonly ttlMs: number, max = CONNECTION_CACHE_MAX) {
    this.entries = new LRUCache({ max });
  }

  /**
   * The value of `key` for the connection, from `load` when absent, expired or `fresh` is asked. `ttlMs` is the
   * cache's own unless an adapter's options set another (0: never kept).
   */
  get<T>(ctx: AdapterContext, key: string, load: () => Promise<T>, fresh = false, ttlMs = this.ttlMs): Promise<T> {
    const k = `${ctx.connectionId}\u0000${key}`;
    const hit = fresh || ttlMs <= 0 ? undefined : this.entries.get(k);
    if (hit) return Promise.resolve(hit.value as T);
    const running = this.inflight.get(k);
    if (running) return running as Promise<T>;
    const p = load()
      .then((value) => {
        if (ttlMs > 0) this.entries.set(k, { value }, { ttl: ttlMs });
        return value;
      })
      .finally(() => this.inflight.delete(k));
    this.inflight.set(k, p);
    return p;
  }

  /** What is kept for the connection's `key`, without loading it. */
  peek<T>(ctx: AdapterContext, key: string): T | undefined {
    return this.entries.get(`${ctx.connectionId}\u0000${key}`)?.value as T | undefined;
  }

  /** Forgets everything (tests that change an account's metadata behind the adapter's back). */
  clear(): void {
    this.entries.clear();
  }

  /** How many entries are kept (for tests of the bound). */
  get size(): number {
    return this.entries.size;
  }
}
