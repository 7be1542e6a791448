/**
 * Table API request helpers shared by sync and writes. Lists are `GET /api/now/table/{table}` with an encoded
 * query (`sysparm_query`), `sysparm_limit` and `sysparm_offset`; ServiceNow answers `{"result": [...]}` and a
 * `Link` header with `rel="next"` while more records follow (Table API → GET /now/table/{tableName}).
 *
 * Walks are ordered by a timestamp then sys_id (`ORDERBY<field>^ORDERBYsys_id`) and resumed from the last
 * timestamp seen: the next page asks again for `<field> >= T` and skips, with `sysparm_offset`, the records at
 * exactly T already read. A record updated while a run pages moves to the end of the order, where the run still
 * reaches it, and never shifts the records not yet read (a plain offset walk would skip one).
 */
import { ConnectionCache, hasNextLink } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { SnRecord, SnUser } from './types';
import { PROVIDER, snTime, toDate } from './util';
export { isNotFound } from '../kit';

export interface ServiceNowAdapterOptions {
  /** `sysparm_limit` of list calls (ServiceNow's default is 10,000; large pages slow the instance). */
  pageSize?: number;
  /** How long the connection's own user is remembered, in ms. */
  selfCacheMs?: number;
}

export type ResolvedOptions = Required<ServiceNowAdapterOptions>;

export function resolveOptions(o: ServiceNowAdapterOptions = {}): ResolvedOptions {
  return { pageSize: Math.min(10_000, Math.max(1, o.pageSize ?? 200)), selfCacheMs: Math.max(0, o.selfCacheMs ?? 10 * 60_000) };
}

/** Every Table API read asks for internal values and plain sys_ids in reference fields. */
export const READ_PARAMS = { sysparm_display_value: 'false', sysparm_exclude_reference_link: 'true' } as const;

export const EPOCH = '1970-01-01 00:00:00';

export const hasNext = (headers: Record<string, string>) => hasNextLink(headers.link);

export const isForbidden = (e: unknown) => e instanceof ProviderError && (e.providerStatus === 403 || e.providerStatus === 401);

export const tablePath = (table: string) => `/api/now/table/${table}`;

/** A walk's position: the timestamp reached and how many records at exactly that time were read. */
interface WalkPos {
  t: string;
  k: number;
}

function readPos(resume: string | undefined): WalkPos | undefined {
  if (!resume) return undefined;
  try {
    const r = JSON.parse(resume) as Partial<WalkPos>;
    if (typeof r.t === 'string' && typeof r.k === 'number') return r as WalkPos;
  } catch {
    // an unreadable position starts the walk over
  }
  return undefined;
}

export interface WalkOptions {
  table: string;
  /** The listing's path when it is not the table's Table API path (the Attachment API's `/api/now/attachment`). */
  path?: string;
  /** `sys_updated_on` (changes) or `sys_created_on` (immutable rows, full listings). */
  timeField: 'sys_updated_on' | 'sys_created_on';
  since?: Date;
  resume?: string;
  /** More encoded-query conditions, ANDed in front. */
  filter?: string;
  /** `sysparm_fields`, when only some columns are needed. */
  fields?: string;
}

/** Walks a table from `since` (or the beginning) to its last page; one step per page, with the position after it. */
export async function* walkTable<T extends SnRecord>(ctx: AdapterContext, o: ResolvedOptions, w: WalkOptions): AsyncGenerator<{ items: T[]; resume: string | null }> {
  let pos: WalkPos = readPos(w.resume) ?? { t: w.since ? snTime(w.since) : EPOCH, k: 0 };
  for (;;) {
    const query = [w.filter, `${w.timeField}>=${pos.t}`, `ORDERBY${w.timeField}`, 'ORDERBYsys_id'].filter(Boolean).join('^');
    const res = await ctx.http.get<{ result?: T[] }>(w.path ?? tablePath(w.table), {
      // The Attachment API takes the query and paging parameters only.
      query: { ...(w.path ? {} : READ_PARAMS), sysparm_query: query, sysparm_limit: o.pageSize, sysparm_offset: pos.k || undefined, sysparm_fields: w.path ? undefined : w.fields },
    });
    const items = (Array.isArray(res.data?.result) ? res.data.result : []).filter((x) => x && typeof x.sys_id === 'string');
    const more = hasNext(res.headers) && items.length > 0;
    let next: WalkPos | null = null;
    if (more) {
      const last = String(items[items.length - 1]![w.timeField] ?? '');
      if (!toDate(last)) throw new ProviderError(PROVIDER, 502, `a ${w.table} record without ${w.timeField}`, undefined);
      const atLast = items.filter((x) => x[w.timeField] === last).length;
      next = { t: last, k: last === pos.t ? pos.k + atLast : atLast };
    }
    yield { items, resume: next ? JSON.stringify(next) : null };
    if (!next) return;
    pos = next;
  }
}

/** Every record of a table (small directory tables), read whole. */
export async function listAll<T extends SnRecord>(ctx: AdapterContext, o: ResolvedOptions, table: string, fields?: string, filter?: string): Promise<T[]> {
  const out: T[] = [];
  for await (const step of walkTable<T>(ctx, o, { table, timeField: 'sys_created_on', fields, filter })) out.push(...step.items);
  return out;
}

const selfCache = new ConnectionCache(10 * 60_000);

/**
 * The connection's own user: `sys_id=javascript:gs.getUserID()` is evaluated by the instance for the caller, so
 * it serves basic and OAuth connections alike.
 */
export function currentUser(ctx: AdapterContext, o: ResolvedOptions): Promise<SnUser> {
  return selfCache.get(ctx, 'me', async () => {
  const res = await ctx.http.get<{ result?: SnUser[] }>(tablePath('sys_user'), {
    query: { ...READ_PARAMS, sysparm_query: 'sys_id=javascript:gs.getUserID()', sysparm_limit: 1, sysparm_fields: 'sys_id,user_name,name' },
  });
  const user = res.data?.result?.[0];
  if (!user || typeof user.sys_id !== 'string') throw new ProviderError(PROVIDER, 502, 'the instance did not name the connection\'s user', res.data);
  return user;
  }, false, o.selfCacheMs);
}
