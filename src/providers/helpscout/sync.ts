/**
 * Help Scout syncers, in dependency order: teams, users (with their teams), mailboxes (collections), tags,
 * customers (contacts), then conversations (tickets) with their threads (comments) and attachments.
 *
 * Conversations: `GET /v2/conversations?status=all&embed=threads`, then the same with `status=spam`, ordered by creation (`sortField=createdAt`,
 * ascending), with `modifiedSince` on incremental runs. A conversation changed while a run pages keeps its place in
 * that order (ordering by modification would move it to the end and shift the pages after it, skipping one), so a
 * complete run reads every conversation that matched when it started. Threads come embedded, so every thread of
 * each listed conversation is listed: threads of those conversations that are gone were deleted.
 *
 * Help Scout lists no deleted conversations: the deletion check (every conversation id) and full runs find them;
 * a full run confirms each unlisted conversation with `GET /v2/conversations/{id}` before marking it deleted.
 *
 * Customers sync incrementally (`modifiedSince`, `sortField=modifiedAt`); users, teams, mailboxes and tags are
 * listed in full every run.
 */
import { existsAt } from '../deletion-check';
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, UnifiedRecord, UnlistedObject } from '../types';
import { getPage, listPages, type Query } from './api';
import { unifyCustomer, unifyMailbox, unifyTag, unifyTeam, unifyUser } from './directory.mapper';
import { commentThreads, unifyConversation, unifyThread } from './ticket.mapper';
import type { HsConversation, HsCustomer, HsMailbox, HsTag, HsTeam, HsUser } from './types';
import { isoSeconds } from './util';

const startPage = (resume: string | undefined) => {
  const n = Number(resume);
  return Number.isInteger(n) && n > 1 ? n : 1;
};

/** A HAL list read in full every run; the resume position is the next page. */
function listSyncer<T extends { id: number }>(key: string, path: string, name: string, unify: (ctx: AdapterContext, x: T) => UnifiedRecord): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      for await (const page of listPages<T>(ctx, path, name, { page: startPage(opts.resume) })) {
        yield { records: page.items.map((x) => unify(ctx, x)), resume: page.more ? String(page.page + 1) : null };
      }
    },
  };
}

function usersSyncer(): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      // Team members (`GET /v2/teams/{id}/members`): a user's teams.
      const teamsOf = new Map<number, number[]>();
      for await (const page of listPages<HsTeam>(ctx, '/v2/teams', 'teams')) {
        for (const team of page.items) {
          for await (const members of listPages<HsUser>(ctx, `/v2/teams/${team.id}/members`, 'users')) {
            for (const u of members.items) teamsOf.set(u.id, [...(teamsOf.get(u.id) ?? []), team.id]);
          }
        }
      }
      for await (const page of listPages<HsUser>(ctx, '/v2/users', 'users', { page: startPage(opts.resume) })) {
        yield { records: page.items.map((u) => unifyUser(u, ctx.ids, teamsOf.get(u.id) ?? [])), resume: page.more ? String(page.page + 1) : null };
      }
    },
  };
}

function customersSyncer(): ObjectSyncer {
  return {
    key: 'ticketing.contact',
    objectTypes: ['ticketing.contact'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts) {
      const query: Query = { sortField: 'modifiedAt', sortOrder: 'asc', modifiedSince: opts.since ? isoSeconds(opts.since) : undefined };
      for await (const page of listPages<HsCustomer>(ctx, '/v2/customers', 'customers', { query, page: startPage(opts.resume) })) {
        yield { records: page.items.map(unifyCustomer), resume: page.more ? String(page.page + 1) : null };
      }
    },
  };
}

/**
 * `status=all` may leave spam out (the reference names spam beside all), so each walk lists `all`, then `spam`; a
 * position is `<status>:<page>`.
 */
const STATUSES = ['all', 'spam'] as const;

