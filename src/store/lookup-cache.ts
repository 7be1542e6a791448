import { LRUCache } from 'lru-cache';
import type { DatabaseHandle } from './database';
import type { ApiKeyRow, ConnectionRow } from './control-plane.repo';
import type { ResolvedMapping } from './field-mapping.repo';

/** The channel the database's triggers announce changes on (migration 0011_cache_invalidation). */
export const CACHE_CHANNEL = 'omniport_cache';

/** Not a correctness bound (invalidation is), only a limit on how long a forgotten entry could live. */
const MAX_AGE_MS = 5 * 60_000;

/**
 * What every authenticated request looks up — its API key, its connection, the connection's field
 * mappings — kept in memory so a warm request costs only its own query.
 *
 * An entry is forgotten as soon as its row changes in any process: triggers NOTIFY the change at commit
 * (API keys by hash, connections by id, mappings by project) and every process LISTENs. While the
 * listening connection is down nothing is cached and everything is read from the database; when it
 * comes back, the cache starts empty. A lookup that raced with a change (a notification arrived while
 * it read) is answered but not kept, so a stale row is never stored.
 */
export class LookupCache {
  private listening = false;
  /** Bumped by every notification: a read that began before a bump does not enter the cache. */
  private generation = 0;
  private readonly apiKeys = new LRUCache<string, ApiKeyRow>({ max: 10_000, ttl: MAX_AGE_MS });
  private readonly connectionIdByToken = new Map<string, string>();
  private readonly connections = new LRUCache<string, ConnectionRow>({
    max: 10_000,
    ttl: MAX_AGE_MS,
    // An entry leaving (evicted, replaced, invalidated) takes its token's index entry along.
    dispose: (row) => this.connectionIdByToken.delete(row.tokenHash),
  });
  private readonly mappings = new LRUCache<string, ResolvedMapping[]>({ max: 10_000, ttl: MAX_AGE_MS });
  private stopListening?: () => Promise<void>;

  /** Starts following the database's change notifications; until then nothing is cached. */
  async start(database: DatabaseHandle): Promise<void> {
    this.stopListening = await database.listen(CACHE_CHANNEL, {
      onNotify: (payload) => this.invalidate(payload),
      onListening: (listening) => {
        this.generation++;
        this.clear();
        this.listening = listening;
      },
    });
  }

  async stop(): Promise<void> {
    this.listening = false;
    this.clear();
    await this.stopListening?.();
  }

  /** An active API key by the hash of its secret. */
  apiKey(keyHash: string, load: () => Promise<ApiKeyRow | undefined>): Promise<ApiKeyRow | undefined> {
    return this.read(
      () => this.apiKeys.get(keyHash),
      load,
      (row) => this.apiKeys.set(keyHash, row),
    );
  }

  /** A connection by the hash of its token. */
  connectionByToken(tokenHash: string, load: () => Promise<ConnectionRow | undefined>): Promise<ConnectionRow | undefined> {
    return this.read(
      () => {
        const id = this.connectionIdByToken.get(tokenHash);
        return id === undefined ? undefined : this.connections.get(id);
      },
      load,
      (row) => this.keepConnection(row),
    );
  }

  /** A connection by id. */
  connection(id: string, load: () => Promise<ConnectionRow | undefined>): Promise<ConnectionRow | undefined> {
    return this.read(
      () => this.connections.get(id),
      load,
      (row) => this.keepConnection(row),
    );
  }

  /** The field mappings of one linked user and provider (often none: an empty list is kept too). */
  fieldMappings(projectId: string, linkedUserId: string, provider: string, load: () => Promise<ResolvedMapping[]>): Promise<ResolvedMapping[]> {
    const key = `${projectId}|${linkedUserId}|${provider}`;
    return this.read(
      () => this.mappings.get(key),
      load,
      (list) => this.mappings.set(key, list),
    ) as Promise<ResolvedMapping[]>;
  }

  private keepConnection(row: ConnectionRow) {
    this.connections.set(row.id, row);
    this.connectionIdByToken.set(row.tokenHash, row.id);
  }

  private async read<T>(cached: () => T | undefined, load: () => Promise<T | undefined>, keep: (value: T) => void): Promise<T | undefined> {
    if (!this.listening) return load();
    const hit = cached();
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && this.listening && generation === this.generation) keep(value);
    return value;
  }

  /**
   * A change this process made, forgotten at once: the database's notification of it reaches this process's
   * listening connection some milliseconds after the commit (on PostgreSQL), and the writer's next request must
   * not see the entry as it was (a revoked key accepted, a mapping just made unknown).
   */
  forget(change: { apiKeyHash?: string; connectionId?: string; mappingsOfProject?: string }): void {
    if (change.apiKeyHash !== undefined) this.drop('k:', change.apiKeyHash);
    if (change.connectionId !== undefined) this.drop('c:', change.connectionId);
    if (change.mappingsOfProject !== undefined) this.drop('m:', change.mappingsOfProject);
  }

  /** A notification: `k:<key hash>`, `c:<connection id>` or `m:<project id>`. */
  private invalidate(payload: string) {
    this.drop(payload.slice(0, 2), payload.slice(2));
  }

  /** Mappings are few: all of them go. */
  private drop(kind: string, key: string) {
    this.generation++;
    if (kind === 'k:') this.apiKeys.delete(key);
    else if (kind === 'c:') this.connections.delete(key);
    else if (kind === 'm:') this.mappings.clear();
    else this.clear();
  }

  private clear() {
    this.apiKeys.clear();
    this.connections.clear();
    this.connectionIdByToken.clear();
    this.mappings.clear();
  }
}
