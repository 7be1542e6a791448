import { zendeskAdapter } from '../../../src/providers/zendesk';
import { startZendeskSimulator } from '../../simulators/zendesk';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const zendeskDriver: TicketingDriver = {
  provider: 'zendesk',
  async start() {
    const sim = await startZendeskSimulator();
    const { state } = sim;
    const byEmail = (email: string) => [...state.users.values()].find((u) => u.email === email)!;
    const orderNumber = [...state.ticketFields.values()].find((f) => f.title === 'Order number')!;
    const acme = [...state.organizations.values()].find((o) => o.name === 'Acme Corp')!;
    const cred = sim.credentials[0]!;
    return {
      adapter: zendeskAdapter,
      connection: { credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.ticketJson(Number(remoteId)),
        renameTicket: async (remoteId, name) => void sim.updateTicketRemotely(Number(remoteId), { subject: name }),
        deleteTicket: async (remoteId) => sim.deleteTicketRemotely(Number(remoteId)),
        ticketCustomField: (remoteId, fieldId) => state.tickets.get(Number(remoteId))?.custom_fields.get(Number(fieldId)) ?? null,
        setTicketCustomField: async (remoteId, fieldId, value) =>
          void sim.updateTicketRemotely(Number(remoteId), { custom_fields: [{ id: Number(fieldId), value }] }),
      },
      fixtures: {
        userRemoteId: String(byEmail('sam@example.com').id),
        contactRemoteId: String(byEmail('casey@acme.example').id),
        accountRemoteId: String(acme.id),
        ticketType: 'incident',
      },
      supports: {
        priority: true,
        tags: true,
        assignees: true,
        contact: true,
        account: true,
        collection: false,
        attachments: true,
        dueDate: false,
        deletionsInIncremental: true,
        customField: { id: String(orderNumber.id), dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations },
      close: () => sim.close(),
    };
  },
};
