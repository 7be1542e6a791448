import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatViolation } from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';
import { startZendeskSimulator, type ZendeskSimulator } from './index';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type FetchBody = NonNullable<Parameters<typeof fetch>[1]>['body'];

const hasSpec = !!specPath('zendesk', 'oas.yaml');

function client(sim: ZendeskSimulator, auth: string | null = sim.authHeader()) {
  return async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (auth) headers.authorization = auth;
    let body: FetchBody;
    if (init.body !== undefined) {
      if (Buffer.isBuffer(init.body) || typeof init.body === 'string') body = init.body as FetchBody;
      else {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const res = await fetch(path.startsWith('http') ? path : sim.url + path, { method: init.method ?? 'GET', headers, body });
    const text = await res.text();
    let json: Json | undefined;
    try {
      json = text ? (JSON.parse(text) as Json) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, body: json as Json, text };
  };
}

/** Follows links.next until has_more is false; returns every page. */
async function allPages(call: ReturnType<typeof client>, first: string, key: string) {
  const pages: Json[] = [];
  let url: string | null = first;
  while (url) {
    const r = await call(url);
    expect(r.status).toBe(200);
    pages.push(r.body);
    url = r.body.meta.has_more ? r.body.links.next : null;
    expect(pages.length).toBeLessThan(10_000);
  }
  return { pages, items: pages.flatMap((p) => p[key] as Json[]) };
}

function expectNoSpecViolations(sim: ZendeskSimulator) {
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
}

describe('zendesk simulator', () => {
  let sim: ZendeskSimulator;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    sim = await startZendeskSimulator();
    api = client(sim);
  });
  afterAll(async () => {
    await sim.close();
  });
  afterEach(() => {
    sim.faults.clear();
  });

  describe('auth and headers', () => {
    it('rejects missing, wrong and password credentials with 401', async () => {
      for (const auth of [
        null,
        `Basic ${Buffer.from('agent@example.com/token:wrong').toString('base64')}`,
        `Basic ${Buffer.from('agent@example.com:test-token').toString('base64')}`,
        'Bearer nope',
      ]) {
        const r = await client(sim, auth)('/api/v2/tickets.json');
        expect(r.status).toBe(401);
        expect(r.body).toEqual({ error: "Couldn't authenticate you" });
      }
    });

    it('accepts API tokens and registered OAuth access tokens', async () => {
      expect((await api('/api/v2/users/me')).body.user.email).toBe('agent@example.com');
      // like Zendesk, /users/me without any credentials is an anonymous user, not a 401
      const anon = await client(sim, null)('/api/v2/users/me');
      expect(anon.status).toBe(200);
      expect(anon.body.user).toMatchObject({ id: null, name: 'Anonymous user' });
      const bearer = client(sim, 'Bearer oauth-123');
      expect((await bearer('/api/v2/users/me')).status).toBe(401);
      sim.addAccessToken('oauth-123');
      expect((await bearer('/api/v2/users/me')).body.user.email).toBe('agent@example.com');
    });

    it('sends rate-limit headers on every response, including errors', async () => {
      for (const r of [await api('/api/v2/groups'), await client(sim, null)('/api/v2/groups'), await api('/api/v2/tickets/999999')]) {
        expect(r.headers.get('x-rate-limit')).toBe('700');
        expect(Number(r.headers.get('x-rate-limit-remaining'))).toBeGreaterThanOrEqual(0);
        expect(r.headers.get('ratelimit-limit')).toBe('700');
        expect(r.headers.get('ratelimit-remaining')).toBe(r.headers.get('x-rate-limit-remaining'));
        expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      }
    });

    it('never records credentials in the request log', async () => {
      sim.clearRequests();
      await api('/api/v2/groups');
      const rec = sim.requests.at(-1)!;
      expect(rec).toMatchObject({ method: 'GET', path: '/api/v2/groups', authScheme: 'basic', user: 'agent@example.com', status: 200 });
      expect(JSON.stringify(sim.requests)).not.toContain('test-token');
      expect(JSON.stringify(sim.requests)).not.toContain(sim.authHeader().slice(6));
    });

    it('answers unknown endpoints with 404 InvalidEndpoint', async () => {
      const r = await api('/api/v2/nope');
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('InvalidEndpoint');
    });
  });

  describe('tickets', () => {
    let ids: number[];
    beforeAll(() => {
      ids = sim.seedTickets(250, { commentsPerTicket: 3 });
    });

    it('paginates with cursors to the end, then back with page[before]', async () => {
      const { pages, items } = await allPages(api, '/api/v2/tickets.json?page[size]=100', 'tickets');
      expect(pages).toHaveLength(3);
      expect(pages.map((p) => p.meta.has_more)).toEqual([true, true, false]);
      const got = items.map((t) => t.id as number);
      const live = [...sim.state.tickets.values()].filter((t) => !t.deleted).map((t) => t.id);
      expect(got).toEqual(live);
      expect(got).toEqual([...got].sort((a, b) => a - b));
      for (const id of ids) expect(got).toContain(id);
      const last = pages[2]!;
      expect(last.meta.after_cursor).toEqual(expect.any(String));
      expect(last.links.next).toContain('page%5Bafter%5D=');

      const back = await api(pages[1]!.links.prev as string);
      expect(back.body.tickets.map((t: Json) => t.id)).toEqual(pages[0]!.tickets.map((t: Json) => t.id));
      expect(back.body.meta.has_more).toBe(false);
    });

    it('supports sort and offset pagination', async () => {
      const desc = await allPages(api, '/api/v2/tickets?page[size]=100&sort=-updated_at', 'tickets');
      const times = desc.items.map((t) => Date.parse(t.updated_at as string));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(desc.items.length).toBe((await api('/api/v2/tickets/count')).body.count.value);

      const p1 = await api('/api/v2/tickets.json?per_page=100');
      expect(p1.body.tickets).toHaveLength(100);
      expect(p1.body.count).toBeGreaterThanOrEqual(250);
      expect(p1.body.previous_page).toBeNull();
      const p2 = await api(p1.body.next_page as string);
      expect(p2.body.tickets[0].id).toBe(p1.body.tickets[99].id + 1);
    });

    it('rejects page[size] above 100', async () => {
      const r = await api('/api/v2/tickets?page[size]=101');
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('InvalidPaginationParameter');
    });

    it('shows one ticket, many tickets, and 404s unknown ids', async () => {
      const t = (await api(`/api/v2/tickets/${ids[0]}.json`)).body.ticket;
      expect(t).toMatchObject({ id: ids[0], url: `${sim.url}/api/v2/tickets/${ids[0]}.json`, status: expect.any(String), requester_id: expect.any(Number) });
      expect(t.custom_fields.length).toBeGreaterThan(0);
      const many = await api(`/api/v2/tickets/show_many.json?ids=${ids[1]},${ids[2]},999999`);
      expect(many.body.tickets.map((x: Json) => x.id)).toEqual([ids[1], ids[2]]);
      const missing = await api('/api/v2/tickets/999999');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'RecordNotFound', description: 'Not found' });
    });

    it('creates a ticket with a comment, tags, custom fields and an audit', async () => {
      const textField = [...sim.state.ticketFields.values()].find((f) => f.type === 'text')!;
      const group = [...sim.state.groups.values()][1]!;
      const agent = sim.state.findUserByEmail('sam@example.com')!;
      const requester = sim.state.findUserByEmail('casey@acme.example')!;
      const r = await api('/api/v2/tickets.json', {
        method: 'POST',
        body: {
          ticket: {
            subject: 'Printer on fire',
            comment: { body: 'The smoke is very colorful.', public: true },
            priority: 'urgent',
            type: 'incident',
            tags: ['Fire', 'printer'],
            requester_id: requester.id,
            assignee_id: agent.id,
            group_id: group.id,
            external_id: 'ext-1',
            due_at: null,
            custom_fields: [{ id: textField.id, value: 'ORD-42' }],
          },
        },
      });
      expect(r.status).toBe(201);
      expect(r.headers.get('location')).toBe(`${sim.url}/api/v2/tickets/${r.body.ticket.id}.json`);
      expect(r.body.ticket).toMatchObject({
        subject: 'Printer on fire',
        description: 'The smoke is very colorful.',
        priority: 'urgent',
        type: 'incident',
        status: 'open', // assigned → open
        tags: ['fire', 'printer'],
        requester_id: requester.id,
        submitter_id: sim.state.findUserByEmail('agent@example.com')!.id,
        assignee_id: agent.id,
        group_id: group.id,
        organization_id: requester.organization_id,
        external_id: 'ext-1',
      });
      expect(r.body.ticket.custom_fields).toContainEqual({ id: textField.id, value: 'ORD-42' });
      expect(r.body.audit.events[0]).toMatchObject({ type: 'Comment', body: 'The smoke is very colorful.', public: true });
      expect(r.body.audit.events).toContainEqual(expect.objectContaining({ type: 'Create', field_name: 'priority', value: 'urgent' }));
      const comments = await api(`/api/v2/tickets/${r.body.ticket.id}/comments`);
      expect(comments.body.comments).toHaveLength(1);
      expect(comments.body.comments[0]).toMatchObject({
        type: 'Comment',
        body: 'The smoke is very colorful.',
        plain_body: 'The smoke is very colorful.',
        html_body: '<div class="zd-comment" dir="auto"><p dir="auto">The smoke is very colorful.</p></div>',
        public: true,
        attachments: [],
      });
      expect(sim.state.tickets.get(r.body.ticket.id)!.external_id).toBe('ext-1');
    });

    it('creates a requester from a requester object and html comments', async () => {
      const r = await api('/api/v2/tickets', {
        method: 'POST',
        body: { ticket: { subject: 'Hi', comment: { html_body: '<p>Hello <b>there</b></p><p>2nd</p>' }, requester: { name: 'New Person', email: 'new.person@example.org' } } },
      });
      expect(r.status).toBe(201);
      const requester = sim.state.users.get(r.body.ticket.requester_id)!;
      expect(requester).toMatchObject({ email: 'new.person@example.org', role: 'end-user' });
      expect(r.body.ticket.status).toBe('new');
      expect(r.body.ticket.description).toBe('Hello there\n\n2nd');
    });

    it.each([
      [{ priority: 'medium' }, 'priority'],
      [{ type: 'bug' }, 'type'],
      [{ status: 'wontfix' }, 'status'],
      [{ assignee_id: 123 }, 'assignee'],
      [{ requester_id: 123 }, 'requester'],
      [{ organization_id: 123 }, 'organization'],
      [{ group_id: 123 }, 'group'],
    ])('rejects %o with 422 RecordInvalid', async (patch, field) => {
      const before = sim.state.peekNextTicketId();
      const r = await api('/api/v2/tickets', { method: 'POST', body: { ticket: { subject: 'x', comment: { body: 'y' }, ...patch } } });
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ error: 'RecordInvalid', description: 'Record validation errors' });
      expect(r.body.details[field]).toEqual([{ description: expect.any(String), error: expect.any(String) }]);
      expect(sim.state.peekNextTicketId()).toBe(before);
      const u = await api(`/api/v2/tickets/${ids[0]}`, { method: 'PUT', body: { ticket: patch } });
      expect(u.status).toBe(422);
      expect(u.body.details[field]).toBeDefined();
    });

    it('requires a comment (or description) on create', async () => {
      const r = await api('/api/v2/tickets', { method: 'POST', body: { ticket: { subject: 'no body' } } });
      expect(r.status).toBe(422);
      expect(r.body.details.base[0]).toMatchObject({ description: 'Description: cannot be blank', error: 'BlankValue' });
    });

    it('updates partially, adds comments, bumps updated_at', async () => {
      const id = ids[10]!;
      const before = sim.state.tickets.get(id)!;
      const beforeUpdated = before.updated_at;
      const commentsBefore = before.comments.length;
      await new Promise((r) => setTimeout(r, 5));
      const r = await api(`/api/v2/tickets/${id}.json`, {
        method: 'PUT',
        body: { ticket: { status: 'pending', priority: null, additional_tags: ['added'], comment: { body: 'Internal note', public: false } } },
      });
      expect(r.status).toBe(200);
      expect(r.body.ticket).toMatchObject({ id, status: 'pending', priority: null });
      expect(r.body.ticket.tags).toContain('added');
      expect(r.body.audit.events).toContainEqual(expect.objectContaining({ type: 'Change', field_name: 'status', value: 'pending' }));
      const t = sim.state.tickets.get(id)!;
      expect(t.comments).toHaveLength(commentsBefore + 1);
      expect(t.comments.at(-1)).toMatchObject({ body: 'Internal note', public: false });
      expect(t.updated_at).toBeGreaterThan(beforeUpdated);
      expect(t.subject).toBe(before.subject);
      const removed = await api(`/api/v2/tickets/${id}`, { method: 'PUT', body: { ticket: { remove_tags: 'added' } } });
      expect(removed.body.ticket.tags).not.toContain('added');
    });

    it('rejects updates of closed tickets and stale safe updates', async () => {
      const closed = [...sim.state.tickets.values()].find((t) => t.status === 'closed' && !t.deleted)!;
      const r = await api(`/api/v2/tickets/${closed.id}`, { method: 'PUT', body: { ticket: { subject: 'reopen?' } } });
      expect(r.status).toBe(422);
      expect(r.body.details.status[0].error).toBe('ClosedPreventsUpdate');

      const id = ids[20]!;
      const stale = await api(`/api/v2/tickets/${id}`, { method: 'PUT', body: { ticket: { subject: 'a', safe_update: true, updated_stamp: '2001-01-01T00:00:00Z' } } });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toBe('UpdateConflict');
      const current = (await api(`/api/v2/tickets/${id}`)).body.ticket;
      const ok = await api(`/api/v2/tickets/${id}`, { method: 'PUT', body: { ticket: { subject: 'b', safe_update: true, updated_stamp: current.updated_at } } });
      expect(ok.status).toBe(200);
    });

    it('soft-deletes: 404 on read, gone from lists, "deleted" in the incremental export', async () => {
      const id = ids[30]!;
      const del = await api(`/api/v2/tickets/${id}`, { method: 'DELETE' });
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect((await api(`/api/v2/tickets/${id}`)).status).toBe(404);
      expect((await api(`/api/v2/tickets/${id}/comments`)).status).toBe(404);
      expect((await api(`/api/v2/tickets/${id}`, { method: 'DELETE' })).status).toBe(404);
      const { items } = await allPages(api, '/api/v2/tickets?page[size]=100', 'tickets');
      expect(items.map((t) => t.id)).not.toContain(id);
      const exp = await api(`/api/v2/incremental/tickets/cursor?start_time=${Math.floor(Date.now() / 1000) - 1}`);
      expect(exp.body.tickets.find((t: Json) => t.id === id)?.status).toBe('deleted');
      expect(sim.ticketJson(id)?.status).toBe('deleted');
    });

    it('paginates comments with cursors in both sort orders', async () => {
      const id = ids[40]!;
      const asc = await allPages(api, `/api/v2/tickets/${id}/comments.json?page[size]=2`, 'comments');
      expect(asc.pages).toHaveLength(2);
      expect(asc.items.map((c) => c.id)).toEqual(sim.state.tickets.get(id)!.comments.map((c) => c.id));
      const desc = await allPages(api, `/api/v2/tickets/${id}/comments?page[size]=2&sort=-created_at`, 'comments');
      expect(desc.items.map((c) => c.id)).toEqual(asc.items.map((c) => c.id).reverse());
      expect(asc.items[0]).toMatchObject({ type: 'Comment', author_id: expect.any(Number), plain_body: expect.any(String), created_at: expect.any(String) });
    });
  });

  describe('uploads and attachments', () => {
    it('attaches uploaded files to a comment and serves their content', async () => {
      const bytes = Buffer.from('%PDF-1.4 fake pdf bytes');
      const up1 = await api('/api/v2/uploads.json?filename=report.pdf', { method: 'POST', body: bytes, headers: { 'content-type': 'application/binary' } });
      expect(up1.status).toBe(201);
      const token = up1.body.upload.token as string;
      expect(up1.body.upload).toMatchObject({ token: expect.any(String), expires_at: expect.any(String) });
      expect(up1.body.upload.attachment).toMatchObject({ file_name: 'report.pdf', content_type: 'application/pdf', size: bytes.length });
      const up2 = await api(`/api/v2/uploads?filename=notes.txt&token=${token}`, { method: 'POST', body: 'plain text', headers: { 'content-type': 'text/plain' } });
      expect(up2.body.upload.token).toBe(token);
      expect(up2.body.upload.attachments).toHaveLength(2);

      const created = await api('/api/v2/tickets', { method: 'POST', body: { ticket: { subject: 'with files', comment: { body: 'see attached', uploads: [token] } } } });
      expect(created.status).toBe(201);
      const comments = (await api(`/api/v2/tickets/${created.body.ticket.id}/comments`)).body.comments;
      const atts = comments[0].attachments as Json[];
      expect(atts.map((a) => a.file_name)).toEqual(['report.pdf', 'notes.txt']);
      const content = await fetch(atts[0]!.content_url as string);
      expect(content.status).toBe(200);
      expect(content.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes);
      expect((await api(`/api/v2/attachments/${atts[1]!.id}`)).body.attachment.file_name).toBe('notes.txt');

      // a consumed token attaches nothing the second time
      const again = await api('/api/v2/tickets', { method: 'POST', body: { ticket: { subject: 'again', comment: { body: 'x', uploads: [token] } } } });
      expect((await api(`/api/v2/tickets/${again.body.ticket.id}/comments`)).body.comments[0].attachments).toEqual([]);
    });

    it('requires a filename', async () => {
      const r = await api('/api/v2/uploads', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
      expect(r.status).toBe(400);
    });
  });

  describe('bulk create', () => {
    it('queues a job that completes with per-item results', async () => {
      const r = await api('/api/v2/tickets/create_many.json', {
        method: 'POST',
        body: { tickets: [{ subject: 'a', comment: { body: 'one' } }, { subject: 'b' }, { subject: 'c', comment: { body: 'three' }, priority: 'high' }] },
      });
      expect(r.status).toBe(200);
      expect(r.body.job_status).toMatchObject({ id: expect.any(String), url: `${sim.url}/api/v2/job_statuses/${r.body.job_status.id}.json`, status: 'queued', total: 3 });
      const queued = await api(`/api/v2/job_statuses/${r.body.job_status.id}`);
      expect(['queued', 'completed']).toContain(queued.body.job_status.status);
      await sim.settleJobs();
      const done = (await api(r.body.job_status.url as string)).body.job_status;
      expect(done).toMatchObject({ status: 'completed', total: 3, progress: 3, message: expect.stringMatching(/^Completed at /) });
      expect(done.results).toEqual([
        { index: 0, id: expect.any(Number) },
        { index: 1, error: 'TicketCreateFailed', details: 'Description: cannot be blank' },
        { index: 2, id: expect.any(Number) },
      ]);
      expect(sim.state.tickets.get(done.results[2].id)!.priority).toBe('high');
    });

    it('marks a job failed when every item fails, and rejects more than 100 tickets', async () => {
      const r = await api('/api/v2/tickets/create_many', { method: 'POST', body: { tickets: [{ subject: 'nope' }] } });
      await sim.settleJobs();
      expect((await api(`/api/v2/job_statuses/${r.body.job_status.id}`)).body.job_status.status).toBe('failed');
      const big = await api('/api/v2/tickets/create_many', { method: 'POST', body: { tickets: Array.from({ length: 101 }, () => ({ comment: { body: 'x' } })) } });
      expect(big.status).toBe(400);
      expect((await api('/api/v2/job_statuses/doesnotexist')).status).toBe(404);
    });
  });

  describe('directory endpoints', () => {
    it('lists users (cursor + role filter), organizations, groups, fields and tags', async () => {
      const users = await allPages(api, '/api/v2/users?page[size]=2', 'users');
      expect(users.items.length).toBe(sim.state.users.size);
      const agents = (await api('/api/v2/users?role[]=agent&role[]=admin')).body.users as Json[];
      expect(agents.every((u) => u.role !== 'end-user')).toBe(true);
      const one = users.items[0]!;
      expect((await api(`/api/v2/users/${one.id}`)).body.user).toMatchObject({ id: one.id, email: one.email, name: one.name });
      expect((await api(`/api/v2/users/show_many?ids=${one.id},1`)).body.users).toHaveLength(1);

      const orgs = (await api('/api/v2/organizations')).body;
      expect(orgs.organizations.map((o: Json) => o.name)).toEqual(expect.arrayContaining(['Acme Corp', 'Globex']));
      expect(orgs.count).toBe(orgs.organizations.length);
      expect((await api(`/api/v2/organizations/${orgs.organizations[0].id}`)).body.organization.id).toBe(orgs.organizations[0].id);

      const groups = (await api('/api/v2/groups?page[size]=100')).body;
      expect(groups.groups.length).toBeGreaterThanOrEqual(3);
      expect(groups.meta.has_more).toBe(false);

      const fields = (await api('/api/v2/ticket_fields')).body.ticket_fields as Json[];
      expect(fields.map((f) => f.type)).toEqual(expect.arrayContaining(['subject', 'description', 'status', 'priority', 'tagger', 'checkbox']));
      const tagger = fields.find((f) => f.type === 'tagger')!;
      expect(tagger).toMatchObject({ id: expect.any(Number), title: 'Product', active: true, removable: true });
      expect(tagger.custom_field_options[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), value: expect.any(String) });
      expect((await api('/api/v2/user_fields')).body.user_fields[0]).toMatchObject({ key: expect.any(String), type: expect.any(String) });
      expect((await api('/api/v2/organization_fields')).body.organization_fields.length).toBeGreaterThan(0);

      const tags = await allPages(api, '/api/v2/tags?page[size]=3', 'tags');
      const counts = tags.items.map((t) => t.count as number);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      expect(tags.items[0]).toEqual({ name: expect.any(String), count: expect.any(Number) });
    });
  });

  describe('incremental exports', () => {
    it('exports users with a cursor and organizations by time', async () => {
      const u = await api('/api/v2/incremental/users/cursor?start_time=0&per_page=2');
      expect(u.body.users).toHaveLength(2);
      expect(u.body.end_of_stream).toBe(false);
      let next = u.body.after_url as string;
      const seen = u.body.users.map((x: Json) => x.id);
      for (;;) {
        const p = await api(next);
        seen.push(...p.body.users.map((x: Json) => x.id));
        if (p.body.end_of_stream) break;
        next = p.body.after_url;
      }
      expect(new Set(seen).size).toBe(sim.state.users.size);

      const o = await api('/api/v2/incremental/organizations?start_time=0');
      expect(o.body).toMatchObject({ count: sim.state.organizations.size, end_of_stream: true, end_time: expect.any(Number), next_page: expect.any(String) });
      const acme = o.body.organizations.find((x: Json) => x.name === 'Acme Corp');
      sim.updateOrganizationRemotely(acme.id, { notes: 'changed' });
      const again = await api(o.body.next_page as string);
      expect(again.body.organizations.map((x: Json) => x.id)).toContain(acme.id);
      expect(again.body.organizations.find((x: Json) => x.id === acme.id).notes).toBe('changed');
    });

    it('rejects a start_time in the future and non-admin agents', async () => {
      const r = await api(`/api/v2/incremental/tickets/cursor?start_time=${Math.floor(Date.now() / 1000) + 3600}`);
      expect(r.status).toBe(422);
      expect(r.body.description).toMatch(/Too recent start_time/);
      expect((await api('/api/v2/incremental/tickets/cursor')).status).toBe(400);
      const agentOnly = await startZendeskSimulator({ credentials: [{ email: 'sam@example.com', apiToken: 't2' }], specFile: null });
      try {
        const r2 = await client(agentOnly)('/api/v2/incremental/tickets/cursor?start_time=0');
        expect(r2.status).toBe(403);
        expect(r2.body.error).toBe('Forbidden');
        expect((await client(agentOnly)('/api/v2/tickets')).status).toBe(200);
      } finally {
        await agentOnly.close();
      }
    });
  });

  describe('faults and latency', () => {
    it('injects a 429 with Retry-After a given number of times', async () => {
      sim.faults.add({ method: 'GET', path: /^\/api\/v2\/groups/, status: 429, retryAfterSeconds: 7, times: 2 });
      const a = await api('/api/v2/groups.json');
      const b = await api('/api/v2/groups');
      const c = await api('/api/v2/groups');
      expect([a.status, b.status, c.status]).toEqual([429, 429, 200]);
      expect(a.headers.get('retry-after')).toBe('7');
      expect(a.body).toEqual({ error: 'APIRateLimitExceeded', description: 'Number of allowed API requests per minute exceeded' });
      expect(a.headers.get('x-rate-limit')).toBe('700');
    });

    it('drops the connection for status 0, delays with delayMs, and uses custom bodies', async () => {
      sim.faults.add({ path: '/api/v2/groups', status: 0 });
      await expect(fetch(`${sim.url}/api/v2/groups`, { headers: { authorization: sim.authHeader() } })).rejects.toThrow();
      expect(sim.requests.at(-1)!.status).toBe(0);

      sim.faults.add({ path: /groups/, delayMs: 150 });
      const t0 = Date.now();
      expect((await api('/api/v2/groups')).status).toBe(200);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);

      const f = sim.faults.add({ method: 'POST', path: /tickets/, status: 503, body: { error: 'Down' }, times: Infinity });
      expect((await api('/api/v2/tickets', { method: 'POST', body: { ticket: {} } })).body).toEqual({ error: 'Down' });
      expect((await api('/api/v2/tickets', { method: 'POST', body: { ticket: {} } })).status).toBe(503);
      expect(f.hits).toBe(2);
      sim.faults.remove(f);
    });
  });

  it.skipIf(!hasSpec)('a well-behaved session produces no unexplained spec violations', () => {
    // Everything above was validated against oas.yaml; the only violations must be the
    // deliberately invalid requests (bad enum values / missing comment / bad page size).
    const unexpected = sim.specViolations.filter((v) => !(v.kind === 'request' && (v.location === 'body' || v.location === 'query')));
    expect(unexpected.map(formatViolation)).toEqual([]);
    expect(sim.specAvailable).toBe(true);
    expect(sim.suppressedSpecViolations.length).toBeGreaterThan(0);
  });
});

