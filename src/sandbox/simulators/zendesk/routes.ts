/**
 * Request handlers of the Zendesk simulator (see index.ts for the endpoint list).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ChangeFeed, FeedEntry } from './feed';
import { HttpError, paginate, q1, withQuery, type Query } from './pagination';
import { Serializer, iso } from './serialize';
import {
  RecordInvalid,
  RecordNotFound,
  UpdateConflict,
  guessContentType,
  type TicketInput,
  type TicketRecord,
  type UserRecord,
  type ZendeskState,
} from './state';

export interface RequestContext {
  method: string;
  /** Path without `.json` suffix and without query. */
  path: string;
  query: Query;
  /** Parsed JSON body (undefined when none / not JSON). */
  body: unknown;
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
  /** Authenticated user (undefined on public routes). */
  user?: UserRecord;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: { data: Buffer; contentType: string };
}

export interface RouteEnv {
  state: ZendeskState;
  ser: Serializer;
  baseUrl: () => string;
  jobDelayMs: number;
  incrementalLagSeconds: number;
  /** Export pages of this size whatever per_page says (tests of huge pages). */
  exportPageSize?: number;
  schedule: (fn: () => void, ms: number) => void;
}

export interface Route {
  method: string;
  template: string;
  regex: RegExp;
  keys: string[];
  auth: boolean;
  adminOnly: boolean;
  /** The body is raw bytes (uploads): never rejected as malformed JSON. */
  rawBody: boolean;
  handler: (ctx: RequestContext) => HandlerResult | Promise<HandlerResult>;
}

export const notFound = (): HttpError => new HttpError(404, { error: 'RecordNotFound', description: 'Not found' });

export function route(method: string, template: string, handler: Route['handler'], opts: { auth?: boolean; adminOnly?: boolean; rawBody?: boolean } = {}): Route {
  const keys: string[] = [];
  const pattern = template
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        keys.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { method, template, regex: new RegExp(`^${pattern}/?$`), keys, auth: opts.auth ?? true, adminOnly: opts.adminOnly ?? false, rawBody: opts.rawBody ?? false, handler };
}

function intParam(v: string | undefined): number {
  if (!v || !/^\d+$/.test(v)) throw notFound();
  return Number(v);
}

function idList(raw: string | undefined, max = 100): number[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^\d+$/.test(s))
    .slice(0, max)
    .map(Number);
}

function requireObject(body: unknown, key: string): Record<string, unknown> {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    throw new HttpError(400, { error: 'InvalidValue', description: `Expected a JSON object with a "${key}" object` });
  }
  return v as Record<string, unknown>;
}

function recordInvalid(e: RecordInvalid): HttpError {
  return new HttpError(422, { error: 'RecordInvalid', description: 'Record validation errors', details: e.details });
}

function wrapWrite<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RecordInvalid) throw recordInvalid(e);
    if (e instanceof RecordNotFound) throw notFound();
    if (e instanceof UpdateConflict) {
      throw new HttpError(409, { error: 'UpdateConflict', description: e.message });
    }
    throw e;
  }
}

// Incremental-export cursors look like Zendesk's: base64("<unix>.0||<id>|<seq>[|b]").
function encodeFeedCursor(e: { ts: number; id: number; seq: number }, backwards = false): string {
  return Buffer.from(`${Math.floor(e.ts / 1000)}.0||${e.id}|${e.seq}${backwards ? '|b' : ''}`).toString('base64');
}

function decodeFeedCursor(c: string): { seq: number; backwards: boolean } {
  const m = /^\d+\.0\|\|\d+\|(\d+)(\|b)?$/.exec(Buffer.from(c, 'base64').toString('utf8'));
  if (!m) throw new HttpError(400, { error: 'InvalidCursor', description: 'The cursor is invalid' });
  return { seq: Number(m[1]), backwards: !!m[2] };
}

