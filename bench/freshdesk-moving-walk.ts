/**
 * Freshdesk ticket walk while tickets change: one full ticket sync (the adapter driven directly, no
 * database) over N simulated tickets, `per_page` 100, with an already-read ticket changed before every
 * k-th listing call. Prints the listing calls, the tickets yielded and how many live tickets the run missed.
 *   npx tsx bench/freshdesk-moving-walk.ts [tickets=3000] [ticketsPerSecond=1] [changeEveryKthCall=3]
 */
import { idFactory } from '../src/core/unified/ids';
import { createFreshdeskAdapter } from '../src/providers/freshdesk';
import { ProviderHttpClient } from '../src/providers/http-client';
import { startFreshdeskSimulator } from '../test/simulators/freshdesk';

const n = Number(process.argv[2] ?? 3000);
const perSecond = Math.max(1, Number(process.argv[3] ?? 1));
const changeEvery = Number(process.argv[4] ?? 3);

const sim = await startFreshdeskSimulator({ rateLimit: { perMinute: 10_000_000 }, recordBodies: false });
const requester = sim.seed!.casey;
const base = sim.clock.now() - 86_400_000 - n * 1000;
for (let i = 0; i < n; i++) sim.state.createTicket({ subject: `T${i}`, requesterId: requester }, base + Math.floor(i / perSecond) * 1000);
const adapter = createFreshdeskAdapter({});
const credentials = { api_key: sim.apiKeys[0]! };
const http = new ProviderHttpClient({ allowPrivateAddresses: true, manifest: adapter.manifest, connectionId: 'bench', baseUrl: sim.url, authHeaders: () => adapter.http.authHeaders(credentials), errorMessage: adapter.http.errorMessage });
const ctx = { connectionId: 'bench', baseUrl: sim.url, credentials, http, ids: idFactory('bench') };

const seen = new Set<string>();
let lists = 0;
let changed = 0;
if (changeEvery > 0) {
  sim.faults.add({
    path: '/api/v2/tickets',
    times: Number.MAX_SAFE_INTEGER,
    when: () => ++lists > 1 && lists % changeEvery === 0,
    before: () => {
      const id = [...seen][changed % Math.max(1, seen.size)];
      if (!id) return;
      sim.updateTicketRemotely(Number(id), { subject: 'changed' });
      changed++;
    },
  });
}
let yielded = 0;
const t0 = performance.now();
for await (const batch of adapter.syncers.find((s) => s.key === 'ticketing.ticket')!.run(ctx, {})) {
  for (const r of batch.records) {
    if (r.objectType !== 'ticketing.ticket') continue;
    yielded++;
    seen.add(r.remoteId);
  }
}
const live = [...sim.state.tickets.values()].filter((t) => !t.deleted && !t.spam).length;
const calls = sim.requests.filter((r) => r.path === '/api/v2/tickets').length;
console.log(`Freshdesk ticket walk: ${live} tickets, ${perSecond} per updated_at second, ${changeEvery ? `a read ticket changed before every listing call number k×${changeEvery}` : 'nothing changed meanwhile'}`);
console.log(`  listing calls ${calls}, tickets yielded ${yielded}, distinct ${seen.size}, missed ${live - seen.size}, changed mid-walk ${changed}, ${Math.round(performance.now() - t0)} ms`);
await sim.close();