describe('zendesk simulator: spec validation', () => {
  it.skipIf(!hasSpec)('records request violations with method, path and problem', async () => {
    const sim = await startZendeskSimulator();
    try {
      const api = client(sim);
      await api('/api/v2/tickets', { method: 'POST', body: { ticket: { subject: 1, comment: { body: 'x' } } } });
      expect(sim.specViolations).toContainEqual(
        expect.objectContaining({ kind: 'request', method: 'POST', path: '/api/v2/tickets', operationId: 'CreateTicket', location: 'body', pointer: '/ticket/subject', keyword: 'type' }),
      );
      sim.clearSpecViolations();
      sim.seedTickets(20);
      await allPages(api, '/api/v2/tickets?page[size]=7', 'tickets');
      await api('/api/v2/incremental/tickets/cursor?start_time=0');
      await api('/api/v2/users');
      expectNoSpecViolations(sim);
    } finally {
      await sim.close();
    }
  });

  it('reports specAvailable=false and validates nothing without a spec', async () => {
    const sim = await startZendeskSimulator({ specFile: null });
    try {
      expect(sim.specAvailable).toBe(false);
      await client(sim)('/api/v2/tickets', { method: 'POST', body: { ticket: { subject: 1 } } });
      expect(sim.specViolations).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});

describe('zendesk simulator: incremental ticket export', () => {
  let sim: ZendeskSimulator;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    sim = await startZendeskSimulator();
    api = client(sim);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('exports everything ordered by updated_at, then resumes from the stored cursor', async () => {
    sim.seedTickets(2_500, { commentsPerTicket: 1 });
    const seen = new Map<number, Json>();
    let url = '/api/v2/incremental/tickets/cursor.json?start_time=0&per_page=1000';
    let last = '';
    const stamps: number[] = [];
    let pages = 0;
    for (;;) {
      const r = await api(url);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['after_cursor', 'after_url', 'before_cursor', 'before_url', 'end_of_stream', 'tickets']);
      pages++;
      for (const t of r.body.tickets as Json[]) {
        expect(seen.has(t.id)).toBe(false);
        seen.set(t.id, t);
        stamps.push(Date.parse(t.updated_at));
      }
      last = r.body.after_cursor;
      if (r.body.end_of_stream) break;
      url = r.body.after_url;
    }
    expect(pages).toBe(3);
    expect(seen.size).toBe(2_500);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));

    // nothing new → empty page, same position, end_of_stream
    const idle = await api(`/api/v2/incremental/tickets/cursor?cursor=${encodeURIComponent(last)}`);
    expect(idle.body.tickets).toEqual([]);
    expect(idle.body.end_of_stream).toBe(true);

    // remote changes after the cursor are picked up exactly once, in change order
    const [a, b, c] = [...sim.state.tickets.values()].filter((t) => t.status !== 'closed' && t.id < 100).map((t) => t.id) as [number, number, number];
    sim.updateTicketRemotely(b, { subject: 'changed remotely' });
    sim.deleteTicketRemotely(c);
    const created = sim.createTicketRemotely({ subject: 'brand new', comment: { body: 'hi' } });
    sim.addCommentRemotely(a, { body: 'a reply', public: true });
    const delta = await api(idle.body.after_url as string);
    expect(delta.body.tickets.map((t: Json) => t.id)).toEqual([b, c, created.id, a]);
    expect(delta.body.tickets[0].subject).toBe('changed remotely');
    expect(delta.body.tickets[1].status).toBe('deleted');
    expect(delta.body.end_of_stream).toBe(true);
    expect(delta.body.before_cursor).toEqual(expect.any(String));

    // before_cursor pages backwards
    const back = await api(delta.body.before_url as string);
    expect(back.body.tickets).toHaveLength(1000);
    expect(back.body.tickets.at(-1).id).toBe(2_500);

    const noDeleted = await api(`/api/v2/incremental/tickets/cursor?cursor=${encodeURIComponent(last)}&exclude_deleted=true`);
    expect(noDeleted.body.tickets.map((t: Json) => t.id)).toEqual([b, created.id, a]);
  });

  it('remote updates always bump updated_at (even no-op patches and closed tickets)', async () => {
    const closed = [...sim.state.tickets.values()].find((t) => t.status === 'closed' && !t.deleted)!;
    const start = await api(`/api/v2/incremental/tickets/cursor?start_time=${Math.floor(Date.now() / 1000) - 1}`);
    let cursor = start.body.after_url as string;
    for (let body = start.body; !body.end_of_stream; body = (await api(cursor)).body) cursor = body.after_url;
    const before = closed.updated_at;
    sim.updateTicketRemotely(closed.id, {});
    expect(closed.updated_at).toBeGreaterThanOrEqual(before);
    sim.updateTicketRemotely(closed.id, { tags: ['reopened_elsewhere'] });
    const delta = await api(cursor);
    expect(delta.body.tickets.map((t: Json) => t.id)).toEqual([closed.id]);
    expect(delta.body.tickets[0].tags).toEqual(['reopened_elsewhere']);
    // the API itself still refuses to touch closed tickets
    expect((await api(`/api/v2/tickets/${closed.id}`, { method: 'PUT', body: { ticket: { tags: [] } } })).status).toBe(422);
    expect(() => sim.updateTicketRemotely(closed.id, { priority: 'meh' })).toThrow(/RecordInvalid/);
  });

  it('time-based export pages by end_time without splitting a second', async () => {
    const first = await api('/api/v2/incremental/tickets?start_time=0&per_page=1000');
    expect(first.body).toMatchObject({ count: expect.any(Number), end_of_stream: false, end_time: expect.any(Number), next_page: expect.stringContaining('start_time=') });
    const ids = new Set<number>((first.body.tickets as Json[]).map((t) => t.id));
    let next = first.body.next_page as string;
    for (let i = 0; i < 10; i++) {
      const p = await api(next);
      for (const t of p.body.tickets as Json[]) ids.add(t.id);
      if (p.body.end_of_stream) break;
      next = p.body.next_page;
    }
    expect(ids.size).toBe(sim.state.tickets.size);
  });

  it('honours the incremental export lag when configured', async () => {
    const lagged = await startZendeskSimulator({ incrementalExportLagSeconds: 60, specFile: null });
    try {
      lagged.seedTickets(10, { spacingMs: 20_000 }); // spread over the last 200 s
      const r = await client(lagged)(`/api/v2/incremental/tickets/cursor?start_time=0`);
      expect(r.body.tickets.length).toBeGreaterThanOrEqual(6);
      expect(r.body.tickets.length).toBeLessThanOrEqual(8);
      expect(r.body.end_of_stream).toBe(true);
      const tooRecent = await client(lagged)(`/api/v2/incremental/tickets/cursor?start_time=${Math.floor(Date.now() / 1000) - 10}`);
      expect(tooRecent.status).toBe(422);
    } finally {
      await lagged.close();
    }
  });
});

