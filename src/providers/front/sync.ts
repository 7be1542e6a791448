/**
 * Front syncers, in dependency order: collections (inboxes), teams, users (teammates), accounts,
 * contacts, tags, then tickets (conversations) with their comments (messages and comments) and
 * attachments in one stream — each conversation is read with its inboxes, comments and messages, which
 * the ticket needs anyway (collection, description).
 */
import { mapAhead } from '../../core/read-ahead';
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, UnifiedRecord, UnlistedObject } from '../types';
import { isGone, isStatus, listAll, pages, type ListPage, type Query, type ResolvedOptions } from './api';
import { unifyAccount, unifyContact } from './contact.mapper';
import { conversationDetails, unifyWithDetails } from './conversations';
import { unifyInbox, unifyTag, unifyTeam } from './directory.mapper';
import type { FrAccount, FrContact, FrConversation, FrEvent, FrInbox, FrTag, FrTeam, FrTeammate, FrTeamPreview } from './types';
import { unifyTeammate } from './user.mapper';
import { seg } from './util';

/** A full listing (`_pagination.next` when Front paginates it); `resume` is the next page token. */
function listSyncer<T>(key: string, path: string, query: Query, unify: (item: T) => UnifiedRecord): ObjectSyncer {
  return {
    key,
    objectTypes: [key],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      for await (const page of pages<T>(ctx, path, { query, pageToken: opts.resume })) {
        yield { records: page.items.map(unify), resume: page.next };
      }
    },
  };
}

/** Teammates, with the teams each belongs to (`GET /teams/{id}` lists a team's members). */
function usersSyncer(): ObjectSyncer {
  return {
    key: 'ticketing.user',
    objectTypes: ['ticketing.user'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const teams = await listAll<FrTeamPreview>(ctx, '/teams');
      const details = await Promise.all(teams.map((t) => ctx.http.get<FrTeam>(`/teams/${seg(t.id)}`).then((r) => r.data)));
      const membership = new Map<string, string[]>();
      for (const team of details) {
        for (const m of team?.members ?? []) {
          if (!m?.id) continue;
          membership.set(m.id, [...(membership.get(m.id) ?? []), team.id]);
        }
      }
      for await (const page of pages<FrTeammate>(ctx, '/teammates', { pageToken: opts.resume })) {
        yield { records: page.items.map((t) => unifyTeammate(t, ctx.ids, membership.get(t.id) ?? [])), resume: page.next };
      }
    },
  };
}

/** Contact → its account: Front lists the contacts of each account (`GET /accounts/{id}/contacts`). */
async function accountsOfContacts(ctx: AdapterContext, o: ResolvedOptions): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  const accounts = await listAll<FrAccount>(ctx, '/accounts', { limit: o.pageSize });
  await Promise.all(
    accounts.map(async (a) => {
      try {
        for (const c of await listAll<FrContact>(ctx, `/accounts/${seg(a.id)}/contacts`, { limit: o.pageSize })) {
          if (c?.id && !map.has(c.id)) map.set(c.id, a.id);
        }
      } catch (err) {
        if (!isGone(err)) throw err;
      }
    }),
  );
  return map;
}

/** Contacts, incremental with `q[updated_after]` (Unix seconds), oldest change first. */
function contactsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.contact',
    objectTypes: ['ticketing.contact'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const accountOf = await accountsOfContacts(ctx, o);
      const query: Query = { limit: o.pageSize, sort_by: 'updated_at', sort_order: 'asc' };
      if (opts.since) query['q[updated_after]'] = opts.since.getTime() / 1000;
      for await (const page of pages<FrContact>(ctx, '/contacts', { query, pageToken: opts.resume })) {
        yield { records: page.items.map((c) => unifyContact(c, ctx.ids, accountOf.get(c.id))), resume: page.next };
      }
    },
    deletionCheck: idsOf('/contacts', ['ticketing.contact'], 100),
  };
}

