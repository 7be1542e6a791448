/**
 * Polling benchmark (issue 30): the cost of a `modified_after` page as the store grows. At each size the store
 * holds N tickets of one connection, of which the last 10 % changed after a poll at P; the page is
 * `GET /ticketing/tickets?modified_after=P&limit=50` through the HTTP server, beside an unfiltered page and a
 * `remote_updated_after` page, with the database's plan of the `modified_after` query (EXPLAIN ANALYZE).
 *   npx tsx bench/polling.ts [sizes=10000,200000] [requests per measure=200]
 *   BENCH_DATABASE_URL=postgres://…/<empty database> npx tsx bench/polling.ts
 * Tickets are written by the store's own upsert (the statement every sync batch runs, record events included),
 * not read from a simulator: what is measured is the read, and 200,000 tickets through a provider take minutes.
 */
import { ProviderRegistry } from '../src/providers/registry';
import { zendeskAdapter } from '../src/providers/zendesk';
import { toRows } from '../src/core/unified/records';
import type { UnifiedRecord } from '../src/providers/types';
import { startZendeskSimulator } from '../test/simulators/zendesk';
import { connect, percentile, startBenchServer } from './support';

const sizes = (process.argv[2] ?? '10000,200000').split(',').map(Number);
const requests = Number(process.argv[3] ?? 200);

const sim = await startZendeskSimulator({ validateSpec: false });
const bench = await startBenchServer(new ProviderRegistry([zendeskAdapter]), { OMNIPORT_PACE_PROVIDER_BUDGETS: 'false', OMNIPORT_RATE_LIMIT_PER_MINUTE: '0' });
const cred = sim.credentials[0]!;
const { connectionId, token } = await connect(bench, { provider: 'zendesk', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url });
await sim.close(); // the tickets below are written straight to the store
const connection = { id: connectionId, projectId: (await bench.omniport.services.controlPlane.findConnectionById(connectionId))!.projectId };
const repo = bench.omniport.services.objects.repo;
const headers = { 'x-connection-token': token };
const PROVIDER_EPOCH = Date.UTC(2024, 0, 1);

/** A ticket as an adapter hands it to the store, about as large as a Zendesk one. */
function ticket(i: number, version: number): UnifiedRecord {
  const updated = new Date(PROVIDER_EPOCH + i * 60_000 + version * 1000);
  return {
    objectType: 'ticketing.ticket',
    remoteId: String(i + 1),
    data: {
      name: `Ticket ${i + 1}${version ? ` (change ${version})` : ''}`,
      status: i % 3 === 0 ? 'OPEN' : 'CLOSED',
      description: [`Something about ticket ${i + 1}, long enough to look like a customer's first message.`],
      priority: 'MEDIUM',
      tags: ['printer'],
      type: 'INCIDENT',
      completed_at: null,
      assigned_to: [],
      collections: [],
      account_id: null,
      contact_id: null,
      creator_type: 'USER',
      ticket_type: 'question',
    },
    remoteData: { id: i + 1, subject: `Ticket ${i + 1}`, status: 'open', description: 'x'.repeat(300), updated_at: updated.toISOString() },
    remoteCreatedAt: new Date(PROVIDER_EPOCH + i * 60_000),
    remoteUpdatedAt: updated,
  };
}

async function write(from: number, to: number, version: number) {
  for (let i = from; i < to; i += 1000) {
    const records = Array.from({ length: Math.min(1000, to - i) }, (_, k) => ticket(i + k, version));
    await repo.upsert(toRows(connection, records, null));
  }
}

async function timed(path: string) {
  const times: number[] = [];
  let count = 0;
  for (let r = 0; r < requests + 10; r++) {
    const started = performance.now();
    const res = await bench.call('GET', path, undefined, headers);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    if (r >= 10) times.push(performance.now() - started); // the first ten warm the caches and prepared plans
    count = res.body.data.length;
  }
  return `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (${count} objects)`;
}

const { executeSql } = bench.omniport.database;
console.log(`Polling benchmark on ${bench.database}: ${sizes.join(', ')} tickets, ${requests} requests per measure, pages of 50`);
let stored = 0;
for (const size of sizes) {
  const t0 = performance.now();
  await write(stored, size, 0);
  stored = size;
  // The poll at P, then a change to the last 10 % (stored after P).
  await new Promise((r) => setTimeout(r, 5));
  const P = new Date();
  await write(size - size / 10, size, 1);
  await repo.analyze(); // as a sync does after a large run
  console.log(`\n${size} tickets stored (${((performance.now() - t0) / 1000).toFixed(1)} s), ${size / 10} changed after P`);
  const after = encodeURIComponent(P.toISOString());
  const remoteAfter = encodeURIComponent(new Date(PROVIDER_EPOCH + (size - size / 10) * 60_000).toISOString());
  console.log(`  modified_after=P page:        ${await timed(`/ticketing/tickets?limit=50&modified_after=${after}`)}`);
  console.log(`  remote_updated_after page:    ${await timed(`/ticketing/tickets?limit=50&remote_updated_after=${remoteAfter}`)}`);
  console.log(`  unfiltered page:              ${await timed('/ticketing/tickets?limit=50')}`);
  // The statement the modified_after page runs (unified.repo.ts pageOf, stored views, first page).
  const plan = await executeSql(
    `explain (analyze, buffers, costs off, timing on)
       select id, seq, view_json as json, modified_at from unified_objects
       where connection_id = $1 and object_type = 'ticketing.ticket' and remote_was_deleted = false and modified_at >= $2
       order by modified_at, id limit 51`,
    [connectionId, P.toISOString()],
  );
  console.log('  EXPLAIN ANALYZE (modified_after page):');
  for (const row of plan.rows as Record<string, string>[]) console.log(`    ${Object.values(row)[0]}`);
}
await bench.omniport.close();