export function createRoutes(env: RouteEnv): Route[] {
  const { state, ser } = env;
  const abs = (p: string) => `${env.baseUrl()}${p}`;
  const idempotentCreates = new Map<string, { fingerprint: string; result: HandlerResult; expiresAt: number }>();

  const liveTicket = (id: number): TicketRecord => {
    const t = state.tickets.get(id);
    if (!t || t.deleted) throw notFound();
    return t;
  };

  const sideload = (include: string | undefined, tickets: TicketRecord[], out: Record<string, unknown>) => {
    if (!include) return;
    const wanted = include.split(',').map((s) => s.trim());
    if (wanted.includes('users')) {
      const ids = new Set<number>();
      for (const t of tickets) for (const id of [t.requester_id, t.submitter_id, t.assignee_id]) if (id) ids.add(id);
      out.users = [...ids].map((id) => state.users.get(id)).filter((u) => !!u).map((u) => ser.user(u!));
    }
    if (wanted.includes('groups')) {
      const ids = new Set(tickets.map((t) => t.group_id).filter((x): x is number => x !== null));
      out.groups = [...ids].map((id) => state.groups.get(id)).filter((g) => !!g).map((g) => ser.group(g!));
    }
    if (wanted.includes('organizations')) {
      const ids = new Set(tickets.map((t) => t.organization_id).filter((x): x is number => x !== null));
      out.organizations = [...ids].map((id) => state.organizations.get(id)).filter((o) => !!o).map((o) => ser.organization(o!));
    }
  };

  // Sorted live-ticket lists, reused until the next ticket write (a sync pages through a stable list).
  const listCache = new Map<string, { version: number; items: TicketRecord[] }>();

  const ticketList = (ctx: RequestContext): HandlerResult => {
    const externalId = q1(ctx.query, 'external_id');
    let sort = q1(ctx.query, 'sort') ?? 'id';
    // Offset pagination uses sort_by/sort_order instead.
    const sortBy = q1(ctx.query, 'sort_by');
    if (!q1(ctx.query, 'sort') && sortBy) sort = `${q1(ctx.query, 'sort_order') === 'desc' ? '-' : ''}${sortBy}`;
    const descending = sort.startsWith('-');
    const field = sort.replace(/^-/, '');
    const keyOf: Record<string, (t: TicketRecord) => [number | string, number]> = {
      id: (t) => [t.id, t.id],
      updated_at: (t) => [t.updated_at, t.id],
      created_at: (t) => [t.created_at, t.id],
      status: (t) => [t.status, t.id],
    };
    const key = keyOf[field];
    if (!key) throw new HttpError(400, { error: 'InvalidPaginationParameter', description: `sort must be one of id, updated_at, created_at, status (optionally prefixed with -)` });
    const cached = externalId === undefined ? listCache.get(sort) : undefined;
    let items: TicketRecord[];
    if (cached && cached.version === state.ticketVersion) items = cached.items;
    else {
      items = [...state.tickets.values()].filter((t) => !t.deleted && (externalId === undefined || t.external_id === externalId));
      if (field !== 'id' || descending) {
        items.sort((a, b) => {
          const ka = key(a);
          const kb = key(b);
          const c = ka[0] < kb[0] ? -1 : ka[0] > kb[0] ? 1 : ka[1] - kb[1];
          return descending ? -c : c;
        });
      }
      if (externalId === undefined) listCache.set(sort, { version: state.ticketVersion, items });
    }
    const { page, members } = paginate({ items, key, descending, sort, query: ctx.query, baseUrl: abs('/api/v2/tickets.json') });
    const body: Record<string, unknown> = { tickets: page.map((t) => ser.ticket(t)), ...members };
    sideload(q1(ctx.query, 'include'), page, body);
    return { status: 200, body, headers: { 'zendesk-ratelimit-tickets-index': 'total=100; remaining=99; resets=60' } };
  };

  const perPageOf = (query: Query): number => {
    if (env.exportPageSize) return env.exportPageSize;
    const raw = q1(query, 'per_page');
    if (raw === undefined) return 1000;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new HttpError(400, { error: 'InvalidValue', description: 'per_page must be a positive integer' });
    return Math.min(1000, Number(raw));
  };

  const startTimeOf = (query: Query): number => {
    const raw = q1(query, 'start_time');
    if (raw === undefined || raw === '') throw new HttpError(400, { error: 'InvalidValue', description: 'start_time is required' });
    if (!/^\d+$/.test(raw)) throw new HttpError(400, { error: 'InvalidValue', description: 'start_time must be a unix timestamp in seconds' });
    const st = Number(raw);
    const newest = Math.floor(state.now() / 1000) - env.incrementalLagSeconds;
    if (st > newest) {
      throw new HttpError(422, {
        error: 'InvalidValue',
        description: `Too recent start_time. Use a start_time older than ${Math.max(1, Math.ceil(env.incrementalLagSeconds / 60))} minute${env.incrementalLagSeconds > 60 ? 's' : ''}`,
      });
    }
    return st;
  };

  const cutoff = () => (env.incrementalLagSeconds > 0 ? state.now() - env.incrementalLagSeconds * 1000 : Infinity);

  /** Cursor-based incremental export (tickets, users). */
  const cursorExport = (
    ctx: RequestContext,
    feed: ChangeFeed,
    name: 'tickets' | 'users',
    render: (id: number) => Record<string, unknown> | undefined,
    pathName: string,
  ): HandlerResult => {
    const perPage = perPageOf(ctx.query);
    const cursor = q1(ctx.query, 'cursor');
    let entries: FeedEntry[];
    let more: boolean;
    let position: number;
    let first = false;
    let backwards = false;
    if (cursor) {
      const c = decodeFeedCursor(cursor);
      position = c.seq;
      backwards = c.backwards;
    } else {
      position = feed.positionAtTime(startTimeOf(ctx.query) * 1000);
      first = true;
    }
    if (backwards) ({ entries, more } = feed.before(position, perPage));
    else ({ entries, more } = feed.after(position, perPage, cutoff()));
    const lastEntry = entries[entries.length - 1];
    const firstEntry = entries[0];
    const afterCursor = lastEntry
      ? encodeFeedCursor(lastEntry)
      : encodeFeedCursor({ ts: first ? Number(q1(ctx.query, 'start_time')) * 1000 : state.now(), id: 0, seq: backwards ? Math.max(0, position - 1) : position });
    // Real Zendesk returns before_cursor null on the start_time request and when nothing precedes the page.
    const hasPrevious = backwards ? more : !first && !!firstEntry && feed.before(firstEntry.seq, 1).entries.length > 0;
    const beforeCursor = firstEntry && hasPrevious ? encodeFeedCursor(firstEntry, true) : null;
    const extra: Record<string, string | undefined> = { per_page: q1(ctx.query, 'per_page'), exclude_deleted: q1(ctx.query, 'exclude_deleted') };
    const url = (c: string) => withQuery(abs(`/api/v2/incremental/${pathName}/cursor.json`), {}, { cursor: c, ...extra });
    const items = entries.map((e) => render(e.id)).filter((x): x is Record<string, unknown> => !!x);
    const body: Record<string, unknown> = {
      [name]: items,
      after_url: url(afterCursor),
      after_cursor: afterCursor,
      before_url: beforeCursor ? url(beforeCursor) : null,
      before_cursor: beforeCursor,
      end_of_stream: backwards ? false : !more,
    };
    // Ticket exports take the ticket sideloads (users, groups, organizations), like GET /tickets.
    if (name === 'tickets') {
      const rendered = new Set(items.map((x) => x.id as number));
      const tickets = entries.map((e) => state.tickets.get(e.id)).filter((t): t is TicketRecord => !!t && rendered.has(t.id));
      sideload(q1(ctx.query, 'include'), tickets, body);
    }
    return { status: 200, body };
  };

  /**
   * Time-based incremental export (tickets, users, organizations, ticket events): up to `per_page`
   * (1000) items from `start_time` on, never splitting a second across pages; `end_time` (the last
   * item's second) is the next page's `start_time`, so that second's items come again.
   */
  const timeExport = (
    ctx: RequestContext,
    feed: ChangeFeed,
    name: string,
    render: (id: number) => Record<string, unknown> | undefined,
  ): HandlerResult => {
    const perPage = perPageOf(ctx.query);
    const st = startTimeOf(ctx.query);
    const { entries, more } = feed.after(feed.positionAtTime(st * 1000), perPage, cutoff(), true);
    const last = entries[entries.length - 1];
    let endTime = last ? Math.floor(last.ts / 1000) : st;
    // A page made only of one second's records must still move forward.
    if (more && entries.length && entries.every((e) => Math.floor(e.ts / 1000) === st)) endTime = st + 1;
    const items = entries.map((e) => render(e.id)).filter((x): x is Record<string, unknown> => !!x);
    return {
      status: 200,
      body: {
        [name]: items,
        next_page: withQuery(abs(`/api/v2/incremental/${name}.json`), {}, {
          include: q1(ctx.query, 'include'),
          per_page: q1(ctx.query, 'per_page'),
          start_time: String(endTime),
        }),
        count: items.length,
        end_of_stream: !more,
        end_time: endTime,
      },
    };
  };

  const renderExportTicket = (excludeDeleted: boolean) => (id: number) => {
    const t = state.tickets.get(id);
    if (!t || (excludeDeleted && t.deleted)) return undefined;
    return ser.ticket(t, { exportStatus: true });
  };

  const listOf = <T extends { id: number }>(
    ctx: RequestContext,
    items: T[],
    pathName: string,
    name: string,
    render: (x: T) => unknown,
    order: { sort: string; key: (x: T) => [number | string, number] } = { sort: 'id', key: (x) => [x.id, x.id] },
  ): HandlerResult => {
    const { page, members } = paginate({ items, key: order.key, sort: order.sort, query: ctx.query, baseUrl: abs(`/api/v2/${pathName}.json`) });
    return { status: 200, body: { [name]: page.map(render), ...members } };
  };

  const runCreateMany = (jobId: string, inputs: TicketInput[], acting: UserRecord) => {
    const job = state.jobs.get(jobId);
    if (!job) return;
    const results: Array<Record<string, unknown>> = [];
    let ok = 0;
    inputs.forEach((input, index) => {
      try {
        const { ticket } = state.createTicket(input ?? {}, acting);
        results.push({ index, id: ticket.id });
        ok++;
      } catch (e) {
        if (!(e instanceof RecordInvalid)) throw e;
        const details = Object.values(e.details)
          .flat()
          .map((d) => String(d.description))
          .join(', ');
        results.push({ index, error: 'TicketCreateFailed', details });
      }
    });
    const stamp = iso(state.now()).replace('T', ' ').replace('Z', ' +0000');
    job.results = results;
    if (ok === 0 && inputs.length > 0) {
      job.status = 'failed';
      job.progress = 0;
      job.message = `Failed at ${stamp}`;
    } else {
      job.status = 'completed';
      job.progress = inputs.length;
      job.message = `Completed at ${stamp}`;
    }
  };

  const tagCache = { version: -1, tags: [] as Array<{ name: string; count: number; id: number }> };
  const tagCounts = () => {
    if (tagCache.version !== state.ticketVersion) {
      const counts = new Map<string, number>();
      for (const t of state.tickets.values()) if (!t.deleted) for (const tag of t.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      tagCache.tags = [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([name, count], i) => ({ name, count, id: i + 1 }));
      tagCache.version = state.ticketVersion;
    }
    return tagCache.tags;
  };

  return [
    // --- tickets -----------------------------------------------------------
    route('GET', '/api/v2/tickets', ticketList),
    route('GET', '/api/v2/tickets/count', () => {
      let n = 0;
      for (const t of state.tickets.values()) if (!t.deleted) n++;
      return { status: 200, body: { count: { value: n, refreshed_at: iso(state.now()) } } };
    }),
    route('GET', '/api/v2/tickets/show_many', (ctx) => {
      const tickets = idList(q1(ctx.query, 'ids'))
        .map((id) => state.tickets.get(id))
        .filter((t): t is TicketRecord => !!t && !t.deleted);
      const body: Record<string, unknown> = { tickets: tickets.map((t) => ser.ticket(t)) };
      sideload(q1(ctx.query, 'include'), tickets, body);
      return { status: 200, body };
    }),
    route('POST', '/api/v2/tickets/create_many', (ctx) => {
      const list = ctx.body && typeof ctx.body === 'object' ? (ctx.body as { tickets?: unknown }).tickets : undefined;
      if (!Array.isArray(list)) throw new HttpError(400, { error: 'InvalidValue', description: 'Expected a JSON object with a "tickets" array' });
      if (list.length > 100) throw new HttpError(400, { error: 'TooManyValues', description: 'You can create at most 100 tickets per request' });
      const job = state.newJob(list.length);
      const acting = ctx.user!;
      env.schedule(() => {
        job.status = 'working';
        runCreateMany(job.id, list as TicketInput[], acting);
      }, env.jobDelayMs);
      return { status: 200, body: { job_status: ser.job(job) } };
    }),
    // Zendesk's documented idempotency for ticket creation: the same `Idempotency-Key` with the same body
    // answers the first result again (`x-idempotency-lookup: hit`), with another body a 400; keys last 2 hours.
    route('POST', '/api/v2/tickets', (ctx) => {
      const key = typeof ctx.headers['idempotency-key'] === 'string' ? ctx.headers['idempotency-key'] : undefined;
      const fingerprint = ctx.rawBody.toString('utf8');
      const seen = key ? idempotentCreates.get(key) : undefined;
      if (seen && seen.expiresAt > Date.now()) {
        if (seen.fingerprint !== fingerprint) {
          throw new HttpError(400, { error: 'IdempotentRequestError', description: 'The idempotency key was already used with a different request' });
        }
        return { ...seen.result, headers: { ...seen.result.headers, 'x-idempotency-lookup': 'hit' } };
      }
      const input = requireObject(ctx.body, 'ticket') as TicketInput;
      const { ticket, audit } = wrapWrite(() => state.createTicket(input, ctx.user!));
      const result: HandlerResult = {
        status: 201,
        body: { ticket: ser.ticket(ticket), audit: ser.audit(audit) },
        headers: { location: abs(`/api/v2/tickets/${ticket.id}.json`) },
      };
      if (!key) return result;
      idempotentCreates.set(key, { fingerprint, result, expiresAt: Date.now() + 2 * 3600_000 });
      return { ...result, headers: { ...result.headers, 'x-idempotency-lookup': 'miss' } };
    }),
    route('GET', '/api/v2/tickets/:id', (ctx) => {
      const t = liveTicket(intParam(ctx.params.id));
      const body: Record<string, unknown> = { ticket: ser.ticket(t) };
      sideload(q1(ctx.query, 'include'), [t], body);
      return { status: 200, body };
    }),
    route('PUT', '/api/v2/tickets/:id', (ctx) => {
      const id = intParam(ctx.params.id);
      const input = requireObject(ctx.body, 'ticket') as TicketInput;
      const { ticket, audit } = wrapWrite(() => state.updateTicket(id, input, ctx.user!));
      return { status: 200, body: { ticket: ser.ticket(ticket), audit: ser.audit(audit) } };
    }),
    route('DELETE', '/api/v2/tickets/:id', (ctx) => {
      wrapWrite(() => state.deleteTicket(intParam(ctx.params.id), ctx.user));
      return { status: 204 };
    }),
    // Soft-deleted tickets, oldest created first (sort_by id|subject|deleted_at, sort_order asc|desc).
    route('GET', '/api/v2/deleted_tickets', (ctx) => {
      const sortBy = q1(ctx.query, 'sort_by') ?? 'id';
      const keyOf: Record<string, (t: TicketRecord) => [number | string, number]> = {
        id: (t) => [t.id, t.id],
        subject: (t) => [t.subject, t.id],
        deleted_at: (t) => [t.deleted_at ?? t.updated_at, t.id],
      };
      const key = keyOf[sortBy];
      if (!key) throw new HttpError(400, { error: 'InvalidPaginationParameter', description: 'sort_by must be one of id, subject, deleted_at' });
      const descending = q1(ctx.query, 'sort_order') === 'desc';
      const items = [...state.tickets.values()].filter((t) => t.deleted);
      items.sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        const c = ka[0] < kb[0] ? -1 : ka[0] > kb[0] ? 1 : ka[1] - kb[1];
        return descending ? -c : c;
      });
      const sort = `${descending ? '-' : ''}${sortBy}`;
      const { page, members } = paginate({ items, key, descending, sort, query: ctx.query, baseUrl: abs('/api/v2/deleted_tickets.json') });
      return { status: 200, body: { deleted_tickets: page.map((t) => ser.deletedTicket(t)), ...members } };
    }),
    route('PUT', '/api/v2/tickets/:id/comments/:comment_id/redact', (ctx) => {
      const text = ctx.body && typeof ctx.body === 'object' ? (ctx.body as { text?: unknown }).text : undefined;
      if (typeof text !== 'string') throw new HttpError(400, { error: 'InvalidValue', description: 'Expected a JSON object with a "text" string' });
      const c = wrapWrite(() => state.redactComment(intParam(ctx.params.id), intParam(ctx.params.comment_id), text, ctx.user!));
      return { status: 200, body: { comment: ser.comment(c) } };
    }),
    route('GET', '/api/v2/tickets/:id/comments', (ctx) => {
      const t = liveTicket(intParam(ctx.params.id));
      const sortParam = q1(ctx.query, 'sort') ?? (q1(ctx.query, 'sort_order') === 'desc' ? '-created_at' : 'created_at');
      if (sortParam !== 'created_at' && sortParam !== '-created_at') {
        throw new HttpError(400, { error: 'InvalidPaginationParameter', description: 'sort must be created_at or -created_at' });
      }
      const descending = sortParam === '-created_at';
      const items = descending ? t.comments.slice().reverse() : t.comments;
      const { page, members } = paginate({
        items,
        key: (c) => [c.created_at, c.id],
        descending,
        sort: sortParam,
        query: ctx.query,
        baseUrl: abs(`/api/v2/tickets/${t.id}/comments.json`),
      });
      const body: Record<string, unknown> = { comments: page.map((c) => ser.comment(c)), ...members };
      if ((q1(ctx.query, 'include') ?? '').split(',').includes('users')) {
        const ids = new Set(page.map((c) => c.author_id));
        body.users = [...ids].map((id) => state.users.get(id)).filter((u) => !!u).map((u) => ser.user(u!));
      }
      return { status: 200, body };
    }),

    // --- jobs --------------------------------------------------------------
    // Recent jobs, newest first (Zendesk orders by completion, then creation date; here creation only).
    route('GET', '/api/v2/job_statuses', (ctx) => {
      const jobs = [...state.jobs.values()].map((job, seq) => ({ job, seq })).reverse();
      const { page, members } = paginate({
        items: jobs,
        key: (j) => [-j.job.created_at, -j.seq],
        sort: 'created_at_desc',
        query: ctx.query,
        baseUrl: abs('/api/v2/job_statuses.json'),
      });
      return { status: 200, body: { job_statuses: page.map((j) => ser.job(j.job)), ...members } };
    }),
    route('GET', '/api/v2/job_statuses/show_many', (ctx) => {
      const ids = (q1(ctx.query, 'ids') ?? '').split(',').map((s) => s.trim());
      return { status: 200, body: { job_statuses: ids.map((id) => state.jobs.get(id)).filter((j) => !!j).map((j) => ser.job(j!)) } };
    }),
    route('GET', '/api/v2/job_statuses/:id', (ctx) => {
      const job = state.jobs.get(ctx.params.id ?? '');
      if (!job) throw notFound();
      return { status: 200, body: { job_status: ser.job(job) } };
    }),

    // --- incremental exports -----------------------------------------------
    route(
      'GET',
      '/api/v2/incremental/tickets/cursor',
      (ctx) => cursorExport(ctx, state.ticketFeed, 'tickets', renderExportTicket(q1(ctx.query, 'exclude_deleted') === 'true'), 'tickets'),
      { adminOnly: true },
    ),
    route('GET', '/api/v2/incremental/tickets', (ctx) => timeExport(ctx, state.ticketFeed, 'tickets', renderExportTicket(q1(ctx.query, 'exclude_deleted') === 'true')), {
      adminOnly: true,
    }),
    // Ticket events (audits with a comment or field change), time-based only; the only sideload is
    // comment_events (the comment itself as a child event).
    route(
      'GET',
      '/api/v2/incremental/ticket_events',
      (ctx) => {
        const comments = (q1(ctx.query, 'include') ?? '')
          .split(',')
          .map((x) => x.trim())
          .includes('comment_events');
        return timeExport(ctx, state.ticketEventFeed, 'ticket_events', (id) => {
          const a = state.ticketEvents.get(id);
          return a && ser.ticketEvent(a, { comments });
        });
      },
      { adminOnly: true },
    ),
    route(
      'GET',
      '/api/v2/incremental/users/cursor',
      (ctx) =>
        cursorExport(
          ctx,
          state.userFeed,
          'users',
          (id) => {
            const u = state.users.get(id);
            return u && ser.user(u);
          },
          'users',
        ),
      { adminOnly: true },
    ),
    route(
      'GET',
      '/api/v2/incremental/users',
      (ctx) =>
        timeExport(ctx, state.userFeed, 'users', (id) => {
          const u = state.users.get(id);
          return u && ser.user(u);
        }),
      { adminOnly: true },
    ),
    route(
      'GET',
      '/api/v2/incremental/organizations',
      (ctx) =>
        timeExport(ctx, state.organizationFeed, 'organizations', (id) => {
          const o = state.organizations.get(id);
          return o && ser.organization(o);
        }),
      { adminOnly: true },
    ),

    // --- uploads / attachments ---------------------------------------------
    route('POST', '/api/v2/uploads', (ctx) => {
      const filename = q1(ctx.query, 'filename');
      if (!filename) throw new HttpError(400, { error: 'InvalidValue', description: 'filename is required' });
      const ct = ctx.headers['content-type'];
      const { upload, attachment } = state.addUpload(filename, guessContentType(filename, Array.isArray(ct) ? ct[0] : ct), ctx.rawBody, q1(ctx.query, 'token'));
      return { status: 201, body: { upload: ser.upload(upload, attachment) } };
    }, { rawBody: true }),
    route('DELETE', '/api/v2/uploads/:token', (ctx) => {
      if (!state.deleteUpload(ctx.params.token ?? '')) throw notFound();
      return { status: 204 };
    }),
    route('GET', '/api/v2/attachments/:id', (ctx) => {
      const a = state.attachments.get(intParam(ctx.params.id));
      if (!a) throw notFound();
      return { status: 200, body: { attachment: ser.attachment(a) } };
    }),
    route(
      'GET',
      '/attachments/token/:token',
      (ctx) => {
        const a = state.attachmentsByContentToken.get(ctx.params.token ?? '');
        if (!a) return { status: 404, raw: { data: Buffer.from('Not Found'), contentType: 'text/plain' } };
        return {
          status: 200,
          raw: { data: a.data, contentType: a.content_type },
          headers: { 'content-disposition': `attachment; filename="${a.file_name.replace(/"/g, '')}"` },
        };
      },
      { auth: false },
    ),

    // --- users / organizations / groups ---------------------------------------
    // Without credentials real Zendesk answers 200 with an anonymous user (id null); bad credentials get 401.
    route(
      'GET',
      '/api/v2/users/me',
      (ctx) => {
        if (ctx.user) return { status: 200, body: { user: ser.user(ctx.user) } };
        if (ctx.headers.authorization) throw new HttpError(401, { error: "Couldn't authenticate you" }, { 'WWW-Authenticate': 'Basic realm="Web Password"' });
        return { status: 200, body: { user: ser.anonymousUser() } };
      },
      { auth: false },
    ),
    route('GET', '/api/v2/users/show_many', (ctx) => ({
      status: 200,
      body: {
        users: idList(q1(ctx.query, 'ids'))
          .map((id) => state.users.get(id))
          .filter((u) => !!u)
          .map((u) => ser.user(u!)),
      },
    })),
    route('GET', '/api/v2/users', (ctx) => {
      const roles = [ctx.query.role, ctx.query['role[]']].flat().filter((x): x is string => typeof x === 'string');
      const items = [...state.users.values()].filter((u) => roles.length === 0 || roles.includes(u.role));
      return listOf(ctx, items, 'users', 'users', (u) => ser.user(u));
    }),
    route('GET', '/api/v2/users/:id', (ctx) => {
      const u = state.users.get(intParam(ctx.params.id));
      if (!u) throw notFound();
      return { status: 200, body: { user: ser.user(u) } };
    }),
    route('GET', '/api/v2/organizations/show_many', (ctx) => ({
      status: 200,
      body: {
        organizations: idList(q1(ctx.query, 'ids'))
          .map((id) => state.organizations.get(id))
          .filter((o) => !!o)
          .map((o) => ser.organization(o!)),
      },
    })),
    route('GET', '/api/v2/organizations', (ctx) => listOf(ctx, [...state.organizations.values()], 'organizations', 'organizations', (o) => ser.organization(o))),
    route('GET', '/api/v2/organizations/:id', (ctx) => {
      const o = state.organizations.get(intParam(ctx.params.id));
      if (!o) throw notFound();
      return { status: 200, body: { organization: ser.organization(o) } };
    }),
    route('GET', '/api/v2/groups', (ctx) =>
      listOf(
        ctx,
        [...state.groups.values()].filter((g) => !g.deleted),
        'groups',
        'groups',
        (g) => ser.group(g),
      ),
    ),
    route('GET', '/api/v2/groups/:id', (ctx) => {
      const g = state.groups.get(intParam(ctx.params.id));
      if (!g || g.deleted) throw notFound();
      return { status: 200, body: { group: ser.group(g) } };
    }),

    // --- tags / fields -------------------------------------------------------
    route('GET', '/api/v2/tags', (ctx) => {
      const { page, members } = paginate({
        items: tagCounts(),
        key: (t) => [t.id, t.id],
        sort: 'popularity',
        query: ctx.query,
        baseUrl: abs('/api/v2/tags.json'),
      });
      return { status: 200, body: { tags: page.map((t) => ({ name: t.name, count: t.count })), ...members } };
    }),
    route('GET', '/api/v2/ticket_fields', (ctx) =>
      listOf(
        ctx,
        [...state.ticketFields.values()].sort((a, b) => a.position - b.position || a.id - b.id),
        'ticket_fields',
        'ticket_fields',
        (f) => ser.ticketField(f),
        { sort: 'position', key: (f) => [f.position, f.id] },
      ),
    ),
    route('GET', '/api/v2/ticket_fields/:id', (ctx) => {
      const f = state.ticketFields.get(intParam(ctx.params.id));
      if (!f) throw notFound();
      return { status: 200, body: { ticket_field: ser.ticketField(f) } };
    }),
    route('GET', '/api/v2/user_fields', (ctx) => listOf(ctx, [...state.userFields.values()], 'user_fields', 'user_fields', (f) => ser.customField(f, 'user_fields'))),
    route('GET', '/api/v2/organization_fields', (ctx) =>
      listOf(ctx, [...state.organizationFields.values()], 'organization_fields', 'organization_fields', (f) => ser.customField(f, 'organization_fields')),
    ),
  ];
}
