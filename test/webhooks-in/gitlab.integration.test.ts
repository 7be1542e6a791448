/** GitLab project webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { gitlabHookHeaders, startGitlabSimulator, type GitlabSimulator } from '../simulators/gitlab';

let project = 0;
let iids: number[] = [];
let changes = 0;

describeWebhooksIn<GitlabSimulator>({
  provider: 'gitlab',
  async start() {
    const sim = await startGitlabSimulator({ validateSpec: false });
    project = sim.fixtures!.helpDesk.id;
    iids = sim.seedIssues(project, 3).map((i) => i.iid);
    return sim;
  },
  close: (sim) => sim.close(),
  connect: (server, sim) => connect(server, { provider: 'gitlab', linked_user_origin_id: 'webhooks-in', credentials: { access_token: sim.token }, base_url: sim.url }),
  // One hook per project the token's user maintains (help desk, website, sandbox), all to one address with one token.
  registered: (sim) => [...new Map([...sim.hooks.hooks.values()].map((h) => [h.url, { url: h.url, secret: h.token }])).values()],
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed on GitLab ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateIssueRemotely(project, iids[0]!, { title: marker });
    return { remoteId: `${project}#${iids[0]}`, eventType: 'ticketing.ticket.updated', marker };
  },
  // GitLab sends no event for a deleted issue: the scheduled sync's deletion check finds it.
  sampleRemoteId: '1#1',
  signsTime: false,
  signsBody: false,
  body: (remoteId) => {
    const [projectId, iid] = remoteId.split('#').map(Number);
    return JSON.stringify({ object_kind: 'issue', event_type: 'issue', project: { id: projectId }, object_attributes: { id: 1, iid, project_id: projectId, title: 'x', action: 'update' } });
  },
  sign: (secret, _body, _at, deliveryId) => gitlabHookHeaders(secret, { event: 'Issue Hook', idempotencyKey: deliveryId }),
  providerCalls: (sim) => sim.requests.filter((r) => r.path.startsWith('/api/v4/')).length,
});
