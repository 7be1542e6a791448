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
import { connect, percentile, startBenchServer, syncAll } from './support';

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

for (const limit of [50, 1000]) {
  const times: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    const res = await bench.call('GET', `/ticketing/tickets?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, undefined, { 'x-connection-token': token });
    times.push(performance.now() - started);
    cursor = res.body.next_cursor;
  }
  console.log(`list ${limit}/page: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`);
}

await bench.omniport.close();
await sim.close();
