/** GitHub repository webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { signedHeaders, startGithubSimulator, type GithubSimulator } from '../simulators/github';

const REPO = 'octo-org/helpdesk';
let changes = 0;
let issues: number[] = [];

describeWebhooksIn<GithubSimulator>({
  provider: 'github',
  async start() {
    const sim = await startGithubSimulator({ validateSpec: false });
    issues = sim.seedIssues(REPO, 4).map((i) => i.number);
    return sim;
  },
  close: (sim) => sim.close(),
  async connect(server, sim) {
    const res = await server.call('POST', '/connections', { body: { provider: 'github', linked_user_origin_id: 'webhooks-in', credentials: { access_token: sim.token }, base_url: sim.url } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.data.connection_token as string;
  },
  registered: (sim) => [...sim.hooks.hooks.values()].map((h) => ({ url: h.url, secret: h.secret })),
  // The ping GitHub sends when a hook is created is answered too.
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed on GitHub ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateIssueRemotely(REPO, issues[0]!, { title: marker });
    return { remoteId: `${REPO}#${issues[0]}`, eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    sim.deleteIssueRemotely(REPO, issues[1]!);
    return { remoteId: `${REPO}#${issues[1]}`, eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: `${REPO}#1`,
  signsTime: false,
  body: (remoteId) => {
    const [repo, number] = remoteId.split('#');
    return JSON.stringify({ action: 'edited', issue: { number: Number(number), title: 'x' }, repository: { full_name: repo }, sender: { login: 'octocat' } });
  },
  sign: (secret, body, _at, deliveryId) => signedHeaders(secret, body, { event: 'issues', delivery: deliveryId }),
  providerCalls: (sim) => sim.requests.length,
});
