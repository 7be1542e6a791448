/**
 * The shared steps of the provider-webhooks-in integration tests (issue 17): each provider is one table
 * entry (how to start its simulator, connect, change and delete an object, and sign a request); the
 * steps are the same for all: registration at connection time, a change reaching the customer's receiver
 * as a record event, forged / replayed / expired requests refused with 401 and changing nothing, a burst
 * costing a few provider calls, and the provider's webhook deleted with the connection.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { waitForSync } from './sync-wait';

export interface SentRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  status: number;
}

export interface WebhookCase<Sim> {
  provider: string;
  start(): Promise<Sim>;
  close(sim: Sim): Promise<void>;
  /** Connects the simulator; answers the connection token. */
  connect(server: TestServer, sim: Sim): Promise<string>;
  /** Webhooks registered at the simulator now. */
  registered(sim: Sim): { url: string; secret: string }[];
  /** Signed requests the simulator sent so far. */
  sent(sim: Sim): SentRequest[];
  /** Changes an object already synced; answers its remote id, the record event type and a field value to find. */
  change(sim: Sim): { remoteId: string; eventType: string; marker: string };
  /**
   * Deletes an object already synced; answers its remote id and the record event type. Left out for a
   * provider whose webhooks say nothing about deletions (GitLab): the scheduled sync's check finds them.
   */
  remove?(sim: Sim): { remoteId: string; eventType: string };
  /** A synced object's remote id, for requests the test makes up. */
  sampleRemoteId: string;
  /** A request body for a change of `remoteId` with delivery id `deliveryId` and the time `at` (where the body carries them: Linear signs its time inside the body). */
  body(remoteId: string, deliveryId: string, at?: Date): string;
  /** The provider's headers for `body` sent to `url`, signed with `secret` at `at` (delivery id where headers carry it). */
  sign(secret: string, body: string, at: Date, deliveryId: string, url: string): Record<string, string>;
  /**
   * `registered`: Omniport creates the webhook at the provider (default). `app`: an app admin subscribes the
   * provider app once (HubSpot): `registered(sim)` is the app's setting, and it outlives the connection.
   * `manual`: the provider's API cannot create it (Front): an admin pastes the connection's
   * `real_time_setup.url` (done in `connect`), and it outlives the connection as an app's setting does.
   */
  mode?: 'registered' | 'app' | 'manual';
  /** The scheme signs a time (a replay window applies); otherwise replays are refused by delivery id alone. */
  signsTime: boolean;
  /**
   * The scheme covers the body (an HMAC of it). False for a shared token sent as is (GitLab's X-Gitlab-Token):
   * a body changed in transit cannot be told from the provider's; only TLS protects it.
   */
  signsBody?: boolean;
  /** Provider API requests the simulator answered so far (webhook deliveries are not counted). */
  providerCalls(sim: Sim): number;
  /**
   * Where the adapter reads changed objects by id (`fetchChanged`): the reads by id and the incremental runs of
   * the changed object's stream so far. A change then costs a read, not a run.
   */
  readsById?(sim: Sim): { reads: number; runs: number };
  /** The provider's own further steps (Jira: renewing an expiring webhook), run before the connection is deleted. */
  more?(get: () => { server: TestServer; sim: Sim; connectionId: string }): void;
}

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The customer's receiver of Omniport's events (signatures are checked by the events-out tests). */
export class EventReceiver {
  readonly events: { type: string; data: Record<string, any> }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  private server!: http.Server;
  url = '';
  async start() {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        try {
          this.events.push(JSON.parse(raw));
        } catch {
          // not an event
        }
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/events`;
  }
  close() {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(r));
  }
}

async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.arrayBuffer();
  return res.status;
}

export function describeWebhooksIn<Sim>(c: WebhookCase<Sim>) {
  describe(`${c.provider} webhooks in`, () => {
    let server: TestServer;
    let sim: Sim;
    let token: string;
    let connectionId: string;
    const receiver = new EventReceiver();

    const state = async () => ({
      receipts: Number((await server.sql('select count(*)::int as n from provider_webhook_receipts'))[0]!.n),
      events: Number((await server.sql('select count(*)::int as n from events where connection_id = $1', [connectionId]))[0]!.n),
      lastReceived: (await server.sql('select last_received_at from provider_webhooks where connection_id = $1', [connectionId]))[0]?.last_received_at,
    });
    /** The stored object an event type is about (`ticketing.ticket.updated` → a ticketing.ticket). */
    const objectOf = async (eventType: string, remoteId: string) =>
      (await server.sql('select data, remote_was_deleted from unified_objects where connection_id = $1 and object_type = $2 and remote_id = $3', [connectionId, eventType.replace(/\.[a-z]+$/, ''), remoteId]))[0] as
        | { data: Record<string, unknown>; remote_was_deleted: boolean }
        | undefined;
    const idle = () => waitForSync(server, token, 0);

    beforeAll(async () => {
      sim = await c.start();
      await receiver.start();
      server = await startTestServer({ env: { OMNIPORT_WEBHOOK_POLL_MS: '50', OMNIPORT_JOB_POLL_SECONDS: '0.5' } });
      server.omniport.services.providerWebhooks.usePublicUrl(server.url);
      const endpoint = await server.call('POST', '/webhooks', { body: { url: receiver.url, events: ['*'] } });
      expect(endpoint.status).toBe(201);
      token = await c.connect(server, sim);
      connectionId = (await server.call('GET', '/connections')).body.data[0].id_connection;
      await idle();
    });
    afterAll(async () => {
      await server?.close();
      if (sim) await c.close(sim);
      await receiver.close();
    });

    it('registers its webhook when the connection is made, and says so in GET /sync/status', async () => {
      const hooks = c.registered(sim);
      expect(hooks).toHaveLength(1);
      expect(hooks[0]!.url).toMatch(new RegExp(`^${server.url}/webhooks/providers/${c.provider}/[A-Za-z0-9]{20,64}$`));
      const stored = await server.sql('select secret_encrypted, mode from provider_webhooks where connection_id = $1', [connectionId]);
      expect(stored[0]!.mode).toBe(c.mode ?? 'registered');
      expect(stored[0]!.secret_encrypted).not.toContain(hooks[0]!.secret);
      const status = await server.call('GET', '/sync/status', { headers: { 'x-connection-token': token } });
      expect(status.body.data.real_time).toMatchObject({ active: true, mode: c.mode ?? 'registered' });
    });

    it('a change in the provider reaches the unified object and the customer’s receiver', async () => {
      const before = c.readsById?.(sim);
      const { remoteId, eventType, marker } = c.change(sim);
      const event = await until('the record event', () => receiver.events.find((e) => e.type === eventType && JSON.stringify(e.data).includes(marker)));
      if (before) {
        // A stream run would be queued once the burst's window (500 ms) ends: let it start before counting.
        await new Promise((r) => setTimeout(r, 1500));
        await idle();
        const after = c.readsById!(sim);
        expect(after.reads).toBeGreaterThan(before.reads);
        expect(after.runs).toBe(before.runs);
      }
      expect(event.data.id_connection).toBe(connectionId);
      expect(JSON.stringify((await objectOf(eventType, remoteId))!.data)).toContain(marker);
      expect(c.sent(sim).length).toBeGreaterThan(0);
      expect(c.sent(sim).every((r) => r.status === 202)).toBe(true);
      const status = await server.call('GET', '/sync/status', { headers: { 'x-connection-token': token } });
      expect(status.body.data.real_time.last_received_at).not.toBeNull();
    });

    it.skipIf(!c.remove)('a deletion in the provider marks the object remote_was_deleted and sends a deleted event', async () => {
      const { remoteId, eventType } = c.remove!(sim);
      await until('the deleted event', () => receiver.events.find((e) => e.type === eventType && JSON.stringify(e.data).includes(remoteId)));
      expect((await objectOf(eventType, remoteId))!.remote_was_deleted).toBe(true);
    });

    it('refuses forged, replayed and expired requests with 401, changing nothing', async () => {
      await idle();
      const last = c.sent(sim).at(-1)!;
      const before = await state();
      // Replayed: the very request the provider sent, again.
      expect(await post(last.url, last.body, last.headers)).toBe(401);
      // Forged: signed with another secret.
      const id = `forged-${Date.now()}`;
      const fresh = c.body(c.sampleRemoteId, id);
      expect(await post(last.url, fresh, c.sign('not-the-secret', fresh, new Date(), id, last.url))).toBe(401);
      const secret = c.registered(sim)[0]!.secret;
      const signed = c.sign(secret, fresh, new Date(), id, last.url);
      // A body changed after signing.
      if (c.signsBody !== false) expect(await post(last.url, `${fresh} `, signed)).toBe(401);
      if (c.signsTime) {
        // Expired: signed correctly, ten minutes ago.
        const oldId = `old-${Date.now()}`;
        const oldAt = new Date(Date.now() - 10 * 60_000);
        const old = c.body(c.sampleRemoteId, oldId, oldAt);
        expect(await post(last.url, old, c.sign(secret, old, oldAt, oldId, last.url))).toBe(401);
      }
      // Unknown address.
      expect(await post(last.url.replace(/[A-Za-z0-9]{20,64}$/, 'x'.repeat(33)), fresh, signed)).toBe(401);
      expect(await state()).toEqual(before);
    });

    it('a signed delivery whose id holds U+0000 is accepted once, never a 5xx', async () => {
      await idle();
      const url = c.registered(sim)[0]!.url;
      const secret = c.registered(sim)[0]!.secret;
      const id = `nul-\u0000-${Date.now()}`;
      const body = c.body(c.sampleRemoteId, id);
      const headers = c.sign(secret, body, new Date(), id, url);
      // Where the provider sends its delivery id in a header, HTTP cannot carry U+0000: nothing to check.
      if (Object.values(headers).some((v) => v.includes('\u0000'))) return;
      expect(await post(url, body, headers)).toBe(202);
      // Its id was recorded (in a storable form): the same delivery again is a replay.
      expect(await post(url, body, c.sign(secret, body, new Date(), id, url))).toBe(401);
    });

    it('a burst of 500 webhooks for one connection costs a few provider calls', async () => {
      await idle();
      const url = c.registered(sim)[0]!.url;
      const secret = c.registered(sim)[0]!.secret;
      const sentBefore = c.sent(sim).length;
      const { remoteId, eventType, marker } = c.change(sim);
      await until('the change’s own webhook', () => c.sent(sim).length > sentBefore && c.sent(sim).at(-1)!.status === 202);
      const oneChange = c.providerCalls(sim);
      await until('the change synced', () => receiver.events.find((e) => e.type === eventType && JSON.stringify(e.data).includes(marker)));
      await idle();
      const callsBefore = c.providerCalls(sim);
      // What one change cost: one incremental run of the stream (GitHub: the repositories, then each one's issues).
      const perRun = callsBefore - oneChange;
      // As a provider flushing its queue sends them: one burst, 50 requests in flight (the next one sent as soon as
      // one is answered), each signed as it is sent (a signed time stays inside the provider's replay window
      // however loaded the machine is).
      const startedAt = Date.now();
      const statuses: number[] = [];
      let next = 0;
      const sender = async () => {
        for (let i = next++; i < 500; i = next++) {
          const id = `burst-${startedAt}-${i}`;
          const body = c.body(remoteId, id);
          statuses.push(await post(url, body, c.sign(secret, body, new Date(), id, url)));
        }
      };
      await Promise.all(Array.from({ length: 50 }, sender));
      const burstSeconds = (Date.now() - startedAt) / 1000;
      expect(statuses.filter((s) => s === 202)).toHaveLength(500);
      await new Promise((r) => setTimeout(r, 1500)); // let the queued runs start
      await idle();
      const calls = c.providerCalls(sim) - callsBefore;
      console.log(`${c.provider}: a burst of 500 webhooks in ${burstSeconds.toFixed(1)} s cost ${calls} provider calls (${perRun} for one change)`);
      expect(calls).toBeGreaterThan(0);
      // One run per 30 s the burst lasts, and one after it (a run queued while one runs waits for it): a few
      // runs however many requests. On a loaded machine the burst lasts longer and pauses now and then past the
      // 500 ms quiet window, each pause sending a run (the queue keeps one waiting per stream): a few more. How
      // many pauses a loaded machine makes is not this test's subject (a loaded run here saw 13 and 50 calls where an idle one
      // makes 4 and 10), so the bound is the claim itself: at least ten times fewer runs than requests.
      expect(calls).toBeLessThanOrEqual(Math.max((500 / 10) * perRun, 10));
    }, 240_000);

    c.more?.(() => ({ server, sim, connectionId }));

    it('deleting the connection deletes the provider’s webhook', async () => {
      const connections = await server.call('DELETE', `/connections/${connectionId}`);
      expect(connections.status, JSON.stringify(connections.body)).toBeLessThan(300);
      expect(await server.sql('select * from provider_webhooks')).toHaveLength(0);
      if ((c.mode ?? 'registered') === 'registered') {
        expect(c.registered(sim)).toHaveLength(0);
      } else {
        // The app's subscription stays (it serves every account); requests for this account are refused now.
        const { url, secret } = c.registered(sim)[0]!;
        const id = `after-${Date.now()}`;
        const body = c.body(c.sampleRemoteId, id);
        expect(await post(url, body, c.sign(secret, body, new Date(), id, url))).toBe(401);
      }
    });
  });
}
