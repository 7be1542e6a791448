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
import { batchRun, connect, contactBatches, startBenchServer, syncAll } from './support';

const contacts = Number(process.argv[2] ?? 20_000);
const deals = Number(process.argv[3] ?? 5_000);
const batches = Number(process.argv[4] ?? 10);

const sim = await startHubSpotSimulator({ recordBodies: false });
sim.seedCompanies(200);
sim.seedContacts(contacts, { associateCompanies: true });
sim.seedDeals(deals, { associateContacts: true });
const bench = await startBenchServer(new ProviderRegistry([hubspotAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'hubspot', credentials: { access_token: 'hs-test-token' }, base_url: sim.url });
const syncOptions = { calls: () => sim.requests.length, provider: 'HubSpot' };

console.log(`HubSpot benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, 200 companies`);
await syncAll(bench, connectionId, 'full sync', syncOptions);
const changed = Math.max(1, Math.round(contacts / 100));
for (const c of sim.records('contacts').slice(0, changed)) sim.updateRecord('contacts', c.id, { firstname: `Changed ${c.id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`, syncOptions);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
const batch = contactBatches(companyId, (i) => ({
  email_addresses: [{ email_address: `bench${i}@batch.example`, email_address_type: 'WORK' }],
  phone_numbers: [
    { phone_number: `+1 555 ${String(i).padStart(7, '0')}`, phone_type: 'WORK' },
    { phone_number: `+1 556 ${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' },
  ],
  addresses: [{ street_1: `${i} Main St`, city: 'Boston', state: 'MA', postal_code: '02110', country: 'US' }],
}));

await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, simulator answering at once', batches, batch);
const slow = sim.faults.add({ method: 'POST', path: '/crm/v3/objects/contacts/batch/create', delayMs: 300, times: Infinity });
await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, 300 ms per HubSpot batch call', batches, batch);
sim.faults.remove(slow);

await bench.omniport.close();
await sim.close();
