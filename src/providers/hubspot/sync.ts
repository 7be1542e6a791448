/**
 * HubSpot syncers, in dependency order: users (owners), stages (deal pipelines), companies, contacts,
 * deals, notes, tasks, engagements (calls, meetings, emails). One batch per HubSpot page.
 *
 * Full run, per HubSpot type: the live records (`GET /crm/v3/objects/{type}`, `after` cursors, associations
 * included), then the archived ones (`archived=true`, reported deleted). Incremental run: the search API on
 * the last-modified property from `since` minus the index-lag buffer, keyset-paged on hs_object_id, with
 * associations from the v4 batch read; then the archived records archived since then.
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { listPage, pages, searchModifiedPage, type Page, type ResolvedOptions } from './api';
import { addV4, batchReadAssociations, mapOfV3 } from './associations';
import { OBJECT_SPECS, modifiedProperty, type ObjectSpec } from './objects';
import type { PropertyCatalog } from './properties';
import { unifyStage } from './stage.mapper';
import type { AssociationMap, HsObject, HsOwner, HsPipeline, HsType } from './types';
import { unifyOwner } from './user.mapper';
import { hubspotDate } from './util';

type Phase = 'live' | 'archived' | 'search';

/** Where a run continues: HubSpot type (index), phase, cursor, and the incremental lower bound. */
interface Position {
  t: number;
  p: Phase;
  a: string | null;
  /** Incremental runs: modified-since bound (epoch ms), fixed for the whole run. */
  f?: number;
}

function parsePosition(resume: string | undefined): Position | undefined {
  if (!resume) return undefined;
  try {
    const p = JSON.parse(resume) as Position;
    if (typeof p.t === 'number' && ['live', 'archived', 'search'].includes(p.p)) return p;
  } catch {
    // an unreadable position: start over
  }
  return undefined;
}

const encode = (p: Position | null) => (p ? JSON.stringify(p) : null);

/** Associations of a page of search results, one v4 batch read per target type. */
async function associationsOf(ctx: AdapterContext, hsType: HsType, targets: HsType[], objects: HsObject[]): Promise<Map<string, AssociationMap>> {
  const maps = new Map<string, AssociationMap>(objects.map((o) => [String(o.id), {}]));
  if (objects.length === 0) return maps;
  const ids = [...maps.keys()];
  for (const to of targets) {
    const found = await batchReadAssociations(ctx, hsType, to, ids);
    for (const [id, list] of found) {
      const map = maps.get(id);
      if (map) addV4(map, hsType, to, list);
    }
  }
  return maps;
}

