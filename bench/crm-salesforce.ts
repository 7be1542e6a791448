/**
 * Salesforce benchmark against the simulator (same process, spec validation off):
 *  - sync throughput: full sync of N contacts and M deals (with a contact role each) over L accounts (every
 *    stream, SOQL batches of 2,000), then an incremental sync (queryAll) after 1 % of the contacts changed and
 *    10 were deleted; the org's records share few SystemModstamp values (whole seconds), as bulk loads do;
 *  - the contacts batch endpoint (POST /crm/contacts/batch, 100 contacts with an email and a phone each:
 *    one sObject Collections request and one query to read them back).
 *
 *   npx tsx bench/crm-salesforce.ts [contacts=5000] [deals=1000] [accounts=200] [batches=5]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/crm-salesforce.ts
 */
import { ProviderRegistry } from '../src/providers/registry';
import { salesforceAdapter } from '../src/providers/salesforce';
import { startSalesforceSimulator } from '../test/simulators/salesforce';
import { batchRun, connect, contactBatches, startBenchServer, syncAll } from './support';

const contacts = Number(process.argv[2] ?? 5_000);
const deals = Number(process.argv[3] ?? 1_000);
const accountCount = Number(process.argv[4] ?? 200);
const batches = Number(process.argv[5] ?? 5);

const TOKEN = 'sf-bench-token';
const sim = await startSalesforceSimulator({ validateSpec: false, accessTokens: [TOKEN], multiCurrency: true, dailyApiRequests: 1_000_000 });
// The org was loaded an hour ago: its records lie before the core's 5-minute overlap window.
sim.clock.advance(-3_600_000);
const accounts = Array.from({ length: accountCount }, (_, i) =>
  sim.create('Account', { Name: `Account ${i}`, BillingStreet: `${i} Main St`, BillingCity: 'Tallinn', BillingPostalCode: '10111', BillingCountry: 'EE' }),
);
const people = Array.from({ length: contacts }, (_, i) =>
  sim.create('Contact', {
    AccountId: accounts[i % accounts.length]!.Id,
    FirstName: 'Contact',
    LastName: String(i),
    Email: `c${i}@example.com`,
    MobilePhone: `+3725${String(i).padStart(7, '0')}`,
  }),
);
for (let i = 0; i < deals; i++) {
  const c = people[i % people.length]!;
  const deal = sim.create('Opportunity', { AccountId: c.AccountId, Name: `Deal ${i}`, Amount: 1000 + i / 100, CurrencyIsoCode: 'EUR', StageName: 'Prospecting', CloseDate: '2026-12-31' });
  sim.create('OpportunityContactRole', { OpportunityId: deal.Id, ContactId: c.Id });
}
sim.clock.advance(3_600_000);
const bench = await startBenchServer(new ProviderRegistry([salesforceAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'salesforce', credentials: { access_token: TOKEN }, base_url: sim.url });

console.log(`Salesforce benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, ${accountCount} accounts`);
await syncAll(bench, connectionId, 'full sync');
const changed = Math.max(1, Math.round(contacts / 100));
for (const p of people.slice(0, changed)) sim.update('Contact', p.Id, { FirstName: 'Changed' });
for (const p of people.slice(changed, changed + 10)) sim.remove('Contact', p.Id);
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes and 10 deletions`);
console.log(`API requests counted by the org (Sforce-Limit-Info): ${sim.apiUsage}`);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
const batch = contactBatches(companyId, (i) => ({
  email_addresses: [{ email_address: `bench${i}@example.com`, email_address_type: 'WORK' }],
  phone_numbers: [{ phone_number: `+372 5${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' }],
}));
await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, simulator answering at once', batches, batch);

await bench.omniport.close();
await sim.close();
