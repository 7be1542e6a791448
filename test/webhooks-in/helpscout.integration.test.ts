/** Help Scout webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { helpscoutHookHeaders, startHelpScoutSimulator, type HelpScoutSimulator } from '../simulators/helpscout';

const TOKEN = 'hs-webhooks-in-token';
let conversations: number[] = [];
let changes = 0;

describeWebhooksIn<HelpScoutSimulator>({
  provider: 'helpscout',
  async start() {
    const sim = await startHelpScoutSimulator({ tokens: [TOKEN] });
    conversations = sim.seedConversations(3);
    return sim;
  },
  async close(sim) {
    // The webhooks API was called as Help Scout's reference describes it.
    if (sim.contractViolations.length) throw new Error(`Help Scout simulator: ${JSON.stringify(sim.contractViolations)}`);
    await sim.close();
  },
  connect: (server, sim) => connect(server, { provider: 'helpscout', linked_user_origin_id: 'webhooks-in', credentials: { access_token: TOKEN }, base_url: sim.url }),
  registered: (sim) => [...sim.hooks.webhooks.values()].map((h) => ({ url: h.url, secret: h.secret })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    // Help Scout has no event for a subject change: a tag is changed (`convo.tags`).
    const marker = `changed-${++changes}-${randomUUID().slice(0, 8)}`;
    sim.updateConversationRemotely(conversations[0]!, { tags: [marker] });
    return { remoteId: String(conversations[0]), eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    sim.deleteConversationRemotely(conversations[1]!);
    return { remoteId: String(conversations[1]), eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: '1',
  signsTime: false,
  // Help Scout sends no delivery id: the body (and event) are its hash; a test body differs by its preview.
  body: (remoteId, deliveryId) => JSON.stringify({ id: Number(remoteId), number: 1, subject: 'x', status: 'active', type: 'email', mailboxId: 1, preview: deliveryId, createdAt: '2026-01-01T00:00:00Z', userUpdatedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') }),
  sign: (secret, body) => helpscoutHookHeaders(secret, 'convo.status', body),
  providerCalls: (sim) => sim.requests.filter((r) => r.path.startsWith('/v2/')).length,
});
