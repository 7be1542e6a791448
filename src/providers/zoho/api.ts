/**
 * Zoho CRM request helpers shared by sync and writes: record lists (`fields`, `page`/`per_page`,
 * `sort_by`/`sort_order`, the `If-Modified-Since` header; 204 when there is nothing, 304 when nothing
 * changed), record ids and timestamps, field definitions (`/settings/fields`, cached per connection).
 * Everything goes through `ctx.http`.
 */
import { ConnectionCache, isNotFound, unsupportedBy } from '../kit';
import { AppError } from '../../core/errors';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';

export const API = '/crm/v8';

/**
 * Zoho answers at most 2,000 records of a list by `page` (page × per_page); further pages are asked with
 * the previous answer's `next_page_token` in `page_token` (without `page`).
 */
export const MAX_BY_PAGE = 2000;

export interface ZohoAdapterOptions {
  /** `per_page` of lists (Zoho answers at most 200). */
  pageSize?: number;
  /** How long field definitions (custom fields, stages, currency) are reused before being read again. */
  fieldCacheMs?: number;
  /** Records Zoho answers by `page` before `page_token` is needed (2,000; tests lower it). */
  maxRecordsByPage?: number;
}

export type ResolvedOptions = Required<ZohoAdapterOptions>;

export function resolveOptions(o: ZohoAdapterOptions = {}): ResolvedOptions {
  return { pageSize: Math.min(200, Math.max(2, o.pageSize ?? 200)), fieldCacheMs: Math.max(0, o.fieldCacheMs ?? 300_000), maxRecordsByPage: o.maxRecordsByPage ?? MAX_BY_PAGE };
}

/** A record as the API answers it: fields by API name. */
export type ZRecord = Record<string, unknown> & { id: string };

export interface ListInfo {
  more_records?: boolean;
  next_page_token?: string;
  page?: number;
  per_page?: number;
  count?: number;
}

/** A Zoho date-time as the API writes it: whole seconds with an offset. */
export const zohoDateTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+00:00');

export { toDate, toIso } from '../kit';


/** One page of a list: 204 (no records) and 304 (nothing modified since) are empty pages. */
export async function listPage(
  ctx: AdapterContext,
  path: string,
  query: Record<string, string | number | undefined>,
  since?: Date,
  key = 'data',
): Promise<{ records: ZRecord[]; more: boolean; nextToken: string | null }> {
  let res;
  try {
    res = await ctx.http.get<Record<string, unknown>>(path, { query, headers: since ? { 'if-modified-since': zohoDateTime(since) } : undefined });
  } catch (err) {
    if (err instanceof ProviderError && err.providerStatus === 304) return { records: [], more: false, nextToken: null };
    throw err;
  }
  const list = res.data?.[key];
  const records = (Array.isArray(list) ? list : []).filter((r): r is ZRecord => Boolean(r) && typeof (r as ZRecord).id === 'string');
  const info = (res.data?.info ?? {}) as ListInfo;
  const more = info.more_records === true && records.length > 0;
  return { records, more, nextToken: more && typeof info.next_page_token === 'string' && info.next_page_token !== '' ? info.next_page_token : null };
}

/** A remote id as Zoho writes it (a long number): refused before any call when it is not one. */
export function zohoId(remoteId: unknown, field: string): string {
  const s = String(remoteId ?? '').trim();
  if (!/^\d{1,25}$/.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Zoho CRM id`, { field });
  return s;
}

/** What the product cannot store: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy('zoho');

/** A field Zoho requires on create: a 400 naming it. */
export function required(field: string, message: string): AppError {
  return new AppError('validation_failed', `${field}: ${message}`, { field, issues: [{ path: field, message }] });
}

/** Zoho answers 204 (no content) for a record that is gone, as well as 404. */
export const isMissing = (e: unknown) => isNotFound(e, [404, 204]);

// ---------------------------------------------------------------- field definitions

export interface ZField {
  api_name: string;
  field_label?: string;
  data_type?: string;
  custom_field?: boolean;
  pick_list_values?: { display_value?: string; actual_value?: string; id?: string; sequence_number?: number }[];
}

/**
 * Field definitions per connection and module (`/settings/fields?module=…`), kept for `fieldCacheMs`: the
 * module's custom fields, the Deals Stage picklist, and whether Deals have Currency (multi-currency
 * organizations). Concurrent reads share one request.
 */
export class FieldDefinitions {
  private readonly cache: ConnectionCache;

  constructor(o: ResolvedOptions) {
    this.cache = new ConnectionCache(o.fieldCacheMs);
  }

  all(ctx: AdapterContext, module: string, opts: { fresh?: boolean } = {}): Promise<Map<string, ZField>> {
    return this.cache.get(
      ctx,
      module,
      async () => {
        const res = await ctx.http.get<{ fields?: ZField[] }>(`${API}/settings/fields`, { query: { module } });
        const fields = new Map<string, ZField>();
        for (const f of Array.isArray(res.data?.fields) ? res.data.fields : []) if (f && typeof f.api_name === 'string') fields.set(f.api_name, f);
        return fields;
      },
      opts.fresh,
    );
  }

  /** The `fields` parameter of a list: the wanted standard fields the module has, and every custom field. */
  async select(ctx: AdapterContext, module: string, wanted: readonly string[]): Promise<string> {
    const fields = await this.all(ctx, module);
    const custom = [...fields.values()].filter((f) => f.custom_field === true).map((f) => f.api_name);
    // Zoho takes at most 50 fields per list request.
    return [...new Set([...wanted.filter((w) => fields.size === 0 || fields.has(w)), ...custom])].slice(0, 50).join(',');
  }
}
