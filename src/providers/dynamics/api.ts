/**
 * Dataverse Web API helpers shared by sync and writes: collection pages to the last `@odata.nextLink`
 * (with `Prefer: odata.maxpagesize`, and `odata.track-changes` for a delta link), table metadata (columns,
 * option sets, transaction currencies; cached per connection), ids and errors. Everything goes through
 * `ctx.http`.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext } from '../types';
import { ConnectionCache, unsupportedBy } from '../kit';
export { isNotFound } from '../kit';

export const API = '/api/data/v9.2';

export interface DynamicsAdapterOptions {
  /** Records per page (`Prefer: odata.maxpagesize`, at most 5,000). */
  pageSize?: number;
  /** How long table metadata (columns, option sets, currencies) is reused before being read again. */
  metadataCacheMs?: number;
}
export type ResolvedOptions = Required<DynamicsAdapterOptions>;
export function resolveOptions(o: DynamicsAdapterOptions = {}): ResolvedOptions {
  return { pageSize: Math.min(5000, Math.max(1, o.pageSize ?? 5000)), metadataCacheMs: Math.max(0, o.metadataCacheMs ?? 300_000) };
}

/** A row as the Web API answers it: columns by logical name, lookups as `_<name>_value`, annotations `x@y`. */
export type Row = Record<string, unknown>;

/** Annotations asked for on every read: the table a lookup points at, and option set labels. */
export const ANNOTATIONS = 'odata.include-annotations="Microsoft.Dynamics.CRM.lookuplogicalname,OData.Community.Display.V1.FormattedValue"';
export const LOOKUP_TABLE = '@Microsoft.Dynamics.CRM.lookuplogicalname';
export const FORMATTED = '@OData.Community.Display.V1.FormattedValue';

export const unsupported = unsupportedBy('dynamics');

