import { createServiceNowAdapter } from '../../../src/providers/servicenow';
import { startServiceNowSimulator } from '../../simulators/servicenow';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const servicenowDriver: TicketingDriver = {
  provider: 'servicenow',
  async start() {
    const sim = await startServiceNowSimulator();
    const seed = sim.seed!;
    return {
      // Small pages, so every walk goes over several.
      adapter: createServiceNowAdapter({ pageSize: 2 }),
      connection: { credentials: sim.credentials, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.incident(remoteId),
        renameTicket: async (remoteId, name) => void sim.updateIncidentRemotely(remoteId, { short_description: name }),
        deleteTicket: async (remoteId) => sim.deleteIncidentRemotely(remoteId),
        ticketCustomField: (remoteId, fieldId) => sim.incident(remoteId)?.[fieldId] ?? null,
        setTicketCustomField: async (remoteId, fieldId, value) => void sim.updateIncidentRemotely(remoteId, { [fieldId]: String(value) }),
      },
      fixtures: {
        // The connection's own user: journal entries are written as that user.
        userRemoteId: seed.admin,
        contactRemoteId: seed.fred,
        accountRemoteId: seed.acme,
        ticketType: 'hardware',
      },
      supports: {
        priority: true,
        tags: false,
        assignees: true,
        contact: true,
        account: true,
        collection: false,
        attachments: true,
        dueDate: true,
        deletionsInIncremental: true,
        customField: { id: 'u_order_number', dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: false, violations: [], get requests() { return sim.requests; } },
      async close() {
        const violations = sim.contractViolations.map((v) => `${v.method} ${v.path}: ${v.problems.join('; ')}`);
        await sim.close();
        // Everything the adapter sent must be what ServiceNow's REST API reference documents.
        if (violations.length) throw new Error(`ServiceNow contract violations:\n${violations.join('\n')}`);
      },
    };
  },
};
