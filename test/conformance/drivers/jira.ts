import { formatViolation } from '../../support/openapi-validator';
import { plainCustomValue } from '../../../src/providers/jira/custom-fields';
import { jiraAdapter } from '../../../src/providers/jira';
import { startJiraSimulator } from '../../simulators/jira';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

export const jiraDriver: TicketingDriver = {
  provider: 'jira',
  async start() {
    const sim = await startJiraSimulator();
    const cred = sim.credentials[0]!;
    const orderNumber = sim.field('Order number');
    return {
      adapter: jiraAdapter,
      connection: { credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        ticket: async (remoteId) => sim.issueJson(remoteId),
        renameTicket: async (remoteId, name) => void sim.updateIssueRemotely(remoteId, { summary: name }),
        deleteTicket: async (remoteId) => sim.deleteIssueRemotely(remoteId),
        ticketCustomField: (remoteId, fieldId) => plainCustomValue(sim.state.issue(remoteId)?.custom.get(fieldId) ?? null),
        setTicketCustomField: async (remoteId, fieldId, value) => void sim.updateIssueRemotely(remoteId, { [fieldId]: value }),
      },
      fixtures: {
        // Jira writes comments as the connection's own user: the fixture user is the token owner.
        userRemoteId: sim.userOf().accountId,
        collectionRemoteId: sim.project('SUP').id,
        ticketType: 'Bug',
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
        customField: { id: orderNumber.id, dataType: 'string', value: 'ORD-1', changedValue: 'ORD-2' },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      async close() {
        await sim.close();
        // Every request Omniport sent through the adapter, and every answer, must match Atlassian's document.
        if (sim.specAvailable && (sim.specViolations.length || sim.specUndocumented.length)) {
          throw new Error(`Jira spec violations:\n${[...sim.specViolations.map(formatViolation), ...sim.specUndocumented.map((u) => `undocumented ${u.method} ${u.path}`)].join('\n')}`);
        }
        if (!sim.specAvailable) console.warn('jira swagger-v3.v3.json not found: spec validation of the conformance traffic skipped');
      },
    };
  },
};
