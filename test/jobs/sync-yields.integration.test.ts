/**
 * A sync never starves the API (issue 32): a provider page of 3,000 tickets is saved in slices, each its own
 * transaction with the event loop given back between them, so requests are answered while it is saved and the
 * stream's `records_in_run` rises as it goes. On the embedded database, before slices and yielding statements,
 * no request was answered until the whole page was saved (PGlite answers through promise continuations only).
 * What is checked is behaviour (answers during the run, a rising count), not time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { startTestServer, type TestServer } from '../support/harness';
import { inMemoryTicketsProvider } from '../support/in-memory-tickets';

const TICKETS = 3_000;

/** A provider whose one page holds every ticket (as the 60,000-ticket page did). */
const onePage = inMemoryTicketsProvider({ name: 'one-page', tickets: TICKETS, pageSize: TICKETS });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ work: false, providers: new ProviderRegistry([onePage]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(() => server?.close());

it('answers requests while a 3,000-ticket page is saved, and shows the count rising', async () => {
  const made = await server.call('POST', '/connections', {
    body: { provider: 'one-page', linked_user_origin_id: 'yields', credentials: { api_token: 'x' }, base_url: 'http://127.0.0.1:9' },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const token = made.body.data.connection_token as string;
  let running = true;
  const run = server.omniport.services.sync.run(made.body.data.id_connection, 'ticketing.ticket').finally(() => (running = false));

  const answeredDuring: string[] = [];
  const counts: number[] = [];
  while (running) {
    const [health, status] = await Promise.all([
      fetch(`${server.url}/health`).then((r) => r.status),
      server.call('GET', '/sync/status', { headers: { 'x-connection-token': token } }),
    ]);
    if (!running) break;
    expect(health).toBe(200);
    answeredDuring.push('health');
    const stream = (status.body.data.streams as { stream: string; status: string; records_in_run: number }[]).find((s) => s.stream === 'ticketing.ticket');
    if (stream?.status === 'running') counts.push(stream.records_in_run);
    // A client polling every 50 ms.
    await new Promise((r) => setTimeout(r, 50));
  }
  const result = await run;
  console.log(`sync of ${TICKETS} tickets in one page: ${answeredDuring.length} polls answered during it; records_in_run seen ${counts.join(', ')}`);
  expect(result).toMatchObject({ outcome: 'done', records: TICKETS });
  // Answers came while the page was being saved, and the count rose through the page.
  expect(answeredDuring.length).toBeGreaterThanOrEqual(3);
  const rises = counts.filter((c, i) => i > 0 && c > counts[i - 1]!).length;
  expect(rises, `records_in_run seen: ${counts.join(', ')}`).toBeGreaterThanOrEqual(2);
  // Counts seen in the middle of the page (after its last slice, the stream is still running until the run ends).
  expect(counts.filter((c) => c > 0 && c < TICKETS).length).toBeGreaterThanOrEqual(2);
  const listed = await server.call('GET', '/ticketing/tickets?limit=1', { headers: { 'x-connection-token': token } });
  expect(listed.status).toBe(200);
  expect(listed.body.data).toHaveLength(1);
  // A loaded machine (CI runs four files at once) saves a slice in hundreds of milliseconds, not tens.
}, 180_000);
