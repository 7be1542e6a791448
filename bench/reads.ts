/**
 * Reads benchmark (issue 13): right after a full sync of N Zendesk tickets (no manual ANALYZE), Omniport's
 * list and get by id beside the raw-SQL keyset page on the same data and pool, and a bare Fastify sending
 * the same bytes; then the slowest request under 50 concurrent connections.
 *   npx tsx bench/reads.ts [tickets=50000] [seconds per measure=8] [comments per ticket=0] [rounds=3]
 * List pages are measured in `rounds` turns of Omniport then the raw bound; the table gives the median round of each.
 *   BENCH_DATABASE_URL=postgres://…/<empty database> npx tsx bench/reads.ts 50000
 * The load comes from a worker thread (bench/load.worker.mjs), not from the server's event loop.
 */
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { ProviderRegistry } from '../src/providers/registry';
import { zendeskAdapter } from '../src/providers/zendesk';
import { startZendeskSimulator } from '../test/simulators/zendesk';
import { connect, percentile, startBenchServer, syncAll } from './support';

const tickets = Number(process.argv[2] ?? 50_000);
const seconds = Number(process.argv[3] ?? 8);
const commentsPerTicket = Number(process.argv[4] ?? 0);
const rounds = Number(process.argv[5] ?? 3);

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  bytes: number;
}

function stats(latencies: number[], elapsedSeconds: number, errors = 0, bytes = 0): Measure {
  return {
    rps: latencies.length / elapsedSeconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    errors,
    bytes,
  };
}

/** HTTP load on `origin + path` from a worker thread. */
function load(origin: string, path: string, headers: Record<string, string>, connections = 1): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load.worker.mjs', import.meta.url), {
      workerData: { origin, path, headers, connections, durationMs: seconds * 1000, warmupMs: 1000 },
    });
    worker.once('message', (m: { latencies: number[]; errors: number; seconds: number; bytes: number }) =>
      resolve(stats(m.latencies, m.seconds, m.errors, m.bytes)),
    );
    worker.once('error', reject);
  });
}

/** One query at a time on the server's own database handle (its pool, or its PGlite) for the same duration. */
async function sqlLoop(run: () => Promise<unknown>): Promise<Measure> {
  const warm = performance.now() + 1000;
  while (performance.now() < warm) await run();
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline) {
    const t0 = performance.now();
    await run();
    latencies.push(performance.now() - t0);
  }
  return stats(latencies, (performance.now() - started) / 1000);
}

const sim = await startZendeskSimulator({ validateSpec: false });
sim.seedTickets(tickets, { commentsPerTicket });
// The simulator's export budget would stretch the sync over minutes without changing what is read after it.
// Omniport's own per-key limit (1,200 a minute by default) would answer the fast measures with 429s.
const bench = await startBenchServer(new ProviderRegistry([zendeskAdapter]), { OMNIPORT_PACE_PROVIDER_BUDGETS: 'false', OMNIPORT_RATE_LIMIT_PER_MINUTE: '0' });
const cred = sim.credentials[0]!;
const { connectionId, token } = await connect(bench, {
  provider: 'zendesk',
  credentials: { email: cred.email, api_token: cred.apiToken },
  base_url: sim.url,
});
console.log(`Reads benchmark on ${bench.database}: ${tickets} tickets, ${seconds} s per measure, 1 connection unless said`);
await syncAll(bench, connectionId, 'full sync', { per: { stream: 'ticketing.ticket', unit: 'tickets' } });
await sim.close(); // nothing below calls the provider

const origin = bench.url;
const headers = { 'x-api-key': bench.apiKey, 'x-connection-token': token };

const { executeSql } = bench.omniport.database;
const rawPage = (limit: number) => () =>
  executeSql(
    `select id, seq, connection_id, object_type, remote_id, parent_id, data, remote_created_at, remote_updated_at, remote_was_deleted
       from unified_objects where connection_id = $1 and object_type = 'ticketing.ticket' and remote_was_deleted = false
       order by seq, id limit $2`,
    [connectionId, limit + 1],
  );

/** A bare Fastify answering every request with these bytes. */
async function bareFastify(body: Buffer) {
  const app = Fastify();
  app.get('/*', (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

const fmt = (m: Measure) => `${Math.round(m.rps).toLocaleString('en')} req/s (p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms)`;
const rows: string[] = [];

/** The round with the median rate: Omniport and the raw bound are measured in turns, so that a burst of other work on the machine weighs on both. */
const median = (measures: Measure[]) => [...measures].sort((a, b) => a.rps - b.rps)[measures.length >> 1]!;

for (const limit of [50, 1000]) {
  const path = `/ticketing/tickets?limit=${limit}`;
  const omniports: Measure[] = [];
  const raws: Measure[] = [];
  for (let round = 0; round < rounds; round++) {
    omniports.push(await load(origin, path, headers));
    raws.push(await sqlLoop(rawPage(limit)));
  }
  const omniport = median(omniports);
  const raw = median(raws);
  console.log(`  ${limit}/page, ${rounds} rounds: Omniport ${omniports.map((m) => Math.round(m.rps)).join(', ')} req/s; raw ${raws.map((m) => Math.round(m.rps)).join(', ')} q/s`);
  const body = Buffer.from(await (await fetch(origin + path, { headers })).arrayBuffer());
  const bare = await bareFastify(body);
  const fastify = await load(bare.url, path, {});
  await bare.close();
  const share = `${Math.round((100 * omniport.rps) / raw.rps)} %`;
  rows.push(`| ${bench.database}, ${limit}/page | ${fmt(omniport)} | ${fmt(raw)} | **${share}** | ${fmt(fastify)} | ${(body.length / 1024).toFixed(0)} KiB |`);
  if (omniport.errors) console.log(`  ${omniport.errors} answers were not 200`);
}

for (const encoding of ['gzip', 'br']) {
  const m = await load(origin, '/ticketing/tickets?limit=1000', { ...headers, 'accept-encoding': encoding });
  rows.push(`| ${bench.database}, 1000/page, \`accept-encoding: ${encoding}\` | ${fmt(m)} | | | | ${(m.bytes / 1024).toFixed(0)} KiB |`);
}

const [someTicket] = (await executeSql(`select id from unified_objects where connection_id = $1 and object_type = 'ticketing.ticket' order by seq desc limit 1`, [connectionId])).rows;
const got = await load(origin, `/ticketing/tickets/${someTicket!.id}`, { 'x-api-key': headers['x-api-key'] });
rows.push(`| ${bench.database}, get by id | ${fmt(got)} | | | | |`);

const crowd = await load(origin, '/ticketing/tickets?limit=50', headers, 50);
rows.push(`| ${bench.database}, 50/page, 50 connections | ${fmt(crowd)}, **max ${crowd.max.toFixed(0)} ms**, ${crowd.errors} errors | | | | |`);

console.log('\n| request | Omniport | raw SQL keyset page, same pool | Omniport / raw | bare Fastify, same bytes | body |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);

await bench.omniport.close();
