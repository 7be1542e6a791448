/**
 * Intercom syncers, in dependency order: teams, admins (users), companies (accounts), contacts, tags,
 * tickets, then ticket parts (comments) with their attachments.
 *
 * Tickets: `POST /tickets/search` for `updated_at > since` (0 for a full run; Intercom matches by day, so the
 * search reaches two days further back and earlier changes are dropped here), cursor pages. Intercom
 * deletes tickets for good (no trash), so deletions are found by the deletion check (the same search,
 * ids kept) and by complete full runs. Comments: the parts of each ticket the search yields
 * (`GET /tickets/{id}`): a reply or note updates its ticket. Admins, teams and tags come whole in one
 * answer; contacts (cursor) and companies (`POST /companies/list`, numbered pages by `last_request_at`,
 * newest first) are listed in full; a company a full run did not list is asked for alone before it is marked
 * deleted, as one active during the run moves onto a page already read.
 */
import { existsAt } from '../deletion-check';
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { cursorPages, searchTickets, type ResolvedOptions } from './api';
import { isCommentPart, unifyAdmin, unifyCompany, unifyContact, unifyPart, unifyTag, unifyTeam, unifyTicket } from './mappers';
import type { IcAdmin, IcCompany, IcContact, IcPages, IcTag, IcTeam, IcTicket } from './types';
import { toUnix } from './util';

/** A list Intercom answers whole (`GET /admins`, `/teams`, `/tags`). */
function wholeList<T>(key: string, path: string, field: string, unify: (ctx: AdapterContext, x: T) => UnifiedRecord): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx): AsyncIterable<SyncBatch> {
      const res = await ctx.http.get<Record<string, unknown>>(path);
      const items = (Array.isArray(res.data?.[field]) ? res.data[field] : []) as T[];
      yield { records: items.filter((x) => x && typeof (x as { id?: unknown }).id === 'string').map((x) => unify(ctx, x)), resume: null };
    },
  };
}

function contactsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.contact',
    objectTypes: ['ticketing.contact'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const page of cursorPages<IcContact>(ctx, '/contacts', o, 'data', opts.resume)) {
        yield { records: page.items.filter((c) => c && typeof c.id === 'string').map((c) => unifyContact(c, ctx.ids)), resume: page.next };
      }
    },
  };
}

function companiesSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.account',
    objectTypes: ['ticketing.account'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for (let page = Math.max(1, Number(opts.resume) || 1); ; page++) {
        const res = await ctx.http.post<{ data?: IcCompany[]; pages?: IcPages | null }>('/companies/list', { read: true, query: { page, per_page: Math.min(60, o.pageSize) } });
        const items = (res.data?.data ?? []).filter((c) => c && typeof c.id === 'string');
        const more = (res.data?.pages?.total_pages ?? 0) > page && items.length > 0;
        yield { records: items.map(unifyCompany), resume: more ? String(page + 1) : null };
        if (!more) return;
      }
    },
    // The list is ordered by `last_request_at`, newest first, in numbered pages: a company active while a run
    // pages jumps onto a page already read. A company a full run did not list is asked for alone (404: gone).
    stillExists: (ctx, object) => existsAt(ctx, `/companies/${encodeURIComponent(object.remoteId)}`),
  };
}

interface Pos {
  m: 'full' | 'inc';
  s: number;
  c: string | null;
}
const readPos = (resume: string | undefined, m: Pos['m']): Pos | undefined => {
  try {
    const p = resume ? (JSON.parse(resume) as Pos) : undefined;
    return p && p.m === m && typeof p.s === 'number' ? p : undefined;
  } catch {
    return undefined;
  }
};

async function* walk(ctx: AdapterContext, o: ResolvedOptions, opts: SyncOptions): AsyncGenerator<{ tickets: IcTicket[]; resume: string | null }> {
  const m: Pos['m'] = opts.since ? 'inc' : 'full';
  let pos: Pos = readPos(opts.resume, m) ?? { m, s: opts.since ? toUnix(opts.since) : 0, c: null };
  for (;;) {
    const page = await searchTickets(ctx, o, pos.s, pos.c ?? undefined);
    const next = page.next && page.next !== pos.c && page.tickets.length ? { ...pos, c: page.next } : null;
    // The search reaches back to whole days: what changed before `since` is left out here, so that the
    // comments syncer reads the parts of changed tickets only.
    const since = pos.s;
    const changed = since > 0 ? page.tickets.filter((t) => (t.updated_at ?? Infinity) > since) : page.tickets;
    yield { tickets: changed, resume: next ? JSON.stringify(next) : null };
    if (!next) return;
    pos = next;
  }
}

function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  const deletionCheck: DeletionCheck = {
    objectTypes: ['ticketing.ticket'],
    async *listIds(ctx, opts) {
      for await (const step of walk(ctx, o, { resume: opts.resume })) yield { remoteIds: step.tickets.map((t) => t.id), resume: step.resume };
    },
  };
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const step of walk(ctx, o, opts)) yield { records: step.tickets.map((t) => unifyTicket(t, ctx.ids)), resume: step.resume };
    },
    deletionCheck,
    // The search's order is not documented: a ticket a full run did not list is asked for alone (404: gone).
    stillExists: (ctx, object) => existsAt(ctx, `/tickets/${encodeURIComponent(object.remoteId)}`),
  };
}

function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const step of walk(ctx, o, opts)) {
        // The HTTP client caps the calls in flight per connection.
        const full = await Promise.all(step.tickets.map(async (t) => (await ctx.http.get<IcTicket>(`/tickets/${encodeURIComponent(t.id)}`)).data));
        const records = full.flatMap((t) =>
          (t?.ticket_parts?.ticket_parts ?? []).filter(isCommentPart).flatMap((p) => {
            const u = unifyPart(p, ctx.ids, t.id);
            return [u.comment, ...u.attachments];
          }),
        );
        yield { records, resume: step.resume };
      }
    },
  };
}

export function intercomSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    wholeList<IcTeam>('ticketing.team', '/teams', 'teams', (_ctx, t) => unifyTeam(t)),
    wholeList<IcAdmin>('ticketing.user', '/admins', 'admins', (ctx, a) => unifyAdmin(a, ctx.ids)),
    companiesSyncer(o),
    contactsSyncer(o),
    wholeList<IcTag>('ticketing.tag', '/tags', 'data', (_ctx, t) => unifyTag(t)),
    ticketsSyncer(o),
    commentsSyncer(o),
  ];
}
