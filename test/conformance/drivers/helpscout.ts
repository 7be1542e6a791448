import { createHelpScoutAdapter } from '../../../src/providers/helpscout';
import { startHelpScoutSimulator } from '../../simulators/helpscout';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const helpscoutDriver: TicketingDriver = {
  provider: 'helpscout',
  async start() {
    // Small pages, so every listing goes over several.
    const sim = await startHelpScoutSimulator({ rateLimit: { perMinute: 100_000 }, pageSize: { conversations: 2, other: 2 } });
    const seed = sim.seed!;
    return {
      adapter: createHelpScoutAdapter(),
      connection: { credentials: { access_token: sim.token }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.conversationJson(Number(remoteId)),
        renameTicket: async (remoteId, name) => void sim.updateConversationRemotely(Number(remoteId), { subject: name }),
        deleteTicket: async (remoteId) => sim.deleteConversationRemotely(Number(remoteId)),
        ticketCustomField: (remoteId, fieldId) => sim.conversations.get(Number(remoteId))?.fields[Number(fieldId)] ?? null,
        setTicketCustomField: async (remoteId, fieldId, value) => void sim.updateConversationRemotely(Number(remoteId), { fields: { [Number(fieldId)]: String(value) } }),
      },
      fixtures: {
        userRemoteId: String(seed.sam),
        contactRemoteId: String(seed.casey),
        collectionRemoteId: String(seed.mailbox),
        ticketType: 'email',
      },
      supports: {
        priority: false,
        tags: true,
        assignees: true,
        contact: true,
        account: false,
        collection: true,
        collectionRequired: true,
        attachments: true,
        dueDate: false,
        deletionsInIncremental: false,
        customField: { id: String(seed.orderField), dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: false, violations: [], get requests() { return sim.requests; } },
      async close() {
        const violations = sim.contractViolations.map((v) => `${v.method} ${v.path}: ${JSON.stringify(v.problems)}`);
        await sim.close();
        // Everything the adapter sent must be what the Help Scout reference documents.
        if (violations.length) throw new Error(`Help Scout contract violations:\n${violations.join('\n')}`);
      },
    };
  },
};