/** Front lists have no field selection: the plain list, in its largest pages (100), ids kept. */
function idsOf(path: string, objectTypes: string[], limit: number): DeletionCheck {
  return {
    objectTypes,
    async *listIds(ctx, opts) {
      for await (const page of pages<{ id?: unknown }>(ctx, path, { query: { limit }, pageToken: opts.resume })) {
        yield { remoteIds: idsIn(page.items), resume: page.next };
      }
    },
  };
}

interface IdsResume {
  /** `walk`: the whole list; `head`: the list again from the top, for conversations bumped during the walk. */
  phase: 'walk' | 'head';
  token: string | null;
  /** When the walk began (seconds), less a margin for clock skew between Front and Omniport. */
  since: number;
}

/**
 * The conversations' deletion check: every conversation id the list gives, then the top of the list again.
 * The list is ordered by last activity, newest first, so one that gets a message while the check pages
 * moves onto a page already read and the walk misses it. Everything bumped since the walk began has been
 * updated since then too, so reading the top again down to the first conversation last updated before the
 * walk began lists every conversation the walk missed (the same bound as the incremental run's).
 */
function conversationIds(limit: number): DeletionCheck {
  return {
    objectTypes: ['ticketing.ticket'],
    async *listIds(ctx, opts) {
      let pos = idsResume(opts.resume);
      if (pos.phase === 'walk') {
        for await (const page of pages<FrConversation>(ctx, '/conversations', { query: { limit }, pageToken: pos.token })) {
          const next: IdsResume = page.next ? { ...pos, token: page.next } : { phase: 'head', token: null, since: pos.since };
          yield { remoteIds: idsIn(page.items), resume: JSON.stringify(next) };
          pos = next;
          if (!page.next) break;
        }
      }
      for await (const page of pages<FrConversation>(ctx, '/conversations', { query: { limit }, pageToken: pos.token })) {
        const cut = page.items.findIndex((c) => c && (changedAt(c) ?? Infinity) < pos.since);
        const done = cut >= 0 || !page.next;
        yield { remoteIds: idsIn(cut >= 0 ? page.items.slice(0, cut) : page.items), resume: done ? null : JSON.stringify({ ...pos, token: page.next }) };
        if (done) return;
      }
    },
  };
}

const idsIn = (items: { id?: unknown }[]) => items.filter((x) => x && typeof x.id === 'string').map((x) => x.id as string);

function idsResume(resume: string | undefined): IdsResume {
  const fresh: IdsResume = { phase: 'walk', token: null, since: Math.floor(Date.now() / 1000) - 300 };
  if (!resume) return fresh;
  try {
    const r = JSON.parse(resume) as Partial<IdsResume>;
    if ((r.phase === 'walk' || r.phase === 'head') && typeof r.since === 'number') return { phase: r.phase, token: typeof r.token === 'string' ? r.token : null, since: r.since };
  } catch {
    // A check resumed across an upgrade (a bare page token): walk on, and read the top again to the end.
  }
  return { phase: 'walk', token: resume, since: 0 };
}

interface TicketResume {
  /** `list`: the conversation list (newest activity first); `events`: the event feed since `since`. */
  phase: 'list' | 'events';
  token: string | null;
}

function parseResume(resume: string | undefined): TicketResume {
  if (!resume) return { phase: 'list', token: null };
  try {
    const r = JSON.parse(resume) as Partial<TicketResume>;
    return { phase: r.phase === 'events' ? 'events' : 'list', token: typeof r.token === 'string' ? r.token : null };
  } catch {
    return { phase: 'list', token: null };
  }
}

const changedAt = (c: FrConversation) => (typeof c.updated_at === 'number' ? c.updated_at : typeof c.created_at === 'number' ? c.created_at : undefined);

/** The records of conversations: each read with its inboxes, comments and messages (concurrently, bounded by the client). */
async function recordsOf(ctx: AdapterContext, conversations: FrConversation[], o: ResolvedOptions): Promise<UnifiedRecord[]> {
  const loaded = await Promise.all(conversations.map(async (c) => unifyWithDetails(c, await conversationDetails(ctx, c.id, o), ctx)));
  return loaded.flat();
}

