/** Linear webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { linearHookHeaders, startLinearSimulator, type LinearSimulator } from '../simulators/linear';

let issues: string[] = [];
let changes = 0;

describeWebhooksIn<LinearSimulator>({
  provider: 'linear',
  async start() {
    const sim = await startLinearSimulator();
    issues = sim.seedIssues(3).map((i) => i.id);
    return sim;
  },
  async close(sim) {
    // Every query and mutation the adapter sent was valid against Linear's schema.
    if (sim.specViolations.length || sim.simulatorGaps.length) throw new Error(`Linear simulator: ${JSON.stringify([...sim.specViolations, ...sim.simulatorGaps])}`);
    await sim.close();
  },
  connect: (server, sim) => connect(server, { provider: 'linear', linked_user_origin_id: 'webhooks-in', credentials: { access_token: sim.apiKey }, base_url: sim.url }),
  registered: (sim) => [...sim.hooks.webhooks.values()].map((h) => ({ url: h.url, secret: h.secret })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in Linear ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateIssueRemotely(issues[0]!, { title: marker });
    return { remoteId: issues[0]!, eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    sim.trashIssueRemotely(issues[1]!);
    return { remoteId: issues[1]!, eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: randomUUID(),
  signsTime: true,
  body: (remoteId, _deliveryId, at = new Date()) =>
    JSON.stringify({ action: 'update', type: 'Issue', data: { id: remoteId, title: 'x' }, organizationId: randomUUID(), webhookTimestamp: at.getTime(), webhookId: randomUUID(), createdAt: at.toISOString() }),
  sign: (secret, body, _at, deliveryId) => linearHookHeaders(secret, body, { event: 'Issue', delivery: deliveryId }),
  providerCalls: (sim) => sim.requests.filter((r) => r.path === '/graphql').length,
});