describe('zendesk simulator: incremental ticket event export', () => {
  let sim: ZendeskSimulator;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    sim = await startZendeskSimulator();
    api = client(sim);
  });
  afterAll(async () => {
    await sim.close();
  });

  /** Follows next_page until end_of_stream; returns every page's body. */
  async function allEventPages(first: string) {
    const pages: Json[] = [];
    let url = first;
    for (;;) {
      const r = await api(url);
      expect(r.status).toBe(200);
      pages.push(r.body);
      if (r.body.end_of_stream) return pages;
      expect(pages.length).toBeLessThan(1000);
      url = r.body.next_page;
    }
  }

  it('lists seeded tickets as one event per comment at the comments\' times, the first with the creation', async () => {
    const ids = sim.seedTickets(3, { commentsPerTicket: 3, spacingMs: 5_000 });
    const r = await api('/api/v2/incremental/ticket_events.json?start_time=0&include=comment_events');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['count', 'end_of_stream', 'end_time', 'next_page', 'ticket_events']);
    expect(r.body).toMatchObject({ count: 9, end_of_stream: true });
    const events = r.body.ticket_events as Json[];
    expect(events.map((e) => e.ticket_id)).toEqual(ids.flatMap((id) => [id, id, id]));
    expect(r.body.end_time).toBe(events.at(-1)!.timestamp);
    expect(r.body.next_page).toContain(`start_time=${r.body.end_time}`);
    expect(r.body.next_page).toContain('include=comment_events');

    const t = sim.state.tickets.get(ids[1]!)!;
    const mine = events.filter((e) => e.ticket_id === t.id);
    mine.forEach((e, k) => {
      const c = t.comments[k]!;
      expect(e).toMatchObject({
        id: c.audit_id,
        timestamp: Math.floor(c.created_at / 1000),
        created_at: new Date(Math.floor(c.created_at / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
        updater_id: c.author_id,
        via: t.channel === 'email' ? 'Mail' : 'Web form',
        event_type: 'Audit',
      });
      const comments = (e.child_events as Json[]).filter((x) => x.event_type === 'Comment');
      expect(comments).toEqual([
        expect.objectContaining({ id: c.id, type: 'Comment', author_id: c.author_id, body: c.body, html_body: c.html_body, public: c.public, attachments: [], audit_id: c.audit_id }),
      ]);
    });
    // The first event is the ticket's creation: its comment and the values set.
    const created = Object.fromEntries((mine[0]!.child_events as Json[]).filter((x) => x.event_type === 'Create').flatMap((x) => Object.entries(x).filter(([k]) => !['id', 'via', 'via_reference_id', 'event_type'].includes(k))));
    expect(created).toMatchObject({ subject: t.subject, status: t.status, requester_id: String(t.requester_id) });
    expect(mine.slice(1).every((e) => e.child_events.length === 1)).toBe(true);

    // Without the sideload, comments are only flagged.
    const bare = await api('/api/v2/incremental/ticket_events?start_time=0');
    const child = (bare.body.ticket_events[0].child_events as Json[]).find((x) => x.event_type === 'Comment')!;
    expect(child).toMatchObject({ comment_present: true, comment_public: expect.any(Boolean) });
    expect(child.body).toBeUndefined();
    expect(bare.body.next_page).not.toContain('include=');
  });

  it('logs API and remote writes: comments with attachments, field changes, deletions', async () => {
    const since = Math.floor(Date.now() / 1000);
    const token = (await api('/api/v2/uploads?filename=log.txt', { method: 'POST', body: 'log', headers: { 'content-type': 'text/plain' } })).body.upload.token;
    const created = await api('/api/v2/tickets', { method: 'POST', body: { ticket: { subject: 'events', comment: { body: 'opening', uploads: [token] } } } });
    const id = created.body.ticket.id as number;
    await api(`/api/v2/tickets/${id}`, { method: 'PUT', body: { ticket: { comment: { body: 'private note', public: false }, priority: 'high' } } });
    await api(`/api/v2/tickets/${id}`, { method: 'PUT', body: { ticket: { status: 'pending' } } });
    const sam = sim.state.findUserByEmail('sam@example.com')!;
    sim.addCommentRemotely(id, { body: 'from the UI' }, sam.id);
    sim.updateTicketRemotely(id, {}); // no change, no audit
    sim.deleteTicketRemotely(id);

    const pages = await allEventPages(`/api/v2/incremental/ticket_events?start_time=${since}&include=comment_events`);
    const events = pages.flatMap((p) => p.ticket_events as Json[]).filter((e) => e.ticket_id === id);
    expect(events).toHaveLength(5);
    const comments = events.flatMap((e) => (e.child_events as Json[]).filter((x) => x.event_type === 'Comment'));
    expect(comments.map((c) => c.body)).toEqual(['opening', 'private note', 'from the UI']);
    expect(comments[0]!.attachments).toEqual([expect.objectContaining({ file_name: 'log.txt', content_url: expect.stringContaining('/attachments/token/') })]);
    expect(comments[1]!.public).toBe(false);
    expect(comments[2]!.author_id).toBe(sam.id);
    expect(events[2]!.child_events).toEqual([expect.objectContaining({ event_type: 'Change', status: 'pending', previous_value: 'open' })]);
    expect(events[3]!.via).toBe('Web form');
    expect(events[4]!.child_events).toEqual([expect.objectContaining({ event_type: 'Change', status: 'deleted' })]);
    const stamps = pages.flatMap((p) => p.ticket_events as Json[]).map((e) => e.timestamp as number);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));

    // The deleted ticket is listed by /deleted_tickets.
    const deleted = await api('/api/v2/deleted_tickets?page[size]=100');
    expect(deleted.body.deleted_tickets).toEqual([expect.objectContaining({ id, subject: 'events', previous_state: 'pending', actor: { id: expect.any(Number), name: expect.any(String) } })]);
  });

  it('pages by end_time: 1000 events a page, time-ordered, the boundary second repeated, to end_of_stream', async () => {
    const big = await startZendeskSimulator();
    try {
      const call = client(big);
      big.seedTickets(1_500, { commentsPerTicket: 2, spacingMs: 400 });
      const pages: Json[] = [];
      let url = '/api/v2/incremental/ticket_events?start_time=0&include=comment_events';
      for (;;) {
        const r = await call(url);
        pages.push(r.body);
        if (r.body.end_of_stream) break;
        expect(pages.length).toBeLessThan(100);
        url = r.body.next_page;
      }
      expect(pages.length).toBe(4);
      for (const p of pages.slice(0, -1)) {
        expect(p.count).toBe(p.ticket_events.length);
        expect(p.count).toBeGreaterThanOrEqual(1000);
        expect(p.end_time).toBe(p.ticket_events.at(-1).timestamp);
        expect(p.next_page).toContain('include=comment_events');
      }
      const all = pages.flatMap((p) => p.ticket_events as Json[]);
      expect(new Set(all.map((e) => e.id)).size).toBe(3_000);
      // Only the boundary seconds come twice.
      expect(all.length - 3_000).toBeLessThanOrEqual(3 * 6);
      const stamps = all.map((e) => e.timestamp as number);
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
      const comments = all.flatMap((e) => (e.child_events as Json[]).filter((x) => x.event_type === 'Comment'));
      expect(new Set(comments.map((c) => c.id)).size).toBe(3_000);

      const perPage = await call('/api/v2/incremental/ticket_events?start_time=0&per_page=10');
      expect(perPage.body.ticket_events.length).toBeGreaterThanOrEqual(10);
      expect(perPage.body.ticket_events.length).toBeLessThan(20);
      if (hasSpec) expectNoSpecViolations(big);
    } finally {
      await big.close();
    }
  });

  it('is admin only, needs start_time, and honours the export lag', async () => {
    const sam = sim.credentials.find((c) => c.email === 'sam@example.com');
    if (sam) expect((await client(sim, sim.authHeader(sam))('/api/v2/incremental/ticket_events?start_time=0')).status).toBe(403);
    const lagged = await startZendeskSimulator({ incrementalExportLagSeconds: 60, specFile: null });
    try {
      expect((await client(lagged)('/api/v2/incremental/ticket_events')).status).toBe(400);
      lagged.seedTickets(10, { spacingMs: 20_000 }); // spread over the last 200 s
      const r = await client(lagged)('/api/v2/incremental/ticket_events?start_time=0');
      expect(r.body.ticket_events.length).toBeGreaterThanOrEqual(6);
      expect(r.body.ticket_events.length).toBeLessThanOrEqual(8);
      expect(r.body.end_of_stream).toBe(true);
      const tooRecent = await client(lagged)(`/api/v2/incremental/ticket_events?start_time=${Math.floor(Date.now() / 1000) - 10}`);
      expect(tooRecent.status).toBe(422);
    } finally {
      await lagged.close();
    }
  });

  it('keeps every request and response within the Zendesk spec (known deviations aside)', () => {
    if (!hasSpec) return;
    expectNoSpecViolations(sim);
  });
});

