/**
 * Freshdesk syncers, in dependency order: groups (teams), agents (users), companies (accounts), contacts,
 * tickets (with their tags), then conversations (comments) with their attachments.
 *
 * Tickets. `GET /tickets` lists only tickets created in the last 30 days unless `updated_since` is given,
 * so every run gives it: the epoch for a full run, `since` for an incremental one, ordered by
 * `updated_at` ascending. The listing pages by number, and a ticket changed or trashed after its page was
 * read leaves its place: every later ticket moves back one place, and page n+1 would start one ticket too
 * far. So the walk never asks for page n+1 of a listing it has moved along: each next request starts
 * again at page 1 from the last `updated_at` read (seconds, as Freshdesk reads `updated_since`), leaving
 * out the tickets of that second already read (same id and `updated_at`; a ticket changed again is read
 * again). What comes before that point cannot move it; a ticket changed meanwhile is read again further
 * along. Only a run of more than a page of tickets sharing one second goes on by page number inside that
 * second (up to Freshdesk's 300 pages of a listing). Trashed tickets are only listed with
 * `filter=deleted`: each run then walks that listing from the same point, the same way, and reports them
 * deleted. Tickets deleted from the trash vanish: the deletion check (or a full run) finds them.
 *
 * Comments. Replies and notes are only listed per ticket (`GET /tickets/{id}/conversations`); a reply or
 * note updates its ticket, so a run lists the conversations of the tickets the ticket walk yields.
 *
 * Agents, groups, companies and contacts are listed in full every run, which also detects deletions; one a
 * full run did not list is asked for alone first (a deletion during the run moves the later pages).
 */
import { AppError } from '../../core/errors';
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { getPage, isNotFound, listPages, type Query, type ResolvedOptions } from './api';
import { unifyConversation } from './comment.mapper';
import { unifyAgent, unifyCompany, unifyContact, unifyGroup, unifyTag } from './directory.mapper';
import { unifyTicket } from './ticket.mapper';
import type { FdAgent, FdCompany, FdContact, FdConversation, FdGroup, FdTicket } from './types';
import { PROVIDER, toDate } from './util';

const EPOCH = '1970-01-01T00:00:00Z';

/** Seconds precision, as Freshdesk writes and reads `updated_since`. */
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

interface WalkPos {
  /** `full` or `inc`: a position is only reused by a run of the same kind. */
  m: 'full' | 'inc';
  /** `live` tickets first, then the trash (`filter=deleted`). */
  ph: 'live' | 'trash';
  /** `updated_since` of the current listing, and of the trash listing to come. */
  s: string;
  t: string;
  /** The next page: 1, unless more than a page of tickets share the second `s`. */
  p: number;
  /** Tickets of the second `s` already read (`id@updated_at`): the next page starts with them again. */
  k?: string[];
}

function readPos(resume: string | undefined, mode: WalkPos['m']): WalkPos | undefined {
  if (!resume) return undefined;
  try {
    const r = JSON.parse(resume) as Partial<WalkPos>;
    if (r.m === mode && (r.ph === 'live' || r.ph === 'trash') && typeof r.s === 'string' && typeof r.t === 'string' && typeof r.p === 'number' && (r.k === undefined || (Array.isArray(r.k) && r.k.every((x) => typeof x === 'string')))) return r as WalkPos;
  } catch {
    // an unreadable position starts the walk over
  }
  return undefined;
}

/** A ticket's version: read again once it changed. */
const versionOf = (t: FdTicket) => `${t.id}@${t.updated_at}`;

/** The second of `updated_at` as `updated_since` takes it, or null when unreadable. */
function secondOf(t: FdTicket | undefined): string | null {
  const at = t ? toDate(t.updated_at) : null;
  return at ? iso(at) : null;
}

/**
 * Walks the ticket listing from `since` (or the epoch) to its end, then the trash when `trash`; one step per
 * page, with the position after it. Each next request goes on from the last `updated_at` read (page 1),
 * leaving out what it already read at that second.
 */
