/**
 * HubSpot reads shared by sync and writes: list pages (`after` cursors), search pages (keyset on hs_object_id), one object, and options.
 */
import { LRUCache } from 'lru-cache';
import { CONNECTION_CACHE_MAX } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { HsListPage, HsObject, HsSearchPage, HsType } from './types';

export interface HubSpotAdapterOptions {
  /** `limit` of list calls (HubSpot allows at most 100). */
  listPageSize?: number;
  /** `limit` of search calls (HubSpot allows at most 200). */
  searchPageSize?: number;
  /**
   * HubSpot's search index lags writes: incremental runs look this much further back than `since`
   * (default 2 minutes), on top of the sync engine's own overlap.
   */
  indexLagBufferMs?: number;
  /** Least time between two search calls of one connection (HubSpot allows 5 a second; default 220 ms). */
  searchMinIntervalMs?: number;
  /** How long property definitions are reused by writes (default 5 minutes; every sync run reads them afresh). */
  propertiesTtlMs?: number;
}

export type ResolvedOptions = Required<HubSpotAdapterOptions>;

export function resolveOptions(o: HubSpotAdapterOptions = {}): ResolvedOptions {
  return {
    listPageSize: Math.min(100, Math.max(1, o.listPageSize ?? 100)),
    searchPageSize: Math.min(200, Math.max(1, o.searchPageSize ?? 200)),
    indexLagBufferMs: Math.max(0, o.indexLagBufferMs ?? 120_000),
    searchMinIntervalMs: Math.max(0, o.searchMinIntervalMs ?? 220),
    propertiesTtlMs: Math.max(0, o.propertiesTtlMs ?? 300_000),
  };
}

export interface Page<T> {
  items: T[];
  /** Cursor of the next page; null on the last page. */
  next: string | null;
}

/**
 * Walks a list with `after` cursors to the last page. Reading ahead (the next page fetched while the
 * current one is stored) is the sync engine's job for every provider (core/read-ahead.ts), not done here.
 */
export async function* pages<T>(fetchPage: (after: string | undefined) => Promise<Page<T>>, start?: string): AsyncGenerator<Page<T>> {
  let current = start;
  for (;;) {
    const page = await fetchPage(current);
    const next = page.next && page.next !== current ? page.next : null;
    yield { items: page.items, next };
    if (!next) return;
    current = next;
  }
}

/**
 * Property lists longer than this go in a request body, never in a URL: HubSpot answers 414 to long
 * request lines, and a portal can have hundreds of custom properties.
 */
const MAX_PROPERTIES_IN_URL = 2_000;
const fitsInUrl = (properties: string[]) => properties.join(',').length <= MAX_PROPERTIES_IN_URL;

/**
 * One page of `GET /crm/v3/objects/{type}`. With a long property list the page is listed with ids and
 * associations only, and its properties read with one `batch/read` (properties in the body).
 */
export async function listPage(
  ctx: AdapterContext,
  hsType: HsType,
  q: { properties: string[]; associations: HsType[]; archived: boolean; limit: number; after?: string },
): Promise<Page<HsObject>> {
  const inUrl = fitsInUrl(q.properties);
  const res = await ctx.http.get<HsListPage>(`/crm/v3/objects/${hsType}`, {
    query: {
      limit: q.limit,
      after: q.after,
      archived: q.archived,
      properties: inUrl ? q.properties : ['hs_object_id'],
      associations: q.associations.length > 0 ? q.associations : undefined,
    },
  });
  const listed = res.data?.results ?? [];
  const next = res.data?.paging?.next?.after ?? null;
  if (inUrl || listed.length === 0) return { items: listed, next };
  const full = await batchRead(ctx, hsType, listed.map((o) => o.id), q.properties, q.archived);
  // An object archived or deleted between the two calls is left out, like any object gone by the next page.
  const items = listed.flatMap((o) => {
    const read = full.get(String(o.id));
    return read ? [{ ...read, ...(o.associations ? { associations: o.associations } : {}) }] : [];
  });
  return { items, next };
}

/** Objects by id with their properties (`POST …/batch/read`, properties in the body); missing ids are left out. */
async function batchRead(ctx: AdapterContext, hsType: HsType, ids: string[], properties: string[], archived: boolean): Promise<Map<string, HsObject>> {
  try {
    const res = await ctx.http.post<{ results?: HsObject[] }>(`/crm/v3/objects/${hsType}/batch/read`, {
      query: { archived },
      json: { inputs: ids.map((id) => ({ id })), properties },
      read: true,
    });
    return new Map((res.data?.results ?? []).map((o) => [String(o.id), o]));
  } catch (err) {
    // 404: none of them exists any more.
    if (err instanceof ProviderError && err.providerStatus === 404) return new Map();
    throw err;
  }
}

/** When each connection last searched (HubSpot spaces searches per account); bounded like every per-connection cache. */
const lastSearch = new LRUCache<string, number>({ max: CONNECTION_CACHE_MAX });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Spaces search calls of one connection (HubSpot's search endpoints allow 5 requests a second). */
async function paceSearch(connectionId: string, minIntervalMs: number) {
  if (minIntervalMs <= 0) return;
  const now = Date.now();
  const at = Math.max(now, (lastSearch.get(connectionId) ?? 0) + minIntervalMs);
  lastSearch.set(connectionId, at);
  if (at > now) await sleep(at - now);
}

/**
 * One page of objects modified at or after `fromMs` with an id above `afterId`, in id order. Keyset paging
 * (never `after` offsets): every query starts at HubSpot's first result, so the 10,000-result cap of a
 * search query is never reached, and changes made while paging cannot shift records past the cursor.
 */
export async function searchModifiedPage(
  ctx: AdapterContext,
  hsType: HsType,
  q: { modifiedProperty: string; fromMs: number; afterId: string; properties: string[]; limit: number; minIntervalMs: number },
): Promise<Page<HsObject> & { total: number | null }> {
  await paceSearch(ctx.connectionId, q.minIntervalMs);
  const res = await ctx.http.post<HsSearchPage>(`/crm/v3/objects/${hsType}/search`, {
    json: {
      filterGroups: [
        {
          filters: [
            { propertyName: q.modifiedProperty, operator: 'GTE', value: String(q.fromMs) },
            { propertyName: 'hs_object_id', operator: 'GT', value: q.afterId },
          ],
        },
      ],
      sorts: [{ propertyName: 'hs_object_id', direction: 'ASCENDING' }],
      properties: q.properties,
      limit: q.limit,
    },
    // A search changes nothing: safe to retry.
    read: true,
  });
  const items = res.data?.results ?? [];
  const last = items[items.length - 1];
  const more = Boolean(res.data?.paging?.next) && items.length > 0;
  return { items, next: more && last ? String(last.id) : null, total: res.data?.total ?? null };
}

/** One object with its properties and associations (`GET /crm/v3/objects/{type}/{id}`). */
export async function readObject(ctx: AdapterContext, hsType: HsType, id: string, properties: string[], associations: HsType[]): Promise<HsObject> {
  const inUrl = fitsInUrl(properties);
  const res = await ctx.http.get<HsObject>(`/crm/v3/objects/${hsType}/${id}`, {
    query: { properties: inUrl ? properties : ['hs_object_id'], associations: associations.length > 0 ? associations : undefined },
  });
  if (inUrl) return res.data;
  const full = (await batchRead(ctx, hsType, [id], properties, false)).get(String(res.data.id));
  if (!full) throw new ProviderError('hubspot', 404, `${hsType} ${id} is gone`, null);
  return { ...full, ...(res.data.associations ? { associations: res.data.associations } : {}) };
}
