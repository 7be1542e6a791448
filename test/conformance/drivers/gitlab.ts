import { gitlabAdapter } from '../../../src/providers/gitlab';
import { startGitlabSimulator, type GitlabSimulator } from '../../simulators/gitlab';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

/** `<project id>#<iid>` → the simulator's keys. */
function issueKey(remoteId: string): { projectId: number; iid: number } {
  const [projectId, iid] = remoteId.split('#').map(Number);
  return { projectId: projectId!, iid: iid! };
}

/**
 * The GitLab driver: the token's user (sam) is the fixture user, the Help desk project the
 * collection every ticket is created in. `onStart` receives the simulator (for spec checks).
 */
export function createGitlabDriver(onStart?: (sim: GitlabSimulator) => void): TicketingDriver {
  return {
    provider: 'gitlab',
    async start() {
      const sim = await startGitlabSimulator();
      onStart?.(sim);
      const f = sim.fixtures!;
      return {
        adapter: gitlabAdapter,
        connection: { credentials: { access_token: sim.token }, base_url: sim.url },
        control: {
          ...faultControls(sim.faults),
          ticket: async (remoteId) => {
            const k = issueKey(remoteId);
            return sim.issueJson(k.projectId, k.iid);
          },
          renameTicket: async (remoteId, name) => {
            const k = issueKey(remoteId);
            sim.updateIssueRemotely(k.projectId, k.iid, { title: name });
          },
          deleteTicket: async (remoteId) => {
            const k = issueKey(remoteId);
            sim.deleteIssueRemotely(k.projectId, k.iid);
          },
        },
        fixtures: {
          userRemoteId: String(f.sam.id),
          collectionRemoteId: String(f.helpDesk.id),
          ticketType: 'incident',
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
          deletionsInIncremental: false,
        },
        traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
        close: () => sim.close(),
      };
    },
  };
}

export const gitlabDriver: TicketingDriver = createGitlabDriver();
