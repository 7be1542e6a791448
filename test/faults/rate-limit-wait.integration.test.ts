/**
 * A provider's rate limit is a wait, not a failure: a sync asked to wait longer than a call may hold
 * saves its position, says `waiting_for_rate_limit` with the time it resumes, and goes on then; a client's
 * request that would have to wait is answered 503 with Retry-After at once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

let server: TestServer;
let sim: ZendeskSimulator;

beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false });
  sim.seedTickets(300);
  // A call holds a Retry-After of at most one second here; the provider will ask for three.
  server = await startTestServer({ httpTuning: { retryBaseMs: 20, maxRetries: 3, timeoutMs: 5_000, maxRetryAfterMs: 1_000 } });
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

interface Stream {
  stream: string;
  status: string;
  resumes_at: string | null;
  last_success_at: string | null;
}

it('waits for the provider and resumes the sync, never recording a failure', async () => {
  sim.faults.add({ path: '/api/v2/incremental/tickets/cursor', status: 429, retryAfterSeconds: 3, times: 1 });
  const startedAt = Date.now();
  const token = await connectZendesk(server, sim, { origin: 'rate-limited' });
  const seen = new Set<string>();
  let waiting: Stream | undefined;
  let done: Stream | undefined;
  for (const deadline = Date.now() + 90_000; !done && Date.now() < deadline; ) {
    const res = await server.call('GET', '/sync/status', { headers: { 'x-connection-token': token } });
    const tickets = (res.body.data.streams as Stream[]).find((s) => s.stream === 'ticketing.ticket')!;
    seen.add(tickets.status);
    if (tickets.status === 'waiting_for_rate_limit') waiting ??= tickets;
    if (tickets.status === 'idle' && tickets.last_success_at) done = tickets;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(waiting?.resumes_at).toBeTruthy();
  expect(Date.parse(waiting!.resumes_at!)).toBeGreaterThanOrEqual(startedAt + 2_000);
  expect(seen.has('failed')).toBe(false);
  expect(done).toBeDefined();
  const stored = await server.sql(`select count(*)::int as n from unified_objects where object_type = 'ticketing.ticket'`);
  expect(stored[0]!.n).toBe([...sim.state.tickets.values()].filter((t) => !t.deleted).length);
});

it('answers a client request that would have to wait with 503 and Retry-After at once', async () => {
  const token = await connectZendesk(server, sim, { origin: 'rate-limited-request' });
  sim.faults.add({ method: 'POST', path: '/api/v2/tickets', status: 429, retryAfterSeconds: 60, times: 1 });
  const before = sim.requests.length;
  const res = await server.call('POST', '/ticketing/tickets', { headers: { 'x-connection-token': token }, body: { name: 'Later', description: 'x' } });
  expect(res.status).toBe(503);
  expect(res.body.details.code).toBe('provider_rate_limited');
  expect(res.headers.get('retry-after')).toBe('60');
  // Answered at once: the provider was asked once, not again after a wait.
  expect(sim.requests.slice(before).filter((r) => r.method === 'POST' && r.path.startsWith('/api/v2/tickets'))).toHaveLength(1);
});
