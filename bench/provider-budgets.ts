/**
 * Provider budgets benchmark: syncs a large simulated account against the provider's simulator enforcing
 * the limits the provider documents (the budgets of its manifest, answered with the provider's own
 * rate-limit refusals and headers), every stream to the end, side by side as the job workers run them
 * (`OMNIPORT_SYNC_CONCURRENCY` at a time), and prints in one run: records synced,
 * provider calls, rate-limit refusals, the share of the binding budget used (calls made ÷ calls allowed
 * over the run), the elapsed time against the theoretical minimum (calls needed ÷ allowed rate) and whether
 * the run ended without a failed state.
 *
 *   npx tsx bench/provider-budgets.ts <provider> [records] [--scale N]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/provider-budgets.ts hubspot 50000
 *
 * `--scale N` shrinks every window of both the simulator and the manifest's budgets N times (the same
 * number of calls per window, N times as often), for providers whose real-time run would take far longer
 * than a few minutes (Zendesk's 10 export calls a minute). A scale below 1 (`--scale 0.25`) stretches the
 * windows instead, so that the budget, not Omniport's own speed on this machine, bounds a provider whose real
 * budget a sync here cannot reach: it shows how closely the pacing follows a budget that binds. Records default
 * to 100,000 (ticketing) or 50,000 (CRM).
 */
import pLimit from 'p-limit';
import { costOf, countsIn, spacingMs } from '../src/providers/budgets';
import type { RequestBudget } from '../src/providers/manifest';
import { ProviderRegistry } from '../src/providers/registry';
import type { ProviderAdapter } from '../src/providers/types';
import { limitedAccounts as accounts } from '../test/support/limited-accounts';
import { connect, startBenchServer } from './support';

const args = process.argv.slice(2);
const scaleAt = args.indexOf('--scale');
const scale = scaleAt >= 0 ? Number(args.splice(scaleAt, 2)[1]) : 1;
const [name, recordsArg] = args;
const entry = name ? accounts[name] : undefined;
if (!entry || !(scale > 0)) {
  console.error(`usage: npx tsx bench/provider-budgets.ts <${Object.keys(accounts).join('|')}> [records] [--scale N]`);
  process.exit(2);
}
const records = Number(recordsArg ?? (entry.vertical === 'ticketing' ? 100_000 : 50_000));

// The manifest's budgets with every window shrunk `scale` times, as the simulator's.
// Daily budgets are counted per UTC day whatever the scale (a run never reaches them).
const budgets: RequestBudget[] = entry.adapter.manifest.budgets!.map((b) => (b.pacing === 'daily' ? b : { ...b, perSeconds: b.perSeconds / scale }));
const adapter: ProviderAdapter = { ...entry.adapter, manifest: { ...entry.adapter.manifest, budgets } };

const account = await entry.start(records, budgets);
const bench = await startBenchServer(new ProviderRegistry([adapter]), { OMNIPORT_PACE_PROVIDER_BUDGETS: 'true' });
const { connectionId } = await connect(bench, { provider: name!, credentials: account.credentials, base_url: account.url });
const { sync, controlPlane } = bench.omniport.services;
const streams = sync.streamsOf((await controlPlane.findConnectionById(connectionId))!);

