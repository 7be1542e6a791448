/**
 * Pipedrive syncers, in dependency order: users, stages, companies, contacts, deals, activities (tasks
 * and engagements), notes. One batch per provider page, each with the position to resume after it.
 *
 * API v2 lists are walked by id (`sort_by=id`, cursor pagination, `limit` ≤ 500); incremental runs add
 * `updated_since` (the core has already moved it back by its overlap window, and records are upserted by
 * remote id, so an object seen twice is harmless). v2 lists leave deleted objects out, so their deletions
 * are found by full runs (the core marks what a complete full run did not see); deleted deals are also
 * listed (`status=deleted`) by every run.
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { v1, V2, cursorPages, idOrderedOffsetPages, type FieldDefinitions, type IdOffsetPosition, type ResolvedOptions } from './api';
import { activityObjectType } from './activity';
import { unifyOrganization } from './company.mapper';
import { unifyPerson } from './contact.mapper';
import { unifyDeal } from './deal.mapper';
import { unifyEngagement } from './engagement.mapper';
import { unifyNote } from './note.mapper';
import { unifyStage } from './stage.mapper';
import { unifyTask } from './task.mapper';
import type { PdActivity, PdDeal, PdEnvelope, PdNote, PdOrganization, PdPerson, PdPipeline, PdStage, PdUser } from './types';
import { unifyUser } from './user.mapper';
import { isoSeconds } from './util';

/** A resume position: the phase of the run (deals: live, then deleted) and the cursor inside it. */
interface Position {
  phase: number;
  cursor: string | null;
}

const encode = (p: Position): string => JSON.stringify(p);
function decode(s: string | undefined): Position {
  if (!s) return { phase: 0, cursor: null };
  try {
    const p = JSON.parse(s) as Position;
    if (typeof p.phase === 'number' && (typeof p.cursor === 'string' || p.cursor === null)) return p;
  } catch {
    // an old or foreign position: start over
  }
  return { phase: 0, cursor: null };
}

type Query = Record<string, string | number | boolean | undefined>;

/**
 * An API v2 list synced page by page; `phases` are successive listings of one run (each walked to its
 * last page), `prepare` reads what the mapper needs once per run.
 */
function v2Syncer<T, X>(
  o: ResolvedOptions,
  spec: {
    key: string;
    objectTypes: string[];
    path: string;
    phases: Query[];
    /** What the deletion check's id listing adds to the query. */
    idsQuery?: Query;
    prepare: (ctx: AdapterContext) => Promise<X>;
    unify: (item: T, ctx: AdapterContext, extra: X) => UnifiedRecord;
  },
): ObjectSyncer {
  return {
    key: spec.key,
    objectTypes: spec.objectTypes,
    incremental: true,
    reportsDeletions: false,
    async *run(ctx: AdapterContext, opts: SyncOptions): AsyncIterable<SyncBatch> {
      const extra = await spec.prepare(ctx);
      const start = decode(opts.resume);
      const since = opts.since ? isoSeconds(opts.since) : undefined;
      for (let phase = start.phase; phase < spec.phases.length; phase++) {
        const query: Query = { sort_by: 'id', sort_direction: 'asc', ...spec.phases[phase], updated_since: since };
        const cursor = phase === start.phase ? start.cursor : null;
        for await (const page of cursorPages<T>(ctx, spec.path, { limit: o.pageSize, query, cursor })) {
          const records = page.items.filter((x) => x && typeof (x as { id?: unknown }).id === 'number').map((x) => spec.unify(x, ctx, extra));
          const after: Position | null = page.next !== null ? { phase, cursor: page.next } : phase + 1 < spec.phases.length ? { phase: phase + 1, cursor: null } : null;
          yield { records, resume: after ? encode(after) : null };
        }
      }
    },
    // API v2 lists have no field selection: the plain list (no labels), largest pages, ids kept.
    deletionCheck: {
      objectTypes: spec.objectTypes,
      async *listIds(ctx, opts) {
        const query: Query = { sort_by: 'id', sort_direction: 'asc', ...spec.idsQuery };
        for await (const page of cursorPages<{ id?: unknown }>(ctx, spec.path, { limit: 500, query, cursor: decode(opts.resume).cursor })) {
          yield { remoteIds: idsOf(page.items), resume: page.next ? encode({ phase: 0, cursor: page.next }) : null };
        }
      },
    },
  };
}

const idsOf = (items: { id?: unknown }[]) => items.filter((x) => x && typeof x.id === 'number').map((x) => String(x.id));

const noPrep = async () => undefined;
const LABELS: Query = { include_option_labels: true };

/** Users (API v1: one answer with every user). */
function usersSyncer(): ObjectSyncer {
  return {
    key: 'crm.user',
    objectTypes: ['crm.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx): AsyncIterable<SyncBatch> {
      const res = await ctx.http.get<PdEnvelope<PdUser[] | null>>(`${v1(ctx)}/users`);
      const users = Array.isArray(res.data?.data) ? res.data.data : [];
      yield { records: users.filter((u) => u && typeof u.id === 'number').map(unifyUser), resume: null };
    },
  };
}

