/**
 * Dynamics 365 Sales benchmark against the Dataverse simulator (same process):
 *  - sync throughput: full sync of N contacts and M deals (a contact each) over L accounts (every stream,
 *    pages of 5,000 with change tracking), then an incremental sync through the saved delta links after 1 %
 *    of the contacts changed and 10 were deleted (the delta answers the changed rows and the deleted
 *    entities only);
 *  - the contacts batch endpoint (POST /crm/contacts/batch, 100 contacts with an email and a phone each:
 *    one $batch with a change set per contact, rows answered in it).
 *
 *   npx tsx bench/crm-dynamics.ts [contacts=5000] [deals=1000] [accounts=200] [batches=5]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/crm-dynamics.ts
 */
import { ProviderRegistry } from '../src/providers/registry';
import { dynamicsAdapter } from '../src/providers/dynamics';
import { startDynamicsSimulator } from '../test/simulators/dynamics';
import { batchRun, connect, contactBatches, startBenchServer, syncAll } from './support';

const contacts = Number(process.argv[2] ?? 5_000);
const deals = Number(process.argv[3] ?? 1_000);
const accountCount = Number(process.argv[4] ?? 200);
const batches = Number(process.argv[5] ?? 5);

const TOKEN = 'dv-bench-token';
const sim = await startDynamicsSimulator({ accessTokens: [TOKEN], requestsPerFiveMinutes: 1_000_000 });
sim.clock.advance(-3_600_000);
const eur = String(sim.currencies.find((c) => c.isocurrencycode === 'EUR')!.transactioncurrencyid);
const accounts = Array.from({ length: accountCount }, (_, i) =>
  sim.create('account', { name: `Account ${i}`, address1_line1: `${i} Main St`, address1_city: 'Tallinn', address1_postalcode: '10111', address1_country: 'EE' }),
);
const people = Array.from({ length: contacts }, (_, i) =>
  sim.create('contact', {
    'parentcustomerid_account@odata.bind': `/accounts(${String(accounts[i % accounts.length]!.accountid)})`,
    firstname: 'Contact',
    lastname: String(i),
    emailaddress1: `c${i}@example.com`,
    mobilephone: `+3725${String(i).padStart(7, '0')}`,
  }),
);
for (let i = 0; i < deals; i++) {
  const c = people[i % people.length]!;
  sim.create('opportunity', {
    name: `Deal ${i}`,
    estimatedvalue: 1000 + i / 100,
    salesstage: 1,
    estimatedclosedate: '2026-12-31',
    'parentaccountid@odata.bind': `/accounts(${String(c._parentcustomerid_value)})`,
    'parentcontactid@odata.bind': `/contacts(${String(c.contactid)})`,
    'transactioncurrencyid@odata.bind': `/transactioncurrencies(${eur})`,
  });
}
sim.clock.advance(3_600_000);
const bench = await startBenchServer(new ProviderRegistry([dynamicsAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'dynamics', credentials: { access_token: TOKEN }, base_url: sim.url });

console.log(`Dynamics benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, ${accountCount} accounts`);
await syncAll(bench, connectionId, 'full sync');
const changed = Math.max(1, Math.round(contacts / 100));
for (const p of people.slice(0, changed)) sim.update('contact', String(p.contactid), { firstname: 'Changed' });
for (const p of people.slice(changed, changed + 10)) sim.remove('contact', String(p.contactid));
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes and 10 deletions`);
console.log(`Web API requests: ${sim.requests.length}`);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
const batch = contactBatches(companyId, (i) => ({
  last_name: `Bench ${i}`,
  email_addresses: [{ email_address: `bench${i}@example.com`, email_address_type: 'WORK' }],
  phone_numbers: [{ phone_number: `+372 5${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' }],
}));
await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch ($batch), simulator answering at once', batches, batch);

await bench.omniport.close();
await sim.close();