describe('zendesk simulator: scale', () => {
  it('seeds 50,000 tickets and serves 5,000 over 100-ticket pages and the exports in bounded pages (timings: bench/)', async () => {
    const sim = await startZendeskSimulator();
    try {
      sim.seedTickets(50_000, { commentsPerTicket: 2 });
      expect(sim.state.tickets.size).toBe(50_000);

      const api = client(sim);
      let url: string | null = '/api/v2/tickets.json?page[size]=100';
      let n = 0;
      while (url && n < 5_000) {
        const r: Awaited<ReturnType<typeof api>> = await api(url);
        n += r.body.tickets.length;
        url = r.body.meta.has_more ? r.body.links.next : null;
      }
      expect(n).toBe(5_000);

      // the cursor export over the whole account stays bounded per page
      const exp = await api('/api/v2/incremental/tickets/cursor?start_time=0');
      expect(exp.body.tickets).toHaveLength(1000);
      // so does the ticket event export, with the comments
      const events = await api('/api/v2/incremental/ticket_events?start_time=0&include=comment_events');
      expect(events.body.ticket_events.length).toBeGreaterThanOrEqual(1000);
      expect(events.body.end_of_stream).toBe(false);
      expectNoSpecViolations(sim);
    } finally {
      await sim.close();
    }
  });

  it('adds latencyMs to every response', async () => {
    const sim = await startZendeskSimulator({ latencyMs: 60, specFile: null });
    try {
      const t0 = Date.now();
      await client(sim)('/api/v2/groups');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    } finally {
      await sim.close();
    }
  });
});
