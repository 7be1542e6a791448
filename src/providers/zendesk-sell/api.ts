/**
 * Sell Core API helpers shared by sync and writes: the `{data, meta}` envelopes, page lists
 * (`page`/`per_page` ≤ 100, `sort_by`, `meta.links.next_page`), ids, timestamps, custom field
 * definitions (cached per connection). Everything goes through `ctx.http`.
 */
import { ConnectionCache, unsupportedBy } from '../kit';
import { AppError } from '../../core/errors';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
export { isNotFound } from '../kit';

export const API = '/v2';

export interface ZendeskSellAdapterOptions {
  /** `per_page` of lists (Sell answers at most 100). */
  pageSize?: number;
  /** How long custom field definitions are reused before being read again. */
  fieldCacheMs?: number;
}
export type ResolvedOptions = Required<ZendeskSellAdapterOptions>;
export function resolveOptions(o: ZendeskSellAdapterOptions = {}): ResolvedOptions {
  return { pageSize: Math.min(100, Math.max(2, o.pageSize ?? 100)), fieldCacheMs: Math.max(0, o.fieldCacheMs ?? 300_000) };
}

/** A Sell object (`data` of an item). */
export type SellObject = Record<string, unknown> & { id: number };

interface Collection {
  items?: { data?: SellObject }[];
  meta?: { links?: { next_page?: string } };
}

/** One page of a list, and whether Sell links a next one. */
export async function listPage(ctx: AdapterContext, path: string, query: Record<string, string | number | boolean | undefined>): Promise<{ items: SellObject[]; more: boolean }> {
  const res = await ctx.http.get<Collection>(path, { query });
  const items = (Array.isArray(res.data?.items) ? res.data.items : []).map((i) => i?.data).filter((d): d is SellObject => Boolean(d) && typeof d!.id === 'number');
  return { items, more: typeof res.data?.meta?.links?.next_page === 'string' && items.length > 0 };
}

/** The object of a single-object answer. */
export function dataOf(res: { data: unknown }, what: string): SellObject {
  const d = (res.data as { data?: SellObject } | undefined)?.data;
  if (!d || typeof d.id !== 'number') throw new ProviderError('zendesk-sell', 502, `Zendesk Sell answered without the ${what}`, res.data);
  return d;
}

/** A remote id as Sell writes it (a number): refused before any call when it is not one. */
export function sellId(remoteId: unknown, field: string): number {
  const s = String(remoteId ?? '').trim();
  if (!/^\d{1,18}$/.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Zendesk Sell id`, { field });
  return Number(s);
}
export const idText = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' && /^\d+$/.test(v) ? v : null);

export { toDate, toIso } from '../kit';

/** What the product cannot store: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy('zendesk-sell');
export function required(field: string, message: string): AppError {
  return new AppError('validation_failed', `${field}: ${message}`, { field, issues: [{ path: field, message }] });
}

// ---------------------------------------------------------------- custom fields

export interface SellCustomField {
  id: number;
  name: string;
  type?: string;
  for_contact?: boolean;
  for_organization?: boolean;
  choices?: { id: number; name: string }[];
}

/** Custom field definitions per connection and resource type (`/v2/{contact|deal}/custom_fields`). */
export class CustomFieldDefinitions {
  private readonly cache: ConnectionCache;
  constructor(o: ResolvedOptions) {
    this.cache = new ConnectionCache(o.fieldCacheMs);
  }

  all(ctx: AdapterContext, resource: 'contact' | 'deal', opts: { fresh?: boolean } = {}): Promise<SellCustomField[]> {
    return this.cache.get(ctx, resource, async () => {
      const fields: SellCustomField[] = [];
      for (let page = 1; ; page++) {
        const res = await listPage(ctx, `${API}/${resource}/custom_fields`, { page, per_page: 100 });
        fields.push(...(res.items as unknown as SellCustomField[]));
        if (!res.more) break;
      }
      return fields;
    }, opts.fresh);
  }
}
