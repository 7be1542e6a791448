/**
 * Webhooks out, through the real server, worker and job queue, to a local receiver that verifies every
 * request with the `standardwebhooks` library as a customer would: each event type once and signed,
 * retries under the same webhook-id, timeouts retried, 410 disabling the endpoint, record events only for
 * real changes, the events feed, endpoints kept per project, and URLs checked when set.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { syncAndWait } from '../support/sync-wait';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

interface Received {
  path: string;
  id: string;
  timestamp: string;
  body: { id: string; type: string; timestamp: string; sequence: number; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  verified: boolean;
}

/** A customer's receiver: verifies each request with its endpoint's secret; behaviour per path. */
class Receiver {
  readonly received: Received[] = [];
  readonly secrets = new Map<string, string>();
  /** path → how to answer the n-th request (0-based) to it. */
  readonly behaviour = new Map<string, (n: number) => { status: number; delayMs?: number }>();
  private readonly counts = new Map<string, number>();
  private server!: http.Server;
  url = '';

  async start() {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const path = req.url!;
        const n = this.counts.get(path) ?? 0;
        this.counts.set(path, n + 1);
        const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
        let verified = false;
        try {
          new Webhook(this.secrets.get(path)!).verify(raw, headers);
          verified = true;
        } catch {
          verified = false;
        }
        this.received.push({ path, id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], body: JSON.parse(raw), verified });
        const answer = this.behaviour.get(path)?.(n) ?? { status: 200 };
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(answer.status).end(answer.status >= 400 ? 'not now' : 'ok');
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(r));
  }
}

/** One per webhook-id, as a receiver deduplicates. */
const unique = (list: Received[]) => [...new Map(list.map((r) => [r.id, r])).values()];

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let server: TestServer;
let sim: ZendeskSimulator;
let ticketIds: number[];
const receiver = new Receiver();

beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false });
  ticketIds = sim.seedTickets(20, { commentsPerTicket: 1 });
  await receiver.start();
  server = await startTestServer({
    env: {
      OMNIPORT_ALLOW_PRIVATE_URLS: 'true',
      OMNIPORT_WEBHOOK_RETRY_SECONDS: '0.3,0.3,0.3',
      OMNIPORT_WEBHOOK_TIMEOUT_MS: '3000',
      OMNIPORT_WEBHOOK_POLL_MS: '100',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
  await receiver.close();
});

async function addEndpoint(path: string, events: string[] = ['*'], apiKey?: string) {
  const res = await server.call('POST', '/webhooks', { apiKey, body: { url: `${receiver.url}${path}`, events, description: path } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data.secret).toMatch(/^whsec_/);
  receiver.secrets.set(path, res.body.data.secret);
  return res.body.data as { id_webhook_endpoint: string; secret: string };
}

describe('webhooks out', () => {
  let token: string;
  let connectionId: string;

  it('delivers connection.created (with its token), sync.completed and a created event per record, each signed, once per webhook-id', async () => {
    await addEndpoint('/all');
    await addEndpoint('/tickets-only', ['ticketing.ticket.updated']);
    token = await connectZendesk(server, sim, { origin: 'webhooks' });
    connectionId = (await server.call('GET', '/connections')).body.data[0].id_connection;
    const status = await syncAndWait(server, token);
    const streams = status.streams.length;
    const stored = Number((await server.sql(`select count(*)::int as n from unified_objects where connection_id = $1 and not remote_was_deleted`, [connectionId]))[0]!.n);
    await until('every event delivered', () => {
      const got = unique(receiver.at('/all'));
      return got.filter((r) => r.body.type !== 'sync.completed').length >= 1 + stored && new Set(got.filter((r) => r.body.type === 'sync.completed').map((r) => r.body.data.stream)).size >= streams;
    });
    await new Promise((r) => setTimeout(r, 500)); // nothing more may come

    // At least once: a request answered after the timeout (a loaded machine) comes again, under the same id.
    const received = receiver.at('/all');
    const all = unique(received);
    for (const again of received) expect(again.body).toEqual(all.find((r) => r.id === again.id)!.body);
    expect(received.every((r) => r.verified)).toBe(true);
    const byType = (t: string) => all.filter((r) => r.body.type === t);
    const created = byType('connection.created');
    expect(created).toHaveLength(1);
    expect(created[0]!.body.data).toMatchObject({ id_connection: connectionId, connection_token: token, provider: 'zendesk' });
    expect(created[0]!.body.data).not.toHaveProperty('connection_token_encrypted');
    // One per stream run: the connection's first sync and the one asked for may both run a stream.
    expect(new Set(byType('sync.completed').map((r) => r.body.data.stream)).size).toBe(streams);
    expect(byType('sync.completed')[0]!.body.data).toMatchObject({ id_connection: connectionId, provider: 'zendesk', mode: 'full' });
    const recordEvents = all.filter((r) => r.body.type.endsWith('.created') && r.body.type !== 'connection.created');
    expect(recordEvents).toHaveLength(stored);
    const ticket = recordEvents.find((r) => r.body.type === 'ticketing.ticket.created')!;
    expect(ticket.body.data).toMatchObject({ id_connection: connectionId, object_type: 'ticketing.ticket', object: { id: expect.any(String), remote_id: expect.any(String), name: expect.any(String) } });
    expect(ticket.body.data.object).not.toHaveProperty('remote_data');
    // Order: sequences increase.
    const sequences = all.map((r) => r.body.sequence);
    expect(new Set(sequences).size).toBe(sequences.length);
    // The endpoint for ticket updates only got nothing yet.
    expect(receiver.at('/tickets-only')).toHaveLength(0);
    // The feed has the same events: each one reaches the receiver (a loaded machine may still be sending
    // the runs' last sync.completed), and the receiver got nothing the feed lacks.
    const feedIds = async () => ((await server.call('GET', '/events?limit=1000')).body.data as { id: string }[]).map((e) => e.id).sort();
    const delivered = () => [...new Set(receiver.at('/all').map((r) => r.body.id))].sort();
    await until('every event of the feed delivered', async () => (await feedIds()).every((id) => delivered().includes(id)));
    expect(await feedIds()).toEqual(delivered());
  });

  it('sends exactly one ticketing.ticket.updated for one changed ticket, and nothing for a full re-sync of unchanged data', async () => {
    const before = receiver.received.length;
    // Requests answered after the timeout on a loaded machine come again later, under their first id.
    const seenBefore = new Set(receiver.received.map((r) => r.id));
    const seq = (await server.call('GET', '/events?limit=1000')).body.data.length;
    await syncAndWait(server, token, { full: true });
    await new Promise((r) => setTimeout(r, 600));
    const afterFull = unique(receiver.received.slice(before)).filter((r) => !seenBefore.has(r.id));
    expect(afterFull.filter((r) => !r.body.type.startsWith('sync.'))).toEqual([]);

    const remoteId = ticketIds[3]!;
    sim.updateTicketRemotely(remoteId!, { subject: 'Changed in Zendesk' } as never);
    const mark = receiver.received.length;
    await syncAndWait(server, token);
    await until('the update', () => receiver.at('/tickets-only').length >= 1);
    await new Promise((r) => setTimeout(r, 600));
    const updates = unique(receiver.received.slice(mark)).filter((r) => r.body.type.startsWith('ticketing.'));
    expect(updates.map((r) => [r.path, r.body.type, r.body.data.object.remote_id])).toEqual(
      expect.arrayContaining([
        ['/all', 'ticketing.ticket.updated', String(remoteId)],
        ['/tickets-only', 'ticketing.ticket.updated', String(remoteId)],
      ]),
    );
    expect(updates.filter((r) => r.body.type === 'ticketing.ticket.updated')).toHaveLength(2);
    expect(updates.find((r) => r.path === '/tickets-only')!.body.data.object.name).toBe('Changed in Zendesk');
    expect((await server.call('GET', '/events?limit=1000')).body.data.length).toBeGreaterThan(seq);

    // A ticket deleted in Zendesk: one ticketing.ticket.deleted.
    const deletedId = ticketIds[5]!;
    sim.deleteTicketRemotely(deletedId);
    const beforeDelete = receiver.received.length;
    await syncAndWait(server, token);
    await until('the deletion', () => receiver.received.slice(beforeDelete).some((r) => r.body.type === 'ticketing.ticket.deleted'));
    await new Promise((r) => setTimeout(r, 600));
    const deletions = unique(receiver.received.slice(beforeDelete)).filter((r) => r.body.type === 'ticketing.ticket.deleted');
    expect(deletions.map((r) => [r.body.data.object.remote_id, r.body.data.object.remote_was_deleted])).toEqual([[String(deletedId), true]]);

    // A write through the API is a change too.
    const beforeWrite = receiver.received.length;
    const created = await server.call('POST', '/ticketing/tickets', { headers: { 'x-connection-token': token }, body: { name: 'Made through Omniport', description: 'd' } });
    expect(created.status).toBe(201);
    const event = await until('the created event', () =>
      receiver.received.slice(beforeWrite).find((r) => r.body.type === 'ticketing.ticket.created' && r.body.data.object.id === created.body.data.id),
    );
    expect(event.body.data.object.name).toBe('Made through Omniport');
  });

  it('retries a receiver answering 500 then 200 under the same webhook-id, and nothing more', async () => {
    receiver.behaviour.set('/flaky', (n) => ({ status: n === 0 ? 500 : 200 }));
    const endpoint = await addEndpoint('/flaky', ['connection.deleted']);
    const doomed = await connectZendesk(server, sim, { origin: 'webhooks-doomed' });
    const id = (await server.call('GET', '/connections?limit=100')).body.data.find((c: { connection_token: string }) => c.connection_token === doomed).id_connection;
    expect((await server.call('DELETE', `/connections/${id}`)).status).toBe(204);
    await until('the retry', () => receiver.at('/flaky').length >= 2);
    await new Promise((r) => setTimeout(r, 1000));
    const got = receiver.at('/flaky');
    expect(got).toHaveLength(2);
    expect(got[0]!.id).toBe(got[1]!.id);
    expect(got.every((r) => r.verified && r.body.type === 'connection.deleted' && r.body.data.id_connection === id)).toBe(true);
    const deliveries = (await server.call('GET', `/webhooks/${endpoint.id_webhook_endpoint}/deliveries`)).body.data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ webhook_id: got[0]!.id, status: 'delivered', event_type: 'connection.deleted' });
    expect(deliveries[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
    expect(deliveries[0].attempts[0].response).toBe('not now');

    // Sent again on request, with the same id.
    expect((await server.call('POST', `/webhooks/deliveries/${deliveries[0].id_webhook_delivery}/retry`)).status).toBe(202);
    await until('the manual retry', () => receiver.at('/flaky').length >= 3);
    expect(receiver.at('/flaky')[2]!.id).toBe(got[0]!.id);
  });

  it('retries a receiver that does not answer in time, and disables an endpoint answering 410', async () => {
    receiver.behaviour.set('/slow', (n) => ({ status: 200, delayMs: n === 0 ? 4500 : 0 }));
    receiver.behaviour.set('/gone', () => ({ status: 410 }));
    const slow = await addEndpoint('/slow', ['sync.completed']);
    const gone = await addEndpoint('/gone', ['sync.completed']);
    await syncAndWait(server, token);
    const retried = await until(
      'the slow retry recorded',
      async () =>
        (await server.call('GET', `/webhooks/${slow.id_webhook_endpoint}/deliveries?limit=100`)).body.data.find(
          (d: { attempts: unknown[]; status: string }) => d.attempts.length === 2 && d.status === 'delivered',
        ),
      20_000,
    );
    expect(retried.attempts[0]).toMatchObject({ status_code: null, error: 'no answer within 3 s' });
    expect(retried.status).toBe('delivered');

    const disabled = await until('the endpoint disabled', async () => {
      const res = await server.call('GET', `/webhooks/${gone.id_webhook_endpoint}`);
      return res.body.data.status === 'disabled' && res.body.data;
    });
    expect(disabled.disabled_reason).toBe('the receiver answered 410 Gone');
    // Deliveries already in flight when the 410 came may still arrive; nothing after it.
    const goneHits = receiver.at('/gone').length;
    await syncAndWait(server, token);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/gone')).toHaveLength(goneHits);
    const events = (await server.call('GET', '/events?type=webhook_endpoint.&limit=10')).body.data;
    expect(events.map((e: { type: string; data: { id_webhook_endpoint: string } }) => [e.type, e.data.id_webhook_endpoint])).toEqual([
      ['webhook_endpoint.disabled', gone.id_webhook_endpoint],
    ]);
    // Enabled again on request.
    const enabled = await server.call('PATCH', `/webhooks/${gone.id_webhook_endpoint}`, { body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ status: 'enabled', disabled_reason: null });
  });

  it('delivers connection.reauthorized and sync.failed', async () => {
    const mark = receiver.received.length;
    // The same customer connecting the same account again on the connect page: authorised again.
    const [row] = await server.sql('select linked_user_id, base_url from connections where id = $1', [connectionId]);
    const linkedUser = (await server.omniport.services.controlPlane.findLinkedUser(server.tenant.projectId, row!.linked_user_id as string))!;
    const cred = sim.credentials[0]!;
    const view = await server.omniport.services.connections.connectAuthorized({
      projectId: server.tenant.projectId,
      linkedUser,
      provider: 'zendesk',
      credentials: { email: cred.email, api_token: cred.apiToken },
      baseUrl: row!.base_url as string,
      via: 'connect_form',
    });
    expect(view.reauthorized).toBe(true);
    // A stream the provider refuses: its run fails (and is retried by the queue later).
    sim.faults.add({ method: 'GET', path: '/api/v2/groups', status: 403, times: 1 });
    const queued = await server.call('POST', '/sync', { headers: { 'x-connection-token': token }, body: {} });
    expect(queued.status).toBe(202);
    const failed = await until('sync.failed', () => receiver.received.slice(mark).find((r) => r.body.type === 'sync.failed'));
    expect(failed.verified).toBe(true);
    expect(failed.body.data).toMatchObject({ id_connection: connectionId, stream: 'ticketing.team', error: expect.any(String) });
    const again = await until('connection.reauthorized', () => receiver.received.slice(mark).find((r) => r.body.type === 'connection.reauthorized'));
    expect(again.body.data).toMatchObject({ id_connection: connectionId, connection_token: token });
    await syncAndWait(server, token);
  });

  it('fails verification for a forged signature or an old timestamp', () => {
    const sample = receiver.at('/all')[0]!;
    const secret = receiver.secrets.get('/all')!;
    const raw = JSON.stringify(sample.body);
    const signed = new Webhook(secret).sign(sample.id, new Date(), raw);
    expect(() => new Webhook(secret).verify(raw, { 'webhook-id': sample.id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': signed })).not.toThrow();
    const forged = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).sign(sample.id, new Date(), raw);
    expect(() => new Webhook(secret).verify(raw, { 'webhook-id': sample.id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': forged })).toThrow();
    const old = new Date(Date.now() - 3600_000);
    const oldSigned = new Webhook(secret).sign(sample.id, old, raw);
    expect(() => new Webhook(secret).verify(raw, { 'webhook-id': sample.id, 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': oldSigned })).toThrow();
  });

  it('keeps endpoints, deliveries and events per project, and rotates secrets', async () => {
    const mine = (await server.call('GET', '/webhooks?limit=100')).body.data as { id_webhook_endpoint: string }[];
    const other = await server.createTenant('webhooks-other');
    expect((await server.call('GET', '/webhooks', { apiKey: other.apiKey })).body.data).toEqual([]);
    expect((await server.call('GET', '/events', { apiKey: other.apiKey })).body.data).toEqual([]);
    for (const { id_webhook_endpoint: id } of mine) {
      for (const [method, path, body] of [
        ['GET', `/webhooks/${id}`],
        ['PATCH', `/webhooks/${id}`, { description: 'x' }],
        ['DELETE', `/webhooks/${id}`],
        ['POST', `/webhooks/${id}/rotate-secret`],
        ['GET', `/webhooks/${id}/deliveries`],
      ] as const) {
        const res = await server.call(method, path, { apiKey: other.apiKey, body });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
    const delivery = await server.sql('select id from webhook_deliveries limit 1');
    expect((await server.call('POST', `/webhooks/deliveries/${delivery[0]!.id}/retry`, { apiKey: other.apiKey })).status).toBe(404);

    // A new secret signs from now on; the stored one is never in clear.
    const rotated = await server.call('POST', `/webhooks/${mine[0]!.id_webhook_endpoint}/rotate-secret`);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(receiver.secrets.get('/all'));
    const dump = JSON.stringify(await server.sql('select * from webhook_endpoints'));
    expect(dump).not.toContain(rotated.body.data.secret.slice(6));
    expect(JSON.stringify(await server.sql('select payload from events'))).not.toContain(token);
    expect((await server.call('GET', '/webhooks/not-a-uuid')).status).toBe(404);
  });

  it('refuses unknown event types and URLs that are not http(s)', async () => {
    for (const body of [
      { url: `${receiver.url}/x`, events: ['ticketing.ticket.exploded'] },
      { url: `${receiver.url}/x`, events: [] },
      { url: 'ftp://example.com/x', events: ['*'] },
      { url: 'https://user:pass@example.com/x', events: ['*'] },
    ]) {
      const res = await server.call('POST', '/webhooks', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('webhook URLs in production', () => {
  it('must be https and public: loopback, private and plain http refused at creation', async () => {
    const strict = await startTestServer({ work: false, env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      for (const url of ['https://127.0.0.1/hook', 'https://[::1]/hook', 'https://10.0.0.7/hook', 'https://169.254.169.254/latest', 'http://example.com/hook', 'https://localhost/hook']) {
        const res = await strict.call('POST', '/webhooks', { body: { url, events: ['*'] } });
        expect(res.status, url).toBe(400);
        expect(res.body.details.field).toBe('url');
      }
    } finally {
      await strict.close();
    }
  });
});

describe('waking the sender', () => {
  it('sends a new delivery at once, not at the next poll (a minute here): its insert notifies the sender', async () => {
    // Every poll is a minute after the previous drain, and the first drain runs at start: nothing polls before this.
    const pollDue = Date.now() + 60_000;
    const slowPoll = await startTestServer({ work: true, env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true', OMNIPORT_WEBHOOK_POLL_MS: '60000' } });
    try {
      const dispatcher = slowPoll.omniport.webhooks;
      let wakes = 0;
      const wake = dispatcher.wake.bind(dispatcher);
      dispatcher.wake = () => (wakes++, wake());
      const res = await slowPoll.call('POST', '/webhooks', { body: { url: `${receiver.url}/woken`, events: ['connection.created'] } });
      receiver.secrets.set('/woken', res.body.data.secret);
      await connectZendesk(slowPoll, sim, { origin: 'woken' });
      const delivered = await until('the connection.created delivery', () => receiver.at('/woken').find((r) => r.body.type === 'connection.created'), 50_000);
      expect(Date.now(), 'delivered by the poll, not by the wake-up').toBeLessThan(pollDue);
      expect(delivered.verified).toBe(true);
      expect(wakes).toBeGreaterThanOrEqual(1);
    } finally {
      await slowPoll.close();
    }
  });
});
