/**
 * Salesforce request helpers shared by sync and writes: SOQL (`query`/`queryAll`, then `nextRecordsUrl`
 * to the last batch), literals, sObject describes (cached per connection), record ids and timestamps.
 * Everything goes through `ctx.http`.
 */
import { AppError } from '../../core/errors';
import type { AdapterContext } from '../types';
import { ConnectionCache, isNotFound, unsupportedBy } from '../kit';
export { isNotFound };

export const API = '/services/data/v59.0';

export interface SalesforceAdapterOptions {
  /** Records per query batch (`Sforce-Query-Options: batchSize`, 200–2000; Salesforce may answer fewer). */
  batchSize?: number;
  /** How long sObject describes (fields, custom fields) are reused before being read again. */
  describeCacheMs?: number;
}

export type ResolvedOptions = Required<SalesforceAdapterOptions>;

export function resolveOptions(o: SalesforceAdapterOptions = {}): ResolvedOptions {
  return { batchSize: Math.min(2000, Math.max(200, o.batchSize ?? 2000)), describeCacheMs: Math.max(0, o.describeCacheMs ?? 300_000) };
}

/** A record as the API answers it: fields by API name, with `attributes` {type, url}. */
export type SfRecord = Record<string, unknown> & { Id: string };

interface QueryAnswer {
  done?: boolean;
  totalSize?: number;
  nextRecordsUrl?: string;
  records?: SfRecord[];
}

/** A SOQL string literal. */
export const soqlString = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A SOQL dateTime literal (Salesforce keeps whole seconds). */
export const soqlDateTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Runs a SOQL query to its last batch: `query` (or `queryAll`, which also answers deleted records still in
 * the recycle bin, with IsDeleted true), then each `nextRecordsUrl`. One yielded array per batch.
 */
export async function* soql(ctx: AdapterContext, q: string, o: { all?: boolean; batchSize: number }): AsyncGenerator<SfRecord[]> {
  const headers = { 'sforce-query-options': `batchSize=${o.batchSize}` };
  let res = await ctx.http.get<QueryAnswer>(`${API}/${o.all ? 'queryAll' : 'query'}`, { query: { q }, headers });
  for (;;) {
    const records = (Array.isArray(res.data?.records) ? res.data.records : []).filter((r) => r && typeof r.Id === 'string');
    yield records;
    const next = res.data?.nextRecordsUrl;
    if (res.data?.done !== false || typeof next !== 'string' || !next.startsWith('/services/data/')) return;
    res = await ctx.http.get<QueryAnswer>(next, { headers });
  }
}

/** Every record of a (small) query. */
export async function soqlAll(ctx: AdapterContext, q: string, o: { all?: boolean; batchSize: number }): Promise<SfRecord[]> {
  const out: SfRecord[] = [];
  for await (const batch of soql(ctx, q, o)) out.push(...batch);
  return out;
}

/** `'a', 'b'` for `IN (…)`. */
export const inList = (ids: string[]) => ids.map(soqlString).join(', ');

/** Splits ids for `IN (…)` clauses that keep the URL short. */
export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------- ids and timestamps

/** Key prefixes of the record ids (the first three characters name the sObject type). */
export const PREFIX = { Account: '001', Note: '002', Contact: '003', User: '005', Opportunity: '006', Task: '00T', Event: '00U', Lead: '00Q', ContentDocument: '069' } as const;

export const isOf = (id: unknown, type: keyof typeof PREFIX) => typeof id === 'string' && id.startsWith(PREFIX[type]);

/** A remote id as Salesforce writes it (15 or 18 characters, base 62): refused before any call when it is not one. */
export function sfId(remoteId: unknown, field: string): string {
  const s = String(remoteId ?? '').trim();
  if (!/^[a-zA-Z0-9]{15}([a-zA-Z0-9]{3})?$/.test(s)) throw new AppError('unknown_reference', `${field}: ${JSON.stringify(remoteId)} is not a Salesforce id`, { field });
  return s;
}

export { toDate, toIso } from '../kit';

/** What the product cannot store: a 422 naming the field, never a silent drop. */
export const unsupported = unsupportedBy('salesforce');

/** A field Salesforce requires on create: a 400 naming it. */
export function required(field: string, message: string): AppError {
  return new AppError('validation_failed', `${field}: ${message}`, { field, issues: [{ path: field, message }] });
}

// ---------------------------------------------------------------- describes

export interface SfField {
  name: string;
  label?: string;
  type?: string;
  custom?: boolean;
  createable?: boolean;
  updateable?: boolean;
  picklistValues?: { value: string; active?: boolean }[];
}

/**
 * sObject describes per connection (`/sobjects/{Type}/describe`), kept for `describeCacheMs`: which fields
 * the org has (custom `__c` fields, CurrencyIsoCode in multi-currency orgs). Concurrent reads share one request.
 */
export class Describes {
  private readonly cache: ConnectionCache;

  constructor(o: ResolvedOptions) {
    this.cache = new ConnectionCache(o.describeCacheMs);
  }

  fields(ctx: AdapterContext, sobject: string, opts: { fresh?: boolean } = {}): Promise<Map<string, SfField>> {
    return this.cache.get(
      ctx,
      sobject,
      async () => {
        const res = await ctx.http.get<{ fields?: SfField[] }>(`${API}/sobjects/${sobject}/describe`);
        const fields = new Map<string, SfField>();
        for (const f of Array.isArray(res.data?.fields) ? res.data.fields : []) if (f && typeof f.name === 'string') fields.set(f.name, f);
        return fields;
      },
      opts.fresh,
    );
  }

  /** Whether the org has the sObject: its describe answers (404 where it has not, as ContentNote without Notes); kept like the describes. */
  has(ctx: AdapterContext, sobject: string): Promise<boolean> {
    return this.cache.get(ctx, `has:${sobject}`, () =>
      this.fields(ctx, sobject).then(
        () => true,
        (err: unknown) => {
          if (isNotFound(err)) return false;
          throw err;
        },
      ),
    );
  }

  /** The fields of `wanted` the org has, with every custom field; `Id` always. */
  async select(ctx: AdapterContext, sobject: string, wanted: readonly string[]): Promise<string[]> {
    const fields = await this.fields(ctx, sobject);
    const custom = [...fields.values()].filter((f) => f.custom === true || f.name.endsWith('__c')).map((f) => f.name);
    return [...new Set(['Id', ...wanted.filter((f) => fields.has(f)), ...custom])];
  }
}
