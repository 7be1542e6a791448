import { createAsanaAdapter } from '../../../src/providers/asana';
import { startAsanaSimulator } from '../../simulators/asana';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const asanaDriver: TicketingDriver = {
  provider: 'asana',
  async start() {
    const sim = await startAsanaSimulator({ rateLimit: { perMinute: 100_000 } });
    const seed = sim.seed!;
    return {
      adapter: createAsanaAdapter(),
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
        userRemoteId: seed.me,
        collectionRemoteId: seed.support,
      },
      supports: {
        priority: false,
        tags: true,
        assignees: true,
        contact: false,
        account: false,
        collection: true,
        collectionRequired: true,
        attachments: true,
        dueDate: true,
        deletionsInIncremental: true,
        customField: { id: seed.orderField, dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      async close() {
        const found = [...sim.specViolations.map((v) => `${v.method} ${v.path}: ${v.message}`), ...sim.specUndocumented.map((u) => `undocumented ${u.method} ${u.path}`)];
        await sim.close();
        // Every request and answer must match Asana's own description (where it is present).
        if (found.length) throw new Error(`Asana description violations:\n${found.join('\n')}`);
      },
    };
  },
};
