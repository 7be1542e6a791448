import { createFrontAdapter } from '../../../src/providers/front';
import { startFrontSimulator } from '../../simulators/front';
import { formatViolation } from '../../support/openapi-validator';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const frontDriver: TicketingDriver = {
  provider: 'front',
  async start() {
    const sim = await startFrontSimulator();
    const seed = sim.seed!;
    return {
      // Messages Front accepts (202) exist after a few ms in the simulator: poll quickly.
      adapter: createFrontAdapter({ messagePollIntervalMs: 10, messageTimeoutMs: 5_000 }),
      connection: { credentials: { access_token: sim.token }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.conversationJson(remoteId),
        renameTicket: async (remoteId, name) => sim.state.renameRemotely(remoteId, name),
        // Trashed in Front's UI: the conversation answers with status "deleted" and leaves the list.
        deleteTicket: async (remoteId) => sim.state.trash(sim.state.conversation(remoteId)),
        ticketCustomField: (remoteId, fieldId) => sim.state.conversations.get(remoteId)?.custom_fields[fieldId] ?? null,
        setTicketCustomField: async (remoteId, fieldId, value) => sim.state.setCustomFieldRemotely(remoteId, fieldId, value),
      },
      fixtures: {
        userRemoteId: seed.sam,
        contactRemoteId: seed.casey,
        accountRemoteId: seed.account,
        // The support inbox: it has an email channel, so a ticket with a contact is a message to them.
        collectionRemoteId: seed.supportInbox,
        ticketType: 'conversation',
      },
      supports: {
        priority: false,
        tags: true,
        assignees: true,
        contact: true,
        account: false,
        collection: true,
        // A discussion is created in an inbox (or shared with its assignee).
        collectionRequired: true,
        attachments: true,
        // Only tasks have a due date; the suite's ticket is a message to a contact.
        dueDate: false,
        deletionsInIncremental: true,
        // Front's API cannot change a conversation's subject.
        rename: false,
        // Front custom fields are addressed by name.
        customField: { id: 'Order number', dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      async close() {
        const violations = sim.specViolations.map(formatViolation);
        await sim.close();
        // What the adapter sent and what the simulator answered must match Front's description.
        if (violations.length) throw new Error(`Front spec violations:\n${violations.join('\n')}`);
      },
    };
  },
};
