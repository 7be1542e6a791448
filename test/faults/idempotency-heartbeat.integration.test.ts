/**
 * A request that runs longer than the staleness threshold keeps its Idempotency-Key claim alive with its
 * heartbeat: a concurrent retry waits (409, Retry-After within the threshold) instead of taking it over,
 * and once the first answer is kept the retry replays it — one ticket at the provider.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { createZendeskAdapter } from '../../src/providers/zendesk';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';

let sim: ZendeskSimulator;
let server: TestServer;
let token: string;
beforeAll(async () => {
  sim = await startZendeskSimulator();
  server = await startTestServer({ work: false, env: { OMNIPORT_IDEMPOTENCY_STALE_SECONDS: '1' }, providers: new ProviderRegistry([createZendeskAdapter()]) });
  token = await connectZendesk(server, sim);
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

it('a request running 4 s with a 1 s threshold keeps its claim: the retry waits, then replays', async () => {
  const before = sim.state.tickets.size;
  sim.faults.add({ method: 'POST', path: '/api/v2/tickets', delayMs: 4_000 });
  const send = () =>
    server.call('POST', '/ticketing/tickets', { headers: { 'x-connection-token': token, 'idempotency-key': 'slow-1' }, body: { name: 'Slow', description: 'Takes a while' } });
  const first = send();
  await new Promise((r) => setTimeout(r, 2_500));
  const meanwhile = await send();
  expect(meanwhile.status, JSON.stringify(meanwhile.body)).toBe(409);
  expect(meanwhile.body.details.code).toBe('idempotency_in_progress');
  expect(Number(meanwhile.headers.get('retry-after'))).toBe(1);
  const done = await first;
  expect(done.status).toBe(201);
  const replay = await send();
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.data.id).toBe(done.body.data.id);
  expect(sim.state.tickets.size).toBe(before + 1);
});
