/**
 * ServiceNow benchmark: full and incremental sync throughput and peak memory for N simulated incidents with their
 * Additional comments (journal entries are walked as one table, not per incident), then list latency at 50 and
 * 1000 per page. No rate-limit rule is enforced (ServiceNow has none by default).
 *   npx tsx bench/servicenow.ts [incidents=1000] [commentsPerIncident=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/servicenow.ts 5000
 */
import { ProviderRegistry } from '../src/providers/registry';
import { servicenowAdapter } from '../src/providers/servicenow';
import { startServiceNowSimulator } from '../test/simulators/servicenow';
import { connect, listLatencies, startBenchServer, syncAll } from './support';

const incidents = Number(process.argv[2] ?? 1000);
const commentsPerIncident = Number(process.argv[3] ?? 2);

const sim = await startServiceNowSimulator({ recordBodies: false });
const ids = sim.seedIncidents(incidents, { commentsPerIncident });
const bench = await startBenchServer(new ProviderRegistry([servicenowAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'servicenow', credentials: sim.credentials, base_url: sim.url });
const syncOptions = { per: { stream: 'ticketing.ticket', unit: 'incidents' } };

console.log(`ServiceNow sync benchmark on ${bench.database}: ${incidents} incidents × ${commentsPerIncident} comments`);
await syncAll(bench, connectionId, 'full sync', syncOptions);
const changed = Math.max(1, Math.round(incidents / 100));
for (const id of ids.slice(0, changed)) sim.updateIncidentRemotely(id, { short_description: `changed ${id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`, syncOptions);

await listLatencies(bench, token, '/ticketing/tickets');

await bench.omniport.close();
await sim.close();
