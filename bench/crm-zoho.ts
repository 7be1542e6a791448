/**
 * Zoho CRM benchmark against the simulator (same process, spec validation off):
 *  - sync throughput: full sync of N contacts and M deals over A accounts (every stream, pages of 200;
 *    records modified five a second over the last hours), then an incremental sync (If-Modified-Since, Deleted Records API) after 1 % of the contacts changed
 *    and 10 were deleted;
 *  - the contacts batch endpoint (POST /crm/contacts/batch, 100 contacts with emails and phones each: one
 *    Zoho insert of 100 records, then one read back by ids).
 *
 *   npx tsx bench/crm-zoho.ts [contacts=5000] [deals=1000] [accounts=200] [batches=5]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/crm-zoho.ts
 */
import { ProviderRegistry } from '../src/providers/registry';
import { zohoAdapter } from '../src/providers/zoho';
import { startZohoSimulator } from '../test/simulators/zoho';
import { batchRun, connect, contactBatches, startBenchServer, syncAll } from './support';

const contacts = Number(process.argv[2] ?? 5_000);
const deals = Number(process.argv[3] ?? 1_000);
const accountCount = Number(process.argv[4] ?? 200);
const batches = Number(process.argv[5] ?? 5);

const sim = await startZohoSimulator({ validateSpec: false, accessTokens: ['zoho-bench-token'], multiCurrency: true });
// The account was filled over the last hours, five records a second (Modified_Time keeps whole seconds).
const back = 3 * 3_600_000;
sim.clock.advance(-back);
let seeded = 0;
const tick = () => {
  if (++seeded % 5 === 0) sim.clock.advance(1_000);
};
const accounts = Array.from({ length: accountCount }, (_, i) =>
  (tick(), sim.create('Accounts', { Account_Name: `Account ${i}`, Billing_Street: `${i} Main St`, Billing_City: 'Tallinn', Billing_Code: '10111', Billing_Country: 'EE' })),
);
const people = Array.from({ length: contacts }, (_, i) =>
  (tick(), sim.create('Contacts', {
    First_Name: 'Contact',
    Last_Name: String(i),
    Email: `c${i}@example.com`,
    Mobile: `+3725${String(i).padStart(7, '0')}`,
    Account_Name: { id: accounts[i % accounts.length]!.id },
  })),
);
for (let i = 0; i < deals; i++) {
  tick();
  sim.create('Deals', { Deal_Name: `Deal ${i}`, Amount: 1000 + i + 0.25, Currency: 'EUR', Stage: sim.stages[0], Closing_Date: '2026-12-31', Contact_Name: { id: people[i % people.length]!.id } });
}
sim.clock.advance(back - Math.floor(seeded / 5) * 1_000);
const bench = await startBenchServer(new ProviderRegistry([zohoAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'zoho', credentials: { access_token: 'zoho-bench-token' }, base_url: sim.url });

console.log(`Zoho CRM benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, ${accountCount} accounts`);
await syncAll(bench, connectionId, 'full sync');
const changed = Math.max(1, Math.round(contacts / 100));
for (const p of people.slice(0, changed)) sim.update('Contacts', p.id, { First_Name: 'Changed' });
for (const p of people.slice(changed, changed + 10)) sim.remove('Contacts', p.id);
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes and 10 deletions`);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
const batch = contactBatches(companyId, (i) => ({
  last_name: `Bench ${i}`,
  email_addresses: [{ email_address: `bench${i}@example.com`, email_address_type: 'WORK' }],
  phone_numbers: [{ phone_number: `+372 5${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' }],
}));
await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, simulator answering at once', batches, batch);

await bench.omniport.close();
await sim.close();
