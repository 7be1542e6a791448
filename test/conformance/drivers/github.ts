import { githubAdapter } from '../../../src/providers/github';
import { formatViolation } from '../../support/openapi-validator';
import { startGithubSimulator } from '../../simulators/github';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

/** Ticket remote ids are `owner/name#number`. */
function issueOf(remoteId: string): { repo: string; number: number } {
  const m = /^(.+)#(\d+)$/.exec(remoteId);
  if (!m) throw new Error(`not a GitHub ticket remote id: ${remoteId}`);
  return { repo: m[1]!, number: Number(m[2]) };
}

export const githubDriver: TicketingDriver = {
  provider: 'github',
  async start() {
    const sim = await startGithubSimulator();
    return {
      adapter: githubAdapter,
      connection: { credentials: { access_token: sim.token }, base_url: sim.url },
      control: {
        // GitHub's secondary rate limit answered as 429 with Retry-After (the 403 form is covered by the provider tests).
        ...faultControls(sim.faults),
        ticket: async (remoteId) => {
          const { repo, number } = issueOf(remoteId);
          return sim.issueJson(repo, number);
        },
        renameTicket: async (remoteId, name) => {
          const { repo, number } = issueOf(remoteId);
          sim.updateIssueRemotely(repo, number, { title: name }, 'mona');
        },
        deleteTicket: async (remoteId) => {
          const { repo, number } = issueOf(remoteId);
          sim.deleteIssueRemotely(repo, number);
        },
      },
      fixtures: {
        // The token's user: GitHub writes comments as that user only.
        userRemoteId: sim.viewer.login,
        collectionRemoteId: 'octo-org/helpdesk',
      },
      supports: {
        priority: false,
        tags: true,
        assignees: true,
        contact: false,
        account: false,
        collection: true,
        collectionRequired: true,
        attachments: false,
        dueDate: false,
        deletionsInIncremental: false,
      },
      /** Also the spec check of the whole run: every request Omniport sent and every answer must match GitHub's description. */
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      close: async () => {
        await sim.close();
        const found = [...sim.specViolations.map(formatViolation), ...sim.specUndocumented.map((u) => `undocumented ${u.method} ${u.path}`)];
        if (found.length) throw new Error(`GitHub spec violations in the conformance run:\n${found.join('\n')}`);
      },
    };
  },
};
