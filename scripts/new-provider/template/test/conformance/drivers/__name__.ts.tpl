import { create__Pascal__Adapter } from '../../../src/providers/__name__';
import { start__Pascal__Simulator } from '../../simulators/__name__';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const __camel__Driver: TicketingDriver = {
  provider: '__name__',
  async start() {
    const sim = await start__Pascal__Simulator();
    return {
      adapter: create__Pascal__Adapter({ pageSize: 2 }),
      connection: { credentials: { api_token: sim.tokens[0]! }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.ticket(remoteId),
        renameTicket: async (remoteId, name) => sim.updateTicketRemotely(remoteId, { subject: name }),
        deleteTicket: async (remoteId) => sim.deleteTicketRemotely(remoteId),
      },
      fixtures: { userRemoteId: String(sim.seed.agent) },
      supports: {
        priority: false,
        tags: false,
        assignees: true,
        contact: false,
        account: false,
        collection: false,
        attachments: false,
        dueDate: false,
        deletionsInIncremental: false,
      },
      // TODO(new-provider): the recorded-request check: list the provider in DESCRIBED (recorded-requests.ts)
      // when it publishes a description, or declare its contract in test/contracts.
      traffic: { available: false, violations: [], requests: sim.requests },
      close: () => sim.close(),
    };
  },
};
