/**
 * Zendesk Sell benchmark against the simulator (same process, contract checks on):
 *  - sync throughput: full sync of N person contacts and M deals over O organizations (every stream, pages
 *    of 100), then an incremental sync (lists newest change first, down to the last run) after 1 % of the
 *    contacts changed and 10 were deleted (deletions are seen by full syncs only);
 *  - the contacts batch endpoint (POST /crm/contacts/batch, 100 contacts with email and phone each: Sell
 *    has no batch API, one request per contact, paced by the manifest's budget).
 *
 *   npx tsx bench/crm-zendesk-sell.ts [contacts=5000] [deals=1000] [organizations=200] [batches=2]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/crm-zendesk-sell.ts
 */
import { ProviderRegistry } from '../src/providers/registry';
import { zendeskSellAdapter } from '../src/providers/zendesk-sell';
import { startZendeskSellSimulator } from '../test/simulators/zendesk-sell';
import { batchRun, connect, contactBatches, startBenchServer, syncAll } from './support';

const contacts = Number(process.argv[2] ?? 5_000);
const deals = Number(process.argv[3] ?? 1_000);
const orgCount = Number(process.argv[4] ?? 200);
const batches = Number(process.argv[5] ?? 2);

const sim = await startZendeskSellSimulator({ tokens: ['sell-bench-token'] });
// The account was filled over the last hours (Sell keeps whole seconds), outside the core's overlap window.
const back = 3 * 3_600_000;
sim.clock.advance(-back);
let seeded = 0;
const tick = () => {
  if (++seeded % 5 === 0) sim.clock.advance(1_000);
};
const orgs = Array.from({ length: orgCount }, (_, i) => (tick(), sim.create('contacts', { is_organization: true, name: `Organization ${i}`, address: { line1: `${i} Main St`, city: 'Tallinn', postal_code: '10111', state: null, country: 'EE' } })));
const people = Array.from({ length: contacts }, (_, i) =>
  (tick(), sim.create('contacts', { first_name: 'Contact', last_name: String(i), email: `c${i}@example.com`, mobile: `+3725${String(i).padStart(7, '0')}`, contact_id: orgs[i % orgs.length]!.id })),
);
for (let i = 0; i < deals; i++) {
  tick();
  sim.create('deals', { name: `Deal ${i}`, value: `${1000 + i}.25`, currency: 'EUR', stage_id: sim.stages[0]!.id, contact_id: people[i % people.length]!.id });
}
sim.clock.advance(back - Math.floor(seeded / 5) * 1_000);
const bench = await startBenchServer(new ProviderRegistry([zendeskSellAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'zendesk-sell', credentials: { access_token: 'sell-bench-token' }, base_url: sim.url });

console.log(`Zendesk Sell benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, ${orgCount} organizations`);
await syncAll(bench, connectionId, 'full sync', { calls: () => sim.requests.length });
const changed = Math.max(1, Math.round(contacts / 100));
for (const p of people.slice(0, changed)) sim.update('contacts', p.id, { first_name: 'Changed' });
for (const p of people.slice(changed, changed + 10)) sim.remove('contacts', p.id);
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes and 10 deletions`, { calls: () => sim.requests.length });

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
const batch = contactBatches(companyId, (i) => ({
  last_name: `Bench ${i}`,
  email_addresses: [{ email_address: `bench${i}@example.com`, email_address_type: 'WORK' }],
  phone_numbers: [{ phone_number: `+372 5${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' }],
}));
await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, simulator answering at once', batches, batch);
if (sim.contractViolations.length) console.log('contract violations:', sim.contractViolations.slice(0, 3));

await bench.omniport.close();
await sim.close();
