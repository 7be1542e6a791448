/**
 * __Display__ sync streams, in dependency order: users, tickets, then the comments of the tickets a run lists.
 * Tickets are listed by `updated_since` (ascending `updated_at`) for incremental runs; a full run lists them
 * all and marks the stored ones it did not see deleted; the deletion check lists their ids between full runs.
 * The resume position is the next page number. TODO(new-provider): the listings the reference documents.
 */
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, SyncOptions } from '../types';
import { isNotFound } from '../kit';
import { listPages, type Query, type ResolvedOptions } from './api';
import { unifyComment, unifyTicket, unifyUser } from './mappers';
import type { __Pascal__Comment, __Pascal__Ticket, __Pascal__User } from './types';

const firstPage = (resume: string | undefined) => (Number.isInteger(Number(resume)) && Number(resume) > 1 ? Number(resume) : 1);
const ticketQuery = (opts: SyncOptions): Query => ({ updated_since: opts.since?.toISOString(), sort: 'updated_at' });

function usersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of listPages<__Pascal__User>(ctx, '/api/v1/users', o, firstPage(opts.resume))) {
        yield { records: page.items.map(unifyUser), resume: page.more ? String(page.page + 1) : null };
      }
    },
  };
}

function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const page of listPages<__Pascal__Ticket>(ctx, '/api/v1/tickets', o, firstPage(opts.resume), ticketQuery(opts))) {
        yield { records: page.items.map((t) => unifyTicket(t, ctx.ids)), resume: page.more ? String(page.page + 1) : null };
      }
    },
    deletionCheck: ticketIds(o),
  };
}

function ticketIds(o: ResolvedOptions): DeletionCheck {
  return {
    objectTypes: ['ticketing.ticket'],
    async *listIds(ctx, opts) {
      for await (const page of listPages<__Pascal__Ticket>(ctx, '/api/v1/tickets', o, firstPage(opts.resume))) {
        yield { remoteIds: page.items.map((t) => String(t.id)), resume: page.more ? String(page.page + 1) : null };
      }
    },
  };
}

/** Every comment of one ticket; none when the ticket is gone meanwhile. */
async function commentsOf(ctx: AdapterContext, o: ResolvedOptions, ticketId: number): Promise<__Pascal__Comment[]> {
  const out: __Pascal__Comment[] = [];
  try {
    for await (const page of listPages<__Pascal__Comment>(ctx, `/api/v1/tickets/${ticketId}/comments`, o)) out.push(...page.items);
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  return out;
}

function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts) {
      // A comment updates its ticket: the comments of the tickets this run lists are every changed comment.
      for await (const page of listPages<__Pascal__Ticket>(ctx, '/api/v1/tickets', o, firstPage(opts.resume), ticketQuery(opts))) {
        const records = [];
        for (const t of page.items) records.push(...(await commentsOf(ctx, o, t.id)).map((c) => unifyComment(c, ctx.ids, String(t.id))));
        yield {
          records,
          resume: page.more ? String(page.page + 1) : null,
          completeChildren: { objectType: 'ticketing.comment', parents: page.items.map((t) => ({ objectType: 'ticketing.ticket', remoteId: String(t.id) })) },
        };
      }
    },
  };
}

export function __camel__Syncers(o: ResolvedOptions): ObjectSyncer[] {
  return [usersSyncer(o), ticketsSyncer(o), commentsSyncer(o)];
}
