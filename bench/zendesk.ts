/**
 * Zendesk benchmark: full and incremental sync throughput and peak memory for N simulated tickets
 * (with comments), then list latency at 50 and 1000 per page.
 *   npx tsx bench/zendesk.ts [tickets=5000] [commentsPerTicket=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/zendesk.ts 50000
 */
import { ProviderRegistry } from '../src/providers/registry';
import { zendeskAdapter } from '../src/providers/zendesk';
import { startZendeskSimulator } from '../test/simulators/zendesk';
import { percentile, startBenchServer, trackPeakRss } from './support';

const tickets = Number(process.argv[2] ?? 5000);
const commentsPerTicket = Number(process.argv[3] ?? 2);

const sim = await startZendeskSimulator({ validateSpec: false });
sim.seedTickets(tickets, { commentsPerTicket });
const bench = await startBenchServer(new ProviderRegistry([zendeskAdapter]));
const cred = sim.credentials[0]!;
const created = await bench.call('POST', '/connections', {
  provider: 'zendesk',
  linked_user_origin_id: 'bench',
  credentials: { email: cred.email, api_token: cred.apiToken },
  base_url: sim.url,
});
const connectionId: string = created.body.data.id_connection;
const token: string = created.body.data.connection_token;

async function syncAll(label: string) {
  const streams = bench.omniport.services.sync.streamsOf((await bench.omniport.services.controlPlane.findConnectionById(connectionId))!);
  const rss = trackPeakRss();
  const started = performance.now();
  const results = [];
  const durations: Record<string, number> = {};
  for (const stream of streams) {
    const t0 = performance.now();
    results.push(await bench.omniport.services.sync.run(connectionId, stream));
    durations[stream] = (performance.now() - t0) / 1000;
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = rss.stop();
  const records = results.reduce((n, r) => n + r.records, 0);
  const ticketRecords = results.find((r) => r.stream === 'ticketing.ticket')?.records ?? 0;
  console.log(
    `${label}: ${records} records (${ticketRecords} tickets) in ${seconds.toFixed(1)} s — ${Math.round(ticketRecords / seconds)} tickets/s, ${Math.round(records / seconds)} records/s, peak RSS ${peak} MiB`,
  );
  for (const r of results) console.log(`  ${r.stream}: ${r.records} (${r.mode}) in ${durations[r.stream]!.toFixed(2)} s`);
}

console.log(`Zendesk sync benchmark on ${bench.database}: ${tickets} tickets × ${commentsPerTicket} comments`);
await syncAll('full sync');
const changed = Math.max(1, Math.round(tickets / 100));
for (let id = 1; id <= changed; id++) sim.updateTicketRemotely(id, { subject: `changed ${id}` });
await syncAll(`incremental sync after ${changed} remote changes`);

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