console.log(`${name} on ${bench.database}: ${records} records seeded, budgets ${budgets.map((b) => `${b.name} ${b.requests}/${+b.perSeconds.toFixed(3)} s`).join(', ')}${scale !== 1 ? ` (time-scaled ×${scale})` : ''}`);
const callsBefore = account.requests.length;
const started = Date.now();
// CPU time of the whole process (Omniport and the in-process simulator): robust to a shared machine.
const cpuBefore = process.cpuUsage();
let synced = 0;
let failed: string | undefined;
let waits = 0;
// The streams run side by side as the job workers run them (OMNIPORT_SYNC_CONCURRENCY, 4 by default), in the
// manifest's order, all drawing on the same budgets: one stream's first and last pages overlap another's calls.
const workers = pLimit(bench.omniport.config.jobs.concurrency);
await Promise.all(
  streams.map((stream) =>
    workers(async () => {
      if (failed) return;
      try {
        // A stream left waiting for the provider's reset is a wait, not a failure: it resumes where it stopped.
        for (;;) {
          const run = await sync.run(connectionId, stream);
          // A resumed run counts the records of its earlier parts too: the last one has the stream's total.
          if (run.outcome !== 'waiting') {
            synced += run.records;
            break;
          }
          waits++;
          await new Promise((r) => setTimeout(r, 500));
        }
      } catch (err) {
        failed ??= `${stream}: ${(err as Error).message}`;
      }
    }),
  ),
);
const elapsed = (Date.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const calls = account.requests.slice(callsBefore);
const refused = calls.filter((r) => account.refused(r)).length;

// The binding budget: the one with the highest share used over the run.
// A daily budget is a count to spend, not a rate: it is reported as the share of the day's budget spent.
const shares = budgets.filter((b) => b.pacing !== 'daily').map((b) => {
  // Calls, or for budgets counted in cost (Linear's complexity) what the provider charged.
  const matching =
    account.spent?.(b.name) ?? calls.filter((r) => countsIn(b, r)).reduce((n, r) => n + costOf(b, r), 0);
  const allowed = (b.requests * elapsed) / b.perSeconds;
  return { budget: b, matching, share: matching / allowed, minimum: (Math.max(0, matching - 1) * b.perSeconds) / b.requests, paced: (matching - 1) * (spacingMs(b) / 1000) };
});
// Salesforce counts only a daily total: no rate binds its sync, Omniport's own speed does.
const binding = shares.length ? shares.reduce((a, b) => (b.share > a.share ? b : a)) : undefined;
const daily = budgets
  .filter((b) => b.pacing === 'daily')
  .map((b) => `${b.name} ${calls.filter((r) => countsIn(b, r)).reduce((n, r) => n + costOf(b, r), 0)} of ${b.requests} a day`);
const windows = binding ? Math.max(1, elapsed / binding.budget.perSeconds) : 1;
const share = binding ? `${(binding.share * 100).toFixed(1)} % (${binding.budget.name})` : 'no rate budget';
console.log(
  [
    `records synced ${synced}`,
    `provider calls ${calls.length} (${(synced / Math.max(1, calls.length)).toFixed(0)} records per call)`,
    `rate-limit refusals ${refused}${binding ? ` (${(refused / windows).toFixed(2)} per ${binding.budget.name} window)` : ''}`,
    binding
      ? `budget share ${share} of "${binding.budget.name}" (${binding.matching} calls, ${binding.budget.requests} per ${+binding.budget.perSeconds.toFixed(3)} s)`
      : 'budget share: no per-second to per-hour budget (only daily ones): the sync is bound by Omniport and the provider',
    binding
      ? `elapsed ${elapsed.toFixed(1)} s vs minimum ${binding.minimum.toFixed(1)} s (${(elapsed / Math.max(0.001, binding.minimum)).toFixed(2)}×; paced spacing alone ${binding.paced.toFixed(1)} s)`
      : `elapsed ${elapsed.toFixed(1)} s`,
    `CPU ${cpuSeconds.toFixed(1)} s (${((cpuSeconds * 1000) / Math.max(1, synced / 1000)).toFixed(0)} ms per 1,000 records, simulator included)`,
    `stream waits ${waits}`,
    ...(daily.length ? [`daily budgets spent: ${daily.join(', ')}`] : []),
    failed ? `FAILED (${failed})` : 'no failed state',
  ].join('\n  '),
);
console.log(
  `RESULT | ${name} | ${bench.database} | ${synced} | ${calls.length} | ${refused} | ${share} | ${elapsed.toFixed(0)} s / ${binding ? `${binding.minimum.toFixed(0)} s` : '—'} | ${scale !== 1 ? `×${scale}` : 'real time'} | ${failed ? 'failed' : 'none'} |`,
);
await bench.omniport.close();
await account.close();
process.exit(failed ? 1 : 0);
