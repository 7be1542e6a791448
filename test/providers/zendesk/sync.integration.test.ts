import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../../src/providers/registry';
import { createZendeskAdapter } from '../../../src/providers/zendesk';
import { startZendeskSimulator } from '../../simulators/zendesk';
import { startTestServer, type TestServer } from '../../support/harness';
import { syncAndWait, waitForSync } from '../../support/sync-wait';

type Sim = Awaited<ReturnType<typeof startZendeskSimulator>>;
let sim: Sim;
let server: TestServer;
let token: string;
let connectionId: string;
const TICKETS = 5000;
const headers = () => ({ 'x-connection-token': token });

beforeAll(async () => {
  sim = await startZendeskSimulator();
  // A minute apart: the tickets span days, so the incremental overlap window holds only a few.
  sim.seedTickets(TICKETS, { commentsPerTicket: 2, spacingMs: 60_000 });
  // Small pages: the export and the lists are read across many pages.
  const adapter = createZendeskAdapter({ exportPageSize: 250, listPageSize: 2 });
  server = await startTestServer({ providers: new ProviderRegistry([adapter]) });
  const cred = sim.credentials[0]!;
  const startedAt = Date.now();
  const res = await server.call('POST', '/connections', {
    body: { provider: 'zendesk', linked_user_origin_id: 'big-account', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
  });
  expect(res.status).toBe(201);
  token = res.body.data.connection_token;
  connectionId = res.body.data.id_connection;
  await waitForSync(server, token, startedAt, 240_000);
}, 300_000);
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

async function listAll(path: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await server.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { headers: headers() });
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((o: { id: string }) => o.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  return ids;
}

describe('Zendesk sync at scale', () => {
  it('synced every ticket and comment across many pages on connection', async () => {
    const ticketIds = await listAll('/ticketing/tickets', 1000);
    expect(ticketIds).toHaveLength(TICKETS);
    expect(new Set(ticketIds).size).toBe(TICKETS);
    const exportCalls = sim.requests.filter((r) => r.path.startsWith('/api/v2/incremental/tickets/cursor'));
    expect(exportCalls.length).toBeGreaterThanOrEqual(TICKETS / 250);
    // Comments come from the ticket event export, 1000 events (here comments) a call: calls follow
    // export pages, not tickets — no per-ticket comment listing, one role lookup for the run.
    const eventCalls = sim.requests.filter((r) => r.path === '/api/v2/incremental/ticket_events');
    expect(eventCalls.length).toBeGreaterThanOrEqual((TICKETS * 2) / 1000);
    expect(eventCalls.length).toBeLessThanOrEqual((TICKETS * 2) / 1000 + 1);
    expect(eventCalls.every((r) => r.query.include === 'comment_events')).toBe(true);
    expect(sim.requests.filter((r) => /^\/api\/v2\/tickets\/\d+\/comments/.test(r.path))).toHaveLength(0);
    expect(sim.requests.filter((r) => r.path === '/api/v2/users/show_many')).toHaveLength(1);
    // The whole first sync of 5,000 tickets and 10,000 comments.
    expect(sim.requests.length).toBeLessThan(60);
    const rows = await server.sql(`select object_type, count(*)::int as n from unified_objects where connection_id = $1 group by object_type`, [connectionId]);
    const counts = Object.fromEntries(rows.map((r) => [r.object_type, r.n]));
    expect(counts['ticketing.ticket']).toBe(TICKETS);
    // Every seeded ticket has its opening comment plus the seeded ones.
    expect(counts['ticketing.comment']).toBe(TICKETS * 2);
    for (const type of ['ticketing.user', 'ticketing.contact', 'ticketing.account', 'ticketing.team', 'ticketing.tag']) expect(counts[type]).toBeGreaterThan(0);
  });

  it('answers every read endpoint with and without remote_data', async () => {
    for (const path of ['tickets', 'comments', 'users', 'contacts', 'accounts', 'tags', 'teams', 'attachments']) {
      const plain = await server.call('GET', `/ticketing/${path}?limit=5`, { headers: headers() });
      expect(plain.status, path).toBe(200);
      if (path !== 'attachments') expect(plain.body.data.length, path).toBeGreaterThan(0);
      for (const o of plain.body.data) {
        expect(o.remote_data).toBeUndefined();
        expect(o).toMatchObject({ id: expect.any(String), remote_id: expect.any(String), field_mappings: {} });
      }
      const withRemote = await server.call('GET', `/ticketing/${path}?limit=5&remote_data=true`, { headers: headers() });
      for (const o of withRemote.body.data) expect(o.remote_data).toBeTypeOf('object');
      if (plain.body.data[0]) {
        const one = await server.call('GET', `/ticketing/${path}/${plain.body.data[0].id}?remote_data=true`);
        expect(one.status, path).toBe(200);
        expect(one.body.data.remote_data).toBeTypeOf('object');
      }
    }
    const bad = await server.call('GET', '/ticketing/tickets?remote_data=yes', { headers: headers() });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues[0].path).toBe('querystring.remote_data');
  });

  it("lists the comments of one ticket, and filters by the provider's modification time", async () => {
    const [first] = (await server.call('GET', '/ticketing/tickets?limit=1', { headers: headers() })).body.data;
    const comments = await server.call('GET', `/ticketing/comments?ticket_id=${first.id}`, { headers: headers() });
    expect(comments.body.data.length).toBeGreaterThanOrEqual(2);
    expect(comments.body.data.every((c: { ticket_id: string }) => c.ticket_id === first.id)).toBe(true);
    const recent = await server.call('GET', `/ticketing/tickets?limit=1000&remote_updated_after=${new Date(Date.now() - 3600_000).toISOString()}`, {
      headers: headers(),
    });
    expect(recent.body.data.length).toBeGreaterThan(0);
    expect(recent.body.data.length).toBeLessThan(200);
  });

  it('picks up only the changes in an incremental run', async () => {
    sim.clearRequests();
    for (const id of [1, 2, 3]) sim.updateTicketRemotely(id, { subject: `changed remotely ${id}` });
    const reply = sim.addCommentRemotely(4, { body: 'A new remote reply' }, sim.state.findUserByEmail('sam@example.com')!.id).comments.at(-1)!;
    const status = await syncAndWait(server, token);
    const comments = status.streams.find((s) => s.stream === 'ticketing.comment')!;
    expect(comments.mode).toBe('incremental');
    // The new comment, plus the few of the overlap window — not the 10,000.
    expect(comments.records_in_run).toBeGreaterThanOrEqual(1);
    expect(comments.records_in_run).toBeLessThan(50);
    expect(sim.requests.filter((r) => r.path === '/api/v2/incremental/ticket_events')).toHaveLength(1);
    const [ticket4] = (await server.sql(`select id from unified_objects where connection_id = $1 and object_type = 'ticketing.ticket' and remote_id = '4'`, [connectionId])) as Array<{ id: string }>;
    const listed = await server.call('GET', `/ticketing/comments?ticket_id=${ticket4!.id}`, { headers: headers() });
    expect(listed.body.data.find((c: { remote_id: string }) => c.remote_id === String(reply.id))).toMatchObject({ body: 'A new remote reply', creator_type: 'USER' });
    const tickets = status.streams.find((s) => s.stream === 'ticketing.ticket')!;
    expect(tickets.mode).toBe('incremental');
    // The three changes, plus the few tickets of the overlap window — not the 5,000.
    expect(tickets.records_in_run).toBeGreaterThanOrEqual(3);
    expect(tickets.records_in_run).toBeLessThan(50);
    const changed = await server.call('GET', '/ticketing/tickets?limit=1000&remote_updated_after=' + new Date(Date.now() - 120_000).toISOString(), {
      headers: headers(),
    });
    expect(changed.body.data.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['changed remotely 1', 'changed remotely 2', 'changed remotely 3']));
  });

  it('resumes a crashed run where it stopped, without reading from the start again', async () => {
    // Fail the export from its third page on, as if the worker died mid-run.
    let pages = 0;
    sim.faults.add({
      path: /^\/api\/v2\/incremental\/tickets\/cursor/,
      match: () => ++pages > 2,
      status: 500,
      times: Infinity,
    });
    const failedRun = server.omniport.services.sync.run(connectionId, 'ticketing.ticket', { full: true });
    await expect(failedRun).rejects.toMatchObject({ status: 502 });
    const state = (await server.call('GET', '/sync/status', { headers: headers() })).body.data.streams.find(
      (s: { stream: string }) => s.stream === 'ticketing.ticket',
    );
    expect(state).toMatchObject({ status: 'failed', mode: 'full' });
    expect(state.records_in_run).toBe(500);

    sim.faults.clear();
    sim.clearRequests();
    const resumed = await server.omniport.services.sync.run(connectionId, 'ticketing.ticket');
    expect(resumed).toMatchObject({ outcome: 'done', mode: 'full', records: TICKETS, markedDeleted: 0 });
    const firstCall = sim.requests.find((r) => r.path.startsWith('/api/v2/incremental/tickets/cursor'))!;
    expect(firstCall.query.cursor, 'the resumed run continued from the saved cursor').toBeDefined();
    expect(firstCall.query.start_time).toBeUndefined();
    expect(await listAll('/ticketing/tickets', 1000)).toHaveLength(TICKETS);
  });

  it('sent and received only what the official Zendesk description allows', () => {
    if (!sim.specAvailable) {
      console.warn('shared/provider-specs/zendesk/oas.yaml is absent: spec validation skipped');
      return;
    }
    expect(sim.specViolations).toEqual([]);
  });
});