function readWalkPos(resume: string | undefined): { s: number; page: number } {
  const m = /^(all|spam):(\d+)$/.exec(resume ?? '');
  return m ? { s: STATUSES.indexOf(m[1] as (typeof STATUSES)[number]), page: Math.max(1, Number(m[2])) } : { s: 0, page: 1 };
}

/** Every page of the conversation listings (all, then spam), with the position after each. */
async function* walkConversations(ctx: AdapterContext, query: Query, resume: string | undefined): AsyncGenerator<{ items: HsConversation[]; resume: string | null }> {
  const start = readWalkPos(resume);
  for (let s = start.s; s < STATUSES.length; s++) {
    for (let page = s === start.s ? start.page : 1; ; page++) {
      const p = await getPage<HsConversation>(ctx, '/v2/conversations', 'conversations', page, { ...query, status: STATUSES[s] });
      const next = p.more ? `${STATUSES[s]}:${page + 1}` : s + 1 < STATUSES.length ? `${STATUSES[s + 1]}:1` : null;
      yield { items: p.items, resume: next };
      if (!p.more) break;
    }
  }
}

const conversationQuery = (since: Date | undefined, threads: boolean): Query => ({
  sortField: 'createdAt',
  sortOrder: 'asc',
  modifiedSince: since ? isoSeconds(since) : undefined,
  embed: threads ? 'threads' : undefined,
});

function conversationsSyncer(): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket', 'ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of walkConversations(ctx, conversationQuery(opts.since, true), opts.resume)) {
        const records: UnifiedRecord[] = [];
        for (const c of page.items) {
          records.push(unifyConversation(c, ctx.ids));
          for (const t of commentThreads(c)) {
            const u = unifyThread(t, c.id, ctx.ids);
            records.push(u.comment, ...u.attachments);
          }
        }
        yield {
          records,
          resume: page.resume,
          completeChildren: { objectType: 'ticketing.comment', parents: page.items.map((c) => ({ objectType: 'ticketing.ticket', remoteId: String(c.id) })) },
        };
      }
    },
    deletionCheck: conversationIds(),
    stillExists: conversationStillExists(),
  };
}

/**
 * Whether an object a full run did not list still exists. A conversation is asked for alone (once a run); a
 * thread (comment, attachment) exists while its conversation does: the next run that lists the conversation
 * settles its threads (`completeChildren`). Without a stored conversation, the listing decides.
 */
function conversationStillExists(): (ctx: AdapterContext, object: UnlistedObject) => Promise<boolean> {
  const asked = new WeakMap<AdapterContext, Map<string, Promise<boolean>>>();
  return (ctx, object) => {
    const id = object.objectType === 'ticketing.ticket' ? object.remoteId : object.parents?.find((p) => p.objectType === 'ticketing.ticket')?.remoteId;
    if (id === undefined) return Promise.resolve(false);
    let run = asked.get(ctx);
    if (!run) asked.set(ctx, (run = new Map()));
    let exists = run.get(id);
    if (!exists) run.set(id, (exists = existsAt(ctx, `/v2/conversations/${id}`)));
    return exists;
  };
}

/** Every conversation id (the listing without threads). */
function conversationIds(): DeletionCheck {
  return {
    objectTypes: ['ticketing.ticket'],
    async *listIds(ctx, opts) {
      for await (const step of walkConversations(ctx, conversationQuery(undefined, false), opts.resume)) {
        yield { remoteIds: step.items.map((c) => String(c.id)), resume: step.resume };
      }
    },
  };
}

export function helpscoutSyncers(): ObjectSyncer[] {
  return [
    listSyncer<HsTeam>('ticketing.team', '/v2/teams', 'teams', (_ctx, t) => unifyTeam(t)),
    usersSyncer(),
    listSyncer<HsMailbox>('ticketing.collection', '/v2/mailboxes', 'mailboxes', (_ctx, m) => unifyMailbox(m)),
    listSyncer<HsTag>('ticketing.tag', '/v2/tags', 'tags', (_ctx, t) => unifyTag(t)),
    customersSyncer(),
    conversationsSyncer(),
  ];
}
