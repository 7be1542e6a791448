import { createFreshdeskAdapter } from '../../../src/providers/freshdesk';
import { startFreshdeskSimulator } from '../../simulators/freshdesk';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const freshdeskDriver: TicketingDriver = {
  provider: 'freshdesk',
  async start() {
    const sim = await startFreshdeskSimulator({ rateLimit: { perMinute: 100_000 } });
    const seed = sim.seed!;
    return {
      adapter: createFreshdeskAdapter(),
      connection: { credentials: { api_key: sim.apiKeys[0]! }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.ticketJson(Number(remoteId)),
        renameTicket: async (remoteId, name) => void sim.updateTicketRemotely(Number(remoteId), { subject: name }),
        // "Delete" in the Freshdesk helpdesk moves the ticket to the trash.
        deleteTicket: async (remoteId) => sim.trashTicketRemotely(Number(remoteId)),
        ticketCustomField: (remoteId, fieldId) => sim.state.tickets.get(Number(remoteId))?.customFields[fieldId] ?? null,
        setTicketCustomField: async (remoteId, fieldId, value) => void sim.updateTicketRemotely(Number(remoteId), { customFields: { [fieldId]: value } }),
      },
      fixtures: {
        userRemoteId: String(seed.sam),
        contactRemoteId: String(seed.casey),
        accountRemoteId: String(seed.acme),
        ticketType: 'Incident',
      },
      supports: {
        priority: true,
        tags: true,
        assignees: true,
        contact: true,
        account: true,
        collection: false,
        attachments: true,
        dueDate: true,
        deletionsInIncremental: true,
        customField: { id: 'cf_order_number', dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: false, violations: [], get requests() { return sim.requests; } },
      async close() {
        const violations = sim.contractViolations.map((v) => `${v.method} ${v.path}: ${JSON.stringify(v.problems)}`);
        await sim.close();
        // Everything the adapter sent must be what the Freshdesk reference documents.
        if (violations.length) throw new Error(`Freshdesk contract violations:\n${violations.join('\n')}`);
      },
    };
  },
};
