/**
 * Gorgias syncers, in dependency order: teams, users (with their teams), contacts (customers), tags,
 * tickets, then comments (messages) with their attachments. Each yields one batch per page.
 *
 * Incremental sync. Gorgias has no updated-since filter, but lists tickets ordered by
 * `updated_datetime:desc`: an incremental run walks that order and stops at the first ticket older than
 * `since` (already moved back by the core's overlap window). Messages are listed by
 * `created_datetime:desc` and the walk stops the same way (messages are not edited). A ticket updated
 * while a run pages jumps ahead of the cursor; it is newer than the run's start, so the next run gets it.
 * A full run lists in creation order (`created_datetime:asc`), which updates cannot reshuffle, so a
 * complete full run sees every ticket and deletions can be inferred from it.
 *
 * Deletions. Tickets deleted in the helpdesk go to the trash (`trashed_datetime`, listed with
 * `trashed=true`) and come out `deleted`; tickets deleted for good through the API vanish and only a full
 * run detects them. Users, customers, teams and tags have no change filter: every run lists them in full,
 * so each completed run also detects their deletions.
 *
 * Resume positions are Gorgias cursors, which are short-lived: a refused cursor restarts the walk.
 */
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { isStaleCursor, listPages, type Page, type ResolvedOptions } from './api';
import { unifyMessage } from './comment.mapper';
import { unifyCustomer } from './contact.mapper';
import { unifyTag } from './tag.mapper';
import { unifyTeam } from './team.mapper';
import { unifyTicket } from './ticket.mapper';
import type { GgCustomer, GgMessage, GgTag, GgTeam, GgTicket, GgUser } from './types';
import { teamsByUser, unifyUser } from './user.mapper';
import { toDate } from './util';

type Query = Record<string, string | number | boolean | undefined>;

/**
 * Creation order, which changes cannot reshuffle while a run pages (a full listing must see every record
 * for the deletion sweep to be right). Teams, users and tags document it; customers document no order
 * (they are listed by name).
 */
const BY_CREATION: Query = { order_by: 'created_datetime:asc' };

interface Resume {
  /** `full` or `inc`: a position is only reused by a run of the same kind. */
  m: 'full' | 'inc';
  c: string;
}

function readResume(resume: string | undefined, mode: Resume['m']): string | undefined {
  if (!resume) return undefined;
  try {
    const r = JSON.parse(resume) as Partial<Resume>;
    return r.m === mode && typeof r.c === 'string' ? r.c : undefined;
  } catch {
    return undefined;
  }
}

const writeResume = (mode: Resume['m'], cursor: string | null) => (cursor ? JSON.stringify({ m: mode, c: cursor } satisfies Resume) : null);

/** Pages from a saved cursor; if Gorgias refuses it (expired), from the start. */
async function* pagesFrom<T>(ctx: AdapterContext, path: string, o: ResolvedOptions, query: Query, cursor: string | undefined): AsyncGenerator<Page<T>> {
  const pages = listPages<T>(ctx, path, o, { query, cursor });
  let first: IteratorResult<Page<T>>;
  try {
    first = await pages.next();
  } catch (err) {
    if (!cursor || !isStaleCursor(err)) throw err;
    yield* listPages<T>(ctx, path, o, { query });
    return;
  }
  if (first.done) return;
  yield first.value;
  yield* pages;
}

/** A full listing every run (no change filter); `resume` is the cursor. */
function listSyncer<T>(o: ResolvedOptions, key: string, path: string, unify: (item: T) => UnifiedRecord, query: Query = {}): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of pagesFrom<T>(ctx, path, o, query, readResume(opts.resume, 'full'))) {
        yield { records: page.items.filter((x) => x && typeof (x as { id?: unknown }).id === 'number').map(unify), resume: writeResume('full', page.next) };
      }
    },
  };
}

