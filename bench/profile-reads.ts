/**
 * Where a list request's time goes: syncs N Zendesk tickets, then profiles the server's process (V8 CPU
 * profiler through node:inspector) while one connection lists `limit` tickets a page, and prints the
 * functions with the most self time, grouped by package or source file.
 *   BENCH_DATABASE_URL=postgres://…/<empty database> npx tsx bench/profile-reads.ts [tickets=5000] [limit=50] [seconds=6]
 */
import { Session } from 'node:inspector/promises';
import { Worker } from 'node:worker_threads';
import { ProviderRegistry } from '../src/providers/registry';
import { zendeskAdapter } from '../src/providers/zendesk';
import { startZendeskSimulator } from '../test/simulators/zendesk';
import { connect, startBenchServer, syncAll } from './support';

const tickets = Number(process.argv[2] ?? 5_000);
const limit = Number(process.argv[3] ?? 50);
const seconds = Number(process.argv[4] ?? 6);

const sim = await startZendeskSimulator({ validateSpec: false });
sim.seedTickets(tickets);
const bench = await startBenchServer(new ProviderRegistry([zendeskAdapter]), { OMNIPORT_PACE_PROVIDER_BUDGETS: 'false', OMNIPORT_RATE_LIMIT_PER_MINUTE: '0' });
const cred = sim.credentials[0]!;
const { connectionId, token } = await connect(bench, { provider: 'zendesk', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url });
await syncAll(bench, connectionId, 'full sync', { per: { stream: 'ticketing.ticket', unit: 'tickets' } });
await sim.close();

const xacts = async () => Number((await bench.omniport.database.executeSql('select xact_commit from pg_stat_database where datname = current_database()')).rows[0]?.xact_commit ?? 0);
const xactsBefore = bench.database === 'postgres' ? await xacts() : 0;
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const done = await new Promise<{ latencies: number[] }>((resolve, reject) => {
  const worker = new Worker(new URL('./load.worker.mjs', import.meta.url), {
    workerData: { origin: bench.url, path: `/ticketing/tickets?limit=${limit}`, headers: { 'x-api-key': bench.apiKey, 'x-connection-token': token }, connections: 1, durationMs: seconds * 1000, warmupMs: 1000 },
  });
  worker.once('message', resolve);
  worker.once('error', reject);
});
const { profile } = await session.post('Profiler.stop');

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number }
const nodes = profile.nodes as Node[];
const total = nodes.reduce((n, x) => n + x.hitCount, 0);
const group = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.includes('/src/')) return `src/${url.split('/src/')[1]}`;
  return url ? url.replace(/^.*\//, '') : '(native/idle)';
};
const byGroup = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const n of nodes) {
  const g = group(n.callFrame.url);
  byGroup.set(g, (byGroup.get(g) ?? 0) + n.hitCount);
  const f = `${n.callFrame.functionName || '(anonymous)'} ${g}:${n.callFrame.lineNumber + 1}`;
  byFunction.set(f, (byFunction.get(f) ?? 0) + n.hitCount);
}
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, hits]) => `${((100 * hits) / total).toFixed(1).padStart(5)} %  ${name}`);
console.log(`${done.latencies.length} requests in ${seconds} s on ${bench.database}, ${limit}/page; self time by package or file:`);
// PostgreSQL's statistics are sent with a delay: wait for them, then count statements per request (each one is its own transaction).
if (bench.database === 'postgres') {
  await new Promise((r) => setTimeout(r, 1_500));
  console.log(`transactions per request (warm-up included): ${((await xacts()) - xactsBefore - 1) / done.latencies.length}`);
}
console.log(top(byGroup, 25).join('\n'));
console.log('\nby function:');
console.log(top(byFunction, 40).join('\n'));
await bench.omniport.close();
