/**
 * Asana request helpers: the token's user (`GET /users/me`) and the connection's workspace, offset-paginated
 * lists (`limit`, `offset` → `next_page.offset`), and a project's event stream (`GET /events` with sync
 * tokens). All calls go through `ctx.http`; bodies travel in Asana's `{"data": …}` envelope.
 */
import { ConnectionCache } from '../kit';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import type { AsCustomField, AsEvent, AsPage, AsRef, AsUser, AsWorkspace } from './types';
import { PROVIDER, seg, unsupported } from './util';

export interface AsanaAdapterOptions {
  /** `limit` of list pages (Asana allows 1 to 100). */
  pageSize?: number;
  /** How long the connection's user, workspace, tags and custom fields are remembered, in ms. */
  cacheMs?: number;
}
export type ResolvedOptions = Required<AsanaAdapterOptions>;
export const resolveOptions = (o: AsanaAdapterOptions = {}): ResolvedOptions => ({
  pageSize: Math.min(100, Math.max(1, o.pageSize ?? 100)),
  cacheMs: Math.max(0, o.cacheMs ?? 5 * 60_000),
});

/** The task fields every read asks for (`opt_fields`: Asana answers compact records otherwise). */
export const TASK_FIELDS = [
  'name', 'notes', 'resource_subtype', 'completed', 'completed_at', 'due_on', 'due_at', 'created_at', 'modified_at',
  'assignee', 'parent', 'projects', 'tags', 'tags.name', 'workspace', 'permalink_url',
  'custom_fields', 'custom_fields.name', 'custom_fields.resource_subtype', 'custom_fields.text_value', 'custom_fields.number_value',
  'custom_fields.enum_value', 'custom_fields.enum_value.name', 'custom_fields.date_value', 'custom_fields.display_value',
].join(',');
export const STORY_FIELDS = 'created_at,created_by,resource_subtype,type,text,html_text';
export const ATTACHMENT_FIELDS = 'name,created_at,download_url,permanent_url,host,parent';

const cache = new ConnectionCache(5 * 60_000);
export const remembered = <T>(ctx: AdapterContext, o: ResolvedOptions, what: string, load: () => Promise<T>): Promise<T> => cache.get(ctx, what, load, false, o.cacheMs);

/** `GET path` → its `data`. */
export async function getData<T>(ctx: AdapterContext, path: string, query?: Record<string, string | number | undefined>): Promise<T> {
  return (await ctx.http.get<{ data: T }>(path, { query })).data.data;
}

/** The user the token acts for, with its workspaces. */
export function me(ctx: AdapterContext, o: ResolvedOptions): Promise<AsUser> {
  return remembered(ctx, o, 'me', async () => {
    const user = await getData<AsUser>(ctx, '/users/me', { opt_fields: 'name,email,workspaces,workspaces.name' });
    if (!user || typeof user.gid !== 'string') throw new ProviderError(PROVIDER, 401, 'the token was not accepted (Asana did not name its user)', user);
    return user;
  });
}

/** The connection's workspace: `credentials.workspace_gid`, else the first workspace of the token's user. */
export function workspace(ctx: AdapterContext, o: ResolvedOptions): Promise<AsWorkspace> {
  return remembered(ctx, o, 'workspace', async () => {
    const wanted = ctx.credentials.workspace_gid;
    const gid = wanted ?? (await me(ctx, o)).workspaces?.[0]?.gid;
    if (!gid) throw unsupported('credentials', 'the token\'s user belongs to no Asana workspace');
    return getData<AsWorkspace>(ctx, `/workspaces/${seg(gid)}`, { opt_fields: 'name,is_organization' });
  });
}

/** Walks an offset-paginated list to its last page, from `from` (an offset token) when resuming. */
export async function* pages<T>(ctx: AdapterContext, path: string, o: ResolvedOptions, query: Record<string, string>, from?: string): AsyncGenerator<{ items: T[]; next: string | null }> {
  let offset = from;
  for (;;) {
    const res = await ctx.http.get<AsPage<T>>(path, { query: { ...query, limit: o.pageSize, offset } });
    const items = (res.data?.data ?? []).filter((x) => x && typeof (x as { gid?: unknown }).gid === 'string');
    const next = res.data?.next_page?.offset ?? null;
    yield { items, next };
    if (!next || next === offset) return;
    offset = next;
  }
}

export async function listAll<T>(ctx: AdapterContext, path: string, o: ResolvedOptions, query: Record<string, string>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages<T>(ctx, path, o, query)) out.push(...page.items);
  return out;
}

/** The workspace's custom fields (for field mapping and for writing values of the right type). */
export function customFields(ctx: AdapterContext, o: ResolvedOptions): Promise<Array<AsCustomField & { enum_options?: AsRef[] }>> {
  return remembered(ctx, o, 'custom_fields', async () => {
    const ws = await workspace(ctx, o);
    return listAll(ctx, `/workspaces/${seg(ws.gid)}/custom_fields`, o, { opt_fields: 'name,resource_subtype,type,enum_options,enum_options.name' });
  });
}

/** One read of a project's events: the events and the next token, or `expired` with a fresh token (412). */
export type EventRead = { expired: false; events: AsEvent[]; sync: string; hasMore: boolean } | { expired: true; sync: string };

export async function readEvents(ctx: AdapterContext, resource: string, sync: string | undefined): Promise<EventRead> {
  try {
    const res = await ctx.http.get<{ data?: AsEvent[]; sync?: string; has_more?: boolean }>('/events', { query: { resource, sync } });
    const next = res.data?.sync;
    if (typeof next !== 'string') throw new ProviderError(PROVIDER, res.status, 'Asana answered events without a sync token', res.data);
    return { expired: false, events: res.data.data ?? [], sync: next, hasMore: res.data.has_more === true };
  } catch (err) {
    // No token yet, or one too old: 412 Precondition Failed carries a fresh one (Events → Get events on a resource).
    const fresh = err instanceof ProviderError && err.providerStatus === 412 ? (err.providerBody as { sync?: unknown } | null)?.sync : undefined;
    if (typeof fresh === 'string') return { expired: true, sync: fresh };
    throw err;
  }
}