/**
 * The conversation list's pages, newest activity first; an incremental run (`since`) stops at the first
 * conversation last updated before `since`. `resume` is where a run goes on after the page: the next page,
 * then (incremental runs) the event feed.
 */
async function* conversationPages(
  ctx: AdapterContext,
  o: ResolvedOptions,
  since: number | undefined,
  token: string | null,
): AsyncGenerator<{ items: FrConversation[]; resume: string | null }> {
  for await (const page of pages<FrConversation>(ctx, '/conversations', { query: { limit: o.conversationPageSize }, pageToken: token })) {
    let items = page.items.filter((c) => c && typeof c.id === 'string');
    let reachedOlder = false;
    if (since !== undefined) {
      const cut = items.findIndex((c) => (changedAt(c) ?? Infinity) < since);
      if (cut >= 0) {
        reachedOlder = true;
        items = items.slice(0, cut);
      }
    }
    const done = reachedOlder || page.next === null;
    const next: TicketResume = done ? { phase: 'events', token: null } : { phase: 'list', token: page.next };
    yield { items, resume: since !== undefined || !done ? JSON.stringify(next) : null };
    if (done) return;
  }
}

/**
 * Tickets, comments and attachments.
 *
 * Full run: every conversation `GET /conversations` lists (Front leaves trashed ones out, so a complete
 * full run marks them deleted, once `stillExists` confirms it: the list moves while a run pages).
 *
 * Incremental run (`since`): first the conversation list, newest activity first, until a conversation
 * last updated before `since` (Front orders by the activity that bumps a conversation, which never comes
 * after its `updated_at`); then the event feed since `since` (`GET /events?q[after]=…`), for changes that
 * do not bump a conversation (tags, assignment, status, custom fields, trash), each changed conversation
 * read once. A trashed conversation comes back with status `deleted` and is reported deleted. Without the
 * events scope (403) the feed is skipped.
 */
function ticketsSyncer(o: ResolvedOptions): ObjectSyncer {
  return {
    key: 'ticketing.ticket',
    objectTypes: ['ticketing.ticket', 'ticketing.comment', 'ticketing.attachment'],
    incremental: true,
    reportsDeletions: false,
    async *run(ctx, opts): AsyncIterable<SyncBatch> {
      const since = opts.since ? opts.since.getTime() / 1000 : undefined;
      let state = parseResume(opts.resume);
      const seen = new Set<string>();

      if (state.phase === 'list') {
        // Each page's conversations are read with their details while the next page is listed and read.
        const listed = conversationPages(ctx, o, since, state.token);
        yield* mapAhead(listed, async (page) => {
          for (const c of page.items) seen.add(c.id);
          return { records: await recordsOf(ctx, page.items, o), resume: page.resume };
        });
        state = { phase: 'events', token: null };
      }

      if (since === undefined || !o.useEvents) return;
      const query: Query = { 'q[after]': since, sort_by: 'created_at', sort_order: 'asc', limit: o.eventPageSize };
      const feed = pages<FrEvent>(ctx, '/events', { query, pageToken: state.token })[Symbol.asyncIterator]();
      for (;;) {
        let step: IteratorResult<ListPage<FrEvent>>;
        try {
          step = await feed.next();
        } catch (err) {
          // An API token without the events scope: the conversation list above is all this run can see.
          if (isStatus(err, 403)) return;
          throw err;
        }
        if (step.done) return;
        const page = step.value;
        const changed = new Map<string, FrConversation>();
        for (const e of page.items) {
          const c = e?.conversation;
          if (c && typeof c.id === 'string' && !seen.has(c.id)) changed.set(c.id, c);
        }
        const current = await Promise.all(
          [...changed.values()].map(async (fromEvent): Promise<FrConversation | null> => {
            seen.add(fromEvent.id);
            try {
              return (await ctx.http.get<FrConversation>(`/conversations/${seg(fromEvent.id)}`)).data;
            } catch (err) {
              // Deleted for good (or merged away): the event's copy, reported deleted.
              if (isGone(err)) return { ...fromEvent, status: 'deleted' } as FrConversation;
              // Out of the token's reach (a private inbox): not this connection's to sync.
              if (isStatus(err, 403)) return null;
              throw err;
            }
          }),
        );
        const resume = page.next ? JSON.stringify({ phase: 'events', token: page.next } satisfies TicketResume) : null;
        yield { records: await recordsOf(ctx, current.filter((c): c is FrConversation => c !== null), o), resume };
      }
    },
    // The event feed shows conversations trashed, not those deleted for good (nor their comments).
    deletionCheck: conversationIds(o.pageSize),
    stillExists: stillExists(o),
  };
}

