/**
 * Pipedrive benchmark against the simulator (same process, spec validation off):
 *  - sync throughput and peak RSS: full sync of N contacts and M deals (every stream), then an
 *    incremental sync after 1 % of the contacts changed;
 *  - the contacts batch endpoint (POST /crm/contacts/batch, 100 contacts with emails, phones and an
 *    address each): contacts/s with the simulator answering at once, and with 100 ms per create
 *    (Pipedrive has no batch API: one request per contact, at most 8 at a time per connection).
 *
 *   npx tsx bench/crm-pipedrive.ts [contacts=20000] [deals=5000] [batches=10]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/crm-pipedrive.ts
 */
import { ProviderRegistry } from '../src/providers/registry';
import { pipedriveAdapter } from '../src/providers/pipedrive';
import { startPipedriveSimulator } from '../test/simulators/pipedrive';
import { enableContactSync } from '../test/providers/pipedrive/contact-sync';
import { startBenchServer, trackPeakRss } from './support';

const contacts = Number(process.argv[2] ?? 20_000);
const deals = Number(process.argv[3] ?? 5_000);
const batches = Number(process.argv[4] ?? 10);

const sim = await startPipedriveSimulator({ validateSpec: false });
enableContactSync(sim);
sim.seedOrganizations(200);
sim.seedPersons(contacts, { linkOrganizations: true });
sim.seedDeals(deals, { linkPersons: true });
const bench = await startBenchServer(new ProviderRegistry([pipedriveAdapter]));
const created = await bench.call('POST', '/connections', {
  provider: 'pipedrive',
  linked_user_origin_id: 'bench',
  credentials: { api_token: 'pd-test-token' },
  base_url: sim.url,
});
if (created.status !== 201) throw new Error(`connection: ${JSON.stringify(created.body)}`);
const connectionId: string = created.body.data.id_connection;
const token: string = created.body.data.connection_token;
const { sync, controlPlane } = bench.omniport.services;

async function syncAll(label: string) {
  const streams = sync.streamsOf((await controlPlane.findConnectionById(connectionId))!);
  const rss = trackPeakRss();
  const started = performance.now();
  const results = [];
  for (const stream of streams) results.push(await sync.run(connectionId, stream));
  const seconds = (performance.now() - started) / 1000;
  const peak = rss.stop();
  const records = results.reduce((n, r) => n + r.records, 0);
  console.log(`${label}: ${records} records in ${seconds.toFixed(1)} s — ${Math.round(records / seconds)} records/s, peak RSS ${peak} MiB`);
  for (const r of results) console.log(`  ${r.stream}: ${r.records} (${r.mode})`);
}

console.log(`Pipedrive benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, 200 companies`);
await syncAll('full sync');
const changed = Math.max(1, Math.round(contacts / 100));
for (const p of sim.entities('persons').slice(0, changed)) sim.updateEntity('persons', p.id, { name: `Changed ${p.id}` });
await syncAll(`incremental sync after ${changed} remote changes`);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
let serial = 0;
const batch = () =>
  Array.from({ length: 100 }, () => {
    const i = ++serial;
    return {
      first_name: `Bench${i}`,
      last_name: 'Contact',
      email_addresses: [{ email_address: `bench${i}@example.com`, email_address_type: 'WORK' }],
      phone_numbers: [{ phone_number: `+372 5${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' }],
      addresses: [{ street_1: `${i} Main St`, city: 'Tallinn', country: 'EE' }],
      company_id: companyId,
    };
  });

async function batchRun(label: string) {
  const rss = trackPeakRss();
  const started = performance.now();
  let ok = 0;
  for (let b = 0; b < batches; b++) {
    const res = await bench.call('POST', '/crm/contacts/batch', batch(), { 'x-connection-token': token });
    if (res.status !== 201) throw new Error(`batch answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    ok += res.body.data.length;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`${label}: ${ok} contacts in ${batches} batches, ${seconds.toFixed(1)} s — ${Math.round(ok / seconds)} contacts/s, ${((seconds * 1000) / batches).toFixed(0)} ms per batch of 100, peak RSS ${rss.stop()} MiB`);
}

await batchRun('contacts batch, simulator answering at once');
const slow = sim.faults.add({ method: 'POST', path: '/api/v2/persons', delayMs: 100, times: Infinity });
await batchRun('contacts batch, 100 ms per Pipedrive create');
sim.faults.remove(slow);

await bench.omniport.close();
await sim.close();
