/**
 * Does background work starve the API? (issue 32.) Runs a first sync of N tickets from an in-process provider
 * (no HTTP, so Omniport's own saving is what is measured) in pages of `pageSize`, while a prober calls
 * `/health`, `/openapi.json` and `/sync/status` every 200 ms and a reader gets a 50-ticket page and a ticket by id;
 * prints p50 / p99 / max of each beside the same calls with nothing running, and the sync's tickets/s.
 *   npx tsx bench/responsiveness.ts [tickets=50000] [pageSize=1000]
 *   BENCH_DATABASE_URL=postgres://…/<empty database> npx tsx bench/responsiveness.ts 50000 50000
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ProviderRegistry } from '../src/providers/registry';
import { inMemoryTicketsProvider } from '../test/support/in-memory-tickets';
import { connect, percentile, startBenchServer } from './support';

const tickets = Number(process.argv[2] ?? 50_000);
const pageSize = Number(process.argv[3] ?? 1000);

const bulk = inMemoryTicketsProvider({ name: 'bulk', tickets, pageSize });

const bench = await startBenchServer(new ProviderRegistry([bulk]));
const { connectionId, token } = await connect(bench, { provider: 'bulk', credentials: { api_token: 'x' }, base_url: 'http://127.0.0.1:9' });
const conn = { 'x-connection-token': token };

type Probe = { name: string; call: () => Promise<unknown> };
const probes: Probe[] = [
  { name: '/health', call: () => fetch(`${bench.url}/health`).then((r) => r.arrayBuffer()) },
  { name: '/openapi.json', call: () => fetch(`${bench.url}/openapi.json`).then((r) => r.arrayBuffer()) },
  { name: '/sync/status', call: () => bench.call('GET', '/sync/status', undefined, conn) },
  { name: 'page of 50', call: () => bench.call('GET', '/ticketing/tickets?limit=50', undefined, conn) },
];

/** Calls every probe every 200 ms until `until` settles; the times of each, and the stream's count as seen. */
async function probeWhile(until: Promise<unknown>) {
  const times = new Map<string, number[]>(probes.map((p) => [p.name, []]));
  const counts: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const tick = Date.now();
    await Promise.all(
      probes.map(async (p) => {
        const t0 = performance.now();
        const res = await p.call();
        times.get(p.name)!.push(performance.now() - t0);
        if (p.name === '/sync/status') {
          const streams = (res as { body: { data?: { streams?: { stream: string; records_in_run?: number }[] } } }).body.data?.streams ?? [];
          const s = streams.find((x) => x.stream === 'ticketing.ticket');
          if (s?.records_in_run !== undefined) counts.push(s.records_in_run);
        }
      }),
    );
    await new Promise((r) => setTimeout(r, Math.max(0, 200 - (Date.now() - tick))));
  }
  return { times, counts };
}

const fmt = (values: number[]) =>
  values.length ? `p50 ${percentile(values, 50).toFixed(0)} / p99 ${percentile(values, 99).toFixed(0)} / max ${Math.max(...values).toFixed(0)} ms, ${values.filter((v) => v > 1000).length} over 1 s (${values.length} calls)` : 'no call';

console.log(`Responsiveness on ${bench.database}: ${tickets} tickets in pages of ${pageSize}; load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const idle = await probeWhile(new Promise((r) => setTimeout(r, 3000)));
for (const [name, t] of idle.times) console.log(`  idle     ${name.padEnd(14)} ${fmt(t)}`);

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
const started = performance.now();
const cpu = process.cpuUsage();
const run = bench.omniport.services.sync.run(connectionId, 'ticketing.ticket');
const during = await probeWhile(run);
const result = await run;
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
const cpuSeconds = (used.user + used.system) / 1e6;
lag.disable();
for (const [name, t] of during.times) console.log(`  syncing  ${name.padEnd(14)} ${fmt(t)}`);
console.log(`  sync: ${result.records} tickets in ${seconds.toFixed(1)} s — ${Math.round(result.records / seconds)} tickets/s; ${cpuSeconds.toFixed(1)} s of CPU (probes included) — ${Math.round(result.records / cpuSeconds)} tickets per CPU-second`);
console.log(`  event-loop delay during the sync: p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms, max ${(lag.max / 1e6).toFixed(0)} ms`);
const rising = during.counts.filter((c, i) => i > 0 && c > during.counts[i - 1]!).length;
console.log(`  records_in_run seen by /sync/status: ${during.counts.length} readings, rose ${rising} times, last ${during.counts.at(-1) ?? '—'}`);

await bench.omniport.close();
