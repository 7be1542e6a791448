/**
 * A server killed with SIGKILL while a batch write is at the provider (real child processes), restarted on
 * the same data, then the same request retried with the same Idempotency-Key: the retry takes the dead
 * process's claim over (its heartbeat stopped; on the embedded database, one process, at once), finds what
 * the first attempt wrote — HubSpot contacts by their unique email, a Zendesk bulk job among the recent job
 * statuses — and answers the real outcome, without writing anything twice, within 30 s of the restart.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { startHubSpotSimulator } from '../simulators/hubspot';
import { startZendeskSimulator } from '../simulators/zendesk';
import type { OmniportProcess } from '../support/omniport-process';
import { crashStorage, startCrashServer } from '../support/crash-servers';

const KEY = `sk_live_${randomBytes(32).toString('hex')}`;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const storage = () => crashStorage(cleanups, 'omniport-idem-crash-');
const startServer = (env: Record<string, string>) => startCrashServer({ OMNIPORT_SANDBOX: 'false', ...env }, KEY, cleanups);

const call = (server: OmniportProcess, method: string, p: string, o: { body?: unknown; token?: string; key?: string } = {}) =>
  fetch(server.url + p, {
    method,
    headers: {
      'x-api-key': KEY,
      'content-type': 'application/json',
      ...(o.token ? { 'x-connection-token': o.token } : {}),
      ...(o.key ? { 'idempotency-key': o.key } : {}),
    },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as any })); // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary JSON

/**
 * Connects, sends `body` to `batchPath` with a key while `arm` kills the server when the call reaches the
 * provider, restarts it, and retries with the same key, obeying Retry-After. Returns the answer and the
 * seconds from the restart to it.
 */
async function crashAndRetry(o: {
  connect: Record<string, unknown>;
  batchPath: string;
  body: unknown[];
  arm: (kill: () => void) => void;
  afterKill?: () => Promise<void>;
}) {
  const env = await storage();
  const first = await startServer(env);
  const connected = await call(first, 'POST', '/connections', { body: { linked_user_origin_id: 'crash', ...o.connect } });
  expect(connected.status, JSON.stringify(connected.body)).toBe(201);
  const token = connected.body.data.connection_token as string;
  const key = randomUUID();
  o.arm(() => first.child.kill('SIGKILL'));
  await expect(call(first, 'POST', o.batchPath, { body: o.body, token, key })).rejects.toThrow();
  await first.stop('SIGKILL');
  await o.afterKill?.();

  const second = await startServer(env);
  const restarted = Date.now();
  const answers: number[] = [];
  for (;;) {
    const res = await call(second, 'POST', o.batchPath, { body: o.body, token, key });
    answers.push(res.status);
    if (res.status !== 409) return { res, seconds: (Date.now() - restarted) / 1000, answers, second, token, key };
    expect(Number(res.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(res.retryAfter)).toBeLessThanOrEqual(15);
    if (Date.now() - restarted > 60_000) throw new Error(`still 409 after a minute: ${JSON.stringify(answers)}`);
    await sleep(Number(res.retryAfter) * 1000);
  }
}

it('HubSpot: 100 contacts created by the killed process are found by email and answered 201', async () => {
  const sim = await startHubSpotSimulator();
  cleanups.push(() => sim.close());
  const body = Array.from({ length: 100 }, (_, i) => ({ first_name: `Crash${i}`, email_addresses: [{ email_address: `crash${i}@lost.example`, email_address_type: 'WORK' }] }));
  const before = sim.records('contacts').length;
  const { res, seconds, answers, second, token, key } = await crashAndRetry({
    connect: { provider: 'hubspot', credentials: { access_token: 'hs-test-token' }, base_url: sim.url },
    batchPath: '/crm/contacts/batch',
    body,
    // The server dies as the batch reaches HubSpot; HubSpot still creates the contacts.
    arm: (kill) => sim.faults.add({ method: 'POST', path: '/crm/v3/objects/contacts/batch/create', before: kill, delayMs: 300 }),
  });
  console.log(`HubSpot: real outcome ${seconds.toFixed(1)} s after the restart (answers ${answers.join(', ')})`);
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
  expect(seconds).toBeLessThan(30);
  expect(res.body.data).toHaveLength(100);
  const creates = sim.requests.filter((r) => r.method === 'POST' && r.path === '/crm/v3/objects/contacts/batch/create');
  expect(creates).toHaveLength(1); // sent once, by the killed process
  for (const [i, c] of (res.body.data as { remote_id: string; email_addresses: { email_address: string }[] }[]).entries()) {
    expect(c.email_addresses[0]!.email_address).toBe(`crash${i}@lost.example`);
    expect(sim.getRecord('contacts', c.remote_id)?.properties.email).toBe(`crash${i}@lost.example`);
  }
  expect(sim.records('contacts')).toHaveLength(before + 100);
  // And the answer is kept: the next retry replays it.
  const replay = await call(second, 'POST', '/crm/contacts/batch', { body, token, key });
  expect(replay.status).toBe(201);
  expect(replay.body.data.map((c: { id: string }) => c.id)).toEqual(res.body.data.map((c: { id: string }) => c.id));
}, 400_000);

it('Zendesk: the bulk job the killed process started is found among the job statuses and answered 201', async () => {
  const sim = await startZendeskSimulator();
  cleanups.push(() => sim.close());
  const cred = sim.credentials[0]!;
  const body = Array.from({ length: 20 }, (_, i) => ({ name: `Crash ticket ${i}`, description: `Lost answer ${i}` }));
  const { res, seconds, answers } = await crashAndRetry({
    connect: { provider: 'zendesk', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
    batchPath: '/ticketing/tickets/batch',
    body,
    arm: (kill) =>
      sim.faults.add({
        method: 'POST',
        path: '/api/v2/tickets/create_many',
        delayMs: 300,
        match: () => {
          kill();
          return true;
        },
      }),
  });
  console.log(`Zendesk: real outcome ${seconds.toFixed(1)} s after the restart (answers ${answers.join(', ')})`);
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
  expect(seconds).toBeLessThan(30);
  expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(body.map((t) => t.name));
  expect(sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/v2/tickets/create_many'))).toHaveLength(1);
  const stored = [...sim.state.tickets.values()].filter((t) => /^Crash ticket/.test(t.subject ?? ''));
  expect(stored).toHaveLength(20);
}, 400_000);
