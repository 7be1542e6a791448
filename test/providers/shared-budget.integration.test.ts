/**
 * One budget for every process on a PostgreSQL database: two Omniport instances on one database sync two
 * connections to the same Zendesk account at once, and their incremental exports together stay under the
 * account's export budget (counted in PostgreSQL by rate-limiter-flexible). The same two instances counting
 * each in its own memory exceed it. The budget is scaled down (1 call per 4 s, paced at 1 per 6 s).
 * PostgreSQL only: the embedded database serves one process.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOmniport, type Omniport } from '../../src/app';
import { ProviderBudgets } from '../../src/providers/budgets';
import { ProviderRegistry } from '../../src/providers/registry';
import { zendeskAdapter } from '../../src/providers/zendesk';
import type { ProviderAdapter } from '../../src/providers/types';
import { startTestServer, testConfig, type TestServer } from '../support/harness';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

const onPostgres = Boolean(process.env.DATABASE_URL);
// The simulator allows one export call per 4 s: slower than this loaded machine stores a page, so the budget
// is what binds. Omniport declares one per 6 s: both instances share one event loop here, which a page being
// stored can hold for a second or two on a loaded machine, between a call's turn and its sending.
const WINDOW_S = 4;
const exportBudget = { ...zendeskAdapter.manifest.budgets!.find((b) => b.name === 'incremental export')!, requests: 1, perSeconds: WINDOW_S + 2 };
const scaled: ProviderAdapter = { ...zendeskAdapter, manifest: { ...zendeskAdapter.manifest, budgets: [exportBudget] } };
const providers = new ProviderRegistry([scaled]);
const tuning = { retryBaseMs: 20, maxRetries: 3, timeoutMs: 5_000, maxRetryAfterMs: 30_000 };

let sim: ZendeskSimulator;
let first: TestServer;
const others: Omniport[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  sim = await startZendeskSimulator({ validateSpec: false, rateLimit: { exports: { requests: 1, windowMs: WINDOW_S * 1000 } } });
  sim.seedTickets(4_000);
  first = await startTestServer({ providers, env: { OMNIPORT_PACE_PROVIDER_BUDGETS: 'true' }, work: false, httpTuning: tuning });
});
afterAll(async () => {
  for (const o of others) await o.close();
  await first?.close();
  await sim?.close();
});

/** Another Omniport on the first one's database (its own pool, services and budgets client). */
async function instanceOnSameDatabase(httpTuning: typeof tuning & { budgets?: ProviderBudgets }) {
  const omniport = await createOmniport(testConfig({ OMNIPORT_PACE_PROVIDER_BUDGETS: 'true' }), { target: first.target, box: first.box, providers, httpTuning, jobs: { work: false } });
  others.push(omniport);
  return omniport;
}

const exportCalls = () => sim.requests.filter((r) => r.path.startsWith('/api/v2/incremental/'));

/** Both instances sync the ticket stream of their own connection to the one account, at the same time. */
async function syncBoth(a: Omniport, b: Omniport, label: string) {
  const ids: string[] = [];
  for (const origin of [`${label}-a`, `${label}-b`]) {
    const cred = sim.credentials[0]!;
    const res = await first.call('POST', '/connections', {
      body: { provider: 'zendesk', linked_user_origin_id: origin, credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.data.id_connection);
  }
  const before = exportCalls().length;
  const refusedBefore = exportCalls().filter((r) => r.status === 429).length;
  const started = Date.now();
  const runs = await Promise.all([a.services.sync.run(ids[0]!, 'ticketing.ticket'), b.services.sync.run(ids[1]!, 'ticketing.ticket')]);
  return {
    runs,
    seconds: (Date.now() - started) / 1000,
    calls: exportCalls().length - before,
    refused: exportCalls().filter((r) => r.status === 429).length - refusedBefore,
  };
}

// Retried once: on a loaded machine (CI beside other work) a run was seen left waiting for the provider's reset
// once in a few runs; a broken shared budget fails both attempts (the per-process half below shows what then happens).
it.skipIf(!onPostgres)('two instances on one PostgreSQL database share the account budget: no 429', { retry: 1, timeout: 300_000 }, async () => {
  const second = await instanceOnSameDatabase(tuning);
  const shared = await syncBoth(first.omniport, second, 'shared');
  expect(shared.runs.map((r) => r.outcome)).toEqual(['done', 'done']);
  expect(shared.runs.every((r) => r.records === 4_000)).toBe(true);
  expect(shared.calls).toBeGreaterThan(exportBudget.requests * 2);
  expect(shared.refused).toBe(0);
  // Together no faster than one budget allows.
  const minimum = (shared.calls - 1) * WINDOW_S;
  expect(shared.seconds).toBeGreaterThanOrEqual(minimum * 0.9);
  console.log(`shared budget (1 per ${WINDOW_S} s): ${shared.calls} export calls from 2 instances, ${shared.refused} refused, ${shared.seconds.toFixed(1)} s (minimum ${minimum} s)`);

  // Each instance counting in its own memory: together they send twice the budget and collect 429s.
  const apart = await syncBoth(await instanceOnSameDatabase({ ...tuning, budgets: new ProviderBudgets() }), await instanceOnSameDatabase({ ...tuning, budgets: new ProviderBudgets() }), 'apart');
  // A refusal is still a wait, not a failure: a stream may be left waiting for the provider's reset.
  expect(apart.runs.every((r) => r.outcome === 'done' || r.outcome === 'waiting')).toBe(true);
  expect(apart.refused).toBeGreaterThan(0);
  console.log(`budgets counted per process: ${apart.calls} export calls, ${apart.refused} refused with 429`);
});