/** Stages (API v2) with their pipeline's name; few enough to read whole on every run. */
function stagesSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'crm.stage',
    objectTypes: ['crm.stage'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const names = new Map<number, string>();
      for await (const page of cursorPages<PdPipeline>(ctx, `${V2}/pipelines`, { limit: o.pageSize })) {
        for (const p of page.items) if (p && typeof p.id === 'number' && typeof p.name === 'string') names.set(p.id, p.name);
      }
      const start = decode(opts.resume);
      for await (const page of cursorPages<PdStage>(ctx, `${V2}/stages`, { limit: o.pageSize, cursor: start.cursor, query: { sort_by: 'id', sort_direction: 'asc' } })) {
        yield { records: page.items.filter((s) => s && typeof s.id === 'number').map((s) => unifyStage(s, names)), resume: page.next ? encode({ phase: 0, cursor: page.next }) : null };
      }
    },
  };
}

/** A notes position: `{"start":…,"after":…}`; a bare offset from an older version starts over at it. */
function notesPosition(resume: string | undefined): IdOffsetPosition | undefined {
  if (!resume) return undefined;
  if (/^\d+$/.test(resume)) return { start: Number(resume), after: null };
  try {
    const p = JSON.parse(resume) as IdOffsetPosition;
    if (Number.isSafeInteger(p.start) && (p.after === null || Number.isSafeInteger(p.after))) return p;
  } catch {
    // an unreadable position starts the run over
  }
  return undefined;
}

/**
 * Notes (API v1: offset pagination only, sorted by id; `updated_since` on incremental runs), walked by
 * `idOrderedOffsetPages` so a note deleted during the run never makes the run skip another one.
 */
function notesSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'crm.note',
    objectTypes: ['crm.note'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const query: Query = { sort: 'id ASC', updated_since: opts.since ? isoSeconds(opts.since) : undefined };
      for await (const page of idOrderedOffsetPages<PdNote>(ctx, `${v1(ctx)}/notes`, { limit: o.v1PageSize, query, from: notesPosition(opts.resume) })) {
        yield { records: page.items.map((n) => unifyNote(n, ctx.ids)), resume: page.next ? JSON.stringify(page.next) : null };
      }
    },
    // API v1 notes have no field selection either: the largest pages, ids kept.
    deletionCheck: {
      objectTypes: ['crm.note'],
      async *listIds(ctx, opts) {
        for await (const page of idOrderedOffsetPages<PdNote>(ctx, `${v1(ctx)}/notes`, { limit: 500, query: { sort: 'id ASC' }, from: notesPosition(opts.resume) })) {
          yield { remoteIds: idsOf(page.items), resume: page.next ? JSON.stringify(page.next) : null };
        }
      },
    },
  };
}

export function pipedriveSyncers(o: ResolvedOptions, defs: FieldDefinitions): ObjectSyncer[] {
  return [
    usersSyncer(),
    stagesSyncer(o),
    v2Syncer<PdOrganization, Awaited<ReturnType<typeof industryOptions>>>(o, {
      key: 'crm.company',
      objectTypes: ['crm.company'],
      path: `${V2}/organizations`,
      phases: [LABELS],
      prepare: industryOptions,
      unify: (org, ctx, industries) => unifyOrganization(org, ctx.ids, industries),
    }),
    v2Syncer<PdPerson, undefined>(o, {
      key: 'crm.contact',
      objectTypes: ['crm.contact'],
      path: `${V2}/persons`,
      phases: [LABELS],
      prepare: noPrep,
      unify: (p, ctx) => unifyPerson(p, ctx.ids),
    }),
    v2Syncer<PdDeal, undefined>(o, {
      key: 'crm.deal',
      objectTypes: ['crm.deal'],
      path: `${V2}/deals`,
      // Open, won and lost deals; then the deleted ones (kept by Pipedrive for 30 days), reported deleted.
      phases: [LABELS, { ...LABELS, status: 'deleted' }],
      prepare: noPrep,
      unify: (d, ctx) => unifyDeal(d, ctx.ids),
    }),
    v2Syncer<PdActivity, undefined>(o, {
      key: 'crm.task',
      objectTypes: ['crm.task', 'crm.engagement'],
      path: `${V2}/activities`,
      phases: [{}],
      prepare: noPrep,
      unify: (a, ctx) => (activityObjectType(a.type) === 'crm.engagement' ? unifyEngagement(a, ctx.ids) : unifyTask(a, ctx.ids)),
    }),
    notesSyncer(o),
  ];

  async function industryOptions(ctx: AdapterContext) {
    return (await defs.all(ctx, 'organization', { fresh: true })).get('industry')?.options;
  }
}
