/**
 * Zoho CRM syncers, in dependency order: users, stages (the Deals Stage picklist), companies (Accounts),
 * contacts, deals, tasks, notes, engagements (Calls, then Events). One batch per page, each with the
 * position to resume after it.
 *
 * Record streams are read in `Modified_Time` order with a keyset cursor: the last record's time (Zoho keeps
 * whole seconds) and the ids read at that second. Each page is asked with `If-Modified-Since` one second
 * before that time, so records sharing the second are read again and those already read dropped; a record
 * changed during the walk moves after the cursor and is read then, and a deletion moves nothing that is
 * still to be read. Incremental runs start from the core's `since`, then walk the module's Deleted Records
 * API (`/{module}/deleted`, recycle bin and permanent deletions) from the same time. Full runs list
 * everything; the core marks what a complete full run did not see as deleted.
 *
 * Notes: the Notes list takes no `If-Modified-Since`: it is read newest first (`sort_by=Modified_Time`,
 * descending) down to `since`.
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { API, listPage, toDate, type FieldDefinitions, type ResolvedOptions, type ZRecord } from './api';
import { FIELDS, unifyAccount, unifyContact, unifyDeal, unifyEngagement, unifyNote, unifyStage, unifyTask, unifyUser, type Module } from './mappers';

/** A position: the phase (module, then its deletions), the cursor in it, and the page asked at that cursor. */
interface Position {
  phase: number;
  /** Epoch milliseconds of the last record's Modified_Time, and the ids read at that second. */
  t: number | null;
  seen: string[];
  page: number;
  /** Zoho's `next_page_token` to go on with the same query (past 2,000 records by page). */
  token?: string | null;
}
const START: Position = { phase: 0, t: null, seen: [], page: 1, token: null };
const encode = (p: Position) => JSON.stringify(p);
function decode(s: string | undefined): Position {
  if (!s) return START;
  try {
    const p = JSON.parse(s) as Position;
    if (Number.isSafeInteger(p.phase) && (p.t === null || Number.isFinite(p.t)) && Array.isArray(p.seen) && Number.isSafeInteger(p.page) && p.page >= 1) return p;
  } catch {
    // an old or foreign position: start over
  }
  return START;
}

const timeOf = (r: ZRecord) => toDate(r.Modified_Time)?.getTime() ?? 0;

/**
 * The records of a page that are after the cursor, and the cursor after them. When the page brought
 * nothing new (the second's records fill it), the next page of the same anchor is asked.
 */
export function advance(pos: Position, records: ZRecord[], pageSize: number): { fresh: ZRecord[]; next: Position } {
  const seen = new Set(pos.seen);
  const fresh = records.filter((r) => {
    const t = timeOf(r);
    return pos.t === null || t > pos.t || (t === pos.t && !seen.has(r.id));
  });
  if (fresh.length === 0) return { fresh, next: { ...pos, page: pos.page + 1 } };
  const t = Math.max(...fresh.map(timeOf));
  const atT = new Set(t === pos.t ? pos.seen : []);
  for (const r of records) if (timeOf(r) === t) atT.add(r.id);
  // Asked again from the new second, the records of that second come first: whole pages of them are skipped.
  return { fresh, next: { phase: pos.phase, t, seen: [...atT], page: Math.floor(atT.size / pageSize) + 1 } };
}

interface StreamSpec {
  key: string;
  modules: Module[];
  /** Lists the module's standard fields plus its custom fields (field mapping). */
  custom?: boolean;
  unify(module: Module, r: ZRecord, ctx: AdapterContext): UnifiedRecord;
}

