/**
 * The Freshdesk adapter driven directly (no Omniport server, no database) against the Freshdesk
 * simulator: writes with attachments and refusals, and the syncers run to the last page — the ticket
 * walk past Freshdesk's 300-page cap, the trash, resume positions and the deletion check. Every request
 * must stay within what the Freshdesk reference documents (the simulator's contract check).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectRequestsDocumented } from '../../contracts/contract';
import { contract } from '../../contracts/freshdesk.contract';
import { AppError } from '../../../src/core/errors';
import { idFactory } from '../../../src/core/unified/ids';
import { ProviderError, ProviderHttpClient } from '../../../src/providers/http-client';
import { createFreshdeskAdapter, freshdeskErrorMessage, type FreshdeskAdapterOptions } from '../../../src/providers/freshdesk';
import type { AdapterContext, ObjectSyncer, SyncBatch, SyncOptions, UnifiedRecord } from '../../../src/providers/types';
import { startFreshdeskSimulator, type FreshdeskSimulator, type FreshdeskSimulatorOptions } from '../../simulators/freshdesk';

const ids = idFactory('conn-1');
let sim: FreshdeskSimulator | undefined;
let connections = 0;

afterEach(async () => {
  if (!sim) return;
  const violations = sim.contractViolations;
  const requests = [...sim.requests];
  await sim.close();
  sim = undefined;
  expect(violations, 'requests outside the Freshdesk reference').toEqual([]);
  expectRequestsDocumented(contract, requests);
});

async function setup(simOpts: FreshdeskSimulatorOptions = {}, adapterOpts: FreshdeskAdapterOptions = {}, apiKey?: string) {
  sim = await startFreshdeskSimulator({ rateLimit: { perMinute: 100_000 }, ...simOpts });
  const adapter = createFreshdeskAdapter({ pageSize: 2, ...adapterOpts });
  const credentials = { api_key: apiKey ?? sim.apiKeys[0]! };
  const connectionId = `conn-freshdesk-${++connections}`;
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true, // simulators listen on loopback
    manifest: adapter.manifest,
    connectionId,
    baseUrl: sim.url,
    authHeaders: () => adapter.http.authHeaders(credentials),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 2,
    maxRetryAfterMs: 3_000,
  });
  const ctx: AdapterContext = { connectionId, baseUrl: sim.url, credentials, http, ids };
  return { sim, adapter, ctx, seed: sim.seed! };
}

const syncer = (adapter: { syncers: ObjectSyncer[] }, key: string) => adapter.syncers.find((s) => s.key === key)!;
async function collect(s: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of s.run(ctx, opts)) out.push(b);
  return out;
}
const recordsOf = (batches: SyncBatch[], type?: string): UnifiedRecord[] => batches.flatMap((b) => b.records).filter((r) => !type || r.objectType === type);
async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('freshdesk adapter: writes', () => {
  it('creates a ticket requested by the connection\'s agent when no contact is given, with a first reply', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const { record, related } = await adapter.ticketing!.createTicket(ctx, { name: 'No requester', description: ['Line <1>'], comment: ['On it.'], status: 'ON_HOLD' });
    const t = sim.state.tickets.get(Number(record.remoteId))!;
    expect(t).toMatchObject({ requesterId: seed.apiAgent, status: 3, priority: 1, description: '<div>Line &lt;1&gt;</div>' });
    expect(record.data).toMatchObject({ status: 'ON_HOLD', description: ['Line <1>'] });
    expect(related).toHaveLength(1);
    expect(related![0]!.data).toMatchObject({ body: 'On it.', is_private: false, creator_type: 'USER' });
  });

  it('writes a private note with attachments as multipart, and an incoming note for a contact', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const files = [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('A') }];
    const note = await adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.ticket), body: 'internal', is_private: true, files });
    expect(note.record.data).toMatchObject({ is_private: true, creator_type: 'USER' });
    expect(note.related!.map((a) => a.data.file_name)).toEqual(['a.txt']);
    const sent = sim.requests.find((r) => r.path.endsWith('/notes'))!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data/);
    const incoming = await adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.ticket), body: 'from casey', contact_id: String(seed.casey), files: [] });
    expect(incoming.record.data).toMatchObject({ is_private: false, creator_type: 'CONTACT', contact_id: ids('ticketing.contact', seed.casey) });
  });

  it('refuses what Freshdesk cannot take, naming the field, before any call', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const before = sim.requests.length;
    for (const [input, field] of [
      [{ name: 'x', status: 'IN_PROGRESS' }, 'status'],
      [{ name: 'x', project_id: '1' }, 'project_id'],
      [{ name: 'x', completed_at: '2030-01-01T00:00:00Z' }, 'completed_at'],
      [{ name: 'x', assigned_to: [String(seed.sam), String(seed.robin)] }, 'assigned_to'],
    ] as const) {
      const err = await failure(adapter.ticketing!.createTicket(ctx, input as never));
      expect(err.details.field).toBe(field);
    }
    const err = await failure(adapter.ticketing!.createComment(ctx, { ticket_id: String(seed.ticket), body: 'x', contact_id: String(seed.casey), is_private: true, files: [] }));
    expect(err.details.field).toBe('is_private');
    expect(sim.requests.length).toBe(before);
  });

  it('reads Freshdesk validation errors and refused keys', async () => {
    expect(freshdeskErrorMessage({ description: 'Validation failed', errors: [{ field: 'type', message: 'bad', code: 'invalid_value' }, { field: 'x', message: 'y' }] })).toBe('Validation failed: type: bad (and 1 more)');
    const { adapter, ctx } = await setup({}, {}, 'wrong-key');
    const err = await failure(adapter.verifyCredentials(ctx));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).providerStatus).toBe(401);
  });
});

describe('freshdesk adapter: sync', () => {
  // List all tickets pages by number (`page`, `per_page`) over `order_by=updated_at&order_type=asc`
  // (developers.freshdesk.com/api, List all tickets; Pagination): a ticket changed or trashed after its page
  // was read leaves its place, and every later ticket moves back one place.
  for (const [what, change] of [
    ['changed', (sim: FreshdeskSimulator, id: number) => void sim.updateTicketRemotely(id, { subject: 'changed mid-walk' })],
    ['trashed', (sim: FreshdeskSimulator, id: number) => sim.trashTicketRemotely(id)],
  ] as const) {
    it(`reads every ticket when one already read is ${what} while the walk pages`, async () => {
      const { sim, adapter, ctx } = await setup();
      const bulk = sim.seedTickets(9);
      const lists = () => sim.requests.filter((r) => r.path === '/api/v2/tickets' && r.method === 'GET' && r.query.filter === undefined).length;
      // Between the first and the second page (the request at hand is already recorded): the first ticket read changes.
      const fault = sim.faults.add({ path: '/api/v2/tickets', times: 1, when: (req) => req.query.get('filter') === null && lists() === 2, before: () => change(sim, bulk[0]!) });
      const batches = await collect(syncer(adapter, 'ticketing.ticket'), ctx);
      expect(fault.hits).toBe(1);
      const seen = new Set(recordsOf(batches, 'ticketing.ticket').map((r) => r.remoteId));
      expect([...sim.state.tickets.keys()].map(String).filter((id) => !seen.has(id))).toEqual([]);
      if (what === 'trashed') expect(recordsOf(batches, 'ticketing.ticket').filter((r) => r.deleted).map((r) => r.remoteId)).toEqual([String(bulk[0])]);
      else expect(recordsOf(batches, 'ticketing.ticket').filter((r) => r.remoteId === String(bulk[0])).map((r) => r.data.name)).toContain('changed mid-walk');
    });
  }

  it('goes on by page number inside a second shared by more than a page of tickets, up to the page cap', async () => {
    const { sim, adapter, ctx } = await setup({ maxTicketPages: 3 }, { maxTicketPages: 3 });
    const at = sim.clock.now() - 60_000;
    const requester = sim.seed!.casey;
    const same = Array.from({ length: 5 }, (_, i) => sim.state.createTicket({ subject: `Same ${i}`, requesterId: requester }, at).id);
    const tickets = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx), 'ticketing.ticket');
    expect(new Set(tickets.map((t) => t.remoteId))).toEqual(new Set([...same, sim.seed!.ticket].map(String)));
    // Three pages of one second are all Freshdesk serves: a sixth and seventh ticket of it cannot be reached.
    same.push(sim.state.createTicket({ subject: 'Same 5', requesterId: requester }, at).id, sim.state.createTicket({ subject: 'Same 6', requesterId: requester }, at).id);
    const err = await failure(collect(syncer(adapter, 'ticketing.ticket'), ctx));
    expect(err.message).toMatch(/more than 3 pages/);
  });

  it('walks tickets past the page cap from the last updated_at, then the trash, and resumes from a saved position', async () => {
    const { sim, adapter, ctx } = await setup({ maxTicketPages: 2 }, { maxTicketPages: 2 });
    const made = sim.seedTickets(9, { conversationsPerTicket: 1 });
    sim.trashTicketRemotely(made[0]!);
    const all = await collect(syncer(adapter, 'ticketing.ticket'), ctx);
    const tickets = recordsOf(all, 'ticketing.ticket');
    const live = new Set(tickets.filter((t) => !t.deleted).map((t) => t.remoteId));
    expect(live.size).toBe(9); // 8 seeded + the default ticket
    expect(tickets.filter((t) => t.deleted).map((t) => t.remoteId)).toEqual([String(made[0])]);
    expect(recordsOf(all, 'ticketing.tag').map((t) => t.remoteId)).toContain('billing');
    expect(all.at(-1)!.resume).toBeNull();
    // Every listing asked for updated_since (Freshdesk lists 30 days without it) and no page above the cap.
    const lists = sim.requests.filter((r) => r.path === '/api/v2/tickets' && r.method === 'GET');
    expect(lists.every((r) => typeof r.query.updated_since === 'string' && Number(r.query.page) <= 2)).toBe(true);

    const resumed = await collect(syncer(adapter, 'ticketing.ticket'), ctx, { resume: all[1]!.resume! });
    const again = new Set([...recordsOf(all.slice(0, 2), 'ticketing.ticket'), ...recordsOf(resumed, 'ticketing.ticket')].map((t) => t.remoteId));
    expect(again.size).toBe(10);
  });

  it('incremental runs see changes and trashing since; comments come per changed ticket with attachments', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const full = await collect(syncer(adapter, 'ticketing.comment'), ctx);
    expect(recordsOf(full, 'ticketing.comment')).toHaveLength(2);
    expect(recordsOf(full, 'ticketing.attachment').map((a) => a.data.file_name)).toEqual(['label.txt']);
    sim.clock.advance(10_000);
    const since = new Date(sim.clock.now() - 1_000);
    const made = sim.seedTickets(2);
    sim.clock.advance(5_000);
    sim.updateTicketRemotely(made[0]!, { subject: 'changed' });
    sim.trashTicketRemotely(made[1]!);
    const inc = recordsOf(await collect(syncer(adapter, 'ticketing.ticket'), ctx, { since }), 'ticketing.ticket');
    expect(inc.map((t) => [t.remoteId, t.data.name, Boolean(t.deleted)])).toEqual(
      expect.arrayContaining([[String(made[0]), 'changed', false], [String(made[1]), 'Ticket 2', true]]),
    );
    expect(inc.map((t) => t.remoteId)).not.toContain(String(seed.ticket));
  });

  it('the deletion check lists the tickets outside the trash', async () => {
    const { sim, adapter, ctx, seed } = await setup();
    const made = sim.seedTickets(3);
    sim.trashTicketRemotely(made[0]!);
    sim.deleteTicketForGood(made[1]!);
    const listed: string[] = [];
    for await (const b of syncer(adapter, 'ticketing.ticket').deletionCheck!.listIds(ctx, {})) listed.push(...b.remoteIds);
    expect(listed.sort()).toEqual([String(seed.ticket), String(made[2])].sort());
  });

  it('syncs agents with their groups, contacts with their company, and lists custom fields by cf_ name', async () => {
    const { adapter, ctx, seed } = await setup();
    const users = recordsOf(await collect(syncer(adapter, 'ticketing.user'), ctx));
    expect(users.find((u) => u.remoteId === String(seed.sam))!.data).toMatchObject({ name: 'Sam Agent', teams: [ids('ticketing.team', seed.group)] });
    const contacts = recordsOf(await collect(syncer(adapter, 'ticketing.contact'), ctx));
    expect(contacts.find((c) => c.remoteId === String(seed.casey))!.data).toMatchObject({ account_id: ids('ticketing.account', seed.acme), phone_number: '+15550100' });
    const fields = await adapter.customFields!.list(ctx, 'ticketing.ticket');
    expect(fields.map((f) => f.id)).toEqual(['cf_order_number', 'cf_refund_amount', 'cf_escalated']);
  });
});
