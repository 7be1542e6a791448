/** Zendesk webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connectZendesk } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { signedHeaders, startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

let ticketIds: number[] = [];
let changes = 0;

describeWebhooksIn<ZendeskSimulator>({
  provider: 'zendesk',
  async start() {
    const sim = await startZendeskSimulator({ validateSpec: false });
    ticketIds = sim.seedTickets(5, { commentsPerTicket: 1 });
    return sim;
  },
  close: (sim) => sim.close(),
  connect: (server, sim) => connectZendesk(server, sim, { origin: 'webhooks-in' }),
  registered: (sim) => [...sim.webhooks.hooks.values()].map((h) => ({ url: h.endpoint, secret: h.secret })),
  sent: (sim) => sim.webhooks.sender.sent,
  change(sim) {
    const id = ticketIds[0]!;
    const marker = `Changed in Zendesk ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateTicketRemotely(id, { subject: marker });
    return { remoteId: String(id), eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    const id = ticketIds[1]!;
    sim.deleteTicketRemotely(id);
    return { remoteId: String(id), eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: '1',
  signsTime: true,
  body: (remoteId, deliveryId) =>
    JSON.stringify({
      account_id: 1,
      detail: { id: remoteId, status: 'OPEN' },
      event: { previous: 'NEW', current: 'OPEN' },
      id: deliveryId,
      subject: `zen:ticket:${remoteId}`,
      time: new Date().toISOString(),
      type: 'zen:event-type:ticket.status_changed',
      zendesk_event_version: '2022-11-06',
    }),
  sign: (secret, body, at) => signedHeaders({ id: '01TEST', secret }, body, at),
  providerCalls: (sim) => sim.requests.filter((r) => r.path.startsWith('/api/v2/')).length,
  // A changed ticket is read with show_many, not through the ticket export (10 calls a minute).
  readsById: (sim) => ({
    reads: sim.requests.filter((r) => r.path === '/api/v2/tickets/show_many').length,
    runs: sim.requests.filter((r) => r.path.startsWith('/api/v2/incremental/tickets')).length,
  }),
});
