/** ClickUp webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { clickupHookHeaders, startClickUpSimulator, type ClickUpSimulator } from '../simulators/clickup';

let tasks: string[] = [];
let changes = 0;

describeWebhooksIn<ClickUpSimulator>({
  provider: 'clickup',
  async start() {
    const sim = await startClickUpSimulator();
    tasks = sim.seedTasks(3);
    return sim;
  },
  async close(sim) {
    // The webhooks API was called as ClickUp's v2 reference describes it.
    if (sim.specViolations.length) throw new Error(`ClickUp simulator: ${JSON.stringify(sim.specViolations)}`);
    await sim.close();
  },
  connect: (server, sim) => connect(server, { provider: 'clickup', linked_user_origin_id: 'webhooks-in', credentials: { access_token: sim.tokens[0]! }, base_url: sim.url }),
  registered: (sim) => [...sim.hooks.webhooks.values()].map((h) => ({ url: h.endpoint, secret: h.secret })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in ClickUp ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateTaskRemotely(tasks[0]!, { name: marker });
    return { remoteId: tasks[0]!, eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    sim.deleteTaskRemotely(tasks[1]!);
    return { remoteId: tasks[1]!, eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: '86000001',
  signsTime: false,
  body: (remoteId, deliveryId) =>
    JSON.stringify({ event: 'taskUpdated', history_items: [{ id: deliveryId, type: 1, date: String(Date.now()), field: 'name', parent_id: '1', data: {}, source: null, user: { id: 1 }, before: 'a', after: 'b' }], task_id: remoteId, webhook_id: randomUUID() }),
  sign: (secret, body) => clickupHookHeaders(secret, body),
  providerCalls: (sim) => sim.requests.filter((r) => r.path.startsWith('/v2/')).length,
});
