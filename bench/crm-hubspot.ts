/**
 * HubSpot benchmark against the simulator (same process):
 *  - sync throughput and peak RSS: full sync of N contacts and M deals (with 200 companies, every stream,
 *    list pages of 100 with associations), then an incremental sync (search API, paced at 5 calls/s like
 *    HubSpot allows, associations through v4 batch reads) after 1 % of the contacts changed;
 *  - the contacts batch endpoint (POST /crm/contacts/batch, 100 contacts with an email, two phones, an
 *    address and a company each): contacts/s with the simulator answering at once, and with 300 ms per
 *    HubSpot batch call (one call for the 100 contacts).
 *
 *   npx tsx bench/crm-hubspot.ts [contacts=20000] [deals=5000] [batches=10]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/crm-hubspot.ts
 */
import { ProviderRegistry } from '../src/providers/registry';
import { hubspotAdapter } from '../src/providers/hubspot';
import { startHubSpotSimulator } from '../test/simulators/hubspot';
import { startBenchServer, trackPeakRss } from './support';

const contacts = Number(process.argv[2] ?? 20_000);
const deals = Number(process.argv[3] ?? 5_000);
const batches = Number(process.argv[4] ?? 10);

const sim = await startHubSpotSimulator({ recordBodies: false });
sim.seedCompanies(200);
sim.seedContacts(contacts, { associateCompanies: true });
sim.seedDeals(deals, { associateContacts: true });
const bench = await startBenchServer(new ProviderRegistry([hubspotAdapter]));
const created = await bench.call('POST', '/connections', {
  provider: 'hubspot',
  linked_user_origin_id: 'bench',
  credentials: { access_token: 'hs-test-token' },
  base_url: sim.url,
});
if (created.status !== 201) throw new Error(`connection: ${JSON.stringify(created.body)}`);
const connectionId: string = created.body.data.id_connection;
const token: string = created.body.data.connection_token;
const { sync, controlPlane } = bench.omniport.services;

async function syncAll(label: string) {
  const streams = sync.streamsOf((await controlPlane.findConnectionById(connectionId))!);
  const rss = trackPeakRss();
  const requestsBefore = sim.requests.length;
  const started = performance.now();
  const results = [];
  for (const stream of streams) results.push(await sync.run(connectionId, stream));
  const seconds = (performance.now() - started) / 1000;
  const peak = rss.stop();
  const records = results.reduce((n, r) => n + r.records, 0);
  console.log(
    `${label}: ${records} records in ${seconds.toFixed(1)} s — ${Math.round(records / seconds)} records/s, ${sim.requests.length - requestsBefore} HubSpot calls, peak RSS ${peak} MiB`,
  );
  for (const r of results) console.log(`  ${r.stream}: ${r.records} (${r.mode})`);
}

console.log(`HubSpot benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, 200 companies`);
await syncAll('full sync');
const changed = Math.max(1, Math.round(contacts / 100));
for (const c of sim.records('contacts').slice(0, changed)) sim.updateRecord('contacts', c.id, { firstname: `Changed ${c.id}` });
await syncAll(`incremental sync after ${changed} remote changes`);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
let serial = 0;
const batch = () =>
  Array.from({ length: 100 }, () => {
    const i = ++serial;
    return {
      first_name: `Bench${i}`,
      last_name: 'Contact',
      email_addresses: [{ email_address: `bench${i}@batch.example`, email_address_type: 'WORK' }],
      phone_numbers: [
        { phone_number: `+1 555 ${String(i).padStart(7, '0')}`, phone_type: 'WORK' },
        { phone_number: `+1 556 ${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' },
      ],
      addresses: [{ street_1: `${i} Main St`, city: 'Boston', state: 'MA', postal_code: '02110', country: 'US' }],
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
  console.log(
    `${label}: ${ok} contacts in ${batches} batches, ${seconds.toFixed(1)} s — ${Math.round(ok / seconds)} contacts/s, ${((seconds * 1000) / batches).toFixed(0)} ms per batch of 100, peak RSS ${rss.stop()} MiB`,
  );
}

await batchRun('contacts batch, simulator answering at once');
const slow = sim.faults.add({ method: 'POST', path: '/crm/v3/objects/contacts/batch/create', delayMs: 300, times: Infinity });
await batchRun('contacts batch, 300 ms per HubSpot batch call');
sim.faults.remove(slow);

await bench.omniport.close();
await sim.close();
