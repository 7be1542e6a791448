/**
 * Pipedrive request helpers shared by sync and writes: API v2 cursor pagination, API v1 offset
 * pagination that deletions cannot shift, and field definitions (cached per connection). Everything goes through `ctx.http`.
 */
import { ConnectionCache } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { PdEnvelope, PdFieldDef } from './types';
export { isNotFound } from '../kit';

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
/**
 * API v1's path prefix: `/v1` on the shared host (api.pipedrive.com, where API-token connections go), `/api/v1`
 * on a company domain (`https://<company>.pipedrive.com`, the `api_domain` an OAuth token answer gives), which
 * serves API v1 only under `/api/v1` (https://pipedrive.readme.io/docs/core-api-concepts-requests).
 */
export const v1 = (ctx: { baseUrl: string }): string => (new URL(ctx.baseUrl).hostname === 'api.pipedrive.com' ? '/v1' : '/api/v1');

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

/** Where an id-ordered offset walk goes on: the offset reached, and the greatest id read so far. */
export interface IdOffsetPosition {
  start: number;
  after: number | null;
}

/**
 * Walks an API v1 list sorted by id ascending so that no deletion can make it skip an item. With plain
 * offsets, an item deleted from a page already read moves every later item back by one, and the first
 * item of the next page would never be read. Here each page is asked for `overlap` items before the
 * offset reached, items up to the last id read are dropped, and a page that already starts past that id
 * (more than `overlap` items deleted meanwhile) is asked again from further back, down to offset 0.
 * New items get greater ids, so they only ever append.
 */
export async function* idOrderedOffsetPages<T extends { id: number }>(
  ctx: AdapterContext,
  path: string,
  opts: { limit: number; query?: Query; from?: IdOffsetPosition },
): AsyncGenerator<{ items: T[]; next: IdOffsetPosition | null }> {
  const overlap = Math.max(1, Math.floor(opts.limit / 10));
  let { start, after } = opts.from ?? { start: 0, after: null };
  for (;;) {
    let askAt = after === null ? start : Math.max(0, start - overlap);
    let items: T[];
    let more: boolean;
    for (;;) {
      const res = await ctx.http.get<PdEnvelope<T[] | null>>(path, { query: { ...opts.query, start: askAt, limit: opts.limit } });
      items = (Array.isArray(res.data?.data) ? res.data.data : []).filter((x) => x && typeof x.id === 'number');
      more = Boolean(res.data?.additional_data?.pagination?.more_items_in_collection) && items.length > 0;
      const anchored = after === null || askAt === 0 || (items.length > 0 && items[0]!.id <= after);
      if (anchored) break;
      askAt = Math.max(0, askAt - opts.limit);
    }
    const fresh = after === null ? items : items.filter((x) => x.id > after!);
    for (const x of fresh) after = Math.max(after ?? x.id, x.id);
    const reached = askAt + items.length;
    // A step back may end before the old offset; a page with nothing new that does not get further stops a
    // list that says it has more but keeps answering the same items.
    const next = more && (fresh.length > 0 || reached > start) ? { start: reached, after } : null;
    yield { items: fresh, next };
    if (!next) return;
    start = next.start;
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
  /** Concurrent writes share one read (a batch of 100 reads the definitions once). */
  private readonly cache: ConnectionCache;

  constructor(private readonly o: ResolvedOptions) {
    this.cache = new ConnectionCache(o.fieldCacheMs);
  }

  all(ctx: AdapterContext, entity: FieldEntity, opts: { fresh?: boolean } = {}): Promise<Map<string, PdFieldDef>> {
    return this.cache.get(ctx, entity, () => this.read(ctx, entity), opts.fresh);
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
    return this.cache.peek(ctx, entity);
  }
}

