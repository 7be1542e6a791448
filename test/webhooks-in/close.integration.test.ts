/** Close webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { closeHookHeaders, startCloseSimulator, type CloseSimulator } from '../simulators/close';

const KEY = 'close-webhooks-in-key';
let deals: string[] = [];
let changes = 0;

describeWebhooksIn<CloseSimulator>({
  provider: 'close',
  async start() {
    const sim = await startCloseSimulator({ apiKeys: [KEY] });
    const lead = sim.create('lead', { name: 'Initech' });
    sim.create('contact', { lead_id: lead.id, name: 'Peter Gibbons' });
    deals = [1, 2, 3].map((i) => sim.create('opportunity', { lead_id: lead.id, note: `Deal ${i}` }).id);
    return sim;
  },
  async close(sim) {
    // The webhook API was called as Close's description says.
    if (sim.specViolations.length) throw new Error(`Close simulator: ${JSON.stringify(sim.specViolations)}`);
    await sim.close();
  },
  connect: (server, sim) => connect(server, { provider: 'close', linked_user_origin_id: 'webhooks-in', credentials: { api_key: KEY }, base_url: sim.url }),
  registered: (sim) => [...sim.hooks.subscriptions.values()].map((s) => ({ url: s.url, secret: s.signature_key })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in Close ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.update('opportunity', deals[0]!, { note: marker });
    return { remoteId: deals[0]!, eventType: 'crm.deal.updated', marker };
  },
  remove(sim) {
    sim.remove('opportunity', deals[1]!);
    return { remoteId: deals[1]!, eventType: 'crm.deal.deleted' };
  },
  sampleRemoteId: 'oppo_sample',
  signsTime: true,
  body: (remoteId, deliveryId, at = new Date()) =>
    JSON.stringify({
      subscription_id: 'whsub_sample',
      event: { id: deliveryId, object_type: 'opportunity', object_id: remoteId, action: 'updated', date_created: at.toISOString(), date_updated: at.toISOString(), changed_fields: ['note'], data: { id: remoteId }, previous_data: {} },
    }),
  sign: (secret, body, at) => closeHookHeaders(secret, body, Math.floor(at.getTime() / 1000)),
  providerCalls: (sim) => sim.requests.filter((r) => r.path.startsWith('/api/v1/')).length,
  readsById: (sim) => ({
    reads: sim.requests.filter((r) => r.method === 'GET' && /^\/api\/v1\/opportunity\/oppo_\w+\/?$/.test(r.path)).length,
    runs: sim.requests.filter((r) => r.path.startsWith('/api/v1/event') && r.query.object_type === 'opportunity').length,
  }),
});
