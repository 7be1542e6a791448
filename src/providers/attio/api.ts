/**
 * Attio request helpers: record queries and lists walked by offset to the last page, the workspace's
 * objects and attributes (cached per connection), and reading attribute values.
 */
import { AppError } from '../../core/errors';
import { ProviderError } from '../http-client';
import { ConnectionCache as Cache, unsupportedBy } from '../kit';
import type { AdapterContext } from '../types';
export { isNotFound } from '../kit';

export { Cache };

export type AttioObject = 'people' | 'companies' | 'deals';

/** A value object (`values.{slug}[]`): typed by `attribute_type`, active while `active_until` is null. */
export type AttioValue = Record<string, unknown> & { attribute_type?: string; active_until?: string | null };
export interface AttioRecord {
  id: { record_id: string; object_id?: string };
  created_at?: string;
  values?: Record<string, AttioValue[] | undefined>;
}
export interface AttioAttribute {
  id?: { attribute_id?: string };
  api_slug: string;
  title?: string;
  type?: string;
  is_system_attribute?: boolean;
  is_multiselect?: boolean;
  config?: { currency?: { default_currency_code?: string | null } };
}

export interface AttioAdapterOptions {
  /** Records per query page (Attio answers at most 500). */
  pageSize?: number;
  cacheMs?: number;
}
export type ResolvedOptions = Required<AttioAdapterOptions>;
export const resolveOptions = (o: AttioAdapterOptions = {}): ResolvedOptions => ({ pageSize: Math.min(500, Math.max(1, o.pageSize ?? 500)), cacheMs: o.cacheMs ?? 300_000 });

/** The active values of an attribute. */
export const valuesOf = (r: { values?: AttioRecord['values'] }, slug: string): AttioValue[] => (r.values?.[slug] ?? []).filter((v) => v && v.active_until == null);
export const first = (r: { values?: AttioRecord['values'] }, slug: string): AttioValue | undefined => valuesOf(r, slug)[0];

export function dataOf<T>(res: { data: { data?: T } | undefined }, what: string): T {
  const d = res.data?.data;
  if (!d || typeof d !== 'object') throw new ProviderError('attio', 502, `Attio answered without the ${what}`, res.data);
  return d;
}

/** What Attio cannot store: a 422 naming the field. */
export const unsupported = unsupportedBy('attio');
export const required = (field: string, message: string) => new AppError('validation_failed', `${field}: ${message}`, { field, issues: [{ path: field, message }] });

/** A record or workspace member id (a UUID): refused before any call when it is not one. */
export function uuid(v: unknown, field: string): string {
  const s = String(v ?? '');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(v)} is not an Attio id`, { field });
  return s;
}

/** Pages of `POST /v2/objects/{object}/records/query` (oldest first), or of a GET list with limit/offset. */
export async function* pages<T>(ctx: AdapterContext, o: { query?: AttioObject; list?: string; limit: number; from?: number }): AsyncGenerator<{ items: T[]; next: number | null }> {
  let offset = o.from ?? 0;
  for (;;) {
    const res = o.query
      ? await ctx.http.post<{ data?: T[] }>(`/v2/objects/${o.query}/records/query`, { json: { limit: o.limit, offset, sorts: [{ attribute: 'created_at', direction: 'asc' }] }, read: true })
      : await ctx.http.get<{ data?: T[] }>(o.list!, { query: { limit: o.limit, offset } });
    const items = Array.isArray(res.data?.data) ? res.data.data : [];
    const next = items.length === o.limit ? offset + items.length : null;
    yield { items, next };
    if (next === null) return;
    offset = next;
  }
}

/** The workspace's attributes of an object, by slug. */
export const attributes = (cache: Cache, ctx: AdapterContext, object: AttioObject, fresh = false) =>
  cache.get(ctx, `attributes:${object}`, async () => {
    const out = new Map<string, AttioAttribute>();
    for await (const page of pages<AttioAttribute>(ctx, { list: `/v2/objects/${object}/attributes`, limit: 500 })) for (const a of page.items) out.set(a.api_slug, a);
    return out;
  }, fresh);

/** Object UUID → slug (tasks name their linked records' objects by UUID). */
export const objectSlugs = (cache: Cache, ctx: AdapterContext) =>
  cache.get(ctx, 'objects', async () => {
    const res = await ctx.http.get<{ data?: { id: { object_id: string }; api_slug: string | null }[] }>('/v2/objects');
    return new Map((res.data?.data ?? []).map((o) => [o.id.object_id, o.api_slug ?? '']));
  });