/**
 * Whether a ticket, comment or attachment a full run did not list still exists. The conversation list is
 * ordered by last activity, newest first: a conversation that gets a message while a run pages moves onto
 * a page already read, and the run lists neither it nor its comments and attachments. Each conversation is
 * asked for once a run (`GET /conversations/{id}`: gone when 404/301, trashed or out of the token's reach,
 * as the list would leave it out); a comment or attachment exists when its conversation does and lists it
 * (the conversation's messages and comments, read once a run for all its children).
 */
function stillExists(o: ResolvedOptions): (ctx: AdapterContext, object: UnlistedObject) => Promise<boolean> {
  // Per run: the engine builds a context for each run, so nothing outlives it.
  const asked = new WeakMap<AdapterContext, Map<string, { conversation: Promise<FrConversation | null>; listed?: Promise<Set<string>> }>>();
  return async (ctx, object) => {
    const conversationId = object.objectType === 'ticketing.ticket' ? object.remoteId : object.parents?.find((p) => p.objectType === 'ticketing.ticket')?.remoteId;
    // A comment or attachment stored without its ticket cannot be asked about: the listing decides, as before.
    if (!conversationId) return false;
    let perRun = asked.get(ctx);
    if (!perRun) asked.set(ctx, (perRun = new Map()));
    let entry = perRun.get(conversationId);
    if (!entry) perRun.set(conversationId, (entry = { conversation: currentConversation(ctx, conversationId) }));
    const conversation = await entry.conversation;
    if (!conversation) return false;
    if (object.objectType === 'ticketing.ticket') return true;
    entry.listed ??= conversationDetails(ctx, conversationId, o).then(
      (d) => new Set(d ? unifyWithDetails(conversation, d, ctx).map((r) => `${r.objectType}:${r.remoteId}`) : []),
    );
    return (await entry.listed).has(`${object.objectType}:${object.remoteId}`);
  };
}

/** The conversation as Front answers it now; null when gone (404, 301 after a merge), trashed, or out of the token's reach (403). */
async function currentConversation(ctx: AdapterContext, id: string): Promise<FrConversation | null> {
  try {
    const c = (await ctx.http.get<FrConversation>(`/conversations/${seg(id)}`)).data;
    return c && c.status !== 'deleted' ? c : null;
  } catch (err) {
    if (isGone(err) || isStatus(err, 403)) return null;
    throw err;
  }
}

export function frontSyncers(o: ResolvedOptions): ObjectSyncer[] {
  return [
    listSyncer<FrInbox>('ticketing.collection', '/inboxes', {}, unifyInbox),
    listSyncer<FrTeamPreview>('ticketing.team', '/teams', {}, unifyTeam),
    usersSyncer(),
    listSyncer<FrAccount>('ticketing.account', '/accounts', { limit: o.pageSize }, unifyAccount),
    contactsSyncer(o),
    listSyncer<FrTag>('ticketing.tag', '/tags', { limit: o.pageSize }, unifyTag),
    ticketsSyncer(o),
  ];
}
