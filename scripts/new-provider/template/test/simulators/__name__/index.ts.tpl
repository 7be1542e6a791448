/**
 * __Display__ simulator for tests, on the shared HTTP kit: it must behave as __Display__'s documentation says
 * (TODO(new-provider): cite the reference's sections for each route, error and limit, as
 * docs/providers/__name__.md does, and check requests against the official description when there is one:
 * test/conformance/recorded-requests.ts, or a declared contract in test/contracts).
 *
 * Auth: `Authorization: Bearer <token>` of a registered token; otherwise 401 `{"error": {"message": …}}`.
 * Lists: `page` (≥ 1), `per_page` (1–100), `{"data": [...], "has_more": bool}`; tickets ordered by
 * `updated_at` then id, `updated_since` keeps those updated at or after it.
 *
 * Endpoints (under /api/v1): GET /me, GET /users, GET /tickets, POST /tickets (201), GET, PATCH /tickets/{id},
 * GET, POST /tickets/{id}/comments (201).
 */
import { FaultController, SimClock, SimHttpError, startSimServer, type RecordedRequest, type SimRequest, type SimResponse } from '../shared/http-kit';

type Obj = Record<string, unknown>;

export interface __Pascal__SimulatorOptions {
  /** Tokens accepted (default one, `tok-1`). */
  tokens?: string[];
}

export type __Pascal__Simulator = Awaited<ReturnType<typeof start__Pascal__Simulator>>;

const fail = (status: number, message: string): never => {
  throw new SimHttpError({ status, body: { error: { message } } });
};

export async function start__Pascal__Simulator(opts: __Pascal__SimulatorOptions = {}) {
  const clock = new SimClock();
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const tokens = opts.tokens ?? ['tok-1'];
  const users = new Map<number, Obj>();
  const tickets = new Map<number, Obj>();
  const comments = new Map<number, Obj[]>();
  let nextId = 1000;
  const now = () => new Date(clock.now()).toISOString();

  const addUser = (name: string, email: string) => {
    const id = nextId++;
    users.set(id, { id, name, email, created_at: now(), updated_at: now() });
    return id;
  };
  const seed = { agent: addUser('Sam Agent', 'sam@example.com') };

  const page = (items: Obj[], q: URLSearchParams): SimResponse => {
    const n = Number(q.get('page') ?? '1');
    const size = Number(q.get('per_page') ?? '30');
    if (!Number.isInteger(n) || n < 1) fail(400, 'page must be a whole number from 1');
    if (!Number.isInteger(size) || size < 1 || size > 100) fail(400, 'per_page must be from 1 to 100');
    return { status: 200, body: { data: items.slice((n - 1) * size, n * size), has_more: n * size < items.length } };
  };
  const ticketOf = (id: string) => tickets.get(Number(id)) ?? fail(404, `ticket ${id} not found`);
  const writeTicket = (t: Obj, body: unknown) => {
    if (!body || typeof body !== 'object') fail(400, 'a JSON object is required');
    const b = body as Obj;
    for (const key of Object.keys(b)) if (!['subject', 'description', 'status', 'assignee_id'].includes(key)) fail(400, `unknown field ${key}`);
    if (b.status !== undefined && !['open', 'pending', 'closed'].includes(String(b.status))) fail(400, 'status must be open, pending or closed');
    if (b.assignee_id !== undefined && b.assignee_id !== null && !users.has(Number(b.assignee_id))) fail(422, `user ${String(b.assignee_id)} not found`);
    Object.assign(t, b, { updated_at: now() });
    return t;
  };

  async function handle(req: SimRequest): Promise<SimResponse> {
    const parts = req.path.replace(/^\/api\/v1\//, '').split('/');
    const [head, id, sub] = parts;
    if (req.method === 'GET' && head === 'me') return { status: 200, body: users.get(seed.agent) };
    if (req.method === 'GET' && head === 'users' && !id) return page([...users.values()], req.query);
    if (head === 'tickets' && !id) {
      if (req.method === 'GET') {
        const since = req.query.get('updated_since');
        const listed = [...tickets.values()]
          .filter((t) => !since || String(t.updated_at) >= since)
          .sort((a, b) => String(a.updated_at).localeCompare(String(b.updated_at)) || Number(a.id) - Number(b.id));
        return page(listed, req.query);
      }
      if (req.method === 'POST') {
        const b = req.body as Obj | undefined;
        if (!b || typeof b.subject !== 'string' || b.subject.trim() === '') fail(400, 'subject is required');
        const t = writeTicket({ id: nextId++, status: 'open', assignee_id: null, created_at: now() }, req.body);
        tickets.set(Number(t.id), t);
        return { status: 201, body: t };
      }
    }
    if (head === 'tickets' && id && !sub) {
      if (req.method === 'GET') return { status: 200, body: ticketOf(id) };
      if (req.method === 'PATCH') return { status: 200, body: writeTicket(ticketOf(id), req.body) };
    }
    if (head === 'tickets' && id && sub === 'comments') {
      const t = ticketOf(id);
      const list = comments.get(Number(t.id)) ?? [];
      if (req.method === 'GET') return page(list, req.query);
      if (req.method === 'POST') {
        const b = (req.body ?? {}) as Obj;
        if (typeof b.html_body !== 'string' || b.html_body === '') fail(400, 'html_body is required');
        const c = { id: nextId++, ticket_id: t.id, html_body: b.html_body, private: b.private === true, author_id: b.author_id ?? seed.agent, created_at: now(), updated_at: now() };
        comments.set(Number(t.id), [...list, c]);
        t.updated_at = now();
        return { status: 201, body: c };
      }
    }
    return fail(404, `no route ${req.method} ${req.path}`);
  }

  const server = await startSimServer({
    clock,
    faults,
    requests,
    describeAuth: (req) => {
      const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      return token === undefined ? null : { scheme: 'bearer', label: `token-${tokens.indexOf(token)}`, valid: tokens.includes(token) };
    },
    faultResponse: (fault) => ({ status: fault.status!, body: { error: { message: fault.status === 429 ? 'rate limit exceeded' : 'simulated failure' } } }),
    handle: (req) => {
      const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!token || !tokens.includes(token)) return { status: 401, body: { error: { message: 'invalid token' } } };
      return handle(req);
    },
    internalError: (err) => ({ status: 500, body: { error: { message: String(err) } } }),
  });

  return {
    url: server.url,
    tokens,
    seed,
    faults,
    clock,
    requests,
    ticket: (id: string) => tickets.get(Number(id)),
    /** A change made in __Display__'s own UI. */
    updateTicketRemotely: (id: string, patch: Obj) => {
      const t = tickets.get(Number(id));
      if (t) Object.assign(t, patch, { updated_at: now() });
    },
    deleteTicketRemotely: (id: string) => void tickets.delete(Number(id)),
    close: () => server.close(),
  };
}
