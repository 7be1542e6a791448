/**
 * Zendesk syncers, in dependency order: accounts (organizations), teams (groups), users and contacts,
 * tags, tickets, then comments with their attachments. Each yields one batch per provider page.
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { cursorPages, exportPages, exportStartTime, isNotFound, rolesFromSideload, type ResolvedOptions } from './api';
import { unifyComment } from './comment.mapper';
import { unifyGroup } from './group.mapper';
import { unifyOrganization } from './organization.mapper';
import { unifyTag } from './tag.mapper';
import { unifyTicket } from './ticket.mapper';
import type { ZdComment, ZdGroup, ZdMetricSet, ZdOrganization, ZdRole, ZdTag, ZdTicket, ZdUser } from './types';
import { unifyUser } from './user.mapper';

/** A full listing with cursor pagination (`page[size]`, `page[after]`); `resume` is the after-cursor. */
function listSyncer<T>(
  o: ResolvedOptions,
  key: string,
  path: string,
  member: string,
  unify: (item: T) => UnifiedRecord,
): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of cursorPages<T>(ctx, path, member, { pageSize: o.listPageSize, after: opts.resume })) {
        yield { records: page.items.map(unify), resume: page.after };
      }
    },
  };
}

/** Users (agents, admins → ticketing.user; end-users → ticketing.contact) from the incremental user export. */
function usersSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.user', 'ticketing.contact'],
    incremental: true,
    // Deleted users stay in the export with active: false.
    reportsDeletions: true,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const pages = exportPages<ZdUser>(ctx, 'users', {
        startTime: exportStartTime(opts.since, o.exportLagSeconds),
        cursor: opts.resume,
        perPage: o.exportPageSize,
      });
      for await (const page of pages) {
        const records = page.items.filter((u): u is ZdUser & { id: number } => typeof u?.id === 'number').map((u) => unifyUser(u, ctx.ids));
        yield { records, resume: page.after };
      }
    },
  };
}

/** Tickets from the cursor-based incremental ticket export; soft-deleted tickets come with `deleted: true`. */
function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket'],
    incremental: true,
    reportsDeletions: true,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const pages = exportPages<ZdTicket>(ctx, 'tickets', {
        startTime: exportStartTime(opts.since, o.exportLagSeconds),
        cursor: opts.resume,
        perPage: o.exportPageSize,
        // Requester roles (contact or not) and solved times.
        query: { include: 'users,metric_sets' },
      });
      for await (const page of pages) {
        const roles = rolesFromSideload(page.body);
        const solved = new Map<number, string | null | undefined>();
        const metricSets = Array.isArray(page.body.metric_sets) ? (page.body.metric_sets as ZdMetricSet[]) : [];
        for (const m of metricSets) if (m && typeof m.ticket_id === 'number') solved.set(m.ticket_id, m.solved_at);
        const records = page.items.map((t) => unifyTicket(t, ctx.ids, { roleOf: (id) => roles.get(id), solvedAt: solved.get(t.id) }));
        yield { records, resume: page.after };
      }
    },
  };
}

/** Every comment of one ticket (cursor pagination, authors sideloaded); empty when the ticket is gone. */
async function ticketComments(ctx: AdapterContext, ticketId: number, pageSize: number): Promise<{ comments: ZdComment[]; roles: Map<number, ZdRole> }> {
  const comments: ZdComment[] = [];
  const roles = new Map<number, ZdRole>();
  try {
    for await (const page of cursorPages<ZdComment>(ctx, `/api/v2/tickets/${ticketId}/comments`, 'comments', { pageSize, query: { include: 'users' } })) {
      comments.push(...page.items);
      rolesFromSideload(page.body, roles);
    }
  } catch (err) {
    // Deleted (or archived out of reach) between the export and this call: its comments go with it.
    if (isNotFound(err)) return { comments: [], roles };
    throw err;
  }
  return { comments, roles };
}

/**
 * Comments and attachments of the tickets changed since `since` (all tickets on a full run): the
 * ticket export gives the changed tickets page by page, then each ticket's comments are listed with
 * cursor pagination — concurrently, bounded by the connection's client.
 */
function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const pages = exportPages<ZdTicket>(ctx, 'tickets', {
        startTime: exportStartTime(opts.since, o.exportLagSeconds),
        cursor: opts.resume,
        perPage: o.commentTicketsPerBatch,
        query: { exclude_deleted: true },
      });
      for await (const page of pages) {
        const tickets = [...new Set(page.items.filter((t) => t && t.status !== 'deleted').map((t) => t.id))];
        const perTicket = await Promise.all(tickets.map((id) => ticketComments(ctx, id, o.listPageSize)));
        const records: UnifiedRecord[] = [];
        perTicket.forEach(({ comments, roles }, i) => {
          for (const c of comments) {
            const u = unifyComment(c, tickets[i]!, ctx.ids, { roleOf: (id) => roles.get(id) });
            records.push(u.comment, ...u.attachments);
          }
        });
        yield { records, resume: page.after };
      }
    },
  };
}

export function zendeskSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    listSyncer<ZdOrganization>(o, 'ticketing.account', '/api/v2/organizations', 'organizations', unifyOrganization),
    listSyncer<ZdGroup>(o, 'ticketing.team', '/api/v2/groups', 'groups', unifyGroup),
    usersSyncer(o),
    listSyncer<ZdTag>(o, 'ticketing.tag', '/api/v2/tags', 'tags', unifyTag),
    ticketsSyncer(o),
    commentsSyncer(o),
  ];
}
