/**
 * The Gorgias adapter driven directly (no Omniport server, no database) against the Gorgias simulator:
 * creates, updates, messages with attachments, refusals, and every syncer run to the last page, full then
 * incremental, resumed, with stale cursors and with pacing against the leaky bucket. Every request must
 * stay within what the Gorgias reference documents (the simulator's contract check).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectRequestsDocumented, TEST_TRAFFIC_HEADER } from '../../contracts/contract';
import { contract } from '../../contracts/gorgias.contract';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderBudgets } from '../../../src/providers/budgets';
import { rateLimitOf } from '../../../src/dashboard/provider-calls';
import { ProviderError, ProviderHttpClient, type ProviderCallReport } from '../../../src/providers/http-client';
import { createGorgiasAdapter, type GorgiasAdapterOptions } from '../../../src/providers/gorgias';
import type { AdapterContext, ObjectSyncer, ProviderAdapter, SyncBatch, SyncOptions, UnifiedRecord } from '../../../src/providers/types';
import { startGorgiasSimulator, type GorgiasSimulator, type GorgiasSimulatorOptions } from '../../simulators/gorgias';

const ids = idFactory('conn-1');
let sim: GorgiasSimulator | undefined;
let connections = 0;

afterEach(async () => {
  if (sim) {
    const violations = sim.contractViolations;
    const requests = [...sim.requests];
    await sim.close();
    sim = undefined;
    expect(violations, 'requests outside the Gorgias reference').toEqual([]);
    expectRequestsDocumented(contract, requests);
  }
});

async function setup(simOpts: GorgiasSimulatorOptions = {}, adapterOpts: GorgiasAdapterOptions = {}, credentials?: Record<string, string>) {
  sim = await startGorgiasSimulator({ rateLimit: { limit: 10_000 }, ...simOpts });
  const adapter = createGorgiasAdapter({ pageSize: 2, ...adapterOpts });
  const cred = sim.credentials[0]!;
  const creds = credentials ?? { email: cred.email, api_token: cred.apiKey };
  const connectionId = `conn-gorgias-${++connections}`;
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl: sim.url,
    authHeaders: () => adapter.http.authHeaders(creds),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 3,
    maxRetryAfterMs: 3_000,
  });
  const ctx: AdapterContext = { connectionId, baseUrl: sim.url, credentials: creds, http, ids };
  return { sim, adapter, ctx, seed: sim.seed! };
}

const syncer = (adapter: ProviderAdapter, key: string): ObjectSyncer => adapter.syncers.find((s) => s.key === key)!;

async function collect(s: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of s.run(ctx, opts)) out.push(b);
  return out;
}

const recordsOf = (batches: SyncBatch[], type?: string): UnifiedRecord[] => batches.flatMap((b) => b.records).filter((r) => !type || r.objectType === type);

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected a failure').toBeInstanceOf(AppError);
  return err as AppError;
}

const file = (name: string, text: string, type = 'text/plain') => ({ fileName: name, contentType: type, content: Buffer.from(text) });

describe('gorgias adapter: writes', () => {
  it('creates a ticket from a contact with every field, comments as agent messages, and answers its messages', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const { record, related } = await adapter.ticketing!.createTicket(ctx, {
      name: 'Printer on fire',
      description: ['It started smoking.', 'Then flames.'],
      comment: ['A technician is on the way.'],
      status: 'OPEN',
      priority: 'HIGH',
      type: 'email',
      tags: ['hardware', 'billing'],
      assigned_to: [String(seed.sam)],
      contact_id: String(seed.casey),
      customFields: [{ remoteFieldId: String(seed.orderNumberField), value: 'ORD-1' }],
    });
    const t = sim.state.tickets.get(Number(record.remoteId))!;
    expect(t).toMatchObject({ subject: 'Printer on fire', priority: 'high', channel: 'email', via: 'api', customerId: seed.casey, assigneeUserId: seed.sam });
    expect(t.tagIds.map((id) => sim.state.tags.get(id)!.name)).toEqual(['hardware', 'billing']);
    expect(t.fields.get(seed.orderNumberField)?.value).toBe('ORD-1');
    const messages = sim.state.messagesOf(t.id);
    expect(messages.map((m) => [m.fromAgent, m.sender, m.receiver, m.bodyText])).toEqual([
      [false, { kind: 'customer', id: seed.casey }, null, 'It started smoking.\n\nThen flames.'],
      [true, { kind: 'user', id: seed.apiUser }, { kind: 'customer', id: seed.casey }, 'A technician is on the way.'],
    ]);
    expect(record.data).toMatchObject({
      name: 'Printer on fire',
      status: 'OPEN',
      priority: 'HIGH',
      type: 'email',
      description: ['It started smoking.\n\nThen flames.'],
      tags: ['hardware', 'billing'],
      assigned_to: [ids('ticketing.user', seed.sam)],
      contact_id: ids('ticketing.contact', seed.casey),
    });
    expect(related?.map((r) => [r.objectType, r.data.creator_type])).toEqual([
      ['ticketing.comment', 'CONTACT'],
      ['ticketing.comment', 'USER'],
    ]);
    // One call: the email of the credentials names the sender, no lookup needed.
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/tickets']);
  });

  it('opens a ticket as the connection user when there is no contact (bearer connections look the user up once)', async () => {
    const { sim, adapter, ctx, seed } = await setup({ accessTokens: ['oauth-token'] }, {}, { access_token: 'oauth-token' });
    const a = await adapter.ticketing!.createTicket(ctx, { name: 'Internal task', description: ['Restock'] });
    const b = await adapter.ticketing!.createTicket(ctx, { name: 'Another', description: ['More'] });
    for (const r of [a, b]) {
      const [first] = sim.state.messagesOf(Number(r.record.remoteId));
      expect(first).toMatchObject({ fromAgent: true, sender: { kind: 'user', id: seed.apiUser }, channel: 'api' });
      expect(r.record.data.contact_id).toBeNull();
    }
    expect(sim.requests.filter((r) => r.path === '/api/users/0')).toHaveLength(1);
  });

  it('updates only what is given; custom fields through /custom-fields leave the others alone', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const t = sim.state.tickets.get(seed.ticket)!;
    sim.state.setCustomFields(t, [{ id: seed.refundField, value: 12.5 }], 'custom_fields', false);
    const { record } = await adapter.ticketing!.updateTicket(ctx, String(seed.ticket), {
      name: 'Lost parcel',
      status: 'CLOSED',
      priority: 'LOW',
      assigned_to: [],
      tags: ['vip'],
      customFields: [{ remoteFieldId: String(seed.orderNumberField), value: 'ORD-8' }],
    });
    expect(t).toMatchObject({ subject: 'Lost parcel', status: 'closed', priority: 'low', assigneeUserId: null });
    expect([...t.fields.entries()].map(([k, v]) => [k, v.value])).toEqual([
      [seed.orderNumberField, 'ORD-8'],
      [seed.refundField, 12.5],
    ]);
    expect(record.data).toMatchObject({ name: 'Lost parcel', status: 'CLOSED', priority: 'LOW', assigned_to: [], tags: ['vip'] });
    expect(record.data.completed_at).toEqual(expect.any(String));
    expect(adapter.customFields!.read('ticketing.ticket', record.remoteData, String(seed.orderNumberField))).toBe('ORD-8');

    sim.clearRequests();
    const only = await adapter.ticketing!.updateTicket(ctx, String(seed.ticket), { customFields: [{ remoteFieldId: String(seed.escalatedField), value: true }] });
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /api/tickets/${seed.ticket}/custom-fields`, `GET /api/tickets/${seed.ticket}`]);
    expect(adapter.customFields!.read('ticketing.ticket', only.record.remoteData, String(seed.escalatedField))).toBe(true);
  });

  it('comments with attachments (uploaded first), internal notes and customer messages', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const { record, related } = await adapter.ticketing!.createComment(ctx, {
      ticket_id: String(seed.ticket),
      body: 'Here is the label.',
      user_id: String(seed.sam),
      files: [file('label.txt', 'SHIP-1'), file('log.json', '{"a":1}', 'application/json')],
    });
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/tickets/${seed.ticket}`, 'POST /api/upload', `POST /api/tickets/${seed.ticket}/messages`]);
    const m = sim.state.messages.get(Number(record.remoteId))!;
    expect(m).toMatchObject({ fromAgent: true, public: true, channel: 'api', sender: { kind: 'user', id: seed.sam }, receiver: { kind: 'customer', id: seed.casey } });
    expect(m.attachments.map((a) => [a.name, a.contentType, a.size])).toEqual([
      ['label.txt', 'text/plain', 6],
      ['log.json', 'application/json', 7],
    ]);
    expect(record.data).toMatchObject({ body: 'Here is the label.', creator_type: 'USER', is_private: false, ticket_id: ids('ticketing.ticket', seed.ticket) });
    expect(related?.map((a) => a.data.file_name)).toEqual(['label.txt', 'log.json']);
    // The hosted file is there, behind the account's credentials.
    const download = await fetch(String(related![0]!.data.file_url), { headers: { authorization: sim.authHeader(), [TEST_TRAFFIC_HEADER]: '1' } });
    expect(await download.text()).toBe('SHIP-1');

    const note = await adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.ticket), html_body: '<p>Escalate?</p>', is_private: true, files: [] });
    expect(sim.state.messages.get(Number(note.record.remoteId))).toMatchObject({ channel: 'internal-note', public: false, fromAgent: true, sender: { kind: 'user', id: seed.apiUser }, receiver: null });
    expect(note.record.data).toMatchObject({ is_private: true, body: 'Escalate?' });

    const reply = await adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.ticket), body: 'Thanks!', contact_id: String(seed.casey), files: [] });
    expect(reply.record.data).toMatchObject({ creator_type: 'CONTACT', contact_id: ids('ticketing.contact', seed.casey) });
  });

  it('refuses what Gorgias cannot take before calling it, and reports what Gorgias refuses', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    sim.clearRequests();
    const refused = await failure(adapter.ticketing!.createTicket(ctx, { name: 'x', description: ['d'], due_date: '2030-01-01T00:00:00Z' }));
    expect(refused).toMatchObject({ code: 'unsupported_by_provider', details: { field: 'due_date' } });
    const status = await failure(adapter.ticketing!.updateTicket(ctx, String(seed.ticket), { status: 'ON_HOLD' }));
    expect(status.details.field).toBe('status');
    expect(sim.requests).toEqual([]);

    const missing = await failure(adapter.ticketing!.createComment(ctx, { ticket_id: '99999', body: 'hello', files: [] }));
    expect(missing).toBeInstanceOf(ProviderError);
    expect(missing.details).toMatchObject({ provider: 'gorgias', provider_status: 404, provider_message: 'Ticket not found' });
    const badUser = await failure(adapter.ticketing!.createTicket(ctx, { name: 'x', description: ['d'], assigned_to: ['424242'] }));
    expect(badUser.details).toMatchObject({ provider_status: 400, provider_message: 'Invalid data: assignee_user.id: User 424242 does not exist.' });
  });

  it('verifies credentials with GET /api/users/0', async () => {
    const { adapter, ctx, sim } = await setup();
    await expect(adapter.verifyCredentials(ctx)).resolves.toBeUndefined();
    const bad = new ProviderHttpClient({
      allowPrivateAddresses: true, // simulators listen on loopback
      manifest: adapter.manifest,
      connectionId: 'conn-bad',
      baseUrl: sim.url,
      authHeaders: () => adapter.http.authHeaders({ email: sim.credentials[0]!.email, api_token: 'wrong' }),
      errorMessage: adapter.http.errorMessage,
    });
    const err = await failure(adapter.verifyCredentials({ ...ctx, http: bad }));
    expect(err.details).toMatchObject({ provider_status: 401, provider_message: expect.stringContaining('Unauthorized') });
  });

  it('reads the call-limit header as used/limit: the calls left for the dashboard, a full bucket holds the connection', async () => {
    const { adapter, ctx, sim } = await setup({ rateLimit: { limit: 3 } });
    sim.clock.freeze(); // the bucket does not leak: each call adds one
    const reports: ProviderCallReport[] = [];
    const http = new ProviderHttpClient({
      allowPrivateAddresses: true, // simulators listen on loopback
      manifest: adapter.manifest,
      connectionId: 'conn-gorgias-usage',
      baseUrl: sim.url,
      authHeaders: () => adapter.http.authHeaders(ctx.credentials),
      errorMessage: adapter.http.errorMessage,
      paceBudgets: true,
      budgets: new ProviderBudgets(),
      onCall: (c) => reports.push(c),
    });
    const sent: number[] = [];
    for (let i = 0; i < 4; i++) {
      await adapter.verifyCredentials({ ...ctx, http });
      sent.push(Date.now());
    }
    expect(reports.map((r) => r.headers?.['x-gorgias-account-api-call-limit'])).toEqual(['1/3', '2/3', '3/3', '3/3']);
    expect(reports.map((r) => rateLimitOf(r)?.remaining)).toEqual(['2', '1', '0', '0']);
    // 3/3 is a full bucket (not "3 left"): the next call waits for it to leak (at least the manifest's hold)
    expect(sent[3]! - sent[2]!).toBeGreaterThanOrEqual(950);
  });
});

describe('gorgias adapter: sync', () => {
  it('syncs teams, users with their teams, contacts and tags to the last page', async () => {
    const { adapter, ctx, seed, sim } = await setup();
    const teams = recordsOf(await collect(syncer(adapter, 'ticketing.team'), ctx));
    expect(teams.map((t) => t.data.name)).toEqual(['Tier 1']);
    const userBatches = await collect(syncer(adapter, 'ticketing.user'), ctx);
    expect(userBatches.length).toBeGreaterThan(1);
    expect(userBatches.at(-1)!.resume).toBeNull();
    const users = recordsOf(userBatches);
    expect(users).toHaveLength(sim.state.users.size);
    expect(users.find((u) => u.remoteId === String(seed.sam))!.data.teams).toEqual([ids('ticketing.team', seed.team)]);
    sim.seedTickets(5);
    const contacts = recordsOf(await collect(syncer(adapter, 'ticketing.contact'), ctx));
    expect(contacts).toHaveLength(sim.state.customers.size);
    expect(contacts.find((c) => c.remoteId === String(seed.casey))!.data).toMatchObject({ email_address: 'casey@customer.example', phone_number: '+15550100' });
    const tags = recordsOf(await collect(syncer(adapter, 'ticketing.tag'), ctx));
    expect(tags.map((t) => t.data.name).sort()).toEqual(['billing', 'vip']);
  });

  it('syncs tickets in full (creation order), then incrementally, stopping at the first older ticket', async () => {
    const { adapter, ctx, sim, seed } = await setup();
    const seeded = sim.seedTickets(7, { messagesPerTicket: 2 });
    const s = syncer(adapter, 'ticketing.ticket');
    const full = await collect(s, ctx);
    expect(full.at(-1)!.resume).toBeNull();
    const all = recordsOf(full);
    expect(all.map((r) => Number(r.remoteId))).toEqual([seed.ticket, ...seeded]);
    expect(all.find((r) => r.remoteId === String(seeded[0]))!.data.description).toEqual(['Message 0.0']);

    await new Promise((r) => setTimeout(r, 5));
    const since = new Date();
    await new Promise((r) => setTimeout(r, 5));
    sim.updateTicketRemotely(seeded[2]!, { subject: 'Changed' });
    sim.trashTicketRemotely(seeded[4]!);
    sim.clearRequests();
    const inc = recordsOf(await collect(s, ctx, { since }));
    expect(inc.map((r) => [r.remoteId, r.data.name, r.deleted ?? false])).toEqual([
      [String(seeded[4]), 'Seeded 4', true],
      [String(seeded[2]), 'Changed', false],
    ]);
    // Newest first, trashed included; page 1 is all fresh, page 2 reaches older tickets and ends the walk
    // (the full listing has 4 pages).
    expect(sim.requests.map((r) => ({ ...r.query, cursor: r.query.cursor ? 'c' : undefined }))).toEqual([
      { trashed: 'true', order_by: 'updated_datetime:desc', limit: '2', cursor: undefined },
      { trashed: 'true', order_by: 'updated_datetime:desc', limit: '2', cursor: 'c' },
    ]);
  });

  it('syncs messages with attachments, in full then new ones only', async () => {
    const { adapter, ctx, sim, seed } = await setup();
    sim.seedTickets(2, { messagesPerTicket: 3 });
    const s = syncer(adapter, 'ticketing.comment');
    const full = recordsOf(await collect(s, ctx), 'ticketing.comment');
    expect(full).toHaveLength(sim.state.messages.size);
    const note = full.find((c) => c.data.body === 'Carrier lost it, refund?')!;
    expect(note.data).toMatchObject({ is_private: true, creator_type: 'USER', user_id: ids('ticketing.user', seed.sam), ticket_id: ids('ticketing.ticket', seed.ticket) });

    await new Promise((r) => setTimeout(r, 5));
    const since = new Date();
    await new Promise((r) => setTimeout(r, 5));
    await adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.ticket), body: 'With file', files: [file('a.txt', 'A')], user_id: String(seed.robin) });
    const inc = recordsOf(await collect(s, ctx, { since }));
    expect(inc.map((r) => [r.objectType, r.objectType === 'ticketing.comment' ? r.data.body : r.data.file_name])).toEqual([
      ['ticketing.comment', 'With file'],
      ['ticketing.attachment', 'a.txt'],
    ]);
  });

  it('resumes from a saved position, and starts over when Gorgias refuses an expired cursor', async () => {
    const { adapter, ctx, sim } = await setup({ cursorTtlMs: 60_000 });
    sim.seedTickets(5);
    const s = syncer(adapter, 'ticketing.ticket');
    const iterator = s.run(ctx, {})[Symbol.asyncIterator]();
    const first = (await iterator.next()).value as SyncBatch;
    await iterator.return?.();
    expect(first.resume).toEqual(expect.any(String));
    const rest = recordsOf(await collect(s, ctx, { resume: first.resume! }));
    expect(rest).toHaveLength(6 - first.records.length);
    // An incremental run does not reuse a full run's position.
    expect(recordsOf(await collect(s, ctx, { resume: first.resume!, since: new Date(0) }))).toHaveLength(6);

    sim.clock.advance(120_000);
    sim.clearRequests();
    const restarted = recordsOf(await collect(s, ctx, { resume: first.resume! }));
    expect(restarted).toHaveLength(6);
    expect(sim.requests[0]!.status).toBe(400);
  });

  it('paces list calls by the call-limit header instead of running into 429s', async () => {
    const { adapter, ctx, sim } = await setup({ rateLimit: { limit: 4, windowSeconds: 1, enforce: true } }, { paceWhenRemaining: 1, maxPaceMs: 400 });
    sim.seedTickets(9);
    const records = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx));
    expect(records).toHaveLength(10);
    expect(sim.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(sim.requests.length).toBe(5);

    // Without pacing the same listing overflows the bucket (the HTTP client then waits out the 429s). The bucket
    // does not leak until the first 429: on a loaded machine five calls can take long enough to leak it.
    const unpaced = createGorgiasAdapter({ pageSize: 2, paceWhenRemaining: 0 });
    sim.clock.advance(5_000);
    sim.clearRequests();
    sim.clock.freeze();
    const refused = setInterval(() => sim.requests.some((r) => r.status === 429) && sim.clock.unfreeze(), 5);
    try {
      expect(recordsOf(await collect(syncer(unpaced, 'ticketing.ticket'), ctx))).toHaveLength(10);
    } finally {
      clearInterval(refused);
      sim.clock.unfreeze();
    }
    expect(sim.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });

  it('detects tickets deleted for good only in a full run (they are not listed any more)', async () => {
    const { adapter, ctx, sim } = await setup();
    const [a, b] = sim.seedTickets(2);
    sim.deleteTicketRemotely(a!);
    const listed = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx)).map((r) => Number(r.remoteId));
    expect(listed).not.toContain(a);
    expect(listed).toContain(b);
    expect(syncer(adapter, 'ticketing.ticket').reportsDeletions).toBe(false);
  });
});