function objectSyncer(spec: ObjectSpec, o: ResolvedOptions, catalog: PropertyCatalog): ObjectSyncer {
  return {
    key: spec.objectType,
    objectTypes: [spec.objectType],
    incremental: true,
    // Archived records are reported; records purged for good are found by complete full runs.
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const resumed = parsePosition(opts.resume);
      const incremental = resumed ? resumed.p === 'search' || resumed.f !== undefined : opts.since !== undefined;
      const fromMs = resumed?.f ?? (opts.since ? Math.max(0, opts.since.getTime() - o.indexLagBufferMs) : undefined);
      const phases: Phase[] = incremental ? ['search', 'archived'] : ['live', 'archived'];
      let pos: Position = resumed ?? { t: 0, p: phases[0]!, a: null, ...(incremental ? { f: fromMs } : {}) };

      /** The position after the current phase of the current type. */
      const following = (p: Position): Position | null => {
        const i = phases.indexOf(p.p);
        if (i + 1 < phases.length) return { ...p, p: phases[i + 1]!, a: null };
        if (p.t + 1 < spec.hsTypes.length) return { ...p, t: p.t + 1, p: phases[0]!, a: null };
        return null;
      };

      const propertiesOf = new Map<HsType, string[]>();
      while (pos.t < spec.hsTypes.length) {
        const hsType = spec.hsTypes[pos.t]!;
        // Definitions read once per run and type: custom properties created since the last run are included.
        let properties = propertiesOf.get(hsType);
        if (!properties) propertiesOf.set(hsType, (properties = catalog.readable(spec.properties(hsType), await catalog.defs(ctx, hsType, { fresh: true }))));
        const targets = spec.associations(hsType);
        const at = pos;
        const unify = (obj: HsObject, assoc: AssociationMap): UnifiedRecord => spec.unify(obj, hsType, assoc, ctx.ids);

        const props = properties;
        let fetch: (after: string | undefined) => Promise<Page<HsObject>>;
        if (at.p === 'search') {
          fetch = (after) =>
            searchModifiedPage(ctx, hsType, {
              modifiedProperty: modifiedProperty(hsType),
              fromMs: at.f ?? 0,
              afterId: after ?? '0',
              properties: props,
              limit: o.searchPageSize,
              minIntervalMs: o.searchMinIntervalMs,
            });
        } else {
          const archived = at.p === 'archived';
          fetch = (after) => listPage(ctx, hsType, { properties: props, associations: archived ? [] : targets, archived, limit: o.listPageSize, after });
        }

        for await (const page of pages(fetch, at.a ?? undefined)) {
          let records: UnifiedRecord[];
          if (at.p === 'search') {
            const assoc = await associationsOf(ctx, hsType, targets, page.items);
            records = page.items.map((obj) => unify(obj, assoc.get(String(obj.id)) ?? {}));
          } else {
            let items = page.items;
            // Incremental runs report only what was archived since the lower bound.
            if (at.p === 'archived' && at.f !== undefined) items = items.filter((obj) => (hubspotDate(obj.archivedAt ?? obj.updatedAt)?.getTime() ?? Infinity) >= at.f!);
            records = items.map((obj) => unify({ ...obj, archived: obj.archived ?? at.p === 'archived' }, mapOfV3(obj, targets)));
          }
          const next = page.next ? { ...at, a: page.next } : following(at);
          yield { records, resume: encode(next) };
          if (!page.next) pos = next ?? { ...at, t: spec.hsTypes.length };
        }
      }
    },
  };
}

/** Owners → crm.user: the active ones, then the archived (deactivated) ones, reported deleted. */
function ownersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'crm.user',
    objectTypes: ['crm.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const resumed = parsePosition(opts.resume);
      const phases: Phase[] = ['live', 'archived'];
      for (const phase of phases.slice(resumed ? phases.indexOf(resumed.p) : 0)) {
        const archived = phase === 'archived';
        const fetch = async (after: string | undefined): Promise<Page<HsOwner>> => {
          const res = await ctx.http.get<{ results?: HsOwner[]; paging?: { next?: { after?: string } } }>('/crm/v3/owners', {
            query: { limit: o.listPageSize, after, archived },
          });
          return { items: res.data?.results ?? [], next: res.data?.paging?.next?.after ?? null };
        };
        const start = resumed?.p === phase ? (resumed.a ?? undefined) : undefined;
        for await (const page of pages(fetch, start)) {
          const records = page.items.map((owner) => unifyOwner({ ...owner, archived: owner.archived ?? archived }));
          const next: Position | null = page.next ? { t: 0, p: phase, a: page.next } : archived ? null : { t: 0, p: 'archived', a: null };
          yield { records, resume: encode(next) };
        }
      }
    },
  };
}

/** Deal pipelines and their stages → crm.stage (one call; every run is full). */
function stagesSyncer(): ObjectSyncer {
  return {
    key: 'crm.stage',
    objectTypes: ['crm.stage'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx): AsyncIterable<SyncBatch> {
      const res = await ctx.http.get<{ results?: HsPipeline[] }>('/crm/v3/pipelines/deals');
      const records = (res.data?.results ?? []).flatMap((p) => (p.stages ?? []).map((s) => unifyStage(s, p)));
      yield { records, resume: null };
    },
  };
}

export function hubspotSyncers(o: ResolvedOptions, catalog: PropertyCatalog): ObjectSyncer[] {
  return [
    ownersSyncer(o),
    stagesSyncer(),
    objectSyncer(OBJECT_SPECS['crm.company'], o, catalog),
    objectSyncer(OBJECT_SPECS['crm.contact'], o, catalog),
    objectSyncer(OBJECT_SPECS['crm.deal'], o, catalog),
    objectSyncer(OBJECT_SPECS['crm.note'], o, catalog),
    objectSyncer(OBJECT_SPECS['crm.task'], o, catalog),
    objectSyncer(OBJECT_SPECS['crm.engagement'], o, catalog),
  ];
}
