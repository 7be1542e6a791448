/** Asana webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { asanaHookHeaders, startAsanaSimulator, type AsanaSimulator } from '../simulators/asana';

let tasks: string[] = [];
let changes = 0;

const post = async (url: string, headers: Record<string, string>, body = '') => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.arrayBuffer();
  return { status: res.status, echoed: res.headers.get('x-hook-secret') };
};

describeWebhooksIn<AsanaSimulator>({
  provider: 'asana',
  async start() {
    const sim = await startAsanaSimulator();
    tasks = sim.seedTasks(3, { project: sim.seed!.support });
    return sim;
  },
  async close(sim) {
    // The webhooks API was called as Asana's OpenAPI description describes it.
    if (sim.specViolations.length) throw new Error(`Asana simulator: ${JSON.stringify(sim.specViolations)}`);
    await sim.close();
  },
  connect: (server, sim) => connect(server, { provider: 'asana', linked_user_origin_id: 'webhooks-in', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url }),
  // One webhook per project (support queue, backlog), all to one address, each with its own secret.
  registered: (sim) => [...new Map([...sim.hooks.webhooks.values()].map((h) => [h.target, { url: h.target, secret: h.secret }])).values()],
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in Asana ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateTaskRemotely(tasks[0]!, { name: marker });
    return { remoteId: tasks[0]!, eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    sim.deleteTaskRemotely(tasks[1]!);
    return { remoteId: tasks[1]!, eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: '1200000000000000001',
  // The events' `created_at` only bounds replays to Asana's day of retries: replays are refused by the body's hash.
  signsTime: false,
  body: (remoteId, deliveryId) =>
    JSON.stringify({
      events: [{ user: { gid: '1', resource_type: 'user' }, created_at: new Date().toISOString(), action: 'changed', resource: { gid: remoteId, resource_type: 'task', name: deliveryId }, parent: null, change: { field: 'name', action: 'changed' } }],
    }),
  sign: (secret, body) => asanaHookHeaders(secret, body),
  providerCalls: (sim) => sim.requests.filter((r) => !r.path.startsWith('/files/')).length,
  more(get) {
    it('made one handshake per project webhook, each answered with its X-Hook-Secret; none is answered after the registration', async () => {
      const { server, sim, connectionId } = get();
      expect(sim.hooks.handshakes).toHaveLength(2);
      expect(sim.hooks.handshakes.every((h) => h.status === 200)).toBe(true);
      const url = sim.hooks.handshakes[0]!.target;
      const before = await server.sql('select secret_encrypted, mode from provider_webhooks where connection_id = $1', [connectionId]);
      // A handshake to the connection's address once its registration is over, and one to an unknown address.
      expect(await post(url, { 'x-hook-secret': 'a'.repeat(64) })).toEqual({ status: 401, echoed: null });
      expect(await post(url.replace(/[A-Za-z0-9]{20,64}$/, 'y'.repeat(32)), { 'x-hook-secret': 'a'.repeat(64) })).toEqual({ status: 401, echoed: null });
      expect(await server.sql('select secret_encrypted, mode from provider_webhooks where connection_id = $1', [connectionId])).toEqual(before);
    });

    it('answers heartbeats (empty batches) with 202, however often they repeat', async () => {
      const { server, sim } = get();
      const receipts = async () => Number((await server.sql('select count(*)::int as n from provider_webhook_receipts'))[0]!.n);
      const before = await receipts();
      const sent = sim.hooks.sender.sent.length;
      sim.hooks.heartbeat();
      sim.hooks.heartbeat();
      await sim.hooks.sender.settle();
      const beats = sim.hooks.sender.sent.slice(sent);
      expect(beats).toHaveLength(4);
      expect(beats.map((b) => b.status)).toEqual([202, 202, 202, 202]);
      expect(await receipts()).toBe(before);
    });

    it('creates the webhooks again when Asana dropped them, refusing handshakes to other addresses meanwhile', async () => {
      const { server, sim, connectionId } = get();
      const [old] = await server.sql('select route_key, expires_at from provider_webhooks where connection_id = $1', [connectionId]);
      // Checked daily: due a week before the recorded time.
      expect(new Date(old!.expires_at as string).getTime()).toBeGreaterThan(Date.now() + 7 * 86_400_000);
      const oldUrl = sim.hooks.handshakes[0]!.target;
      sim.hooks.drop();
      await server.sql('update provider_webhooks set expires_at = now() where connection_id = $1', [connectionId]);
      // While the new registration waits for its handshake, forged handshakes to the old and to an unknown address.
      const forged: number[] = [];
      sim.hooks.beforeHandshake = async () => {
        forged.push((await post(oldUrl, { 'x-hook-secret': 'b'.repeat(64) })).status);
        forged.push((await post(oldUrl.replace(/[A-Za-z0-9]{20,64}$/, 'z'.repeat(32)), { 'x-hook-secret': 'b'.repeat(64) })).status);
      };
      try {
        expect(await server.omniport.services.providerWebhooks.renewExpiring()).toBe(1);
      } finally {
        sim.hooks.beforeHandshake = undefined;
      }
      expect(forged).toEqual([401, 401, 401, 401]);
      const [now] = await server.sql('select route_key, mode from provider_webhooks where connection_id = $1', [connectionId]);
      expect(now!.mode).toBe('registered');
      expect(now!.route_key).not.toBe(old!.route_key);
      expect(sim.hooks.webhooks.size).toBe(2);
      expect([...sim.hooks.webhooks.values()].every((w) => w.target.endsWith(now!.route_key as string))).toBe(true);
      // The new webhooks' requests are accepted; the old address is gone.
      const sent = sim.hooks.sender.sent.length;
      sim.updateTaskRemotely(tasks[2]!, { name: `After the re-creation ${randomUUID().slice(0, 8)}` });
      await sim.hooks.sender.settle();
      expect(sim.hooks.sender.sent.slice(sent).map((r) => r.status)).toEqual([202]);
    });

    it('makes again a registration that a stopped process left waiting for its handshake', async () => {
      const { server, sim, connectionId } = get();
      const orphans = [...sim.hooks.webhooks.keys()];
      // As a process stopping between Asana's answer and the end of the registration leaves it.
      await server.sql("update provider_webhooks set mode = 'pending', remote_ids = '{}', created_at = now() - interval '11 minutes', expires_at = now() where connection_id = $1", [connectionId]);
      const [left] = await server.sql('select route_key from provider_webhooks where connection_id = $1', [connectionId]);
      expect(await server.omniport.services.providerWebhooks.renewExpiring()).toBe(1);
      const [now] = await server.sql('select route_key, mode from provider_webhooks where connection_id = $1', [connectionId]);
      expect(now).toMatchObject({ mode: 'registered' });
      expect(now!.route_key).not.toBe(left!.route_key);
      // The webhooks it had made send to an address that refuses them: Asana drops them after a day.
      sim.hooks.drop(orphans);
      expect(sim.hooks.webhooks.size).toBe(2);
    });
  },
});