/** A field Dataverse requires on create: a 400 naming it. */
export function required(field: string, message: string): AppError {
  return new AppError('validation_failed', `${field}: ${message}`, { field, issues: [{ path: field, message }] });
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A remote id as Dataverse writes it (a GUID): refused before any call when it is not one. */
export function guid(remoteId: unknown, field: string): string {
  const s = String(remoteId ?? '').trim();
  if (!GUID.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Dataverse id`, { field });
  return s.toLowerCase();
}

interface Collection {
  value?: Row[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

export interface Page {
  rows: Row[];
  /** The link to the next page (absolute), or null on the last page. */
  next: string | null;
  /** On the last page of a change-tracking read: the link to the changes after it. */
  deltaLink: string | null;
}

/**
 * A collection read to its last page: the first request (`path` with `query`), or a next or delta link
 * given back; one page per yield.
 */
export async function* pages(ctx: AdapterContext, o: ResolvedOptions, first: { path: string; query?: Record<string, string> } | string, track = false): AsyncGenerator<Page> {
  const prefer = [...(track ? ['odata.track-changes'] : []), `odata.maxpagesize=${o.pageSize}`, ANNOTATIONS].join(',');
  const headers = { prefer, 'odata-version': '4.0', 'odata-maxversion': '4.0', accept: 'application/json' };
  let url: string | null = typeof first === 'string' ? first : null;
  let res = typeof first === 'string' ? await ctx.http.get<Collection>(first, { headers }) : await ctx.http.get<Collection>(first.path, { query: first.query, headers });
  for (;;) {
    const next = typeof res.data?.['@odata.nextLink'] === 'string' ? res.data['@odata.nextLink'] : null;
    const delta = typeof res.data?.['@odata.deltaLink'] === 'string' ? res.data['@odata.deltaLink'] : null;
    yield { rows: Array.isArray(res.data?.value) ? res.data.value : [], next, deltaLink: delta };
    if (!next || next === url) return;
    url = next;
    res = await ctx.http.get<Collection>(next, { headers });
  }
}

/** Every row of a (small) collection. */
export async function all(ctx: AdapterContext, o: ResolvedOptions, path: string, query: Record<string, string> = {}): Promise<Row[]> {
  const out: Row[] = [];
  for await (const page of pages(ctx, o, { path, query })) out.push(...page.rows);
  return out;
}

/** `[a, b, …]` split into parts of `size`. */
export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** An OData string literal. */
export const odataString = (v: string) => `'${v.replace(/'/g, "''")}'`;

export { toDate, toIso } from '../kit';

// ---------------------------------------------------------------- metadata

export interface Column {
  LogicalName: string;
  AttributeType?: string;
  IsCustomAttribute?: boolean;
  IsValidForRead?: boolean;
  DisplayName?: { UserLocalizedLabel?: { Label?: string } | null } | null;
}
export interface OptionValue {
  value: number;
  label: string;
}

/** Column types that hold a reference: selected and read as `_<name>_value`. */
const LOOKUPS = new Set(['Lookup', 'Customer', 'Owner']);
/** Column types `$select` cannot name (activity parties, calendar rules, managed properties, virtual and image columns …). */
const UNSELECTABLE = new Set(['PartyList', 'CalendarRules', 'ManagedProperty', 'EntityName', 'Virtual']);

const isReadableCustom = (c: Column) => c.IsCustomAttribute === true && c.IsValidForRead !== false && !UNSELECTABLE.has(c.AttributeType ?? '');
/** The name a column is selected and read by. */
export const selectName = (c: Column) => (LOOKUPS.has(c.AttributeType ?? '') ? `_${c.LogicalName}_value` : c.LogicalName);

/**
 * Table metadata per connection, kept for `metadataCacheMs`: the columns of a table (custom ones for
 * field mapping and `$select`), the options of an option set column (sales stages, industries), and the
 * environment's transaction currencies. Concurrent reads share one request.
 */
export class Metadata {
  private readonly cache: ConnectionCache;

  constructor(private readonly o: ResolvedOptions) {
    this.cache = new ConnectionCache(o.metadataCacheMs);
  }

  private cached<T>(ctx: AdapterContext, key: string, fresh: boolean, read: () => Promise<T>): Promise<T> {
    return this.cache.get(ctx, key, read, fresh);
  }

  /** The table's columns by logical name. */
  columns(ctx: AdapterContext, table: string, opts: { fresh?: boolean } = {}): Promise<Map<string, Column>> {
    return this.cached(ctx, `columns:${table}`, opts.fresh === true, async () => {
      const res = await ctx.http.get<{ value?: Column[] }>(`${API}/EntityDefinitions(LogicalName=${odataString(table)})/Attributes`, {
        query: { $select: 'LogicalName,AttributeType,IsCustomAttribute,IsValidForRead,DisplayName' },
      });
      return new Map((Array.isArray(res.data?.value) ? res.data.value : []).filter((c) => typeof c?.LogicalName === 'string').map((c) => [c.LogicalName, c]));
    });
  }

  /** The custom columns of a table that can be read. */
  async custom(ctx: AdapterContext, table: string): Promise<Column[]> {
    return [...(await this.columns(ctx, table)).values()].filter(isReadableCustom);
  }

  /** The options of an option set column (local or global), in their order. */
  options(ctx: AdapterContext, table: string, column: string): Promise<OptionValue[]> {
    return this.cached(ctx, `options:${table}.${column}`, false, async () => {
      const res = await ctx.http.get<{ OptionSet?: { Options?: { Value?: number; Label?: { UserLocalizedLabel?: { Label?: string } | null } }[] } }>(
        `${API}/EntityDefinitions(LogicalName=${odataString(table)})/Attributes(LogicalName=${odataString(column)})/Microsoft.Dynamics.CRM.PicklistAttributeMetadata`,
        { query: { $select: 'LogicalName', $expand: 'OptionSet($select=Options)' } },
      );
      return (res.data?.OptionSet?.Options ?? [])
        .filter((x) => typeof x?.Value === 'number')
        .map((x) => ({ value: x.Value!, label: x.Label?.UserLocalizedLabel?.Label ?? String(x.Value) }));
    });
  }

  /** The environment's transaction currencies: id → ISO code. */
  currencies(ctx: AdapterContext): Promise<Map<string, string>> {
    return this.cached(ctx, 'currencies', false, async () => {
      const rows = await all(ctx, this.o, `${API}/transactioncurrencies`, { $select: 'transactioncurrencyid,isocurrencycode' });
      return new Map(rows.filter((r) => typeof r.transactioncurrencyid === 'string').map((r) => [String(r.transactioncurrencyid), String(r.isocurrencycode)]));
    });
  }

  /** `$select` of a table: the standard columns wanted that the table has, and every readable custom column. */
  async select(ctx: AdapterContext, table: string, wanted: readonly string[], withCustom: boolean): Promise<string[]> {
    if (!withCustom) return [...wanted];
    const custom = (await this.custom(ctx, table)).map(selectName);
    return [...new Set([...wanted, ...custom])];
  }
}
