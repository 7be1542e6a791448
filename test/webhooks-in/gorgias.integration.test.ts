/** Gorgias HTTP integrations in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { gorgiasDate, startGorgiasSimulator, type GorgiasSimulator } from '../simulators/gorgias';

let tickets: number[] = [];
let changes = 0;

describeWebhooksIn<GorgiasSimulator>({
  provider: 'gorgias',
  async start() {
    const sim = await startGorgiasSimulator();
    tickets = sim.seedTickets(3, { messagesPerTicket: 2 });
    return sim;
  },
  async close(sim) {
    // Every request the adapter sent is one the reference documents (integrations included).
    if (sim.contractViolations.length) throw new Error(`Gorgias simulator: ${JSON.stringify(sim.contractViolations)}`);
    await sim.close();
  },
  connect(server, sim) {
    const cred = sim.credentials[0]!;
    return connect(server, { provider: 'gorgias', linked_user_origin_id: 'webhooks-in', credentials: { email: cred.email, api_token: cred.apiKey }, base_url: sim.url });
  },
  registered: (sim) => [...sim.hooks.integrations.values()].map((i) => ({ url: i.http.url, secret: Object.values(i.http.headers)[0] ?? '' })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    // An agent renames the ticket in the helpdesk: its "ticket updated" trigger fires.
    const marker = `Changed in Gorgias ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateTicketRemotely(tickets[0]!, { subject: marker });
    return { remoteId: String(tickets[0]), eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    // "Delete" in the helpdesk moves the ticket to the trash; the request carries its trashed_datetime.
    sim.trashTicketRemotely(tickets[1]!);
    return { remoteId: String(tickets[1]), eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: '1',
  signsTime: false,
  signsBody: false,
  // The body Omniport's integration template renders; the delivery id is its hash, so each id gives another time.
  body: (remoteId, deliveryId) =>
    JSON.stringify({ ticket_id: remoteId, updated_datetime: `${gorgiasDate(Date.now())}-${deliveryId}`, last_message_datetime: gorgiasDate(Date.now()), trashed_datetime: '' }),
  sign: (secret) => ({ 'x-omniport-webhook-token': secret }),
  providerCalls: (sim) => sim.requests.length,
});