/** Users with their teams: the teams are read first (a small list), then the users. */
function usersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const teams: GgTeam[] = [];
      for await (const page of listPages<GgTeam>(ctx, '/api/teams', o, { query: BY_CREATION })) teams.push(...page.items.filter((t) => t && typeof t.id === 'number'));
      const membership = teamsByUser(teams);
      for await (const page of pagesFrom<GgUser>(ctx, '/api/users', o, BY_CREATION, readResume(opts.resume, 'full'))) {
        const records = page.items.filter((u) => u && typeof u.id === 'number').map((u) => unifyUser(u, ctx.ids, membership.get(u.id)));
        yield { records, resume: writeResume('full', page.next) };
      }
    },
  };
}

/**
 * Walks a list newest first (incremental) or in creation order (full). Incremental: records older than
 * `since` by `stamp` end the walk.
 */
async function* changed<T>(
  ctx: AdapterContext,
  o: ResolvedOptions,
  path: string,
  opts: SyncOptions,
  orders: { full: string; incremental: string },
  stamp: (item: T) => Date | null,
  unify: (items: T[]) => UnifiedRecord[],
  query: Query = {},
): AsyncGenerator<SyncBatch> {
  const mode: Resume['m'] = opts.since ? 'inc' : 'full';
  const q = { ...query, order_by: mode === 'inc' ? orders.incremental : orders.full };
  for await (const page of pagesFrom<T>(ctx, path, o, q, readResume(opts.resume, mode))) {
    const items = page.items.filter((x) => x && typeof (x as { id?: unknown }).id === 'number');
    if (!opts.since) {
      yield { records: unify(items), resume: writeResume(mode, page.next) };
      continue;
    }
    const since = opts.since.getTime();
    const fresh = items.filter((x) => (stamp(x)?.getTime() ?? Number.POSITIVE_INFINITY) >= since);
    const reachedOlder = fresh.length < items.length;
    yield { records: unify(fresh), resume: reachedOlder ? null : writeResume(mode, page.next) };
    if (reachedOlder) return;
  }
}

function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    // Trashed tickets are reported; tickets deleted for good are inferred from complete full runs.
    reportsDeletions: false,
    run: (ctx, opts) =>
      changed<GgTicket>(
        ctx,
        o,
        '/api/tickets',
        opts,
        { full: 'created_datetime:asc', incremental: 'updated_datetime:desc' },
        (t) => toDate(t.updated_datetime) ?? toDate(t.created_datetime),
        (items) => items.map((t) => unifyTicket(t, ctx.ids)),
        // Include trashed tickets, so that trashing is seen as a deletion.
        { trashed: true },
      ),
    // Tickets deleted for good (trashed ones are listed, and reported by the runs).
    deletionCheck: idsOf(o, '/api/tickets', ['ticketing.ticket'], { trashed: true }),
  };
}

/** Gorgias lists have no field selection: creation order, pages of up to 100, ids kept. */
function idsOf(o: ResolvedOptions, path: string, objectTypes: string[], query: Query = {}): DeletionCheck {
  return {
    objectTypes,
    async *listIds(ctx, opts) {
      for await (const page of pagesFrom<{ id?: unknown }>(ctx, path, o, { ...BY_CREATION, ...query }, readResume(opts.resume, 'full'))) {
        yield { remoteIds: page.items.filter((x) => x && typeof x.id === 'number').map((x) => String(x.id)), resume: writeResume('full', page.next) };
      }
    },
  };
}

function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    run: (ctx, opts) =>
      changed<GgMessage>(
        ctx,
        o,
        '/api/messages',
        opts,
        { full: 'created_datetime:asc', incremental: 'created_datetime:desc' },
        (m) => toDate(m.created_datetime) ?? toDate(m.sent_datetime),
        (items) =>
          items.flatMap((m) => {
            const u = unifyMessage(m, ctx.ids);
            return [u.comment, ...u.attachments];
          }),
      ),
    deletionCheck: idsOf(o, '/api/messages', ['ticketing.comment']),
  };
}

export function gorgiasSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    listSyncer<GgTeam>(o, 'ticketing.team', '/api/teams', unifyTeam, BY_CREATION),
    usersSyncer(o),
    listSyncer<GgCustomer>(o, 'ticketing.contact', '/api/customers', unifyCustomer),
    listSyncer<GgTag>(o, 'ticketing.tag', '/api/tags', unifyTag, BY_CREATION),
    ticketsSyncer(o),
    commentsSyncer(o),
  ];
}
