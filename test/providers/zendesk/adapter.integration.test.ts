/**
 * The Zendesk adapter driven directly (no Omniport server, no database) against the Zendesk simulator:
 * writes, bulk writes, comments with uploads, and every syncer run to the last page, full then incremental.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFactory } from '../../../src/core/unified/ids';
import { AppError } from '../../../src/core/errors';
import { ProviderError, ProviderHttpClient } from '../../../src/providers/http-client';
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../../../src/providers/types';
import { createZendeskAdapter, zendeskAdapter } from '../../../src/providers/zendesk';
import { formatViolation } from '../../support/openapi-validator';
import { startZendeskSimulator, type ZendeskSimulator } from '../../simulators/zendesk';

const ids = idFactory('conn-1');

function context(sim: ZendeskSimulator, adapter = zendeskAdapter, credentials?: Record<string, string>, connectionId = 'conn-1'): AdapterContext {
  const creds = credentials ?? { email: sim.credentials[0]!.email, api_token: sim.credentials[0]!.apiToken };
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl: sim.url,
    authHeaders: () => adapter.http.authHeaders(creds),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 3,
  });
  return { connectionId, baseUrl: sim.url, credentials: creds, http, ids };
}

async function collect(syncer: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of syncer.run(ctx, opts)) out.push(b);
  return out;
}

const recordsOf = (batches: SyncBatch[], type?: string): UnifiedRecord[] =>
  batches.flatMap((b) => b.records).filter((r) => type === undefined || r.objectType === type);

function expectNoSpecViolations(sim: ZendeskSimulator) {
  if (!sim.specAvailable) {
    console.warn('zendesk oas.yaml not found: spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
}

describe('zendesk adapter: writes', () => {
  let sim: ZendeskSimulator;
  let ctx: AdapterContext;
  const adapter = createZendeskAdapter({ jobPollIntervalMs: 10, jobTimeoutMs: 10_000 });
  const ops = adapter.ticketing!;

  beforeAll(async () => {
    sim = await startZendeskSimulator({ jobDelayMs: 30 });
    ctx = context(sim, adapter);
  });
  afterAll(async () => {
    await sim?.close();
  });

  const user = (email: string) => sim.state.findUserByEmail(email)!;
  const org = (name: string) => [...sim.state.organizations.values()].find((o) => o.name === name)!;
  const field = (title: string) => [...sim.state.ticketFields.values()].find((f) => f.title === title)!;

  it('verifies credentials, and refuses bad ones and anonymous answers', async () => {
    await expect(adapter.verifyCredentials(ctx)).resolves.toBeUndefined();

    const bad = context(sim, adapter, { email: 'agent@example.com', api_token: 'wrong' }, 'conn-bad');
    const err = await adapter.verifyCredentials(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).providerStatus).toBe(401);
    expect((err as ProviderError).message).toContain("Couldn't authenticate you");

    sim.faults.add({ path: '/api/v2/users/me', status: 200, body: { user: { id: null, name: 'Anonymous user', role: 'end-user' } } });
    const anon = await adapter.verifyCredentials(ctx).catch((e: unknown) => e);
    expect(anon).toBeInstanceOf(ProviderError);
    expect((anon as ProviderError).providerStatus).toBe(401);
    expect((anon as Error).message).toMatch(/anonymous/);
  });

  it('creates a ticket with every field', async () => {
    const sam = user('sam@example.com');
    const casey = user('casey@acme.example');
    const acme = org('Acme Corp');
    const orderNo = field('Order number');
    const problem = await ops.createTicket(ctx, { name: 'Root cause', description: ['Printers overheat'], type: 'problem' });

    const res = await ops.createTicket(ctx, {
      name: 'Printer on fire',
      status: 'ON_HOLD',
      description: ['It burns.', 'Please send help.'],
      due_date: '2030-01-02T10:00:00Z',
      type: 'Incident',
      parent_ticket: problem.record.remoteId,
      tags: ['fire', 'hardware'],
      priority: 'URGENT',
      assigned_to: [String(sam.id)],
      comment: ['Any news?'],
      account_id: String(acme.id),
      contact_id: String(casey.id),
      customFields: [{ remoteFieldId: String(orderNo.id), value: 'ORD-1' }],
    });

    const remote = sim.state.tickets.get(Number(res.record.remoteId))!;
    expect(remote).toMatchObject({
      subject: 'Printer on fire',
      status: 'hold',
      priority: 'urgent',
      type: 'incident',
      problem_id: Number(problem.record.remoteId),
      tags: ['fire', 'hardware'],
      assignee_id: sam.id,
      requester_id: casey.id,
      organization_id: acme.id,
      description: 'It burns.\n\nPlease send help.',
      due_at: Date.parse('2030-01-02T10:00:00Z'),
    });
    expect(remote.custom_fields.get(orderNo.id)).toBe('ORD-1');
    expect(remote.comments.map((c) => c.body)).toEqual(['It burns.\n\nPlease send help.', 'Any news?']);

    expect(res.record.objectType).toBe('ticketing.ticket');
    expect(res.record.data).toEqual({
      name: 'Printer on fire',
      status: 'ON_HOLD',
      description: ['It burns.\n\nPlease send help.'],
      due_date: '2030-01-02T10:00:00.000Z',
      type: 'incident',
      parent_ticket: ids('ticketing.ticket', problem.record.remoteId),
      project_id: null,
      tags: ['fire', 'hardware'],
      completed_at: null,
      priority: 'URGENT',
      assigned_to: [ids('ticketing.user', sam.id)],
      account_id: ids('ticketing.account', acme.id),
      contact_id: ids('ticketing.contact', casey.id),
    });
    expect(res.record.remoteData.id).toBe(remote.id);
    expect(res.record.remoteCreatedAt).toBeInstanceOf(Date);

    const comments = (res.related ?? []).filter((r) => r.objectType === 'ticketing.comment');
    expect(comments.map((c) => c.data.body)).toEqual(['It burns.\n\nPlease send help.', 'Any news?']);
    expect(comments.map((c) => c.remoteId)).toEqual(remote.comments.map((c) => String(c.id)));
    for (const c of comments) {
      // Written through the API by the connection's admin.
      expect(c.data).toMatchObject({ creator_type: 'USER', user_id: ids('ticketing.user', user('agent@example.com').id), ticket_id: ids('ticketing.ticket', remote.id), is_private: false });
      expect(c.parent).toEqual({ objectType: 'ticketing.ticket', remoteId: String(remote.id) });
      expect(c.remoteCreatedAt).toBeInstanceOf(Date);
    }
  });

  it('turns Zendesk validation errors into clear errors', async () => {
    const casey = user('casey@acme.example');
    const err = await ops.createTicket(ctx, { name: 'x', description: ['y'], assigned_to: [String(casey.id)] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).providerStatus).toBe(422);
    expect((err as Error).message).toBe('zendesk answered 422: RecordInvalid: Record validation errors: Assignee: is not an agent');

    // Zendesk's four ticket types are checked before calling it.
    const badType = await ops.createTicket(ctx, { name: 'x', description: ['y'], type: 'bug' }).catch((e: unknown) => e);
    expect((badType as AppError).code).toBe('unsupported_by_provider');
    expect((badType as AppError).details).toMatchObject({ field: 'type', allowed: ['problem', 'incident', 'question', 'task'] });

    const refused = await ops.createTicket(ctx, { name: 'x', description: ['y'], project_id: 'p1' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(422);
    expect((refused as AppError).details).toMatchObject({ field: 'project_id' });
  });

  it('bulk-creates through create_many, answering each element in input order', async () => {
    const before = sim.state.tickets.size;
    const results = await ops.createTickets!(ctx, [
      { name: 'Bulk one', description: ['first'], priority: 'LOW', tags: ['bulk'] },
      { name: 'Bulk bad', description: ['second'], assigned_to: [String(user('eli@example.net').id)] },
      { name: 'Bulk three', comment: ['opening', 'follow-up'], contact_id: String(user('dana@globex.example').id) },
      { name: 'Bulk local refusal', description: ['x'], completed_at: '2024-01-01T00:00:00Z' },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, false]);

    const [one, bad, three, local] = results;
    if (!one?.ok || !three?.ok || bad?.ok !== false || local?.ok !== false) throw new Error('unexpected shape');
    expect(one.result.record.data).toMatchObject({ name: 'Bulk one', priority: 'LOW', tags: ['bulk'], description: ['first'] });
    expect(three.result.record.data).toMatchObject({ name: 'Bulk three', contact_id: ids('ticketing.contact', user('dana@globex.example').id) });
    expect((three.result.related ?? []).map((r) => r.data.body)).toEqual(['follow-up']);
    expect(bad.error).toBeInstanceOf(ProviderError);
    expect(bad.error.message).toBe('zendesk answered 422: TicketCreateFailed: Assignee: is not an agent');
    expect((local.error as AppError).details).toMatchObject({ field: 'completed_at' });

    expect(sim.state.tickets.size).toBe(before + 2);
    expect(sim.state.tickets.get(Number(three.result.record.remoteId))!.comments.map((c) => c.body)).toEqual(['opening', 'follow-up']);
    expect(sim.requests.filter((r) => r.path.startsWith('/api/v2/tickets/create_many'))).toHaveLength(1);
  });

  it('answers every element outcome_unknown when the bulk job does not finish in time (its tickets may still come)', async () => {
    const slow = createZendeskAdapter({ jobPollIntervalMs: 5, jobTimeoutMs: 20 });
    const sim2 = await startZendeskSimulator({ jobDelayMs: 500, specFile: null });
    try {
      const results = await slow.ticketing!.createTickets!(context(sim2, slow, undefined, 'conn-slow'), [{ name: 'a', description: ['a'] }]);
      expect(results).toHaveLength(1);
      const [only] = results;
      expect(only?.ok).toBe(false);
      expect(only?.ok === false && (only.error as AppError).code).toBe('outcome_unknown');
      await sim2.settleJobs();
      expect([...sim2.state.tickets.values()].filter((t) => t.subject === 'a')).toHaveLength(1);
    } finally {
      await sim2.close();
    }
  });

  it('updates only the fields given', async () => {
    const created = await ops.createTicket(ctx, { name: 'To update', description: ['body'], priority: 'LOW', tags: ['keep'], assigned_to: [String(user('sam@example.com').id)] });
    const id = Number(created.record.remoteId);
    sim.clearRequests();

    const res = await ops.updateTicket(ctx, created.record.remoteId, { status: 'CLOSED', priority: 'HIGH', assigned_to: [] });
    const put = sim.requests.find((r) => r.method === 'PUT')!;
    expect(put.body).toEqual({ ticket: { status: 'solved', priority: 'high', assignee_id: null } });
    // Zendesk assigns a solved ticket to the agent who solves it.
    expect(sim.state.tickets.get(id)).toMatchObject({ status: 'solved', priority: 'high', tags: ['keep'], subject: 'To update', assignee_id: user('agent@example.com').id });
    expect(res.record.data).toMatchObject({ status: 'CLOSED', priority: 'HIGH', tags: ['keep'], name: 'To update' });

    const again = await ops.updateTicket(ctx, created.record.remoteId, {});
    expect(again.record.data.status).toBe('CLOSED');

    const refused = await ops.updateTicket(ctx, created.record.remoteId, { description: ['new'] }).catch((e: unknown) => e);
    expect((refused as AppError).code).toBe('unsupported_by_provider');

    const missing = await ops.updateTicket(ctx, '999999999', { priority: 'LOW' }).catch((e: unknown) => e);
    expect((missing as ProviderError).providerStatus).toBe(404);
  });

  it('adds a private html comment with two attachments, uploaded with one token', async () => {
    const created = await ops.createTicket(ctx, { name: 'With files', description: ['see files'] });
    const sam = user('sam@example.com');
    sim.clearRequests();
    const res = await ops.createComment(ctx, {
      ticket_id: created.record.remoteId,
      html_body: '<p>Logs <b>attached</b></p>',
      is_private: true,
      user_id: String(sam.id),
      creator_type: 'USER',
      files: [
        { fileName: 'crash.log', contentType: 'text/plain', content: Buffer.from('line 1\nline 2\n') },
        { fileName: 'screen.png', contentType: 'image/png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) },
      ],
    });

    const uploads = sim.requests.filter((r) => r.path.startsWith('/api/v2/uploads'));
    expect(uploads).toHaveLength(2);
    expect(uploads[0]!.query.token).toBeUndefined();
    expect(uploads[1]!.query.token).toBeDefined();
    expect(uploads.map((u) => u.query.filename)).toEqual(['crash.log', 'screen.png']);
    const put = sim.requests.find((r) => r.method === 'PUT')!;
    expect(put.body).toEqual({ ticket: { comment: { html_body: '<p>Logs <b>attached</b></p>', public: false, author_id: sam.id, uploads: [uploads[1]!.query.token] } } });

    const remote = sim.state.tickets.get(Number(created.record.remoteId))!.comments.at(-1)!;
    expect(remote.attachmentIds).toHaveLength(2);
    expect(res.record.remoteId).toBe(String(remote.id));
    expect(res.record.data).toMatchObject({
      is_private: true,
      creator_type: 'USER',
      user_id: ids('ticketing.user', sam.id),
      contact_id: null,
      ticket_id: ids('ticketing.ticket', created.record.remoteId),
      attachments: remote.attachmentIds.map((a) => ids('ticketing.attachment', a)),
    });
    expect(String(res.record.data.html_body)).toContain('<b>attached</b>');
    const atts = res.related ?? [];
    expect(atts.map((a) => a.data.file_name)).toEqual(['crash.log', 'screen.png']);
    for (const a of atts) {
      expect(a.objectType).toBe('ticketing.attachment');
      expect(a.parent).toEqual({ objectType: 'ticketing.comment', remoteId: res.record.remoteId });
      expect(a.data).toMatchObject({ uploader: ids('ticketing.user', sam.id), comment_id: ids('ticketing.comment', res.record.remoteId), ticket_id: ids('ticketing.ticket', created.record.remoteId) });
    }
    const content = await fetch(String(atts[0]!.data.file_url));
    expect(await content.text()).toBe('line 1\nline 2\n');
  });

  it('adds a comment written by a contact', async () => {
    const created = await ops.createTicket(ctx, { name: 'From a contact', description: ['x'] });
    const casey = user('casey@acme.example');
    const res = await ops.createComment(ctx, { ticket_id: created.record.remoteId, body: 'Thanks!', contact_id: String(casey.id), files: [] });
    expect(res.record.data).toMatchObject({ body: 'Thanks!', creator_type: 'CONTACT', contact_id: ids('ticketing.contact', casey.id), user_id: null, is_private: false, attachments: [] });
    expect(res.related).toEqual([]);
  });

  it('lists custom fields for field mapping and reads their values back', async () => {
    const cf = adapter.customFields!;
    expect(cf.objectTypes).toEqual(['ticketing.ticket', 'ticketing.user', 'ticketing.contact', 'ticketing.account']);
    const ticketFields = await cf.list(ctx, 'ticketing.ticket');
    const active = [...sim.state.ticketFields.values()].filter((f) => f.removable && f.active);
    expect(ticketFields.map((f) => f.id).sort()).toEqual(active.map((f) => String(f.id)).sort());
    expect(ticketFields.find((f) => f.label === 'Order number')).toEqual({ id: String(field('Order number').id), label: 'Order number', type: 'text', object_type: 'ticketing.ticket' });
    expect((await cf.list(ctx, 'ticketing.contact')).map((f) => f.id)).toEqual(['plan', 'employee_id']);
    expect((await cf.list(ctx, 'ticketing.account')).map((f) => f.id)).toEqual(['tier', 'account_manager']);
    expect(await cf.list(ctx, 'ticketing.comment')).toEqual([]);

    const vip = field('VIP');
    const res = await ops.createTicket(ctx, { name: 'cf', description: ['x'], customFields: [{ remoteFieldId: String(vip.id), value: true }] });
    expect(cf.read('ticketing.ticket', res.record.remoteData, String(vip.id))).toBe(true);
  });

  it('keeps every request and response within the Zendesk spec', () => {
    expectNoSpecViolations(sim);
  });
});

describe('zendesk adapter: comment sync over many export pages', () => {
  let sim: ZendeskSimulator;
  let ctx: AdapterContext;
  const adapter = createZendeskAdapter({ exportLagSeconds: 0 });
  const comments = adapter.syncers.find((s) => s.key === 'ticketing.comment')!;
  const TICKETS = 3000;

  beforeAll(async () => {
    sim = await startZendeskSimulator();
    ctx = context(sim, adapter, undefined, 'conn-events');
    sim.seedTickets(TICKETS, { commentsPerTicket: 3, spacingMs: 500 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('reads every comment with one export call per 1000 comments, not per ticket', async () => {
    sim.clearRequests();
    const batches = await collect(comments, ctx);
    const records = recordsOf(batches, 'ticketing.comment');
    expect(new Set(records.map((r) => r.remoteId)).size).toBe(TICKETS * 3);
    // Events of a page's last second come again at the start of the next page: left out there.
    expect(records).toHaveLength(TICKETS * 3);
    const calls = sim.requests.map((r) => r.path);
    const exportCalls = calls.filter((p) => p === '/api/v2/incremental/ticket_events');
    expect(exportCalls.length).toBe(batches.length);
    expect(exportCalls.length).toBeGreaterThanOrEqual(Math.ceil((TICKETS * 3) / 1000));
    expect(exportCalls.length).toBeLessThanOrEqual(Math.ceil((TICKETS * 3) / 1000) + 1);
    // Authors' roles: one lookup for the few authors of the whole run; nothing per ticket or comment.
    expect(calls.filter((p) => p === '/api/v2/users/show_many')).toHaveLength(1);
    expect(calls.filter((p) => p !== '/api/v2/incremental/ticket_events' && p !== '/api/v2/users/show_many')).toEqual(['/api/v2/deleted_tickets']);
    expect(calls.some((p) => /\/tickets\/\d+\/comments/.test(p))).toBe(false);

    const ticket = [...sim.state.tickets.values()][1234]!;
    for (const c of ticket.comments) {
      const r = records.find((x) => x.remoteId === String(c.id))!;
      expect(r.data).toMatchObject({ body: c.body, is_private: !c.public, ticket_id: ids('ticketing.ticket', ticket.id) });
      expect(r.data.creator_type).toBe(sim.state.users.get(c.author_id)!.role === 'end-user' ? 'CONTACT' : 'USER');
      expect(r.remoteCreatedAt?.getTime()).toBe(Math.floor(c.created_at / 1000) * 1000);
    }
  });

  it('resumes a crashed run at the next start_time', async () => {
    const it1 = comments.run(ctx, {})[Symbol.asyncIterator]();
    const first = (await it1.next()).value as SyncBatch;
    await it1.return?.();
    expect(first.resume).toMatch(/^\d+$/);
    sim.clearRequests();
    const rest = await collect(comments, ctx, { resume: first.resume! });
    expect(sim.requests.find((r) => r.path === '/api/v2/incremental/ticket_events')!.query.start_time).toBe(first.resume);
    const seen = new Set([...first.records, ...recordsOf(rest)].filter((r) => r.objectType === 'ticketing.comment').map((r) => r.remoteId));
    expect(seen.size).toBe(TICKETS * 3);
  });

  it('keeps every request and response within the Zendesk spec', () => {
    expectNoSpecViolations(sim);
  });
});

describe('zendesk adapter: sync', () => {
  let sim: ZendeskSimulator;
  let ctx: AdapterContext;
  const adapter = createZendeskAdapter({ listPageSize: 2, exportPageSize: 100, exportLagSeconds: 0 });
  const syncer = (key: string) => adapter.syncers.find((s) => s.key === key)!;
  let seeded: number[];

  beforeAll(async () => {
    sim = await startZendeskSimulator();
    ctx = context(sim, adapter, undefined, 'conn-sync');
    seeded = sim.seedTickets(230, { commentsPerTicket: 2 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('orders syncers so referenced objects come first', () => {
    expect(adapter.syncers.map((s) => s.key)).toEqual(['ticketing.account', 'ticketing.team', 'ticketing.user', 'ticketing.tag', 'ticketing.ticket', 'ticketing.comment']);
    expect(syncer('ticketing.user').objectTypes).toEqual(['ticketing.user', 'ticketing.contact']);
    expect(syncer('ticketing.comment').objectTypes).toEqual(['ticketing.comment', 'ticketing.attachment']);
  });

  it('full sync of every object, page by page, to the last page', async () => {
    const accounts = await collect(syncer('ticketing.account'), ctx);
    expect(accounts.length).toBeGreaterThan(0);
    expect(recordsOf(accounts).map((r) => r.data.name).sort()).toEqual([...sim.state.organizations.values()].map((o) => o.name).sort());

    const teams = await collect(syncer('ticketing.team'), ctx);
    expect(teams.length).toBe(2); // 3 groups, 2 per page
    expect(recordsOf(teams).map((r) => r.data.name)).toEqual(['Support', 'Billing', 'Escalations']);

    const users = await collect(syncer('ticketing.user'), ctx);
    const agents = [...sim.state.users.values()].filter((u) => u.role !== 'end-user');
    const endUsers = [...sim.state.users.values()].filter((u) => u.role === 'end-user');
    expect(recordsOf(users, 'ticketing.user').map((r) => r.remoteId).sort()).toEqual(agents.map((u) => String(u.id)).sort());
    expect(recordsOf(users, 'ticketing.contact').map((r) => r.remoteId).sort()).toEqual(endUsers.map((u) => String(u.id)).sort());

    const tags = await collect(syncer('ticketing.tag'), ctx);
    const tagNames = new Set(seeded.flatMap((id) => sim.state.tickets.get(id)!.tags));
    expect(tags.length).toBe(Math.ceil(tagNames.size / 2));
    expect(new Set(recordsOf(tags).map((r) => r.remoteId))).toEqual(tagNames);

    const tickets = await collect(syncer('ticketing.ticket'), ctx);
    expect(tickets.length).toBe(3);
    expect(tickets.every((b) => b.resume)).toBe(true);
    const ticketRecords = recordsOf(tickets);
    expect(ticketRecords.map((r) => Number(r.remoteId)).sort((a, b) => a - b)).toEqual(seeded);
    const sample = sim.state.tickets.get(seeded[7]!)!;
    const unified = ticketRecords.find((r) => r.remoteId === String(sample.id))!;
    expect(unified.data.name).toBe(sample.subject);
    // Requesters are end-users (sideloaded roles), so they are contacts.
    expect(unified.data.contact_id).toBe(ids('ticketing.contact', sample.requester_id));

    sim.clearRequests();
    const comments = await collect(syncer('ticketing.comment'), ctx);
    // 460 comments, one ticket event each: one page of the ticket event export, whatever the ticket count.
    expect(comments.length).toBe(1);
    expect(sim.requests.map((r) => r.path)).toEqual(['/api/v2/deleted_tickets', '/api/v2/incremental/ticket_events', '/api/v2/users/show_many']);
    expect(sim.requests[1]!.query).toEqual({ start_time: '0', include: 'comment_events' });
    const commentRecords = recordsOf(comments, 'ticketing.comment');
    expect(commentRecords).toHaveLength(460);
    expect(new Set(commentRecords.map((r) => r.remoteId)).size).toBe(460);
    const first = sample.comments[0]!;
    const c = commentRecords.find((r) => r.remoteId === String(first.id))!;
    expect(c.parent).toEqual({ objectType: 'ticketing.ticket', remoteId: String(sample.id) });
    expect(c.data).toMatchObject({ body: first.body, creator_type: 'CONTACT', contact_id: ids('ticketing.contact', first.author_id), ticket_id: ids('ticketing.ticket', sample.id) });
    const reply = commentRecords.find((r) => r.remoteId === String(sample.comments[1]!.id))!;
    expect(reply.data.creator_type).toBe('USER');
  });

  it('resumes a crashed run after its last saved batch', async () => {
    const s = syncer('ticketing.ticket');
    const it1 = s.run(ctx, {})[Symbol.asyncIterator]();
    const firstBatch = (await it1.next()).value as SyncBatch;
    await it1.return?.();
    expect(firstBatch.records).toHaveLength(100);
    const rest = await collect(s, ctx, { resume: firstBatch.resume! });
    const seen = [...firstBatch.records, ...recordsOf(rest)].map((r) => Number(r.remoteId));
    expect(new Set(seen).size).toBe(230);
    expect(seen).toHaveLength(230);
  });

  it('incremental sync picks only what changed, deletions included', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const since = new Date();
    const [changed, commented, deleted] = [seeded[3]!, seeded[50]!, seeded[120]!];
    sim.updateTicketRemotely(changed, { priority: 'urgent', subject: 'Changed subject' });
    sim.addCommentRemotely(commented, { body: 'New remote comment', public: false }, sim.state.findUserByEmail('sam@example.com')!.id);
    sim.deleteTicketRemotely(deleted);
    const newbie = sim.addUser({ name: 'New Customer', email: 'new@customer.example' });
    sim.clearRequests();

    const tickets = recordsOf(await collect(syncer('ticketing.ticket'), ctx, { since }));
    expect(tickets.map((r) => Number(r.remoteId)).sort((a, b) => a - b)).toEqual([changed, commented, deleted].sort((a, b) => a - b));
    expect(tickets.find((r) => Number(r.remoteId) === changed)!.data).toMatchObject({ name: 'Changed subject', priority: 'URGENT' });
    expect(tickets.find((r) => Number(r.remoteId) === deleted)!.deleted).toBe(true);
    expect(tickets.filter((r) => r.deleted)).toHaveLength(1);
    const exportCall = sim.requests.find((r) => r.path.includes('/incremental/tickets/cursor'))!;
    expect(Number(exportCall.query.start_time)).toBe(Math.floor(since.getTime() / 1000));

    // Only the new comment: a field change or a deletion carries none, older comments are not read again.
    sim.clearRequests();
    const commentBatches = await collect(syncer('ticketing.comment'), ctx, { since });
    const comments = recordsOf(commentBatches, 'ticketing.comment');
    expect(comments.map((c) => c.data.body)).toEqual(['New remote comment']);
    expect(comments[0]!.parent).toEqual({ objectType: 'ticketing.ticket', remoteId: String(commented) });
    expect(comments[0]!.data).toMatchObject({ is_private: true, creator_type: 'USER', user_id: ids('ticketing.user', sim.state.findUserByEmail('sam@example.com')!.id) });
    const eventCall = sim.requests.find((r) => r.path === '/api/v2/incremental/ticket_events')!;
    expect(Number(eventCall.query.start_time)).toBe(Math.floor(since.getTime() / 1000));
    expect(Number(commentBatches.at(-1)!.resume)).toBeGreaterThanOrEqual(Math.floor(since.getTime() / 1000));

    // A full run leaves out the comments of the deleted ticket.
    const all = recordsOf(await collect(syncer('ticketing.comment'), ctx), 'ticketing.comment');
    expect(all).toHaveLength(460 - 2 + 1);
    expect(all.some((c) => c.parent!.remoteId === String(deleted))).toBe(false);

    const users = recordsOf(await collect(syncer('ticketing.user'), ctx, { since }));
    expect(users.map((u) => u.remoteId)).toEqual([String(newbie.id)]);
    expect(users[0]!.objectType).toBe('ticketing.contact');
  });

  it('brings attachments with their comments', async () => {
    const since = new Date(Date.now() - 1000);
    const ops = adapter.ticketing!;
    const created = await ops.createTicket(ctx, { name: 'Files', description: ['see below'] });
    const casey = sim.state.findUserByEmail('casey@acme.example')!;
    const written = await ops.createComment(ctx, {
      ticket_id: created.record.remoteId,
      body: 'Screenshot attached',
      contact_id: String(casey.id),
      files: [{ fileName: 'screen.png', contentType: 'image/png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }],
    });
    const batches = await collect(syncer('ticketing.comment'), ctx, { since });
    const comment = recordsOf(batches, 'ticketing.comment').find((r) => r.remoteId === written.record.remoteId)!;
    expect(comment.data).toMatchObject({ body: 'Screenshot attached', creator_type: 'CONTACT', contact_id: ids('ticketing.contact', casey.id), is_private: false });
    const attachments = recordsOf(batches, 'ticketing.attachment');
    expect(attachments).toHaveLength(1);
    expect(attachments[0]!.data).toMatchObject({
      file_name: 'screen.png',
      file_url: expect.stringContaining('/attachments/token/'),
      uploader: ids('ticketing.contact', casey.id),
      comment_id: ids('ticketing.comment', written.record.remoteId),
      ticket_id: ids('ticketing.ticket', created.record.remoteId),
    });
    expect(comment.data.attachments).toEqual([ids('ticketing.attachment', attachments[0]!.remoteId)]);
    // Synced exactly as written.
    expect(comment.data).toEqual(written.record.data);
    expect(await (await fetch(String(attachments[0]!.data.file_url))).arrayBuffer()).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]).buffer);
  });

  it('rides out a rate limit during sync', async () => {
    sim.faults.add({ path: '/api/v2/incremental/tickets/cursor', status: 429, retryAfterSeconds: 0 });
    const tickets = recordsOf(await collect(syncer('ticketing.ticket'), ctx));
    expect(tickets).toHaveLength(230 + 1);
    sim.faults.add({ path: '/api/v2/incremental/ticket_events', status: 429, retryAfterSeconds: 0 });
    expect(recordsOf(await collect(syncer('ticketing.comment'), ctx), 'ticketing.comment').length).toBeGreaterThan(400);
  });

  it('keeps every request and response within the Zendesk spec', () => {
    expectNoSpecViolations(sim);
  });
});
