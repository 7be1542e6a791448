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
import { batchRun, connect, contactBatches, startBenchServer, syncAll } from './support';

const contacts = Number(process.argv[2] ?? 20_000);
const deals = Number(process.argv[3] ?? 5_000);
const batches = Number(process.argv[4] ?? 10);

const sim = await startPipedriveSimulator({ validateSpec: false });
enableContactSync(sim);
sim.seedOrganizations(200);
sim.seedPersons(contacts, { linkOrganizations: true });
sim.seedDeals(deals, { linkPersons: true });
const bench = await startBenchServer(new ProviderRegistry([pipedriveAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'pipedrive', credentials: { api_token: 'pd-test-token' }, base_url: sim.url });

console.log(`Pipedrive benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, 200 companies`);
await syncAll(bench, connectionId, 'full sync');
const changed = Math.max(1, Math.round(contacts / 100));
for (const p of sim.entities('persons').slice(0, changed)) sim.updateEntity('persons', p.id, { name: `Changed ${p.id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
const batch = contactBatches(companyId, (i) => ({
  email_addresses: [{ email_address: `bench${i}@example.com`, email_address_type: 'WORK' }],
  phone_numbers: [{ phone_number: `+372 5${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' }],
  addresses: [{ street_1: `${i} Main St`, city: 'Tallinn', country: 'EE' }],
}));

await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, simulator answering at once', batches, batch);
const slow = sim.faults.add({ method: 'POST', path: '/api/v2/persons', delayMs: 100, times: Infinity });
await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, 100 ms per Pipedrive create', batches, batch);
sim.faults.remove(slow);

await bench.omniport.close();
await sim.close();
