/**
 * Webhooks benchmark.
 * 1. Throughput and reliability: N record events (a first sync of N Zendesk tickets) delivered to a local
 *    receiver that verifies every signature and fails 30 % of first attempts with a 500; production retry
 *    schedule (first retry after 5 s ± 20 %). Prints deliveries/s, lost and duplicated deliveries.
 * 2. End-to-end latency: the project's sync interval at 1 minute, the worker's schedule running, one ticket
 *    changed in the simulator every `spacing` seconds; time from the change to the receiver (p50, p95).
 *   npx tsx bench/webhooks.ts [events=10000] [changes=16] [spacing seconds=15]
 *   BENCH_DATABASE_URL=postgres://…/<throwaway database> npx tsx bench/webhooks.ts (emptied between the two parts)
 */
import http from 'node:http';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ProviderRegistry } from '../src/providers/registry';
import { zendeskAdapter } from '../src/providers/zendesk';
import { createDispatcher } from '../src/app';
import { startZendeskSimulator } from '../test/simulators/zendesk';
import { connect, percentile, startBenchServer } from './support';

const events = Number(process.argv[2] ?? 10_000);
const changes = Number(process.argv[3] ?? 16);
const spacingMs = Number(process.argv[4] ?? 15) * 1000;

/** A receiver that verifies signatures, fails 30 % of first attempts, and counts what it took. */
function startReceiver(failFirst: number) {
  const attempts = new Map<string, number>();
  const accepted = new Map<string, number>();
  const arrivals: { id: string; type: string; remoteId?: string; at: number }[] = [];
  let secret = '';
  let badSignatures = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      try {
        new Webhook(secret).verify(raw, req.headers as Record<string, string>);
      } catch {
        badSignatures++;
      }
      const n = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, n);
      if (n === 1 && Math.random() < failFirst) return res.writeHead(500).end('try again');
      accepted.set(id, (accepted.get(id) ?? 0) + 1);
      const body = JSON.parse(raw) as { type: string; data: { object?: { remote_id: string } } };
      arrivals.push({ id, type: body.type, remoteId: body.data.object?.remote_id, at: Date.now() });
      res.writeHead(200).end('ok');
    });
  });
  return {
    server,
    attempts,
    accepted,
    arrivals,
    setSecret: (s: string) => (secret = s),
    badSignatures: () => badSignatures,
    listen: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
  };
}

// ---- 1. throughput with 30 % of first attempts failing
{
  const sim = await startZendeskSimulator({ validateSpec: false });
  sim.seedTickets(events);
  const bench = await startBenchServer(new ProviderRegistry([zendeskAdapter]));
  const receiver = startReceiver(0.3);
  const url = await receiver.listen();
  const endpoint = await bench.call('POST', '/webhooks', { url: `${url}/hook`, events: ['ticketing.ticket.created'] });
  receiver.setSecret(endpoint.body.data.secret);
  const cred = sim.credentials[0]!;
  const { connectionId } = await connect(bench, { provider: 'zendesk', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url });
  const t0 = performance.now();
  await bench.omniport.services.sync.run(connectionId, 'ticketing.ticket');
  const syncSeconds = (performance.now() - t0) / 1000;
  const [{ n: queued }] = (await bench.omniport.database.executeSql('select count(*)::int as n from webhook_deliveries')).rows as [{ n: number }];
  console.log(`webhooks on ${bench.database}: ${events} tickets synced in ${syncSeconds.toFixed(1)} s, writing ${queued} ticketing.ticket.created deliveries with them`);

  const dispatcher = createDispatcher(bench.omniport.config, bench.omniport.services, bench.box);
  const started = performance.now();
  await dispatcher.start({ releaseLeases: false });
  let firstPassSeconds = 0;
  while (receiver.accepted.size < queued) {
    if (!firstPassSeconds && receiver.attempts.size >= queued) firstPassSeconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 8_000)); // anything sent twice would arrive by now
  await dispatcher.stop();
  const totalAttempts = [...receiver.attempts.values()].reduce((a, b) => a + b, 0);
  const failedFirst = totalAttempts - receiver.attempts.size;
  const duplicates = [...receiver.accepted.values()].filter((n) => n > 1).length;
  const rows = (await bench.omniport.database.executeSql(`select status, count(*)::int as n from webhook_deliveries group by status`)).rows;
  console.log(
    `  first attempts of all ${queued} in ${firstPassSeconds.toFixed(1)} s — ${Math.round(queued / firstPassSeconds)} deliveries/s; ` +
      `${failedFirst} first attempts failed (500) and were retried after 5 s ± 20 %; all delivered in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `  received ${receiver.accepted.size} distinct webhook-ids of ${queued}: lost ${queued - receiver.accepted.size}, ` +
      `accepted twice ${duplicates}, bad signatures ${receiver.badSignatures()}; deliveries ${JSON.stringify(rows)}`,
  );
  await bench.omniport.close();
  await sim.close();
  receiver.server.close();
}

// ---- 2. end-to-end latency with the sync interval at 1 minute
if (process.env.BENCH_DATABASE_URL) {
  // A new Omniport needs an empty database: this benchmark's database is a throwaway one.
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query('drop schema if exists pgboss cascade; drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
  await admin.end();
}
{
  const sim = await startZendeskSimulator({ validateSpec: false });
  sim.seedTickets(200);
  const bench = await startBenchServer(new ProviderRegistry([zendeskAdapter]), {}, { work: true });
  const receiver = startReceiver(0);
  const url = await receiver.listen();
  const endpoint = await bench.call('POST', '/webhooks', { url: `${url}/hook`, events: ['ticketing.ticket.updated'] });
  receiver.setSecret(endpoint.body.data.secret);
  const project = (await bench.omniport.database.executeSql('select id from projects limit 1')).rows[0]!.id as string;
  await bench.omniport.services.controlPlane.setSyncInterval(project, 1);
  const cred = sim.credentials[0]!;
  const { token } = await connect(bench, { provider: 'zendesk', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url });
  // The first sync (queued by the connection) ends before the changes start.
  for (;;) {
    const status = await bench.call('GET', '/sync/status', undefined, { 'x-connection-token': token });
    if (status.body.data.streams.every((s: { status: string }) => s.status === 'idle')) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const changedAt = new Map<string, number>();
  for (let i = 0; i < changes; i++) {
    const id = 1 + i;
    sim.updateTicketRemotely(id, { subject: `changed ${i}` } as never);
    changedAt.set(String(id), Date.now());
    await new Promise((r) => setTimeout(r, spacingMs));
  }
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && new Set(receiver.arrivals.map((a) => a.remoteId)).size < changes) await new Promise((r) => setTimeout(r, 500));
  const latencies = [...changedAt].flatMap(([remoteId, at]) => {
    const arrival = receiver.arrivals.find((a) => a.remoteId === remoteId);
    return arrival ? [(arrival.at - at) / 1000] : [];
  });
  console.log(
    `  end to end, sync every minute: ${latencies.length}/${changes} changes arrived; ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} s, p95 ${percentile(latencies, 95).toFixed(1)} s, max ${Math.max(...latencies).toFixed(1)} s`,
  );
  await bench.omniport.close();
  await sim.close();
  receiver.server.close();
}
