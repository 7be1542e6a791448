/**
 * Asana benchmark: full and incremental sync throughput and peak memory for N simulated tasks with their
 * comment stories (two calls per task for its stories and attachments), then list latency at 50 and 1000 per
 * page. The incremental run reads the projects' event streams from the tokens the full run saved. Rate
 * limits are not enforced here (see bench/provider-budgets.ts).
 *   npx tsx bench/asana.ts [tasks=1000] [commentsPerTask=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/asana.ts 5000
 */
import { ProviderRegistry } from '../src/providers/registry';
import { asanaAdapter } from '../src/providers/asana';
import { startAsanaSimulator } from '../test/simulators/asana';
import { connect, listLatencies, startBenchServer, syncAll } from './support';

const tasks = Number(process.argv[2] ?? 1000);
const commentsPerTask = Number(process.argv[3] ?? 2);

const sim = await startAsanaSimulator({ rateLimit: { perMinute: 10_000_000 }, recordBodies: false, validateSpec: false });
const ids = sim.seedTasks(tasks, { commentsPerTask });
const bench = await startBenchServer(new ProviderRegistry([asanaAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'asana', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url });
const syncOptions = { per: { stream: 'ticketing.ticket', unit: 'tickets' } };

console.log(`Asana sync benchmark on ${bench.database}: ${tasks} tasks × ${commentsPerTask} comments`);
await syncAll(bench, connectionId, 'full sync', syncOptions);
const changed = Math.max(1, Math.round(tasks / 100));
for (const id of ids.slice(0, changed)) sim.updateTaskRemotely(id, { name: `changed ${id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`, syncOptions);

await listLatencies(bench, token, '/ticketing/tickets');

await bench.omniport.close();
await sim.close();
