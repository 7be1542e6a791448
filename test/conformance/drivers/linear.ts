import { createLinearAdapter } from '../../../src/providers/linear';
import { startLinearSimulator } from '../../simulators/linear';
import type { TicketingDriver } from '../ticketing-suite';
import { faultControls } from './faults';

/** What the simulator recorded over the last run (asserted empty by linear.conformance.test.ts). */
export const linearRunRecord: { closed: boolean; specAvailable: boolean; specViolations: string[]; simulatorGaps: string[]; operations: string[] } = {
  closed: false,
  specAvailable: false,
  specViolations: [],
  simulatorGaps: [],
  operations: [],
};

/**
 * Linear against its simulator. Every issue needs a team, so the suite's tickets carry `project_id`
 * (a collection: the Engineering team), and `collectionRequired` is set. The fixture user is the one
 * the API key acts as (Linear writes comments as that user). Linear has no contacts, accounts or
 * custom fields.
 */
export const linearDriver: TicketingDriver = {
  provider: 'linear',
  async start() {
    const sim = await startLinearSimulator();
    const eng = [...sim.state.teams.values()].find((t) => t.key === 'ENG')!;
    return {
      // Short rate-limit waits and the simulator's storage host for attachment links.
      adapter: createLinearAdapter({ uploadHosts: [sim.uploadsHost], rateLimitRetries: 2, rateLimitBaseMs: 50 }),
      connection: { credentials: { access_token: sim.apiKey }, base_url: sim.url },
      control: {
        // Linear answers a rate limit with HTTP 400 and extensions.code RATELIMITED.
        // A budget that resets within a second: ridden out by a request; Linear's reset header tells when.
        ...faultControls(sim.faults),
        rateLimit: (times) => sim.rateLimitNext(times, { resetInMs: 500 }),
        ticket: async (remoteId) => sim.issueJson(remoteId),
        renameTicket: async (remoteId, name) => void sim.updateIssueRemotely(remoteId, { title: name }),
        deleteTicket: async (remoteId) => void sim.trashIssueRemotely(remoteId),
      },
      fixtures: {
        userRemoteId: sim.viewer.id,
        collectionRemoteId: eng.id,
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
        deletionsInIncremental: true,
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations },
      async close() {
        Object.assign(linearRunRecord, {
          closed: true,
          specAvailable: sim.specAvailable,
          specViolations: sim.specViolations.map((v) => `${v.kind} ${v.operation}: ${v.message} (×${v.count})`),
          simulatorGaps: [...sim.simulatorGaps],
          operations: [...new Set(sim.operations.map((o) => o.name))],
        });
        await sim.close();
      },
    };
  },
};
