/** GitHub repository webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { signedHeaders, startGithubSimulator, type GithubSimulator } from '../simulators/github';

const REPO = 'octo-org/helpdesk';
let changes = 0;
let issues: number[] = [];

describeWebhooksIn<GithubSimulator>({
  provider: 'github',
  async start() {
    const sim = await startGithubSimulator({ validateSpec: false });
    issues = sim.seedIssues(REPO, 12).map((i) => i.number);
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
  more(get) {
    it('a burst naming more than five issues reads them from the repository list, newest update first, not one by one', async () => {
      const { server, sim, connectionId } = get();
      const hook = [...sim.hooks.hooks.values()].find((h) => h.url.includes('/webhooks/providers/github/'))!;
      const changed = issues.slice(4, 11);
      const marker = `Bulk ${randomUUID().slice(0, 8)}`;
      const before = sim.requests.length;
      for (const n of changed) sim.updateIssueRemotely(REPO, n, { title: `${marker} ${n}` });
      await Promise.all(
        changed.map(async (n) => {
          const body = JSON.stringify({ action: 'edited', issue: { number: n, title: 'x' }, repository: { full_name: REPO }, sender: { login: 'octocat' } });
          const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(hook.secret, body, { event: 'issues', delivery: randomUUID() }) }, body });
          expect(res.status).toBe(202);
        }),
      );
      const stored = async () =>
        (await server.sql("select count(*)::int as n from unified_objects where connection_id = $1 and object_type = 'ticketing.ticket' and data->>'name' like $2", [connectionId, `${marker}%`]))[0]!.n as number;
      for (const deadline = Date.now() + 60_000; (await stored()) < changed.length; ) {
        if (Date.now() > deadline) throw new Error('the changed issues were not stored');
        await new Promise((r) => setTimeout(r, 200));
      }
      const calls = sim.requests.slice(before).filter((r) => r.method === 'GET' && r.path.startsWith(`/repos/${REPO}/issues`));
      // Issues changed a moment ago are on the first page of the list by update time: one call (or a few, if the burst was split).
      expect(calls.every((r) => r.path === `/repos/${REPO}/issues`)).toBe(true);
      expect(calls.length).toBeLessThanOrEqual(3);
    });
  },
  readsById: (sim) => ({
    reads: sim.requests.filter((r) => r.method === 'GET' && /^\/repos\/[^/]+\/[^/]+\/issues\/\d+$/.test(r.path)).length,
    runs: sim.requests.filter((r) => r.method === 'GET' && /^\/repos\/[^/]+\/[^/]+\/issues$/.test(r.path)).length,
  }),
});