async function* walkTickets(
  ctx: AdapterContext,
  o: ResolvedOptions,
  opts: SyncOptions,
  walk: { trash: boolean; include?: string },
): AsyncGenerator<{ tickets: FdTicket[]; resume: string | null }> {
  const mode: WalkPos['m'] = opts.since ? 'inc' : 'full';
  const start = opts.since ? iso(opts.since) : EPOCH;
  let pos: WalkPos = readPos(opts.resume, mode) ?? { m: mode, ph: 'live', s: start, t: start, p: 1 };
  for (;;) {
    const query: Query = { updated_since: pos.s, order_by: 'updated_at', order_type: 'asc', include: walk.include, filter: pos.ph === 'trash' ? 'deleted' : undefined };
    const page = await getPage<FdTicket>(ctx, '/api/v2/tickets', o, pos.p, query);
    const skip = new Set(pos.k ?? []);
    const fresh = page.items.filter((t) => !skip.has(versionOf(t)));
    let next: WalkPos | null;
    if (page.more) {
      const last = secondOf(page.items[page.items.length - 1]);
      if (last !== null && last !== pos.s) {
        // Go on from the last second read; its tickets read here open the next page again.
        next = { ...pos, s: last, p: 1, k: page.items.filter((t) => secondOf(t) === last).map(versionOf) };
      } else if (pos.p < o.maxTicketPages) {
        // A whole page of one second: the next page of the same listing (a ticket that moved back onto it
        // from this page is left out there).
        next = { ...pos, p: pos.p + 1, k: page.items.map(versionOf) };
      } else {
        throw new AppError('provider_error', `more than ${o.maxTicketPages} pages of Freshdesk tickets share updated_at ${pos.s}; the listing cannot go further`, { provider: PROVIDER });
      }
    } else if (pos.ph === 'live' && walk.trash) next = { m: pos.m, ph: 'trash', s: pos.t, t: pos.t, p: 1 };
    else next = null;
    yield { tickets: fresh.map((t) => (pos.ph === 'trash' ? { ...t, deleted: true } : t)), resume: next ? JSON.stringify(next) : null };
    if (!next) return;
    pos = next;
  }
}

/**
 * A listing read in full every run; the resume position is the next page. Listed by page number: an item
 * deleted on a page already read moves the next one back onto it, unread, so an item a full run did not list
 * is asked for alone (`{path}/{id}`) and marked deleted only when Freshdesk answers 404 or marks it `deleted`
 * (a contact deleted, not yet purged).
 */
function listSyncer<T>(o: ResolvedOptions, key: string, path: string, unify: (ctx: AdapterContext, item: T) => UnifiedRecord, query: Query = {}): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const from = Number(opts.resume);
      for await (const page of listPages<T>(ctx, path, o, { query, page: Number.isInteger(from) && from > 1 ? from : 1 })) {
        yield { records: page.items.map((x) => unify(ctx, x)), resume: page.more ? String(page.page + 1) : null };
      }
    },
    async stillExists(ctx, object) {
      try {
        const res = await ctx.http.get<{ deleted?: unknown }>(`${path}/${encodeURIComponent(object.remoteId)}`);
        return res.data?.deleted !== true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
  };
}

function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    // Tags have no listing of their own: they come with the tickets that carry them.
    objectTypes: ['ticketing.ticket', 'ticketing.tag'],
    incremental: true,
    // The trash is reported; tickets deleted for good are inferred from full runs and the deletion check.
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const step of walkTickets(ctx, o, opts, { trash: true, include: 'description' })) {
        const tags = new Map<string, UnifiedRecord>();
        for (const t of step.tickets) {
          if (t.deleted) continue;
          for (const name of t.tags ?? []) if (typeof name === 'string' && name !== '') tags.set(name, unifyTag(name, toDate(t.updated_at)));
        }
        yield { records: [...step.tickets.map((t) => unifyTicket(t, ctx.ids)), ...tags.values()], resume: step.resume };
      }
    },
    deletionCheck: ticketIds(o),
  };
}

/** Every ticket id outside the trash: a trashed ticket is deleted for Omniport too (the runs report it as well). */
function ticketIds(o: ResolvedOptions): DeletionCheck {
  return {
    objectTypes: ['ticketing.ticket'],
    async *listIds(ctx, opts) {
      for await (const step of walkTickets(ctx, o, { resume: opts.resume }, { trash: false })) {
        yield { remoteIds: step.tickets.map((t) => String(t.id)), resume: step.resume };
      }
    },
  };
}

/** The conversations of one ticket, every page; none when the ticket is gone meanwhile. */
async function conversationsOf(ctx: AdapterContext, o: ResolvedOptions, ticketId: number): Promise<FdConversation[]> {
  const out: FdConversation[] = [];
  try {
    for await (const page of listPages<FdConversation>(ctx, `/api/v2/tickets/${ticketId}/conversations`, o)) out.push(...page.items);
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  return out;
}

function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const step of walkTickets(ctx, o, opts, { trash: false })) {
        // The HTTP client caps the calls in flight per connection.
        const lists = await Promise.all(step.tickets.map((t) => conversationsOf(ctx, o, t.id)));
        const records = lists.flatMap((list, i) =>
          list.flatMap((c) => {
            const u = unifyConversation(c, ctx.ids, step.tickets[i]!.id);
            return [u.comment, ...u.attachments];
          }),
        );
        yield { records, resume: step.resume };
      }
    },
  };
}

export function freshdeskSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    listSyncer<FdGroup>(o, 'ticketing.team', '/api/v2/groups', (_ctx, g) => unifyGroup(g)),
    listSyncer<FdAgent>(o, 'ticketing.user', '/api/v2/agents', (ctx, a) => unifyAgent(a, ctx.ids)),
    listSyncer<FdCompany>(o, 'ticketing.account', '/api/v2/companies', (_ctx, c) => unifyCompany(c)),
    listSyncer<FdContact>(o, 'ticketing.contact', '/api/v2/contacts', (ctx, c) => unifyContact(c, ctx.ids)),
    ticketsSyncer(o),
    commentsSyncer(o),
  ];
}