function streamSyncer(o: ResolvedOptions, defs: FieldDefinitions, spec: StreamSpec): ObjectSyncer {
  async function* run(ctx: AdapterContext, opts: SyncOptions): AsyncIterable<SyncBatch> {
    const since = opts.since;
    let pos = decode(opts.resume);
    // Phases: each module's records, then (incremental runs) each module's deletions.
    const phases = [...spec.modules.map((m) => ({ module: m, deleted: false })), ...(since ? spec.modules.map((m) => ({ module: m, deleted: true })) : [])];
    for (; pos.phase < phases.length; pos = { ...START, phase: pos.phase + 1 }) {
      const { module, deleted } = phases[pos.phase]!;
      if (deleted) {
        for (let page = pos.page; ; page++) {
          const res = await listPage(ctx, `${API}/${module}/deleted`, { type: 'all', page, per_page: o.pageSize }, since);
          yield { records: [], deleted: res.records.map((r) => ({ objectType: spec.key, remoteId: r.id })), resume: encode({ ...START, phase: pos.phase, page: page + 1 }) };
          if (!res.more) break;
        }
        continue;
      }
      const fields = spec.custom ? await defs.select(ctx, module, FIELDS[module]) : FIELDS[module].join(',');
      if (module === 'Notes') {
        // Newest first, down to `since`; past 2,000 notes, on with the answer's page token.
        for (let page = pos.page, token = pos.token ?? null; ; page++) {
          const paging = token ? { page_token: token } : { page };
          const res = await listPage(ctx, `${API}/Notes`, { fields, sort_by: 'Modified_Time', sort_order: 'desc', ...paging, per_page: o.pageSize });
          const recent = since ? res.records.filter((r) => timeOf(r) >= since.getTime()) : res.records;
          token = (page + 1) * o.pageSize > o.maxRecordsByPage ? res.nextToken : null;
          yield { records: recent.map((r) => spec.unify(module, r, ctx)), resume: encode({ ...START, phase: pos.phase, page: page + 1, token }) };
          if (!res.more || recent.length < res.records.length) break;
        }
        continue;
      }
      for (;;) {
        const anchor = pos.t !== null ? new Date(pos.t - 1000) : since;
        const paging = pos.token ? { page_token: pos.token } : { page: pos.page };
        const res = await listPage(ctx, `${API}/${module}`, { fields, sort_by: 'Modified_Time', sort_order: 'asc', ...paging, per_page: o.pageSize }, anchor);
        const { fresh, next } = advance(pos, res.records, o.pageSize);
        // The same anchor asked further than 2,000 records by page (more than that many records share one
        // second): on with the answer's page token, which continues this very query.
        next.token = next.t === pos.t && next.page * o.pageSize > o.maxRecordsByPage ? res.nextToken : null;
        pos = next;
        yield { records: fresh.map((r) => spec.unify(module, r, ctx)), resume: encode(pos) };
        if (!res.more) break;
      }
    }
    yield { records: [], resume: null };
  }
  return {
    key: spec.key,
    objectTypes: [spec.key],
    incremental: true,
    // The Deleted Records API keeps the recycle bin 60 days: complete full runs still mark what they no longer see.
    reportsDeletions: false,
    run,
  };
}

/** Users (every status), 200 a page. */
function userSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'crm.user',
    objectTypes: ['crm.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for (let page = Number(opts.resume ?? 1) || 1; ; page++) {
        const res = await listPage(ctx, `${API}/users`, { type: 'AllUsers', page, per_page: o.pageSize }, undefined, 'users');
        yield { records: res.records.map(unifyUser), resume: res.more ? String(page + 1) : null };
        if (!res.more) return;
      }
    },
  };
}

/** Stages: the values of the Deals Stage picklist. */
function stageSyncer(defs: FieldDefinitions): ObjectSyncer {
  return {
    key: 'crm.stage',
    objectTypes: ['crm.stage'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx) {
      const stage = (await defs.all(ctx, 'Deals', { fresh: true })).get('Stage');
      const values = (stage?.pick_list_values ?? []).filter((v) => typeof (v.actual_value ?? v.display_value) === 'string');
      yield { records: values.map(unifyStage), resume: null };
    },
  };
}

export function zohoSyncers(o: ResolvedOptions, defs: FieldDefinitions): ObjectSyncer[] {
  const stream = (key: string, modules: Module[], unify: StreamSpec['unify'], custom = false) => streamSyncer(o, defs, { key, modules, unify, custom });
  return [
    userSyncer(o),
    stageSyncer(defs),
    stream('crm.company', ['Accounts'], (_m, r, ctx) => unifyAccount(r, ctx.ids), true),
    stream('crm.contact', ['Contacts'], (_m, r, ctx) => unifyContact(r, ctx.ids), true),
    stream('crm.deal', ['Deals'], (_m, r, ctx) => unifyDeal(r, ctx.ids), true),
    stream('crm.task', ['Tasks'], (_m, r, ctx) => unifyTask(r, ctx.ids)),
    stream('crm.note', ['Notes'], (_m, r, ctx) => unifyNote(r, ctx.ids)),
    stream('crm.engagement', ['Calls', 'Events'], (m, r, ctx) => unifyEngagement(r, m as 'Calls' | 'Events', ctx.ids)),
  ];
}
