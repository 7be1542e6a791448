/**
 * Zendesk's incremental exports allow 10 requests a minute per account. A sync that needs more pages than
 * that is paced to the budget declared in the manifest: it finishes with at most one 429 (none on a quiet machine) instead of
 * spending calls on refusals. The budget is scaled down (4 calls per 5 s) on both sides to keep the test quick.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../../src/providers/registry';
import { createZendeskAdapter, zendeskAdapter } from '../../../src/providers/zendesk';
import type { ProviderAdapter } from '../../../src/providers/types';
import { startTestServer, type TestServer } from '../../support/harness';
import { connectZendesk } from '../../support/connect-simulators';
import { syncAndWait } from '../../support/sync-wait';
import { startZendeskSimulator, type ZendeskSimulator } from '../../simulators/zendesk';

// Scaled down so that the test is quick and a sync needs several windows: 4 calls per 5 s on both sides, and
// export pages of 25 tickets instead of 1,000, so that 300 tickets take as many calls as 12,000 would (small
// pages also keep each batch's store short: on the embedded database it holds the event loop between a call's
// slot and its departure, which a busy machine stretches past the pacing margin).
const WINDOW_S = 5;
const TICKETS = 300;
const declared = zendeskAdapter.manifest.budgets!.find((b) => b.name === 'incremental export')!;
const exportBudget = { ...declared, requests: 4, perSeconds: WINDOW_S };
const smallPages = createZendeskAdapter({ exportPageSize: 25 });
const fastWindow: ProviderAdapter = { ...smallPages, manifest: { ...smallPages.manifest, budgets: [exportBudget] } };

let sim: ZendeskSimulator;
/** The same account behind a longer window, for the run without pacing: even a slow machine exceeds it. */
let slowWindowSim: ZendeskSimulator;
const servers: TestServer[] = [];
beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false, rateLimit: { exports: { requests: exportBudget.requests, windowMs: WINDOW_S * 1000 } } });
  sim.seedTickets(TICKETS);
  slowWindowSim = await startZendeskSimulator({ validateSpec: false, rateLimit: { exports: { requests: exportBudget.requests, windowMs: 10_000 } } });
  slowWindowSim.seedTickets(TICKETS);
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await sim?.close();
  await slowWindowSim?.close();
});

async function syncWith(pace: boolean, account = sim) {
  const exportCalls = () => account.requests.filter((r) => r.path.startsWith('/api/v2/incremental/'));
  const server = await startTestServer({ providers: new ProviderRegistry([fastWindow]), env: { OMNIPORT_PACE_PROVIDER_BUDGETS: String(pace) } });
  servers.push(server);
  const before = exportCalls().length;
  const refusedBefore = exportCalls().filter((r) => r.status === 429).length;
  const started = Date.now();
  const token = await connectZendesk(server, account, { origin: `budget-${pace}` });
  const status = await syncAndWait(server, token, { timeoutMs: 180_000 });
  return {
    status,
    seconds: (Date.now() - started) / 1000,
    calls: exportCalls().length - before,
    refused: exportCalls().filter((r) => r.status === 429).length - refusedBefore,
  };
}

it('paces a sync to the incremental export budget: every stream done, at most one 429', async () => {
  const paced = await syncWith(true);
  expect(paced.status.streams.every((s) => s.records_in_run >= 0)).toBe(true);
  expect(paced.calls).toBeGreaterThan(exportBudget.requests * 2);
  // The bound is one refusal per window at most; on a quiet machine there is none. A refused call is
  // held and retried after the provider's Retry-After, never failed.
  expect(paced.refused).toBeLessThanOrEqual(1);
  // No faster than the budget allows: the calls beyond the first window waited for the next ones.
  const minimum = (Math.ceil(paced.calls / exportBudget.requests) - 1) * WINDOW_S;
  expect(paced.seconds).toBeGreaterThanOrEqual(minimum * 0.9);
  expect(declared).toMatchObject({ requests: 10, perSeconds: 60 });
  console.log(`zendesk export budget (4 per ${WINDOW_S} s): ${paced.calls} export calls, ${paced.refused} refused, ${paced.seconds.toFixed(1)} s (minimum ${minimum} s)`);

  // The same account without pacing: the provider refuses the calls beyond the budget.
  const unpaced = await syncWith(false, slowWindowSim);
  expect(unpaced.refused).toBeGreaterThan(0);
  console.log(`without pacing: ${unpaced.calls} export calls, ${unpaced.refused} refused with 429, ${unpaced.seconds.toFixed(1)} s`);
}, 400_000);
