/**
 * The dashboard shows streams whose sync job waits in the queue as queued, not idle (issue 32): a server that
 * works no jobs keeps the first sync of a new connection queued, and the connection's sync card and the
 * connections list say so, and keep refreshing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { startTestServer, type TestServer } from '../support/harness';
import { inMemoryTicketsProvider } from '../support/in-memory-tickets';
import { DashboardClient } from './dashboard-client';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ work: false, providers: new ProviderRegistry([inMemoryTicketsProvider({ name: 'waiting', tickets: 10, pageSize: 10 })]) });
});
afterAll(() => server?.close());

it('shows a stream whose job is queued as queued, and keeps refreshing the card', async () => {
  const made = await server.call('POST', '/connections', {
    body: { provider: 'waiting', linked_user_origin_id: 'queued-customer', credentials: { api_token: 'x' }, base_url: 'http://127.0.0.1:9' },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const client = new DashboardClient(server.url);
  await client.signIn(server.tenant.apiKey);
  const card = await client.request('GET', `/dashboard/connections/${made.body.data.id_connection}/sync`);
  expect(card.status).toBe(200);
  expect(card.text).toMatch(/<th scope="row">ticketing\.ticket<\/th>\s*<td><span class="badge busy">queued<\/span>/);
  expect(card.text).toContain('hx-trigger="every 2s"');
  const list = await client.request('GET', '/dashboard/connections');
  expect(list.text).toContain('syncing (0/1 streams done)');
});
