/** Pipedrive webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { pipedriveHookHeaders, startPipedriveSimulator, type PipedriveSimulator } from '../simulators/pipedrive';
import { PIPEDRIVE_WEBHOOK_USER } from '../../src/providers/pipedrive/webhooks';

const TOKEN = 'pd-webhooks-in-token';
let deals: number[] = [];
let changes = 0;

describeWebhooksIn<PipedriveSimulator>({
  provider: 'pipedrive',
  async start() {
    const sim = await startPipedriveSimulator({ apiTokens: [TOKEN] });
    sim.seedOrganizations(2);
    sim.seedPersons(2, { linkOrganizations: true });
    deals = sim.seedDeals(3, { linkPersons: true }).map((d) => d.id);
    return sim;
  },
  async close(sim) {
    // The webhooks API was called as Pipedrive's v1 document describes it.
    if (sim.specViolations.length) throw new Error(`Pipedrive simulator: ${JSON.stringify(sim.specViolations)}`);
    await sim.close();
  },
  connect: (server, sim) => connect(server, { provider: 'pipedrive', linked_user_origin_id: 'webhooks-in', credentials: { api_token: TOKEN }, base_url: sim.url }),
  registered: (sim) => [...sim.hooks.webhooks.values()].map((h) => ({ url: h.subscription_url, secret: h.http_auth_password ?? '' })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in Pipedrive ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateEntity('deals', deals[0]!, { title: marker });
    return { remoteId: String(deals[0]), eventType: 'crm.deal.updated', marker };
  },
  remove(sim) {
    sim.deleteEntity('deals', deals[1]!);
    return { remoteId: String(deals[1]), eventType: 'crm.deal.deleted' };
  },
  sampleRemoteId: '1',
  signsTime: false,
  signsBody: false,
  body: (remoteId, deliveryId) =>
    JSON.stringify({ data: { id: Number(remoteId), title: 'x' }, previous: null, meta: { action: 'change', entity: 'deal', entity_id: remoteId, id: deliveryId, version: '2.0', timestamp: new Date().toISOString() } }),
  sign: (secret) => pipedriveHookHeaders({ http_auth_user: PIPEDRIVE_WEBHOOK_USER, http_auth_password: secret }),
  providerCalls: (sim) => sim.requests.filter((r) => /^\/(api\/)?v[12]\//.test(r.path)).length,
});
