import { createClickUpAdapter } from '../../../src/providers/clickup';
import { startClickUpSimulator } from '../../simulators/clickup';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const clickupDriver: TicketingDriver = {
  provider: 'clickup',
  async start() {
    const sim = await startClickUpSimulator({ rateLimit: { perMinute: 100_000 } });
    const seed = sim.seed!;
    return {
      adapter: createClickUpAdapter(),
      connection: { credentials: { access_token: sim.tokens[0]! }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.taskJson(remoteId),
        renameTicket: async (remoteId, name) => sim.updateTaskRemotely(remoteId, { name }),
        deleteTicket: async (remoteId) => sim.deleteTaskRemotely(remoteId),
        ticketCustomField: (remoteId, fieldId) => sim.tasks.get(remoteId)?.fields[fieldId] ?? null,
        setTicketCustomField: async (remoteId, fieldId, value) => sim.updateTaskRemotely(remoteId, { fields: { [fieldId]: value } }),
      },
      fixtures: {
        // Comments are written as the token's user: the fixture user is that user.
        userRemoteId: String(seed.me),
        collectionRemoteId: `list:${seed.list}`,
      },
      supports: {
        priority: true,
        tags: true,
        assignees: true,
        contact: false,
        account: false,
        collection: true,
        collectionRequired: true,
        attachments: true,
        dueDate: true,
        deletionsInIncremental: false,
        customField: { id: seed.orderField, dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      async close() {
        const found = [...sim.specViolations.map((v) => `${v.method} ${v.path}: ${v.message}`), ...sim.specUndocumented.map((u) => `undocumented ${u.method} ${u.path}`)];
        await sim.close();
        // Every request and answer must match ClickUp's own reference (where it is present).
        if (found.length) throw new Error(`ClickUp reference violations:\n${found.join('\n')}`);
      },
    };
  },
};
