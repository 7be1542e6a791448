/**
 * The reaper takes over a stream whose worker went silent (its heartbeat older than the stale limit), but never
 * one this process is running: a busy embedded database can hold the heartbeat's write back for a minute while
 * the run goes on. Taking it over would cancel the live job and start a second run of the same stream beside it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import type { ObjectSyncer, ProviderAdapter, UnifiedRecord } from '../../src/providers/types';
import { startTestServer, type TestServer } from '../support/harness';
import { testTokenProvider } from '../support/test-provider';

const waitFor = async (ok: () => boolean | Promise<boolean>, ms = 20_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (await ok()) return true;
  return false;
};

let runs = 0;
let release: () => void = () => {};
const gate = new Promise<void>((r) => (release = r));
const record = (n: number): UnifiedRecord => ({
  objectType: 'ticketing.ticket',
  remoteId: String(n),
  data: { name: `ticket ${n}` },
  remoteData: {},
  remoteCreatedAt: null,
  remoteUpdatedAt: null,
});
// A run that stores its first page, then waits (a provider's pacing, a slow page) before its last one.
const slowSyncer: ObjectSyncer = {
  key: 'ticketing.ticket',
  objectTypes: ['ticketing.ticket'],
  incremental: false,
  reportsDeletions: false,
  async *run() {
    runs++;
    yield { records: [record(1)], resume: '1' };
    await gate;
    yield { records: [record(2)], resume: null };
  },
};
const provider: ProviderAdapter = { ...testTokenProvider, syncers: [slowSyncer] };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ providers: new ProviderRegistry([provider]) });
});
afterAll(async () => {
  release();
  await server?.close();
});

it('leaves a stream this process is running to its run, however old its heartbeat', async () => {
  const res = await server.call('POST', '/connections', {
    body: { provider: 'acme-desk', linked_user_origin_id: 'stalled-takeover', credentials: { email: 'a@b.example', api_token: 't' } },
  });
  expect(res.status).toBe(201);
  const connectionId = res.body.data.id_connection as string;
  const jobs = () => server.sql(`select id, state from pgboss.job where name = 'sync' and singleton_key = $1 order by created_on`, [`${connectionId}:ticketing.ticket`]);
  const stored = async () => Number((await server.sql('select count(*)::int as n from unified_objects where connection_id = $1', [connectionId]))[0]!.n);
  expect(await waitFor(async () => (await stored()) === 1)).toBe(true);
  const [live] = await jobs();
  expect(live).toMatchObject({ state: 'active' });

  // A stale limit of 0: every running stream's heartbeat is too old, this one's included.
  await (server.omniport.jobs as unknown as { takeOverStalled(staleAfterMs: number): Promise<void> }).takeOverStalled(0);
  expect(await jobs()).toEqual([live]);

  release();
  expect(await waitFor(async () => (await stored()) === 2)).toBe(true);
  expect(await waitFor(async () => (await jobs()).every((j) => j.state === 'completed'))).toBe(true);
  expect(runs).toBe(1);
});
