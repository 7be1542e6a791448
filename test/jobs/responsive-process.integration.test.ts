/**
 * The API stays answered while a large first sync runs (issue 32), in a real `omniport start` child process:
 * a Zendesk simulator serves OMNIPORT_RESPONSIVE_TICKETS tickets (default 10,000 to keep CI short; bench/responsiveness.ts runs
 * 100,000), once in pages of 1,000 and once in one page holding them all, while `/health`, `/openapi.json` and
 * `/sync/status` are polled every 200 ms. Checked: every poll was answered, and the ticket stream's count rose
 * while the run went on. The latencies are printed, never asserted (bench/RESULTS.md holds the figures).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { startZendeskSimulator } from '../simulators/zendesk';
import type { OmniportProcess } from '../support/omniport-process';
import { crashStorage, startCrashServer } from '../support/crash-servers';

const KEY = `sk_live_${randomBytes(32).toString('hex')}`;
const TICKETS = Number(process.env.OMNIPORT_RESPONSIVE_TICKETS ?? 10_000);
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

let server: OmniportProcess;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

type Stream = { stream: string; status: string; records_in_run: number; last_success_at: string | null };

async function syncWhilePolling(label: string, pageSize: number) {
  const sim = await startZendeskSimulator({ validateSpec: false, ...(pageSize > 1000 ? { exportPageSize: pageSize } : {}) });
  cleanups.push(() => sim.close());
  sim.seedTickets(TICKETS, { commentsPerTicket: 0 });
  server ??= await startCrashServer(await crashStorage(cleanups, 'omniport-responsive-'), KEY, cleanups);
  const cred = sim.credentials[0]!;
  const started = Date.now();
  const created = await fetch(`${server.url}/connections`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'zendesk', linked_user_origin_id: label, credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url }),
  });
  const body = (await created.json()) as { data: { connection_token: string } };
  expect(created.status, JSON.stringify(body)).toBe(201);
  const headers = { 'x-api-key': KEY, 'x-connection-token': body.data.connection_token };

  const times: Record<string, number[]> = { '/health': [], '/openapi.json': [], '/sync/status': [] };
  const failures: string[] = [];
  const counts: number[] = [];
  let ticket: Stream | undefined;
  // Until the ticket stream's first run succeeded (the first sync starts with the connection, in the background).
  while (!ticket?.last_success_at) {
    const tick = Date.now();
    await Promise.all(
      Object.keys(times).map(async (p) => {
        const t0 = performance.now();
        try {
          const res = await fetch(server.url + p, { headers: p === '/sync/status' ? headers : {} });
          const text = await res.text();
          times[p]!.push(performance.now() - t0);
          if (res.status !== 200) failures.push(`${p}: ${res.status}`);
          if (p === '/sync/status' && res.status === 200) {
            ticket = (JSON.parse(text) as { data: { streams: Stream[] } }).data.streams.find((s) => s.stream === 'ticketing.ticket');
            if (ticket?.status === 'running') counts.push(ticket.records_in_run);
          }
        } catch (err) {
          failures.push(`${p}: ${(err as Error).message}`);
        }
      }),
    );
    await new Promise((r) => setTimeout(r, Math.max(0, 200 - (Date.now() - tick))));
  }
  const seconds = (Date.now() - started) / 1000;
  const fmt = (v: number[]) => `p50 ${percentile(v, 50).toFixed(0)} / p99 ${percentile(v, 99).toFixed(0)} / max ${Math.max(...v).toFixed(0)} ms (${v.length})`;
  console.log(
    `${label} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): ${TICKETS} tickets synced in ${seconds.toFixed(1)} s; ` +
      Object.entries(times)
        .map(([p, v]) => `${p} ${fmt(v)}`)
        .join('; ') +
      `; records_in_run seen while running: ${counts.join(', ')}`,
  );
  expect(failures).toEqual([]);
  expect(ticket!.records_in_run).toBe(TICKETS);
  // The count rose while the run went on: readings between none and all, rising.
  const between = counts.filter((c) => c > 0 && c < TICKETS);
  expect(new Set(between).size, `records_in_run seen: ${counts.join(', ')}`).toBeGreaterThanOrEqual(2);
}

it('answers every poll during a first sync in pages of 1,000, and shows the count rising', async () => {
  await syncWhilePolling('pages of 1,000', 1000);
}, 600_000);

it('answers every poll during a first sync whose one page holds every ticket, and shows the count rising', async () => {
  await syncWhilePolling('one page', TICKETS);
}, 600_000);
