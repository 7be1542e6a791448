/**
 * Intercom app webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts):
 * the project's OAuth app is set, the connection is made, and the address GET /connections/{id} shows is saved
 * on the simulated app's Webhooks page (Intercom checks it with a HEAD request), as an app admin would.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { intercomHookHeaders, startIntercomSimulator, type IntercomSimulator } from '../simulators/intercom';

const TOKEN = 'ic-webhooks-in-token';
const CLIENT_SECRET = `ic-client-secret-${randomUUID()}`;
const TOPICS = ['ticket.created', 'ticket.state.updated', 'ticket.attribute.updated', 'ticket.admin.assigned', 'ticket.admin.replied', 'ticket.contact.replied', 'ticket.note.created'];
let ticket = '';
let changes = 0;

const notification = (remoteId: string, deliveryId: string, at = new Date(), topic = 'ticket.attribute.updated') =>
  JSON.stringify({
    type: 'notification_event',
    app_id: 'acme',
    data: { type: 'notification_event_data', item: { type: 'ticket', id: remoteId } },
    links: {},
    id: deliveryId,
    topic,
    delivery_status: 'pending',
    delivery_attempts: 1,
    delivered_at: 0,
    first_sent_at: Math.floor(at.getTime() / 1000),
    created_at: Math.floor(at.getTime() / 1000),
    self: null,
  });

const post = async (url: string, body: string, headers: Record<string, string>) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.arrayBuffer();
  return res.status;
};

describeWebhooksIn<IntercomSimulator>({
  provider: 'intercom',
  mode: 'app',
  async start() {
    const sim = await startIntercomSimulator({ tokens: [TOKEN] });
    ticket = sim.seed!.ticket;
    return sim;
  },
  async close(sim) {
    if (sim.specViolations.length) throw new Error(`Intercom simulator: ${JSON.stringify(sim.specViolations)}`);
    await sim.close();
  },
  async connect(server, sim) {
    const app = await server.call('PUT', '/oauth-apps/intercom', { body: { client_id: 'omniport-test-app', client_secret: CLIENT_SECRET } });
    if (app.status !== 200) throw new Error(JSON.stringify(app.body));
    const token = await connect(server, { provider: 'intercom', linked_user_origin_id: 'webhooks-in', credentials: { access_token: TOKEN }, base_url: sim.url });
    const id = (await server.call('GET', '/connections')).body.data[0].id_connection as string;
    const setup = (await server.call('GET', `/connections/${id}`)).body.data.real_time_setup as { url: string };
    await sim.appWebhooks.configure({ url: setup.url, clientSecret: CLIENT_SECRET, topics: TOPICS });
    return token;
  },
  registered: (sim) => (sim.appWebhooks.settings ? [{ url: sim.appWebhooks.settings.url, secret: sim.appWebhooks.settings.clientSecret }] : []),
  sent: (sim) => sim.appWebhooks.sender.sent,
  change(sim) {
    const marker = `Changed in Intercom ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateTicketRemotely(ticket, { _default_title_: marker });
    return { remoteId: ticket, eventType: 'ticketing.ticket.updated', marker };
  },
  // Intercom has no topic for a deleted ticket: the deletion check finds it.
  sampleRemoteId: '1',
  // The time Intercom signs is the body's `created_at`, accepted up to 12 hours old (throttled notifications
  // come again hours later): the shared ten-minutes-old check does not apply; the test below checks the bound.
  signsTime: false,
  body: (remoteId, deliveryId, at) => notification(remoteId, deliveryId, at),
  sign: (secret, body) => intercomHookHeaders(secret, body),
  providerCalls: (sim) => sim.requests.length,
  more(get) {
    it('refuses a notification whose signed created_at is older than 12 hours, and answers Intercom’s HEAD check', async () => {
      const { server, sim } = get();
      const { url, clientSecret: secret } = sim.appWebhooks.settings!;
      const id = `notif_${randomUUID()}`;
      const old = notification(ticket, id, new Date(Date.now() - 13 * 3_600_000));
      expect(await post(url, old, intercomHookHeaders(secret, old))).toBe(401);
      // No time at all: refused as well.
      const timeless = JSON.stringify({ ...JSON.parse(notification(ticket, `notif_${randomUUID()}`)), created_at: undefined });
      expect(await post(url, timeless, intercomHookHeaders(secret, timeless))).toBe(401);
      expect(await server.sql('select * from provider_webhook_receipts where delivery_id = $1', [id])).toHaveLength(0);
      // A test request of the Developer Hub (`ping`) checks out but changes nothing.
      const ping = notification(ticket, `notif_${randomUUID()}`, new Date(), 'ping');
      expect(await post(url, ping, intercomHookHeaders(secret, ping))).toBe(202);
      expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
    });
  },
});
