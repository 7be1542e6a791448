/**
 * Zendesk benchmark: full and incremental sync throughput and peak memory for N simulated tickets
 * (with comments), then list latency at 50 and 1000 per page.
 *   npx tsx bench/zendesk.ts [tickets=5000] [commentsPerTicket=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/zendesk.ts 50000
 */
import { ProviderRegistry } from '../src/providers/registry';
import { zendeskAdapter } from '../src/providers/zendesk';
import { startZendeskSimulator } from '../test/simulators/zendesk';
import { connect, listLatencies, startBenchServer, syncAll } from './support';

const tickets = Number(process.argv[2] ?? 5000);
const commentsPerTicket = Number(process.argv[3] ?? 2);

const sim = await startZendeskSimulator({ validateSpec: false });
sim.seedTickets(tickets, { commentsPerTicket });
const bench = await startBenchServer(new ProviderRegistry([zendeskAdapter]));
const cred = sim.credentials[0]!;
const { connectionId, token } = await connect(bench, {
  provider: 'zendesk',
  credentials: { email: cred.email, api_token: cred.apiToken },
  base_url: sim.url,
});
const syncOptions = { per: { stream: 'ticketing.ticket', unit: 'tickets' } };

console.log(`Zendesk sync benchmark on ${bench.database}: ${tickets} tickets × ${commentsPerTicket} comments`);
await syncAll(bench, connectionId, 'full sync', syncOptions);
const changed = Math.max(1, Math.round(tickets / 100));
for (let id = 1; id <= changed; id++) sim.updateTicketRemotely(id, { subject: `changed ${id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`, syncOptions);

await listLatencies(bench, token, '/ticketing/tickets');

await bench.omniport.close();
await sim.close();
