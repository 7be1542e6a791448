/**
 * Pipedrive request helpers shared by sync and writes: API v2 cursor pagination, API v1 offset
 * pagination, and field definitions (cached per connection). Everything goes through `ctx.http`.
 */
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { PdEnvelope, PdFieldDef } from './types';

export interface PipedriveAdapterOptions {
  /** `limit` of API v2 lists (Pipedrive allows at most 500). */
  pageSize?: number;
  /** `limit` of API v1 lists (notes; at most 500). */
  v1PageSize?: number;
  /** How long field definitions (custom fields, industry options) are reused before being read again. */
  fieldCacheMs?: number;
}

export type ResolvedOptions = Required<PipedriveAdapterOptions>;

export function resolveOptions(o: PipedriveAdapterOptions = {}): ResolvedOptions {
  return {
    pageSize: Math.min(500, Math.max(1, o.pageSize ?? 500)),
    v1PageSize: Math.min(500, Math.max(1, o.v1PageSize ?? 500)),
    fieldCacheMs: Math.max(0, o.fieldCacheMs ?? 60_000),
  };
}

export const V2 = '/api/v2';
export const V1 = '/v1';

type Query = Record<string, string | number | boolean | undefined>;

export interface Page<T> {
  items: T[];
  /** Cursor of the next page; null on the last one. */
  next: string | null;
}

/** Walks an API v2 list (`limit`, `cursor` → `additional_data.next_cursor`) to the last page. */
export async function* cursorPages<T>(ctx: AdapterContext, path: string, opts: { limit: number; query?: Query; cursor?: string | null }): AsyncGenerator<Page<T>> {
  let cursor = opts.cursor ?? undefined;
  for (;;) {
    const res = await ctx.http.get<PdEnvelope<T[] | null>>(path, { query: { ...opts.query, limit: opts.limit, cursor } });
    const items = Array.isArray(res.data?.data) ? res.data.data : [];
    const raw = res.data?.additional_data?.next_cursor;
    const next = typeof raw === 'string' && raw !== '' && raw !== cursor ? raw : null;
    yield { items, next };
    if (next === null) return;
    cursor = next;
  }
}

/** Walks an API v1 list (`start`, `limit` → `additional_data.pagination`) to the last page. */
export async function* offsetPages<T>(ctx: AdapterContext, path: string, opts: { limit: number; query?: Query; start?: number }): AsyncGenerator<Page<T> & { start: number }> {
  let start = opts.start ?? 0;
  for (;;) {
    const res = await ctx.http.get<PdEnvelope<T[] | null>>(path, { query: { ...opts.query, start, limit: opts.limit } });
    // v1 lists answer `data: null` when nothing matches.
    const items = Array.isArray(res.data?.data) ? res.data.data : [];
    const p = res.data?.additional_data?.pagination;
    const nextStart = p?.more_items_in_collection ? (p.next_start ?? start + items.length) : null;
    const next = nextStart !== null && nextStart > start && items.length > 0 ? nextStart : null;
    yield { items, next: next === null ? null : String(next), start };
    if (next === null) return;
    start = next;
  }
}

/** The object of a single-object answer (`{success, data}`). */
export function dataOf<T>(res: { data: PdEnvelope<T> | undefined }, what: string): T {
  const data = res.data?.data;
  if (data === undefined || data === null) throw new ProviderError('pipedrive', 502, `Pipedrive answered without the ${what}`, res.data);
  return data;
}

export type FieldEntity = 'person' | 'organization' | 'deal';

/**
 * Field definitions per connection and entity (`GET /api/v2/{entity}Fields`), kept for `fieldCacheMs`.
 * A lookup that misses (a field or option created since) reads them again once.
 */
export class FieldDefinitions {
  private readonly cache = new Map<string, { at: number; fields: Map<string, PdFieldDef> }>();
  /** Reads in progress, shared by concurrent writes (a batch of 100 reads the definitions once). */
  private readonly inflight = new Map<string, Promise<Map<string, PdFieldDef>>>();

  constructor(private readonly o: ResolvedOptions) {}

  async all(ctx: AdapterContext, entity: FieldEntity, opts: { fresh?: boolean } = {}): Promise<Map<string, PdFieldDef>> {
    const key = `${ctx.connectionId}\u0000${entity}`;
    const hit = this.cache.get(key);
    if (hit && !opts.fresh && Date.now() - hit.at < this.o.fieldCacheMs) return hit.fields;
    const running = this.inflight.get(key);
    if (running) return running;
    const read = this.read(ctx, entity).then(
      (fields) => {
        this.cache.set(key, { at: Date.now(), fields });
        if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value!);
        return fields;
      },
    ).finally(() => this.inflight.delete(key));
    this.inflight.set(key, read);
    return read;
  }

  private async read(ctx: AdapterContext, entity: FieldEntity): Promise<Map<string, PdFieldDef>> {
    const fields = new Map<string, PdFieldDef>();
    for await (const page of cursorPages<PdFieldDef>(ctx, `${V2}/${entity}Fields`, { limit: 500 })) {
      for (const f of page.items) if (f && typeof f.field_code === 'string') fields.set(f.field_code, f);
    }
    return fields;
  }

  /** One field; read again once when it is not known (yet). */
  async get(ctx: AdapterContext, entity: FieldEntity, code: string): Promise<PdFieldDef | undefined> {
    const known = (await this.all(ctx, entity)).get(code);
    if (known) return known;
    return (await this.all(ctx, entity, { fresh: true })).get(code);
  }

  /** Whatever is cached, without calling Pipedrive. */
  cached(ctx: AdapterContext, entity: FieldEntity): Map<string, PdFieldDef> | undefined {
    return this.cache.get(`${ctx.connectionId}\u0000${entity}`)?.fields;
  }
}

export const isNotFound = (e: unknown) => e instanceof ProviderError && e.providerStatus === 404;
