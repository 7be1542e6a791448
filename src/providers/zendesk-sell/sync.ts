/**
 * Zendesk Sell syncers, in dependency order: users, stages (with their pipelines), companies (organization
 * contacts), contacts (person contacts), deals, tasks, notes, engagements (calls). One batch per page.
 *
 * The Core API has no change filter: lists are read `sort_by=updated_at:desc` (newest change first) and an
 * incremental run stops at the first object older than the core's `since`. A change made during the walk
 * moves its object to the front (read again, or at the next run); a deletion during the walk moves the
 * rest back one place and can hide one object until the next run. Full runs read `sort_by=id` and mark
 * what they did not list as deleted only once Sell confirms it gone (`stillExists`): the Core API lists no
 * deletions. Calls are always listed newest first by made_at: every run reads them whole.
 */
import { existsAt } from '../deletion-check';
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { API, listPage, toDate, type ResolvedOptions, type SellObject } from './api';
import { organizationsAmong } from './lookups';
import { unifyCall, unifyDeal, unifyNote, unifyOrganization, unifyPerson, unifyStage, unifyTask, unifyUser } from './mappers';

interface StreamSpec {
  key: string;
  path: string;
  query?: Record<string, string | boolean>;
  /** Sell lists this resource by `updated_at` (everything but calls). */
  byUpdate: boolean;
  unify(items: SellObject[], ctx: AdapterContext): Promise<UnifiedRecord[]> | UnifiedRecord[];
}

function streamSyncer(o: ResolvedOptions, spec: StreamSpec): ObjectSyncer {
  async function* run(ctx: AdapterContext, opts: SyncOptions): AsyncIterable<SyncBatch> {
    const since = spec.byUpdate ? opts.since : undefined;
    const sort = spec.byUpdate ? { sort_by: since ? 'updated_at:desc' : 'id:asc' } : {};
    for (let page = Number(opts.resume ?? 1) || 1; ; page++) {
      const res = await listPage(ctx, `${API}/${spec.path}`, { ...spec.query, ...sort, page, per_page: o.pageSize });
      const items = since ? res.items.filter((i) => (toDate(i.updated_at)?.getTime() ?? 0) >= since.getTime()) : res.items;
      const done = !res.more || items.length < res.items.length;
      yield { records: items.length ? await spec.unify(items, ctx) : [], resume: done ? null : String(page + 1) };
      if (done) return;
    }
  }
  return {
    key: spec.key,
    objectTypes: [spec.key],
    incremental: spec.byUpdate,
    reportsDeletions: false,
    run,
    stillExists: (ctx, object) => existsAt(ctx, `${API}/${spec.path}/${object.remoteId}`),
  };
}

function fullSyncer(key: string, read: (ctx: AdapterContext) => AsyncIterable<UnifiedRecord[]>): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx) {
      for await (const records of read(ctx)) yield { records, resume: 'partial' };
      yield { records: [], resume: null };
    },
  };
}

async function* pages(ctx: AdapterContext, o: ResolvedOptions, path: string): AsyncIterable<SellObject[]> {
  for (let page = 1; ; page++) {
    const res = await listPage(ctx, `${API}/${path}`, { page, per_page: o.pageSize });
    yield res.items;
    if (!res.more) return;
  }
}

export function zendeskSellSyncers(o: ResolvedOptions): ObjectSyncer[] {
  const attached = (unify: (x: SellObject, orgs: Set<string>, ids: AdapterContext['ids']) => UnifiedRecord) => async (items: SellObject[], ctx: AdapterContext) => {
    const orgs = await organizationsAmong(ctx, items, 'resource_id');
    return items.map((x) => unify(x, orgs, ctx.ids));
  };
  return [
    fullSyncer('crm.user', async function* (ctx) {
      for await (const items of pages(ctx, o, 'users')) yield items.map(unifyUser);
    }),
    fullSyncer('crm.stage', async function* (ctx) {
      const pipelines = new Map<number, string>();
      for await (const items of pages(ctx, o, 'pipelines')) for (const p of items) pipelines.set(p.id, String(p.name ?? ''));
      for await (const items of pages(ctx, o, 'stages')) yield items.map((s) => unifyStage(s, pipelines));
    }),
    streamSyncer(o, { key: 'crm.company', path: 'contacts', query: { is_organization: true }, byUpdate: true, unify: (items, ctx) => items.map((x) => unifyOrganization(x, ctx.ids)) }),
    streamSyncer(o, { key: 'crm.contact', path: 'contacts', query: { is_organization: false }, byUpdate: true, unify: (items, ctx) => items.map((x) => unifyPerson(x, ctx.ids)) }),
    streamSyncer(o, {
      key: 'crm.deal',
      path: 'deals',
      byUpdate: true,
      async unify(items, ctx) {
        const orgs = await organizationsAmong(ctx, items, 'contact_id');
        return items.map((d) => unifyDeal(d, orgs.has(String(d.contact_id)), ctx.ids));
      },
    }),
    streamSyncer(o, { key: 'crm.task', path: 'tasks', byUpdate: true, unify: attached(unifyTask) }),
    streamSyncer(o, { key: 'crm.note', path: 'notes', byUpdate: true, unify: attached(unifyNote) }),
    streamSyncer(o, { key: 'crm.engagement', path: 'calls', byUpdate: false, unify: attached(unifyCall) }),
  ];
}
