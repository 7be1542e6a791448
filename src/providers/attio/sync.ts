/**
 * Attio syncers, in dependency order: users (workspace members), stages (the deal stage's statuses),
 * companies, contacts (people), deals, tasks, notes. Attio records carry no last-modified time and its
 * queries take no change filter, so every run is full: records by `records/query` (oldest first), notes
 * and tasks by their lists, walked by offset to the last page. A complete run marks what it did not see as
 * deleted; as offsets shift when records are deleted during the walk, an unlisted record is asked for by id
 * before it is marked (`stillExists`).
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { isNotFound, objectSlugs, pages, type AttioObject, type AttioRecord, type Cache, type ResolvedOptions } from './api';
import { unifyCompany, unifyDeal, unifyMember, unifyNote, unifyPerson, unifyStatus, unifyTask, type AttioNote, type AttioTask } from './mappers';

const position = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : 0);

function listSyncer<T>(key: string, walk: (ctx: AdapterContext, from: number) => AsyncGenerator<{ items: T[]; next: number | null }>, unify: (items: T[], ctx: AdapterContext) => Promise<UnifiedRecord[]> | UnifiedRecord[], byId?: (id: string) => string): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of walk(ctx, position(opts.resume))) yield { records: await unify(page.items, ctx), resume: page.next === null ? null : String(page.next) };
    },
    ...(byId
      ? {
          async stillExists(ctx: AdapterContext, object: { remoteId: string }) {
            try {
              await ctx.http.get(byId(object.remoteId));
              return true;
            } catch (err) {
              if (isNotFound(err)) return false;
              throw err;
            }
          },
        }
      : {}),
  };
}

function oneShot(key: string, read: (ctx: AdapterContext) => Promise<UnifiedRecord[]>): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx): AsyncIterable<SyncBatch> {
      yield { records: await read(ctx), resume: null };
    },
  };
}

export function attioSyncers(o: ResolvedOptions, cache: Cache): ObjectSyncer[] {
  const records = (key: string, object: AttioObject, unify: (r: AttioRecord, ctx: AdapterContext) => UnifiedRecord) =>
    listSyncer<AttioRecord>(key, (ctx, from) => pages<AttioRecord>(ctx, { query: object, limit: o.pageSize, from }), (items, ctx) => items.map((r) => unify(r, ctx)), (id) => `/v2/objects/${object}/records/${id}`);
  return [
    oneShot('crm.user', async (ctx) => {
      const res = await ctx.http.get<{ data?: Parameters<typeof unifyMember>[0][] }>('/v2/workspace_members');
      return (res.data?.data ?? []).map(unifyMember);
    }),
    oneShot('crm.stage', async (ctx) => {
      const res = await ctx.http.get<{ data?: Parameters<typeof unifyStatus>[0][] }>('/v2/objects/deals/attributes/stage/statuses');
      return (res.data?.data ?? []).map(unifyStatus);
    }),
    records('crm.company', 'companies', (r) => unifyCompany(r)),
    records('crm.contact', 'people', (r, ctx) => unifyPerson(r, ctx.ids)),
    records('crm.deal', 'deals', (r, ctx) => unifyDeal(r, ctx.ids)),
    listSyncer<AttioTask>(
      'crm.task',
      (ctx, from) => pages<AttioTask>(ctx, { list: '/v2/tasks', limit: Math.min(o.pageSize, 500), from }),
      async (items, ctx) => {
        const slugs = await objectSlugs(cache, ctx);
        return items.map((t) => unifyTask(t, ctx.ids, slugs));
      },
      (id) => `/v2/tasks/${id}`,
    ),
    listSyncer<AttioNote>('crm.note', (ctx, from) => pages<AttioNote>(ctx, { list: '/v2/notes', limit: Math.min(o.pageSize, 50), from }), (items, ctx) => items.map((n) => unifyNote(n, ctx.ids)), (id) => `/v2/notes/${id}`),
  ];
}
