/**
 * Zendesk syncers, in dependency order: accounts (organizations), teams (groups), users and contacts,
 * tags, tickets, then comments with their attachments (from the ticket event export). Each yields one
 * batch per provider page.
 */
import type { AdapterContext, ObjectSyncer, SyncBatch, UnifiedRecord } from '../types';
import { cursorPages, deletedTicketIds, exportPages, exportStartTime, lookupRoles, rolesFromSideload, ticketEventPages, type ResolvedOptions } from './api';
import { unifyComment } from './comment.mapper';
import { unifyGroup } from './group.mapper';
import { unifyOrganization } from './organization.mapper';
import { unifyTag } from './tag.mapper';
import { unifyTicket } from './ticket.mapper';
import type { ZdComment, ZdGroup, ZdMetricSet, ZdOrganization, ZdRole, ZdTag, ZdTicket, ZdTicketChildEvent, ZdUser } from './types';
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

/** Sideloads that unify a ticket: requester roles (contact or not) and solved times. */
export const TICKET_SIDELOADS = 'users,metric_sets';

/** Tickets of an answer that carries `TICKET_SIDELOADS`. */
export function unifyTickets(ctx: AdapterContext, tickets: ZdTicket[], body: Record<string, unknown>): UnifiedRecord[] {
  const roles = rolesFromSideload(body);
  const solved = new Map<number, string | null | undefined>();
  const metricSets = Array.isArray(body.metric_sets) ? (body.metric_sets as ZdMetricSet[]) : [];
  for (const m of metricSets) if (m && typeof m.ticket_id === 'number') solved.set(m.ticket_id, m.solved_at);
  return tickets.map((t) => unifyTicket(t, ctx.ids, { roleOf: (id) => roles.get(id), solvedAt: solved.get(t.id) }));
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
        query: { include: TICKET_SIDELOADS },
      });
      for await (const page of pages) yield { records: unifyTickets(ctx, page.items, page.body), resume: page.after };
    },
  };
}

/** Comment child events (`include=comment_events`) carry the comment itself; voice comments too. */
function commentOf(child: ZdTicketChildEvent): ZdComment | undefined {
  const kind = child.event_type ?? child.type;
  if ((kind !== 'Comment' && kind !== 'VoiceComment') || typeof child.id !== 'number') return undefined;
  // Without the sideload a comment is only `comment_present` / `comment_public`: nothing to map.
  if (child.body === undefined && child.html_body === undefined && child.plain_body === undefined) return undefined;
  return child as ZdComment;
}

/** Roles kept across the pages of a run, up to this many authors (then the cache starts again). */
const ROLE_CACHE_LIMIT = 50_000;

/**
 * Comments and attachments from the Incremental Ticket Event Export with the `comment_events`
 * sideload: one call per 1000 ticket events (each comment is one), from `start_time` 0 on a full run,
 * else from `since`. The export has no user sideload, so authors' roles come from
 * `/api/v2/users/show_many` (100 a call) for the authors not met before in the run. Comments of
 * soft-deleted tickets (`/api/v2/deleted_tickets`, read once per run) are left out.
 */
function commentsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.comment',
    objectTypes: ['ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const resume = opts.resume !== undefined && /^\d{1,12}$/.test(opts.resume) ? Number(opts.resume) : undefined;
      const startTime = resume ?? exportStartTime(opts.since, o.exportLagSeconds);
      const deleted = await deletedTicketIds(ctx, o.listPageSize);
      // Authors looked up in this run (found or not), so each is asked for once.
      let roles = new Map<number, ZdRole>();
      let asked = new Set<number>();
      for await (const page of ticketEventPages(ctx, { startTime })) {
        // By comment id: a comment created and redacted within one page is stored once, as it is now.
        const byId = new Map<number, { ticketId: number; comment: ZdComment; at: string | null | undefined }>();
        const redacted = new Map<number, Set<number>>();
        for (const event of page.events) {
          if (typeof event.ticket_id !== 'number' || deleted.has(event.ticket_id) || !Array.isArray(event.child_events)) continue;
          for (const child of event.child_events) {
            if (!child || typeof child !== 'object') continue;
            const comment = commentOf(child);
            if (comment) byId.set(comment.id, { ticketId: event.ticket_id, comment, at: event.created_at });
            if ((child.event_type ?? child.type) === 'CommentRedactionEvent' && typeof child.comment_id === 'number') {
              redacted.set(event.ticket_id, (redacted.get(event.ticket_id) ?? new Set()).add(child.comment_id));
            }
          }
        }
        // A redaction removes text for good and changes no timestamp: the redacted comments are read again.
        for (const [ticketId, ids] of redacted) {
          for await (const list of cursorPages<ZdComment>(ctx, `/api/v2/tickets/${ticketId}/comments`, 'comments', { pageSize: o.listPageSize })) {
            for (const comment of list.items) if (ids.has(comment.id)) byId.set(comment.id, { ticketId, comment, at: comment.created_at });
          }
        }
        const found = [...byId.values()];
        if (asked.size > ROLE_CACHE_LIMIT) [roles, asked] = [new Map(), new Set()];
        const authors = found.map((f) => f.comment.author_id).filter((id): id is number => typeof id === 'number' && !asked.has(id));
        await lookupRoles(ctx, authors, roles);
        for (const id of authors) asked.add(id);
        const records: UnifiedRecord[] = [];
        for (const { ticketId, comment, at } of found) {
          const u = unifyComment(comment, ticketId, ctx.ids, { roleOf: (id) => roles.get(id), createdAt: at });
          records.push(u.comment, ...u.attachments);
        }
        yield { records, resume: String(page.next) };
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
