/**
 * Close benchmark against the simulator (same process, spec validation off):
 *  - sync throughput: full sync of N contacts and M deals over L leads (every stream), then an incremental
 *    sync (event log) after 1 % of the contacts changed and 10 were deleted;
 *  - the contacts batch endpoint (POST /crm/contacts/batch, 100 contacts with emails and phones each;
 *    Close has no batch API: one request per contact).
 *
 *   npx tsx bench/crm-close.ts [contacts=5000] [deals=1000] [leads=200] [batches=5]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/crm-close.ts
 */
import { ProviderRegistry } from '../src/providers/registry';
import { closeAdapter } from '../src/providers/close';
import { startCloseSimulator } from '../test/simulators/close';
import { batchRun, connect, contactBatches, startBenchServer, syncAll } from './support';

const contacts = Number(process.argv[2] ?? 5_000);
const deals = Number(process.argv[3] ?? 1_000);
const leadCount = Number(process.argv[4] ?? 200);
const batches = Number(process.argv[5] ?? 5);

const sim = await startCloseSimulator({ validateSpec: false, apiKeys: ['close-bench-key'] });
const leads = Array.from({ length: leadCount }, (_, i) =>
  sim.create('lead', { name: `Lead ${i}`, addresses: [{ label: 'business', address_1: `${i} Main St`, address_2: null, city: 'Tallinn', state: null, zipcode: '10111', country: 'EE' }] }),
);
const people = Array.from({ length: contacts }, (_, i) =>
  sim.create('contact', {
    lead_id: leads[i % leads.length]!.id,
    name: `Contact ${i}`,
    emails: [{ email: `c${i}@example.com`, type: 'office', is_unsubscribed: false }],
    phones: [{ phone: `+3725${String(i).padStart(7, '0')}`, type: 'mobile', phone_formatted: `+3725${String(i).padStart(7, '0')}` }],
  }),
);
const status = sim.pipelines[0]!.statuses[0]!.id;
for (let i = 0; i < deals; i++) {
  const c = people[i % people.length]!;
  sim.create('opportunity', { lead_id: c.lead_id, contact_id: c.id, note: `Deal ${i}`, value: 100_000 + i, value_currency: 'EUR', status_id: status, user_id: sim.users[0]!.id });
}
const bench = await startBenchServer(new ProviderRegistry([closeAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'close', credentials: { api_key: 'close-bench-key' }, base_url: sim.url });

console.log(`Close benchmark on ${bench.database}: ${contacts} contacts, ${deals} deals, ${leadCount} leads`);
await syncAll(bench, connectionId, 'full sync');
const changed = Math.max(1, Math.round(contacts / 100));
for (const p of people.slice(0, changed)) sim.update('contact', p.id, { name: `Changed ${p.id}` });
for (const p of people.slice(changed, changed + 10)) sim.remove('contact', p.id);
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes and 10 deletions`);

const companyId = (await bench.call('GET', '/crm/companies?limit=1', undefined, { 'x-connection-token': token })).body.data[0].id as string;
const batch = contactBatches(companyId, (i) => ({
  email_addresses: [{ email_address: `bench${i}@example.com`, email_address_type: 'WORK' }],
  phone_numbers: [{ phone_number: `+372 5${String(i).padStart(7, '0')}`, phone_type: 'MOBILE' }],
}));
await batchRun(bench, token, '/crm/contacts/batch', 'contacts batch, simulator answering at once', batches, batch);

await bench.omniport.close();
await sim.close();
