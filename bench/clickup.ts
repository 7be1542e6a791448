/**
 * ClickUp benchmark: full and incremental sync throughput and peak memory for N simulated tasks with their
 * comments (two calls per task: its comments and the task itself for its attachments), then list latency at
 * 50 and 1000 per page. Rate limits are not enforced here (see bench/provider-budgets.ts).
 *   npx tsx bench/clickup.ts [tasks=1000] [commentsPerTask=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/clickup.ts 5000
 */
import { ProviderRegistry } from '../src/providers/registry';
import { clickupAdapter } from '../src/providers/clickup';
import { startClickUpSimulator } from '../test/simulators/clickup';
import { connect, listLatencies, startBenchServer, syncAll } from './support';

const tasks = Number(process.argv[2] ?? 1000);
const commentsPerTask = Number(process.argv[3] ?? 2);

const sim = await startClickUpSimulator({ rateLimit: { perMinute: 10_000_000 }, recordBodies: false, validateSpec: false });
const ids = sim.seedTasks(tasks, { commentsPerTask });
const bench = await startBenchServer(new ProviderRegistry([clickupAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'clickup', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url });
const syncOptions = { per: { stream: 'ticketing.ticket', unit: 'tickets' } };

console.log(`ClickUp sync benchmark on ${bench.database}: ${tasks} tasks × ${commentsPerTask} comments`);
await syncAll(bench, connectionId, 'full sync', syncOptions);
const changed = Math.max(1, Math.round(tasks / 100));
for (const id of ids.slice(0, changed)) sim.updateTaskRemotely(id, { name: `changed ${id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`, syncOptions);

await listLatencies(bench, token, '/ticketing/tickets');

await bench.omniport.close();
await sim.close();
