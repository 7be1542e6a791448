/**
 * Attio benchmark against the simulator (same process, spec validation off):
 *  - sync throughput: full sync of N people and M deals over L companies (every stream; Attio has no change
 *    filter, so the second sync after 1 % of the people changed and 10 were deleted is full too);
 *  - the contacts batch endpoint (POST /crm/contacts/batch, 100 people with an email and a phone each;
 *    Attio has no batch API: one request per person, paced at 25 writes a second).
 *
 *   npx tsx bench/crm-attio.ts [contacts=5000] [deals=1000] [companies=200] [batches=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/crm-attio.ts
 */
import { ProviderRegistry } from '../src/providers/registry';
import { attioAdapter } from '../src/providers/attio';
import { startAttioSimulator } from '../test/simulators/attio';
import { batchRun, connect, contactBatches, startBenchServer, syncAll } from './support';

const contacts = Number(process.argv[2] ?? 5_000);
const deals = Number(process.argv[3] ?? 1_000);
const companyCount = Number(process.argv[4] ?? 200);
const batches = Number(process.argv[5] ?? 2);

const TOKEN = 'attio-bench-token';
const sim = await startAttioSimulator({ validateSpec: false, tokens: [TOKEN] });
// Seeded through the simulator's own write path (the same value forms as the API).
const seed = async (object: 'people' | 'companies' | 'deals', values: Record<string, unknown>) => {
  const res = await fetch(`${sim.url}/v2/objects/${object}/records`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { values } }) });
  return ((await res.json()) as { data: { id: { record_id: string } } }).data.id.record_id;
};
const companies: string[] = [];
for (let i = 0; i < companyCount; i++) companies.push(await seed('companies', { name: `Company ${i}`, primary_location: [{ line_1: `${i} Main St`, locality: 'Tallinn', postcode: '10111', country_code: 'EE' }] }));
const people: string[] = [];
for (let i = 0; i < contacts; i++) {
  people.push(await seed('people', { name: [{ first_name: 'Person', last_name: String(i) }], email_addresses: [`p${i}@example.com`], phone_numbers: [{ original_phone_number: `+3725${String(i).padStart(7, '0')}` }], company: [companies[i % companies.length]] }));
}
const member = (sim.members[0]!.id as { workspace_member_id: string }).workspace_member_id;
const stage = (sim.statuses[0]!.id as { status_id: string }).status_id;
for (let i = 0; i < deals; i++) {
  await seed('deals', { name: [`Deal ${i}`], stage: [stage], owner: [member], value: [1000 + i / 100], associated_people: [people[i % people.length]], associated_company: [companies[i % companies.length]] });
}
const bench = await startBenchServer(new ProviderRegistry([attioAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'attio', credentials: { access_token: TOKEN }, base_url: sim.url });

console.log(`Attio benchmark on ${bench.database}: ${contacts} people, ${deals} deals, ${companyCount} companies`);
await syncAll(bench, connectionId, 'first sync (full)');
const changed = Math.max(1, Math.round(contacts / 100));
for (const id of people.slice(0, changed)) sim.update('people', id, { job_title: ['Changed'] });
for (const id of people.slice(changed, changed + 10)) sim.remove('people', id);
await syncAll(bench, connectionId, `second sync (full: Attio has no change filter) after ${changed} remote changes and 10 deletions`);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
const batch = contactBatches(companyId, (i) => ({
  email_addresses: [{ email_address: `bench${i}@example.com`, email_address_type: 'WORK' }],
  phone_numbers: [{ phone_number: `+3725${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' }],
}));
await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, simulator answering at once', batches, batch);

await bench.omniport.close();
await sim.close();
