/**
 * Help Scout benchmark: full and incremental sync throughput and peak memory for N simulated conversations with
 * their threads (embedded in the conversation listing: 25 conversations a call), then list latency at 50 and 1000
 * per page. The rate limit is not enforced here (see bench/provider-budgets.ts).
 *   npx tsx bench/helpscout.ts [conversations=1000] [threadsPerConversation=3]
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/helpscout.ts 5000
 */
import { ProviderRegistry } from '../src/providers/registry';
import { helpscoutAdapter } from '../src/providers/helpscout';
import { startHelpScoutSimulator } from '../test/simulators/helpscout';
import { connect, listLatencies, startBenchServer, syncAll } from './support';

const conversations = Number(process.argv[2] ?? 1000);
const threadsPerConversation = Number(process.argv[3] ?? 3);

const sim = await startHelpScoutSimulator({ rateLimit: { perMinute: 1_000_000 }, recordBodies: false });
const ids = sim.seedConversations(conversations, { threadsPerConversation });
const bench = await startBenchServer(new ProviderRegistry([helpscoutAdapter]));
const { connectionId, token } = await connect(bench, { provider: 'helpscout', credentials: { access_token: sim.token }, base_url: sim.url });
const syncOptions = { per: { stream: 'ticketing.ticket', unit: 'conversation and thread records' } };

console.log(`Help Scout sync benchmark on ${bench.database}: ${conversations} conversations × ${threadsPerConversation} threads`);
await syncAll(bench, connectionId, 'full sync', syncOptions);
const changed = Math.max(1, Math.round(conversations / 100));
for (const id of ids.slice(0, changed)) sim.updateConversationRemotely(id, { subject: `changed ${id}` });
await syncAll(bench, connectionId, `incremental sync after ${changed} remote changes`, syncOptions);

await listLatencies(bench, token, '/ticketing/tickets');

await bench.omniport.close();
await sim.close();
