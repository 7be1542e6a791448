/**
 * PostgreSQL connections dropped (pg_terminate_backend) and then refused for some seconds, during a sync
 * and under request load, with a real `omniport start` child process: the process stays up, clients get
 * 503 `database_unavailable` with Retry-After (never a 500), and the sync completes once the database is back.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject, afterAll, expect, it } from 'vitest';
import { freshDatabase } from '../support/harness';
import { startZendeskSimulator } from '../simulators/zendesk';
import { startOmniport } from '../support/omniport-process';

const KEY = `sk_live_${randomBytes(32).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const onPostgres = inject('databaseKind') === 'postgres';
if (!onPostgres) console.warn('database-outage: PostgreSQL only (the embedded database runs inside the process); skipped on PGlite');

it.skipIf(!onPostgres)('survives dropped and refused database connections during a sync and under load', { timeout: 300_000 }, async () => {
  // Slow pages, so the sync is still running when the database goes away.
  const sim = await startZendeskSimulator({ validateSpec: false, latencyMs: 400 });
  cleanups.push(() => sim.close());
  sim.seedTickets(3_000, { commentsPerTicket: 1 });
  const db = await freshDatabase();
  cleanups.push(() => db.drop());
  const url = (db.target as { url: string }).url;
  const dbName = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  cleanups.push(async () => {
    await admin.query(`alter database ${dbName} allow_connections true`).catch(() => undefined);
    await admin.end();
  });

  const server = await startOmniport({
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATABASE_URL: url,
      OMNIPORT_SECRET_KEY: randomBytes(32).toString('hex'),
      OMNIPORT_ALLOW_PRIVATE_URLS: 'true',
      OMNIPORT_BOOTSTRAP_API_KEY: KEY,
      OMNIPORT_RATE_LIMIT_PER_MINUTE: '0',
      OMNIPORT_PACE_PROVIDER_BUDGETS: 'false', // the simulator does not count them
    },
  });
  cleanups.push(() => server.stop('SIGKILL'));
  const { child, url: base } = server;
  let exitCode: number | null = null;
  child.once('exit', (code) => (exitCode = code ?? -1));
  const call = (p: string, init: RequestInit = {}) =>
    fetch(base + p, { ...init, headers: { 'x-api-key': KEY, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  const cred = sim.credentials[0]!;
  const created = await call('/connections', {
    method: 'POST',
    body: JSON.stringify({ provider: 'zendesk', linked_user_origin_id: 'outage', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url }),
  });
  expect(created.status).toBe(201);
  const token = ((await created.json()) as { data: { connection_token: string } }).data.connection_token;
  const withToken = { headers: { 'x-connection-token': token } };

  // Request load for the whole test: statuses counted, Retry-After checked on every 503.
  const statuses = new Map<number, number>();
  let missingRetryAfter = 0;
  let loading = true;
  const load = (async () => {
    while (loading) {
      const res = await call(Math.random() < 0.5 ? '/ticketing/tickets?limit=50' : '/sync/status', withToken).catch(() => undefined);
      if (res) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503 && !res.headers.get('retry-after')) missingRetryAfter++;
        await res.arrayBuffer();
      }
      await sleep(20);
    }
  })();

  // Outage 1: every connection dropped, while the sync runs (the ticket stream is running).
  for (const deadline = Date.now() + 60_000; ; ) {
    const res = await call('/sync/status', withToken);
    const body = (await res.json()) as { data?: { streams: { stream: string; status: string }[] } };
    if (body.data?.streams.some((s) => s.stream === 'ticketing.ticket' && s.status === 'running')) break;
    if (Date.now() > deadline) throw new Error('the ticket sync never ran');
    await sleep(50);
  }
  const terminate = () => admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
  await terminate();
  await sleep(1_500);
  // Outage 2: the database refuses connections for 6 seconds.
  await admin.query(`alter database ${dbName} allow_connections false`);
  await terminate();
  await sleep(6_000);
  await admin.query(`alter database ${dbName} allow_connections true`);
  const backAt = Date.now();

  // The sync completes after the database is back.
  const expected = [...sim.state.tickets.values()].filter((t) => !t.deleted).length;
  let stored = 0;
  for (const deadline = Date.now() + 200_000; ; ) {
    const res = await call('/sync/status', withToken);
    if (res.status === 200) {
      const body = (await res.json()) as { data: { streams: { stream: string; status: string; last_success_at: string | null }[] } };
      const tickets = body.data.streams.find((s) => s.stream === 'ticketing.ticket');
      const comments = body.data.streams.find((s) => s.stream === 'ticketing.comment');
      if (tickets?.status === 'idle' && comments?.status === 'idle' && tickets.last_success_at && comments.last_success_at) {
        const count = await call('/ticketing/tickets?limit=1000', withToken);
        let page = (await count.json()) as { data: unknown[]; next_cursor: string | null };
        stored = page.data.length;
        while (page.next_cursor) {
          page = (await (await call(`/ticketing/tickets?limit=1000&cursor=${page.next_cursor}`, withToken)).json()) as typeof page;
          stored += page.data.length;
        }
        if (stored === expected) break;
      }
    } else await res.arrayBuffer();
    if (Date.now() > deadline) throw new Error(`the sync did not complete after the outage:\n${server.output().slice(-3000)}`);
    await sleep(500);
  }
  const recoveredMs = Date.now() - backAt;
  loading = false;
  await load;

  const figures = Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0]));
  const output = server.output();
  const failedJobs = output.split('sync job failed').length - 1;
  const requeued = output.split('queued again after the database came back').length - 1;
  console.log(
    `database outage: responses by status ${JSON.stringify(figures)}, ${failedJobs} sync job attempts failed during it (${requeued} queued again once it was back), ` +
      `sync complete ${(recoveredMs / 1000).toFixed(1)} s after the database was back, ${stored} tickets`,
  );
  expect(exitCode).toBeNull();
  expect(statuses.get(500) ?? 0).toBe(0);
  expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
  expect(missingRetryAfter).toBe(0);
  expect(stored).toBe(expected);
});
