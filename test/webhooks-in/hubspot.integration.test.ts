/**
 * HubSpot app webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts):
 * the project's OAuth app is set, the connection is made, and the address GET /connections/{id} shows is pasted
 * in the simulated app's webhook settings, as an app admin would.
 */
import { randomUUID } from 'node:crypto';
import { connectHubSpot } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { hubspotV3Headers, startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';

const TOKEN = 'hs-webhooks-in-token';
const CLIENT_SECRET = `hs-client-secret-${randomUUID()}`;
let deals: string[] = [];
let contacts: string[] = [];
let changes = 0;
let portalId = 0;

describeWebhooksIn<HubSpotSimulator>({
  provider: 'hubspot',
  mode: 'app',
  async start() {
    const sim = await startHubSpotSimulator({ accessTokens: [TOKEN] });
    portalId = sim.portalId;
    contacts = sim.seedContacts(3).map((c) => c.id);
    deals = sim.seedDeals(3).map((d) => d.id);
    return sim;
  },
  close: (sim) => sim.close(),
  async connect(server, sim) {
    const app = await server.call('PUT', '/oauth-apps/hubspot', { body: { client_id: 'omniport-test-app', client_secret: CLIENT_SECRET } });
    if (app.status !== 200) throw new Error(JSON.stringify(app.body));
    const token = await connectHubSpot(server, sim, TOKEN, { origin: 'webhooks-in' });
    const id = (await server.call('GET', '/connections')).body.data[0].id_connection as string;
    const setup = (await server.call('GET', `/connections/${id}`)).body.data.real_time_setup as { url: string };
    sim.appWebhooks.configure({ targetUrl: setup.url, clientSecret: CLIENT_SECRET, appId: 1_234_567 });
    return token;
  },
  registered: (sim) => (sim.appWebhooks.settings ? [{ url: sim.appWebhooks.settings.targetUrl, secret: sim.appWebhooks.settings.clientSecret }] : []),
  sent: (sim) => sim.appWebhooks.sender.sent,
  change(sim) {
    const marker = `Changed in HubSpot ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateRecord('deals', deals[0]!, { dealname: marker });
    return { remoteId: deals[0]!, eventType: 'crm.deal.updated', marker };
  },
  remove(sim) {
    sim.archiveRecord('contacts', contacts[1]!);
    return { remoteId: contacts[1]!, eventType: 'crm.contact.deleted' };
  },
  sampleRemoteId: '1',
  signsTime: true,
  body: (remoteId, deliveryId, at = new Date()) =>
    JSON.stringify([
      { eventId: deliveryId, subscriptionId: 4, portalId, appId: 1_234_567, occurredAt: at.getTime(), subscriptionType: 'deal.propertyChange', attemptNumber: 0, objectId: Number(remoteId), propertyName: 'dealname', propertyValue: 'x', changeSource: 'CRM_UI' },
    ]),
  sign: (secret, body, at, _deliveryId, url) => hubspotV3Headers(secret, url, body, at.getTime()),
  providerCalls: (sim) => sim.requests.length,
});
