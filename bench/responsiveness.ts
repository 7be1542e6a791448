/**
 * Does background work starve the API? (issue 32.)
 * - `sync` (default): a first sync of N tickets from an in-process provider (no HTTP, so Omniport's own saving is
 *   what is measured) in pages of `pageSize`.
 * - `webhooks`: N pending customer webhook deliveries (a sync's `ticketing.ticket.created` events, written with no
 *   sender running) drained by the delivery loop to a local receiver that answers 200 at once.
 * Meanwhile a prober calls `/health`, `/openapi.json` and `/sync/status` every 200 ms and a reader gets a ticket by
 * id and a 50-ticket page back to back (one request at a time); prints p50 / p99 / max of each and the reader's
 * requests/s beside the same with nothing running, and the sync's tickets/s or the deliveries/s.
 *   npx tsx bench/responsiveness.ts [sync|webhooks] [tickets=50000] [pageSize=1000]
 *   BENCH_DATABASE_URL=postgres://…/<empty database> npx tsx bench/responsiveness.ts sync 100000 1000
 *   BENCH_QUIET=1 …: no probes and no reader, the sync's or the sender's throughput alone.
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDispatcher } from '../src/app';
import { ProviderRegistry } from '../src/providers/registry';
import { inMemoryTicketsProvider } from '../test/support/in-memory-tickets';
import { connect, percentile, startBenchServer } from './support';

const args = process.argv.slice(2);
const mode = args[0] === 'webhooks' || args[0] === 'sync' ? args.shift()! : 'sync';
const tickets = Number(args[0] ?? (mode === 'webhooks' ? 20_000 : 50_000));
const pageSize = Number(args[1] ?? 1000);

const bulk = inMemoryTicketsProvider({ name: 'bulk', tickets, pageSize });

const bench = await startBenchServer(new ProviderRegistry([bulk]), { OMNIPORT_RATE_LIMIT_PER_MINUTE: '0' });
const { connectionId, token } = await connect(bench, { provider: 'bulk', credentials: { api_token: 'x' }, base_url: 'http://127.0.0.1:9' });
const conn = { 'x-connection-token': token };
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

type Probe = { name: string; call: () => Promise<unknown> };
const probes: Probe[] = [
  { name: '/health', call: () => fetch(`${bench.url}/health`).then((r) => r.arrayBuffer()) },
  { name: '/openapi.json', call: () => fetch(`${bench.url}/openapi.json`).then((r) => r.arrayBuffer()) },
  { name: '/sync/status', call: () => bench.call('GET', '/sync/status', undefined, conn) },
];

/** Calls every probe every 200 ms until `done()`; the times of each, and the stream's count as seen. */
async function probeWhile(done: () => boolean) {
  const times = new Map<string, number[]>(probes.map((p) => [p.name, []]));
  const counts: number[] = [];
  while (!done()) {
    const tick = Date.now();
    await Promise.all(
      probes.map(async (p) => {
        const t0 = performance.now();
        const res = await p.call();
        times.get(p.name)!.push(performance.now() - t0);
        if (p.name === '/sync/status') {
          const streams = (res as { body: { data?: { streams?: { stream: string; records_in_run?: number }[] } } }).body.data?.streams ?? [];
          const s = streams.find((x) => x.stream === 'ticketing.ticket');
          if (s?.records_in_run !== undefined) counts.push(s.records_in_run);
        }
      }),
    );
    await new Promise((r) => setTimeout(r, Math.max(0, 200 - (Date.now() - tick))));
  }
  return { times, counts };
}

