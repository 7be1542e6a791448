/**
 * ClickUp request helpers: the connection's workspace (`GET /v2/team`), its hierarchy (spaces, folders with
 * their lists, folderless lists), the workspace's task listing (`GET /v2/team/{id}/task`, numbered pages of
 * 100), and the custom fields of its lists. All calls go through `ctx.http`.
 */
import { ConnectionCache } from '../kit';
import type { AdapterContext } from '../types';
import type { CuField, CuFolder, CuList, CuSpace, CuTask, CuWorkspace } from './types';
import { seg, unsupported } from './util';

export interface ClickUpAdapterOptions {
  /** How long the workspace, its hierarchy and custom fields are remembered, in ms. */
  cacheMs?: number;
}
export type ResolvedOptions = Required<ClickUpAdapterOptions>;
export const resolveOptions = (o: ClickUpAdapterOptions = {}): ResolvedOptions => ({ cacheMs: Math.max(0, o.cacheMs ?? 5 * 60_000) });

/** ClickUp answers task listings in pages of 100 (Get Filtered Team Tasks). */
export const TASK_PAGE = 100;

const cache = new ConnectionCache(5 * 60_000);
export const remembered = <T>(ctx: AdapterContext, o: ResolvedOptions, what: string, load: () => Promise<T>): Promise<T> => cache.get(ctx, what, load, false, o.cacheMs);

/** The workspaces the token reaches, with their members (`GET /v2/team`). */
async function workspaces(ctx: AdapterContext): Promise<CuWorkspace[]> {
  return ((await ctx.http.get<{ teams?: CuWorkspace[] }>('/v2/team')).data?.teams ?? []).filter((t) => t && typeof t.id === 'string');
}

/** The connection's workspace: `credentials.workspace_id`, else the token's first. */
export function workspace(ctx: AdapterContext, o: ResolvedOptions): Promise<CuWorkspace> {
  return remembered(ctx, o, 'workspace', async () => {
    const all = await workspaces(ctx);
    const wanted = ctx.credentials.workspace_id;
    const found = wanted ? all.find((w) => w.id === wanted) : all[0];
    if (!found) throw unsupported('credentials', wanted ? `the token does not reach the ClickUp workspace ${wanted}` : 'the token reaches no ClickUp workspace');
    return found;
  });
}

export interface Hierarchy {
  spaces: CuSpace[];
  folders: Array<CuFolder & { spaceId: string }>;
  lists: Array<CuList & { spaceId: string; folderId: string | null }>;
}

/** Spaces, their folders (with their lists) and folderless lists, not archived. */
export function hierarchy(ctx: AdapterContext, o: ResolvedOptions): Promise<Hierarchy> {
  return remembered(ctx, o, 'hierarchy', async () => {
    const ws = await workspace(ctx, o);
    const spaces = (await ctx.http.get<{ spaces?: CuSpace[] }>(`/v2/team/${seg(ws.id)}/space`, { query: { archived: false } })).data?.spaces ?? [];
    const out: Hierarchy = { spaces, folders: [], lists: [] };
    await Promise.all(
      spaces.map(async (s) => {
        const [folders, loose] = await Promise.all([
          ctx.http.get<{ folders?: CuFolder[] }>(`/v2/space/${seg(s.id)}/folder`, { query: { archived: false } }),
          ctx.http.get<{ lists?: CuList[] }>(`/v2/space/${seg(s.id)}/list`, { query: { archived: false } }),
        ]);
        for (const f of folders.data?.folders ?? []) {
          out.folders.push({ ...f, spaceId: s.id });
          for (const l of f.lists ?? []) out.lists.push({ ...l, spaceId: s.id, folderId: f.id });
        }
        for (const l of loose.data?.lists ?? []) out.lists.push({ ...l, spaceId: s.id, folderId: null });
      }),
    );
    return out;
  });
}

/** The custom fields of every list, by id (`GET /v2/list/{id}/field`). */
export function customFields(ctx: AdapterContext, o: ResolvedOptions): Promise<CuField[]> {
  return remembered(ctx, o, 'fields', async () => {
    const { lists } = await hierarchy(ctx, o);
    const byId = new Map<string, CuField>();
    for (const l of lists) for (const f of (await ctx.http.get<{ fields?: CuField[] }>(`/v2/list/${seg(l.id)}/field`)).data?.fields ?? []) byId.set(f.id, f);
    return [...byId.values()];
  });
}

/**
 * One page of the workspace's tasks (closed ones and subtasks included), ordered by creation (`reverse`:
 * oldest first), updated after `sinceMs` when given, created after or before `created` when given.
 */
export async function taskPage(
  ctx: AdapterContext,
  o: ResolvedOptions,
  page: number,
  sinceMs?: number,
  created?: { gt?: number; lt?: number },
): Promise<CuTask[]> {
  const ws = await workspace(ctx, o);
  const res = await ctx.http.get<{ tasks?: CuTask[] }>(`/v2/team/${seg(ws.id)}/task`, {
    query: {
      page,
      order_by: 'created',
      reverse: true,
      subtasks: true,
      include_closed: true,
      ...(sinceMs !== undefined ? { date_updated_gt: sinceMs } : {}),
      ...(created?.gt !== undefined ? { date_created_gt: created.gt } : {}),
      ...(created?.lt !== undefined ? { date_created_lt: created.lt } : {}),
    },
  });
  return (res.data?.tasks ?? []).filter((t) => t && typeof t.id === 'string');
}
