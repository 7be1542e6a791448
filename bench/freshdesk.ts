/**
 * Freshdesk benchmark: full and incremental sync throughput and peak memory for N simulated tickets with
 * their conversations (Freshdesk lists replies and notes per ticket: one call per ticket), then list
 * latency at 50 and 1000 per page. Rate limits are not enforced here (see bench/provider-budgets.ts).
 *   npx tsx bench/freshdesk.ts [tickets=1000] [conversationsPerTicket=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/freshdesk.ts 5000
 */
import { ProviderRegistry } from '../src/providers/registry';
import { freshdeskAdapter } from '../src/providers/freshdesk';
import { startFreshdeskSimulator } from '../test/simulators/freshdesk';
import { connect, listLatencies, startBenchServer, syncAll } from './support';

const tickets = Number(process.argv[2] ?? 1000);
const conversationsPerTicket = Number(process.argv[3] ?? 2);

const sim = await startFreshdeskSimulator({ rateLimit: { perMinute: 1_000_000 }, recordBodies: false });
const ids = sim.seedTickets(tickets, { conversationsPerTicket });
const bench = await startBenchServer(new ProviderRegistry([freshdeskAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'freshdesk', credentials: { api_key: sim.apiKeys[0]! }, base_url: sim.url });
const syncOptions = { per: { stream: 'ticketing.ticket', unit: 'tickets' } };

console.log(`Freshdesk sync benchmark on ${bench.database}: ${tickets} tickets × ${conversationsPerTicket} conversations`);
await syncAll(bench, connectionId, 'full sync', syncOptions);
const changed = Math.max(1, Math.round(tickets / 100));
for (const id of ids.slice(0, changed)) sim.updateTicketRemotely(id, { subject: `changed ${id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`, syncOptions);

await listLatencies(bench, token, '/ticketing/tickets');

await bench.omniport.close();
await sim.close();
