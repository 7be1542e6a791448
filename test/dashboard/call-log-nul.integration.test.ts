/**
 * The provider call log at the store boundary: a call whose path or error holds U+0000 (a query value decoded for
 * reading, a provider's error text), which PostgreSQL text refuses, is stored in a storable form, and never drops
 * the other calls of its batch (issue 40 row 5).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { zendeskManifest } from '../../src/providers/zendesk/manifest';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

let server: TestServer;
let sim: ZendeskSimulator;
beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false });
  server = await startTestServer({ work: false, env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

it('keeps every call of a batch in which one path and one error hold U+0000', async () => {
  await connectZendesk(server, sim, { origin: 'call-log-nul' });
  const [conn] = await server.sql("select id from connections where provider = 'zendesk'");
  const connectionId = conn!.id as string;
  const calls = server.omniport.services.dashboard.calls;
  await calls.flush();
  const before = Number((await server.sql('select count(*)::int as n from provider_calls where connection_id = $1', [connectionId]))[0]!.n);
  const at = new Date();
  const report = (path: string, extra: { error?: string; status?: number } = {}) =>
    calls.record({ connectionId, manifest: zendeskManifest, method: 'GET', url: new URL(`https://acme.zendesk.com${path}`), startedAt: at, durationMs: 12, status: 200, ...extra });
  for (let i = 0; i < 20; i++) report(`/api/v2/tickets/${i}.json`);
  report('/api/v2/search.json?query=a%00b');
  report('/api/v2/tickets/99.json', { status: undefined, error: 'socket hang up \u0000 (reset)' });
  await calls.flush();
  const rows = await server.sql('select path, error from provider_calls where connection_id = $1 and started_at = $2 order by id', [connectionId, at]);
  expect(rows).toHaveLength(22);
  expect(Number((await server.sql('select count(*)::int as n from provider_calls where connection_id = $1', [connectionId]))[0]!.n)).toBe(before + 22);
  expect(rows.some((r) => r.path === '/api/v2/search.json?query=a\uFFFDb')).toBe(true);
  expect(rows.some((r) => r.error === 'socket hang up \uFFFD (reset)')).toBe(true);
});
