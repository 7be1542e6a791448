/**
 * Close syncers, in dependency order: users, stages, companies (leads), contacts, deals (opportunities),
 * tasks, notes, engagements (calls, meetings). One batch per provider page, each with the position to
 * resume after it.
 *
 * Full runs walk each list by offset (`offsetPages`); the core then marks what a complete full run did not
 * see as deleted. Incremental runs read Close's event log instead (`object_type` with each `action`,
 * `date_updated__gt` the core's `since`): lead and contact lists have no change filter, and the log is the
 * one place that reports deletions. Created and updated objects come from the event's `data` (read by id
 * when the event no longer carries it); deleted ones are reported deleted with their last state.
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { API, decodeOffset, encodeOffset, eventPage, isNotFound, offsetPages, type ResolvedOptions } from './api';
import { unifyActivityEngagement, unifyContact, unifyLead, unifyNote, unifyOpportunity, unifyStatus, unifyTask, unifyUser } from './mappers';
import type { CloseActivity, CloseContact, CloseEvent, CloseLead, CloseList, CloseOpportunity, ClosePipeline, CloseTask, CloseUser } from './types';

type Query = Record<string, string | number | boolean | undefined>;

export interface StreamSpec<T extends { id: string }> {
  key: string;
  objectType: string;
  /** Lists walked one after the other by a full run. */
  lists: { path: string; query?: Query }[];
  /** Event log object types (`activity.call`) and where one of their objects is read by id. */
  events: { objectType: string; path: (id: string) => string }[];
  unify: (item: T, ctx: AdapterContext) => UnifiedRecord;
}

/**
 * Updates first: the log is read newest first and each object once per run, so an object's newest state
 * is the one kept (a creation read first would keep the state it was created with). Deletions last.
 */
const ACTIONS = ['updated', 'created', 'deleted'] as const;

/** A position: the phase (a list, or an event type × action) and the offset or cursor inside it. */
interface Position {
  phase: number;
  at: string | null;
}
const encode = (p: Position) => JSON.stringify(p);
function decode(s: string | undefined): Position {
  if (!s) return { phase: 0, at: null };
  try {
    const p = JSON.parse(s) as Position;
    if (Number.isSafeInteger(p.phase) && (typeof p.at === 'string' || p.at === null)) return p;
  } catch {
    // an old or foreign position: start over
  }
  return { phase: 0, at: null };
}

function streamSyncer<T extends { id: string }>(o: ResolvedOptions, spec: StreamSpec<T>): ObjectSyncer {
  /**
   * The object after the event: the event's `data` (its state after the change, updated in place when
   * changes follow each other closely), else — Close drops `data` from events older than an hour for
   * non-admins — the object read by id, or its last known state reported deleted when it is gone.
   */
  async function current(ctx: AdapterContext, path: string, e: CloseEvent): Promise<UnifiedRecord | null> {
    if (e.data && typeof e.data === 'object' && Object.keys(e.data).length > 1) return spec.unify({ ...e.data, id: e.object_id! } as unknown as T, ctx);
    try {
      const res = await ctx.http.get<T>(path);
      if (res.data && typeof res.data.id === 'string') return spec.unify(res.data, ctx);
      return null;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return gone(ctx, e);
    }
  }

  function gone(ctx: AdapterContext, e: CloseEvent): UnifiedRecord {
    const last = (e.previous_data ?? e.data ?? {}) as Partial<T>;
    return { ...spec.unify({ ...last, id: e.object_id! } as T, ctx), deleted: true };
  }

  async function* full(ctx: AdapterContext, start: Position): AsyncIterable<SyncBatch> {
    for (let phase = start.phase; phase < spec.lists.length; phase++) {
      const list = spec.lists[phase]!;
      const from = phase === start.phase ? decodeOffset(start.at ?? undefined) : undefined;
      for await (const page of offsetPages<T>(ctx, list.path, { limit: o.pageSize, query: list.query, from })) {
        const after = page.next ? { phase, at: encodeOffset(page.next) } : phase + 1 < spec.lists.length ? { phase: phase + 1, at: null } : null;
        yield { records: page.items.map((x) => spec.unify(x, ctx)), resume: after ? encode(after) : null };
      }
    }
  }

  async function* incremental(ctx: AdapterContext, since: Date, start: Position): AsyncIterable<SyncBatch> {
    const phases = spec.events.flatMap((ev) => ACTIONS.map((action) => ({ ev, action })));
    const done = new Set<string>();
    for (let phase = start.phase; phase < phases.length; phase++) {
      const { ev, action } = phases[phase]!;
      let cursor = phase === start.phase ? start.at : null;
      for (;;) {
        const page = await eventPage(ctx, { object_type: ev.objectType, action, date_updated__gt: since.toISOString() }, cursor);
        const records: UnifiedRecord[] = [];
        for (const e of page.events) {
          const id = e.object_id!;
          if (action === 'deleted') records.push(gone(ctx, e));
          else if (!done.has(id)) {
            done.add(id);
            const r = await current(ctx, ev.path(id), e);
            if (r) records.push(r);
          }
        }
        const after = page.next ? { phase, at: page.next } : phase + 1 < phases.length ? { phase: phase + 1, at: null } : null;
        yield { records, resume: after ? encode(after) : null };
        if (!page.next) break;
        cursor = page.next;
      }
    }
  }

  return {
    key: spec.key,
    objectTypes: [spec.objectType],
    incremental: true,
    // Incremental runs report deletions from the event log, but it is kept 30 days only: complete full
    // runs still mark what they no longer see.
    reportsDeletions: false,
    run(ctx: AdapterContext, opts: SyncOptions) {
      const start = decode(opts.resume);
      return opts.since ? incremental(ctx, opts.since, start) : full(ctx, start);
    },
  };
}

function usersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'crm.user',
    objectTypes: ['crm.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of offsetPages<CloseUser>(ctx, `${API}/user/`, { limit: o.pageSize, from: decodeOffset(opts.resume) })) {
        yield { records: page.items.map(unifyUser), resume: encodeOffset(page.next) };
      }
    },
  };
}

/** Opportunity statuses, read from the pipelines that hold them (a handful: one answer). */
function stagesSyncer(): ObjectSyncer {
  return {
    key: 'crm.stage',
    objectTypes: ['crm.stage'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx): AsyncIterable<SyncBatch> {
      const res = await ctx.http.get<CloseList<ClosePipeline>>(`${API}/pipeline/`);
      const pipelines = Array.isArray(res.data?.data) ? res.data.data : [];
      const records = pipelines
        .filter((p) => p && typeof p.id === 'string')
        .flatMap((p) => (p.statuses ?? []).filter((s) => s && typeof s.id === 'string').map((s) => unifyStatus(s, p)));
      yield { records, resume: null };
    },
  };
}

/** A stream's table entry with its item type erased (the table mixes leads, contacts, activities…). */
const stream = <T extends { id: string }>(spec: StreamSpec<T>) => spec as unknown as StreamSpec<{ id: string }>;

/** The streams read from lists and the event log, also used by the webhooks (src/providers/close/webhooks.ts). */
export const CLOSE_STREAMS: readonly StreamSpec<{ id: string }>[] = [
  stream<CloseLead>({
    key: 'crm.company',
    objectType: 'crm.company',
    // Whole leads (`_fields` would drop the `custom.cf_…` values field mapping reads); their nested
    // contacts are synced again by the contacts stream.
    lists: [{ path: `${API}/lead/` }],
    events: [{ objectType: 'lead', path: (id) => `${API}/lead/${id}/` }],
    unify: (l) => unifyLead(l),
  }),
  stream<CloseContact>({
    key: 'crm.contact',
    objectType: 'crm.contact',
    lists: [{ path: `${API}/contact/` }],
    events: [{ objectType: 'contact', path: (id) => `${API}/contact/${id}/` }],
    unify: (c, ctx) => unifyContact(c, ctx.ids),
  }),
  stream<CloseOpportunity>({
    key: 'crm.deal',
    objectType: 'crm.deal',
    lists: [{ path: `${API}/opportunity/` }],
    events: [{ objectType: 'opportunity', path: (id) => `${API}/opportunity/${id}/` }],
    unify: (d, ctx) => unifyOpportunity(d, ctx.ids),
  }),
  stream<CloseTask>({
    key: 'crm.task',
    objectType: 'crm.task',
    lists: [{ path: `${API}/task/`, query: { _type: 'lead' } }],
    events: [{ objectType: 'task.lead', path: (id) => `${API}/task/${id}/` }],
    unify: (t, ctx) => unifyTask(t, ctx.ids),
  }),
  stream<CloseActivity>({
    key: 'crm.note',
    objectType: 'crm.note',
    lists: [{ path: `${API}/activity/note/` }],
    events: [{ objectType: 'activity.note', path: (id) => `${API}/activity/note/${id}/` }],
    unify: (n, ctx) => unifyNote(n, ctx.ids),
  }),
  stream<CloseActivity>({
    key: 'crm.engagement',
    objectType: 'crm.engagement',
    lists: [{ path: `${API}/activity/call/` }, { path: `${API}/activity/meeting/` }],
    events: [
      { objectType: 'activity.call', path: (id) => `${API}/activity/call/${id}/` },
      { objectType: 'activity.meeting', path: (id) => `${API}/activity/meeting/${id}/` },
    ],
    unify: (a, ctx) => unifyActivityEngagement(a, ctx.ids),
  }),
];

export function closeSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [usersSyncer(o), stagesSyncer(), ...CLOSE_STREAMS.map((spec) => streamSyncer(o, spec))];
}
