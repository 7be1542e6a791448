/**
 * Intercom benchmark: full and incremental sync throughput and peak memory for N simulated tickets with
 * their ticket parts (Intercom answers the parts with the ticket: one call per ticket), then list
 * latency at 50 and 1000 per page. Rate limits are not enforced here (see bench/provider-budgets.ts).
 *   npx tsx bench/intercom.ts [tickets=1000] [partsPerTicket=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/intercom.ts 5000
 */
import { ProviderRegistry } from '../src/providers/registry';
import { intercomAdapter } from '../src/providers/intercom';
import { startIntercomSimulator } from '../test/simulators/intercom';
import { connect, listLatencies, startBenchServer, syncAll } from './support';

const tickets = Number(process.argv[2] ?? 1000);
const partsPerTicket = Number(process.argv[3] ?? 2);

const sim = await startIntercomSimulator({ rateLimit: { per10s: 1_000_000 }, recordBodies: false, validateSpec: false });
const ids = sim.seedTickets(tickets, { partsPerTicket });
const bench = await startBenchServer(new ProviderRegistry([intercomAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'intercom', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url });
const syncOptions = { per: { stream: 'ticketing.ticket', unit: 'tickets' } };

console.log(`Intercom sync benchmark on ${bench.database}: ${tickets} tickets × ${partsPerTicket} ticket parts`);
await syncAll(bench, connectionId, 'full sync', syncOptions);
const changed = Math.max(1, Math.round(tickets / 100));
for (const id of ids.slice(0, changed)) sim.updateTicketRemotely(id, { _default_title_: `changed ${id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`, syncOptions);

await listLatencies(bench, token, '/ticketing/tickets');

await bench.omniport.close();
await sim.close();