/** One client reading back to back until `done()`: a ticket by id, then a 50-ticket page, and so on. */
async function readWhile(done: () => boolean, ids: string[]) {
  const times = { 'get by id': [] as number[], 'page of 50': [] as number[] };
  const started = performance.now();
  let i = 0;
  while (!done()) {
    let t0 = performance.now();
    const one = await bench.call('GET', `/ticketing/tickets/${ids[i++ % ids.length]}`, undefined, conn);
    if (one.status !== 200) throw new Error(`get by id answered ${one.status}`);
    times['get by id'].push(performance.now() - t0);
    t0 = performance.now();
    const page = await bench.call('GET', '/ticketing/tickets?limit=50', undefined, conn);
    if (page.status !== 200) throw new Error(`page answered ${page.status}`);
    times['page of 50'].push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  return { times, perSecond: (times['get by id'].length + times['page of 50'].length) / seconds };
}

const fmt = (values: number[]) =>
  values.length ? `p50 ${percentile(values, 50).toFixed(0)} / p99 ${percentile(values, 99).toFixed(0)} / max ${Math.max(...values).toFixed(0)} ms, ${values.filter((v) => v > 1000).length} over 1 s (${values.length} calls)` : 'no call';

/** Probes and reader together until `until` settles. */
async function measure(label: string, until: Promise<unknown>, ids: string[]) {
  // BENCH_QUIET=1: nothing but the background work (its throughput alone).
  if (process.env.BENCH_QUIET) {
    await until;
    return { times: new Map<string, number[]>(), counts: [] as number[] };
  }
  let done = false;
  void until.finally(() => (done = true));
  const [probed, read] = await Promise.all([probeWhile(() => done), readWhile(() => done, ids)]);
  for (const [name, t] of probed.times) console.log(`  ${label.padEnd(10)} ${name.padEnd(14)} ${fmt(t)}`);
  for (const [name, t] of Object.entries(read.times)) console.log(`  ${label.padEnd(10)} ${name.padEnd(14)} ${fmt(t)}`);
  console.log(`  ${label.padEnd(10)} reader: ${read.perSecond.toFixed(0)} requests/s`);
  return probed;
}

/** A `done()` that turns true after `ms`. */
const once = (ms: number) => {
  const end = Date.now() + ms;
  return () => Date.now() > end;
};

const ticketIds = async () =>
  ((await bench.call('GET', '/ticketing/tickets?limit=100', undefined, conn)).body.data as { id: string }[]).map((t) => t.id);

console.log(`Responsiveness (${mode}) on ${bench.database}: ${tickets} tickets in pages of ${pageSize}; load average ${load()}`);

if (mode === 'sync') {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const started = performance.now();
  const cpu = process.cpuUsage();
  lag.enable();
  const run = bench.omniport.services.sync.run(connectionId, 'ticketing.ticket');
  // The reader needs ids: the first slice's.
  let ids: string[] = [];
  while (ids.length === 0) {
    ids = await ticketIds();
    if (ids.length === 0) await new Promise((r) => setTimeout(r, 20));
  }
  const during = await measure('syncing', run, ids);
  const result = await run;
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  lag.disable();
  console.log(`  sync: ${result.records} tickets in ${seconds.toFixed(1)} s — ${Math.round(result.records / seconds)} tickets/s; ${cpuSeconds.toFixed(1)} s of CPU (probes included) — ${Math.round(result.records / cpuSeconds)} tickets per CPU-second; load average ${load()}`);
  console.log(`  event-loop delay during the sync: p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms, max ${(lag.max / 1e6).toFixed(0)} ms`);
  const rising = during.counts.filter((c, i) => i > 0 && c > during.counts[i - 1]!).length;
  console.log(`  records_in_run seen by /sync/status: ${during.counts.length} readings, rose ${rising} times, last ${during.counts.at(-1) ?? '—'}`);
  // Idle: the same calls over the stored tickets, nothing running.
  await measure('idle', new Promise((r) => setTimeout(r, 5000)), await ticketIds());
} else {
  // A receiver that takes every delivery at once.
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const endpoint = await bench.call('POST', '/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['ticketing.ticket.created'] });
  if (endpoint.status !== 201) throw new Error(`endpoint: ${JSON.stringify(endpoint.body)}`);
  await bench.omniport.services.sync.run(connectionId, 'ticketing.ticket');
  const [{ n: pending }] = (await bench.omniport.database.executeSql(`select count(*)::int as n from webhook_deliveries where status = 'pending'`)).rows as [{ n: number }];
  const ids = await ticketIds();
  await Promise.all([readWhile(once(2000), ids), probeWhile(once(2000))]); // warm-up
  await measure('idle', new Promise((r) => setTimeout(r, 5000)), ids);

  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const dispatcher = createDispatcher(bench.omniport.config, bench.omniport.services, bench.box);
  // BENCH_WEBHOOK_BATCH / BENCH_WEBHOOK_CONCURRENCY try other bounds than the product's.
  const bounds = dispatcher as unknown as { opts: { batchSize: number; concurrency: number } };
  bounds.opts = { ...bounds.opts, batchSize: Number(process.env.BENCH_WEBHOOK_BATCH ?? bounds.opts.batchSize), concurrency: Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? bounds.opts.concurrency) };
  console.log(`  delivery loop: batches of ${bounds.opts.batchSize}, ${bounds.opts.concurrency} in flight`);
  const started = performance.now();
  await dispatcher.start({ releaseLeases: false });
  const drained = (async () => {
    while (received < pending) await new Promise((r) => setTimeout(r, 50));
  })();
  await measure('draining', drained, ids);
  const seconds = (performance.now() - started) / 1000;
  lag.disable();
  await dispatcher.stop();
  console.log(`  ${pending} pending deliveries drained in ${seconds.toFixed(1)} s — ${Math.round(pending / seconds)} deliveries/s; load average ${load()}`);
  console.log(`  event-loop delay while draining: p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms, max ${(lag.max / 1e6).toFixed(0)} ms`);
  receiver.close();
}

await bench.omniport.close();
