/** Attio webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { attioHookHeaders, startAttioSimulator, type AttioSimulator } from '../simulators/attio';

const TOKEN = 'attio-webhooks-in-token';
let deals: string[] = [];
let changes = 0;
let dealObject = '';

/** Deal queries by id (reads of changed deals) and without a filter (the deal stream's runs). */
function dealReads(sim: AttioSimulator) {
  const queries = sim.requests.filter((r) => r.path === '/v2/objects/deals/records/query');
  const byId = queries.filter((r) => (r.body as { filter?: unknown } | null)?.filter !== undefined).length;
  return { reads: byId, runs: queries.length - byId };
}

describeWebhooksIn<AttioSimulator>({
  provider: 'attio',
  async start() {
    const sim = await startAttioSimulator({ tokens: [TOKEN], recordBodies: true });
    dealObject = sim.objectIds.deals;
    const owner = sim.members[0]!.id as { workspace_member_id: string };
    sim.create('people', { name: { first_name: 'Ada', last_name: 'Lovelace' } });
    sim.create('companies', { name: 'Analytical Engines' });
    deals = [1, 2, 3].map((i) => sim.create('deals', { name: `Deal ${i}`, stage: 'Lead', owner: owner.workspace_member_id }).id);
    return sim;
  },
  async close(sim) {
    // The webhooks API was called as Attio's description says, but for the test receiver's plain-http address
    // (Attio delivers to https only; the simulator lets loopback http through).
    const violations = sim.spec.violations.filter((v) => !(v.path === '/v2/webhooks' && /target_url/.test(JSON.stringify(v))));
    if (violations.length) throw new Error(`Attio simulator: ${JSON.stringify(violations)}`);
    await sim.close();
  },
  connect: (server, sim) => connect(server, { provider: 'attio', linked_user_origin_id: 'webhooks-in', credentials: { access_token: TOKEN }, base_url: sim.url }),
  registered: (sim) => [...sim.hooks.webhooks.values()].map((h) => ({ url: h.target_url, secret: h.secret })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in Attio ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.update('deals', deals[0]!, { name: marker });
    return { remoteId: deals[0]!, eventType: 'crm.deal.updated', marker };
  },
  remove(sim) {
    sim.remove('deals', deals[1]!);
    return { remoteId: deals[1]!, eventType: 'crm.deal.deleted' };
  },
  sampleRemoteId: '00000000-0000-4000-8000-000000000001',
  signsTime: false,
  body: (remoteId) =>
    JSON.stringify({
      webhook_id: randomUUID(),
      events: [{ event_type: 'record.updated', id: { workspace_id: randomUUID(), object_id: dealObject, record_id: remoteId, attribute_id: randomUUID() }, actor: { type: 'workspace-member', id: randomUUID() } }],
    }),
  sign: (secret, body, _at, deliveryId) => attioHookHeaders(secret, body, deliveryId),
  providerCalls: (sim) => sim.requests.length,
  readsById: dealReads,
});
