/**
 * A worker killed with SIGKILL in the middle of a sync (real child processes): another process takes the
 * stream over — on PostgreSQL a second server once the first one's heartbeat is stale, on the embedded
 * database the restarted server, at once — and finishes it with every ticket stored exactly once.
 * Production thresholds (heartbeat 15 s, stale after 60 s): the takeover time is measured and printed.
 * The same for a process killed while a webhook delivery is in flight: delivered again, same webhook-id.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { inject, afterAll, describe, expect, it } from 'vitest';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import type { OmniportProcess } from '../support/omniport-process';
import { crashStorage, startCrashServer } from '../support/crash-servers';

const KEY = `sk_live_${randomBytes(32).toString('hex')}`;
const TICKETS = 2_500;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const storage = () => crashStorage(cleanups);
const startServer = (env: Record<string, string>) => startCrashServer(env, KEY, cleanups);

const api = (server: OmniportProcess, method: string, p: string, opts: { body?: unknown; token?: string } = {}) =>
  fetch(server.url + p, {
    method,
    headers: { 'x-api-key': KEY, 'content-type': 'application/json', ...(opts.token ? { 'x-connection-token': opts.token } : {}) },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })); // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary JSON

async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

const exportCalls = (sim: ZendeskSimulator) => sim.requests.filter((r) => r.path.startsWith('/api/v2/incremental/tickets/cursor'));

/**
 * Connects a Zendesk account through server A, kills A at the chosen moment of its ticket sync, then lets
 * a second process finish; returns the takeover time.
 */
async function crashScenario(moment: 'waiting for a page' | 'storing a page'): Promise<{ takeoverMs: number; stored: number }> {
  const sim = await startZendeskSimulator({ validateSpec: false, seedDefaults: true });
  cleanups.push(() => sim.close());
  sim.seedTickets(TICKETS);
  if (moment === 'waiting for a page') {
    // The second page of the export is held until long after the kill.
    sim.faults.add({ path: '/api/v2/incremental/tickets/cursor', match: (r) => r.query.cursor !== undefined, delayMs: 20_000, times: 1 });
  }
  const env = await storage();
  const a = await startServer(env);
  const cred = sim.credentials[0]!;
  const created = await api(a, 'POST', '/connections', {
    body: { provider: 'zendesk', linked_user_origin_id: 'crash', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const token = created.body.data.connection_token as string;

  if (moment === 'waiting for a page') await waitFor('the held page to be asked for', () => exportCalls(sim).some((r) => r.query.cursor !== undefined), 60_000);
  else await waitFor('the first page to be served', () => exportCalls(sim).some((r) => r.status === 200), 60_000);
  a.child.kill('SIGKILL');
  const killedAt = Date.now();
  await new Promise((r) => (a.child.exitCode !== null ? r(null) : a.child.once('exit', r)));
  const before = exportCalls(sim).length;

  const b = await startServer(env);
  await waitFor('the ticket stream to be taken over', () => exportCalls(sim).length > before, 150_000);
  const takeoverMs = Date.now() - killedAt;
  const done = await waitFor(
    'the ticket stream to finish',
    async () => {
      const status = await api(b, 'GET', '/sync/status', { token });
      const tickets = status.body.data?.streams?.find((s: { stream: string }) => s.stream === 'ticketing.ticket');
      return tickets?.status === 'idle' && tickets.last_success_at ? tickets : undefined;
    },
    120_000,
  );
  expect(done.status).toBe('idle');

  // Every ticket of the account, once: listed to the last page.
  const remoteIds: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await api(b, 'GET', `/ticketing/tickets?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, { token });
    remoteIds.push(...page.body.data.map((t: { remote_id: string }) => t.remote_id));
    cursor = page.body.next_cursor;
  } while (cursor);
  const expected = [...sim.state.tickets.values()].filter((t) => !t.deleted).length;
  expect(remoteIds.length).toBe(expected);
  expect(new Set(remoteIds).size).toBe(expected);
  b.child.kill('SIGTERM');
  return { takeoverMs, stored: remoteIds.length };
}

describe('a sync worker killed with SIGKILL', { timeout: 480_000 }, () => {
  it.concurrent.each(['waiting for a page', 'storing a page'] as const)('while %s: another process takes the stream over within 2 minutes and stores every ticket once', async (moment) => {
    const { takeoverMs, stored } = await crashScenario(moment);
    console.log(`SIGKILL ${moment} (${inject('databaseKind')}): taken over in ${(takeoverMs / 1000).toFixed(1)} s, ${stored} tickets stored once`);
    expect(takeoverMs).toBeLessThan(120_000);
  });
});

describe('a process killed with SIGKILL in the middle of a webhook delivery', { timeout: 480_000 }, () => {
  it('delivers after the restart, under the same webhook-id', async () => {
    // The receiver holds the first request without answering: the delivery is in flight when the process dies.
    const received: { id: string; verified: boolean; type: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        let verified = false;
        try {
          new Webhook(secret).verify(raw, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
        received.push({ id: String(req.headers['webhook-id']), verified, type: (JSON.parse(raw) as { type: string }).type });
        if (received.length > 1) res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      receiver.closeAllConnections();
      receiver.close();
    });
    let secret = '';
    const sim = await startZendeskSimulator({ validateSpec: false });
    cleanups.push(() => sim.close());
    const env = await storage();
    const a = await startServer(env);
    const endpoint = await api(a, 'POST', '/webhooks', { body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['connection.created'] } });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    secret = endpoint.body.data.secret;
    const cred = sim.credentials[0]!;
    const created = await api(a, 'POST', '/connections', {
      body: { provider: 'zendesk', linked_user_origin_id: 'crash-hook', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
    });
    expect(created.status).toBe(201);
    await waitFor('the delivery to be in flight', () => received.length === 1 || undefined, 30_000);
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((r) => (a.child.exitCode !== null ? r(null) : a.child.once('exit', r)));

    const b = await startServer(env);
    await waitFor('the delivery again', () => received.length >= 2 || undefined, 150_000);
    const redeliveredMs = Date.now() - killedAt;
    await sleep(1_000);
    expect(received).toHaveLength(2);
    expect(received[1]!.id).toBe(received[0]!.id);
    expect(received.every((r) => r.verified && r.type === 'connection.created')).toBe(true);
    const deliveries = await api(b, 'GET', `/webhooks/${endpoint.body.data.id_webhook_endpoint}/deliveries`);
    expect(deliveries.body.data[0]).toMatchObject({ status: 'delivered', webhook_id: received[0]!.id });
    console.log(`SIGKILL mid-delivery (${inject('databaseKind')}): delivered again ${(redeliveredMs / 1000).toFixed(1)} s after the kill, same webhook-id`);
    b.child.kill('SIGTERM');
  });
});
