import { createGorgiasAdapter } from '../../../src/providers/gorgias';
import { startGorgiasSimulator } from '../../simulators/gorgias';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const gorgiasDriver: TicketingDriver = {
  provider: 'gorgias',
  async start() {
    // A roomy bucket: the suite's burst of calls should not be paced (pacing has its own tests).
    const sim = await startGorgiasSimulator({ rateLimit: { limit: 10_000 } });
    const seed = sim.seed!;
    const cred = sim.credentials[0]!;
    return {
      adapter: createGorgiasAdapter(),
      connection: { credentials: { email: cred.email, api_token: cred.apiKey }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.ticketJson(Number(remoteId)),
        renameTicket: async (remoteId, name) => void sim.updateTicketRemotely(Number(remoteId), { subject: name }),
        // "Delete" in the Gorgias helpdesk moves the ticket to the trash.
        deleteTicket: async (remoteId) => sim.trashTicketRemotely(Number(remoteId)),
        ticketCustomField: (remoteId, fieldId) => sim.state.tickets.get(Number(remoteId))?.fields.get(Number(fieldId))?.value ?? null,
        setTicketCustomField: async (remoteId, fieldId, value) => void sim.updateTicketRemotely(Number(remoteId), { customFields: { [Number(fieldId)]: value } }),
      },
      fixtures: {
        userRemoteId: String(seed.sam),
        contactRemoteId: String(seed.casey),
        // The ticket type is the Gorgias channel.
        ticketType: 'email',
      },
      supports: {
        priority: true,
        tags: true,
        assignees: true,
        contact: true,
        account: false,
        collection: false,
        attachments: true,
        dueDate: false,
        deletionsInIncremental: true,
        customField: { id: String(seed.orderNumberField), dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: false, violations: [], get requests() { return sim.requests; } },
      async close() {
        const violations = sim.contractViolations.map((v) => `${v.method} ${v.path}: ${JSON.stringify(v.problems)}`);
        await sim.close();
        // Everything the adapter sent must be what the Gorgias reference documents.
        if (violations.length) throw new Error(`Gorgias contract violations:\n${violations.join('\n')}`);
      },
    };
  },
};
