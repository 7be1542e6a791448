import type { AdapterContext } from './types';

/**
 * What an adapter reads about a connection's account (field definitions, describes, metadata), kept per connection
 * and key for `ms`; concurrent reads of one key share one request. At most 10,000 entries (the oldest go first).
 */
export class ConnectionCache {
  private readonly entries = new Map<string, { at: number; value: unknown }>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  constructor(private readonly ms: number) {}

  get<T>(ctx: AdapterContext, key: string, load: () => Promise<T>, fresh = false): Promise<T> {
    const k = `${ctx.connectionId}\u0000${key}`;
    const hit = this.entries.get(k);
    if (hit && !fresh && Date.now() - hit.at < this.ms) return Promise.resolve(hit.value as T);
    const running = this.inflight.get(k);
    if (running) return running as Promise<T>;
    const p = load()
      .then((value) => {
        this.entries.set(k, { at: Date.now(), value });
        if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
        return value;
      })
      .finally(() => this.inflight.delete(k));
    this.inflight.set(k, p);
    return p;
  }
}
