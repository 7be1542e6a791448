/** Jira admin webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { jiraHookHeaders, startJiraSimulator, type JiraSimulator } from '../simulators/jira';

let issues: string[] = [];
let changes = 0;

describeWebhooksIn<JiraSimulator>({
  provider: 'jira',
  async start() {
    // The webhooks REST API is not in Jira's platform API document: no spec check of that traffic.
    const sim = await startJiraSimulator({ validateSpec: false });
    issues = sim.seedIssues(3).map((i) => i.id);
    return sim;
  },
  close: (sim) => sim.close(),
  connect(server, sim) {
    const cred = sim.credentials[0]!;
    return connect(server, { provider: 'jira', linked_user_origin_id: 'webhooks-in', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url });
  },
  registered: (sim) => [...sim.hooks.webhooks.values()].map((h) => ({ url: h.url, secret: h.secret ?? '' })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in Jira ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateIssueRemotely(issues[0]!, { summary: marker });
    return { remoteId: issues[0]!, eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    sim.deleteIssueRemotely(issues[1]!);
    return { remoteId: issues[1]!, eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: '10001',
  signsTime: false,
  body: (remoteId) => JSON.stringify({ timestamp: Date.now(), webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_generic', issue: { id: remoteId, key: 'X-1' } }),
  sign: (secret, body, _at, deliveryId) => jiraHookHeaders(secret, body, { identifier: deliveryId }),
  providerCalls: (sim) => sim.requests.filter((r) => r.path.startsWith('/rest/')).length,
});
