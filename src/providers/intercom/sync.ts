/**
 * Intercom syncers, in dependency order: teams, admins (users), companies (accounts), contacts, tags,
 * tickets, then ticket parts (comments) with their attachments.
 *
 * Tickets: `POST /tickets/search` for `updated_at > since` (0 for a full run; Intercom matches by day, so the
 * search reaches two days further back and earlier changes are dropped here), cursor pages. Intercom
 * deletes tickets for good (no trash), so deletions are found by the deletion check (the same search,
 * ids kept) and by complete full runs. Comments: the parts of each ticket the search yields
 * (`GET /tickets/{id}`): a reply or note updates its ticket. Admins, teams and tags come whole in one
 * answer; contacts (cursor) and companies (the Scroll API, `GET /companies/scroll`: List all companies leaves
 * out companies without users and stops at 10,000) are listed in full; a company a full run did not list is
 * asked for alone before it is marked deleted.
 */
import { AppError } from '../../core/errors';
import { existsAt } from '../deletion-check';
import { ProviderError } from '../http-client';
import type { AdapterContext, DeletionCheck, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../types';
import { cursorPages, searchTickets, type ResolvedOptions } from './api';
import { isCommentPart, unifyAdmin, unifyCompany, unifyContact, unifyPart, unifyTag, unifyTeam, unifyTicket } from './mappers';
import type { IcAdmin, IcCompany, IcContact, IcTag, IcTeam, IcTicket } from './types';
import { PROVIDER, toEpochSeconds } from './util';

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

/** The first error code of an Intercom error answer (`{"type": "error.list", "errors": [{"code"}]}`). */
function errorCode(err: unknown): string | undefined {
  const body = err instanceof ProviderError ? (err.providerBody as { errors?: Array<{ code?: unknown }> } | undefined) : undefined;
  const code = Array.isArray(body?.errors) ? body.errors[0]?.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Times a run starts its scroll over (expired, or broken: 500 "Please restart the scroll operation"). */
const SCROLL_RESTARTS = 3;

/**
 * Companies through the Scroll API (`GET /companies/scroll`, then `?scroll_param=` of each answer until `data` is
 * empty): List all companies leaves out companies without users and stops at 10,000, so it is never the whole
 * list (API 2.14 reference, listAllCompanies). Intercom's rules (scrollOverAllCompanies, 2.14 and 2.17):
 * - one scroll per app at a time: a second is refused 400 `scroll_exists`. Another connection to the same
 *   workspace (or a run of ours cut short) holds it until it has gone unused for a minute: the run waits that
 *   out (a rate-limit wait, resumed by the sync engine), it does not fail;
 * - a scroll unused for a minute expires (404 `not_found` on its scroll_param): a saved position that old starts
 *   the scroll over ("it is not possible to continue from a specific point");
 * - a 500 "Please restart the scroll operation" also starts it over (at most three restarts a run).
 * Companies listed twice by a restart are saved twice, harmlessly.
 */
function companiesSyncer(): ObjectSyncer {
  return {
    key: 'ticketing.account',
    objectTypes: ['ticketing.account'],
    incremental: false,
    reportsDeletions: false,
    async *run(ctx, opts) {
      let param: string | undefined = opts.resume || undefined;
      let restarts = 0;
      for (;;) {
        let res: { data: { data?: IcCompany[]; scroll_param?: string | null } };
        try {
          res = await ctx.http.get<{ data?: IcCompany[]; scroll_param?: string | null }>('/companies/scroll', { query: { scroll_param: param } });
        } catch (err) {
          const status = err instanceof ProviderError ? err.providerStatus : undefined;
          // expired (404 on its scroll_param) or broken (500): only a new scroll goes on
          if (((param && status === 404) || status === 500) && restarts < SCROLL_RESTARTS) {
            restarts++;
            param = undefined;
            continue;
          }
          if (status === 400 && errorCode(err) === 'scroll_exists') {
            throw new AppError(
              'provider_rate_limited',
              'intercom has another company scroll open for this workspace (one per app); it expires a minute after its last use',
              { provider: PROVIDER, provider_status: 400, provider_message: (err as ProviderError).providerMessage },
              { 'retry-after': '61' },
            );
          }
          throw err;
        }
        const items = (res.data?.data ?? []).filter((c) => c && typeof c.id === 'string');
        const next = typeof res.data?.scroll_param === 'string' && res.data.scroll_param ? res.data.scroll_param : null;
        // The end of the scroll is an empty page (its scroll_param then expires).
        const more = items.length > 0 && next !== null;
        yield { records: items.map(unifyCompany), resume: more ? next : null };
        if (!more) return;
        param = next!;
      }
    },
    // A company a full run did not list (deleted meanwhile, or a restart missed it) is asked for alone (404: gone).
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
  let pos: Pos = readPos(opts.resume, m) ?? { m, s: opts.since ? toEpochSeconds(opts.since) : 0, c: null };
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
    companiesSyncer(),
    contactsSyncer(o),
    wholeList<IcTag>('ticketing.tag', '/tags', 'data', (_ctx, t) => unifyTag(t)),
    ticketsSyncer(o),
    commentsSyncer(o),
  ];
}
