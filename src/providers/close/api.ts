/**
 * Close request helpers shared by sync and writes: offset lists (`_skip`/`_limit`, `has_more`) walked with
 * an overlap so deletions during a walk cannot make it skip an object, the event log (`_cursor`), and
 * custom field definitions (cached per connection). Everything goes through `ctx.http`.
 */
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { CloseCustomField, CloseEvent, CloseList } from './types';
import { ConnectionCache } from '../kit';
export { isNotFound } from '../kit';

export const API = '/api/v1';

export interface CloseAdapterOptions {
  /** `_limit` of lists (Close answers at most 100 per page on most lists). */
  pageSize?: number;
  /** How long custom field definitions are reused before being read again. */
  fieldCacheMs?: number;
}

export type ResolvedOptions = Required<CloseAdapterOptions>;

export function resolveOptions(o: CloseAdapterOptions = {}): ResolvedOptions {
  return { pageSize: Math.min(100, Math.max(2, o.pageSize ?? 100)), fieldCacheMs: Math.max(0, o.fieldCacheMs ?? 60_000) };
}

type Query = Record<string, string | number | boolean | undefined>;

/** Where an offset walk goes on: the offset reached, and the ids of the last page (to drop them when read again). */
export interface OffsetPosition {
  skip: number;
  last: string[];
}

/**
 * Walks an offset list to its last page. Each page after the first is asked from `overlap` items before
 * the offset reached: an object deleted from a page already read moves later objects back, and without the
 * overlap the first object of the next page would never be read. Objects of the previous page read again
 * are dropped. Up to `overlap` deletions per page are covered; new objects only add duplicates.
 */
export async function* offsetPages<T extends { id: string }>(
  ctx: AdapterContext,
  path: string,
  opts: { limit: number; query?: Query; from?: OffsetPosition },
): AsyncGenerator<{ items: T[]; next: OffsetPosition | null }> {
  const overlap = Math.max(1, Math.floor(opts.limit / 10));
  let { skip, last } = opts.from ?? { skip: 0, last: [] };
  for (;;) {
    const askAt = skip === 0 ? 0 : Math.max(0, skip - overlap);
    const res = await ctx.http.get<CloseList<T>>(path, { query: { ...opts.query, _skip: askAt, _limit: opts.limit } });
    const items = (Array.isArray(res.data?.data) ? res.data.data : []).filter((x) => x && typeof x.id === 'string');
    const seen = new Set(last);
    const fresh = items.filter((x) => !seen.has(x.id));
    const reached = askAt + items.length;
    const more = res.data?.has_more === true && items.length > 0 && reached > skip;
    const next = more ? { skip: reached, last: items.slice(-overlap).map((x) => x.id) } : null;
    yield { items: fresh, next };
    if (!next) return;
    ({ skip, last } = next);
  }
}

export const encodeOffset = (p: OffsetPosition | null) => (p ? JSON.stringify(p) : null);
export function decodeOffset(s: string | undefined): OffsetPosition | undefined {
  if (!s) return undefined;
  try {
    const p = JSON.parse(s) as OffsetPosition;
    if (Number.isSafeInteger(p.skip) && Array.isArray(p.last)) return p;
  } catch {
    // an unreadable position starts over
  }
  return undefined;
}

/** One page of Close's event log (newest first, `_cursor` pagination, at most 50 a page). */
export async function eventPage(ctx: AdapterContext, query: Query, cursor: string | null): Promise<{ events: CloseEvent[]; next: string | null }> {
  const res = await ctx.http.get<CloseList<CloseEvent>>(`${API}/event/`, { query: { ...query, _limit: 50, _cursor: cursor ?? undefined } });
  const events = (Array.isArray(res.data?.data) ? res.data.data : []).filter((e) => e && typeof e.object_id === 'string');
  const raw = res.data?.cursor_next;
  return { events, next: typeof raw === 'string' && raw !== '' && raw !== cursor ? raw : null };
}

/** The object of a single-object answer. */
export function bodyOf<T>(res: { data: T | undefined }, what: string): T {
  if (!res.data || typeof res.data !== 'object') throw new ProviderError('close', 502, `Close answered without the ${what}`, res.data);
  return res.data;
}

/** Close object types that carry custom fields, as `/custom_field/{type}/` names them. */
export type FieldEntity = 'contact' | 'lead' | 'opportunity';

/**
 * Custom field definitions per connection and object type, kept for `fieldCacheMs`; a lookup that misses
 * reads them again once. Concurrent reads (a batch) share one request.
 */
export class FieldDefinitions {
  private readonly cache: ConnectionCache;

  constructor(o: ResolvedOptions) {
    this.cache = new ConnectionCache(o.fieldCacheMs);
  }

  all(ctx: AdapterContext, entity: FieldEntity, opts: { fresh?: boolean } = {}): Promise<Map<string, CloseCustomField>> {
    return this.cache.get(
      ctx,
      entity,
      async () => {
        const fields = new Map<string, CloseCustomField>();
        for await (const page of offsetPages<CloseCustomField>(ctx, `${API}/custom_field/${entity}/`, { limit: 100 })) {
          for (const f of page.items) fields.set(f.id, f);
        }
        return fields;
      },
      opts.fresh,
    );
  }

  async get(ctx: AdapterContext, entity: FieldEntity, id: string): Promise<CloseCustomField | undefined> {
    return (await this.all(ctx, entity)).get(id) ?? (await this.all(ctx, entity, { fresh: true })).get(id);
  }
}
