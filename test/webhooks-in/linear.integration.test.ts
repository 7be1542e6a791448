/** Linear webhooks in through the real server, job queue and simulator (steps: test/support/provider-webhooks.ts). */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { connect } from '../support/connect-simulators';
import { describeWebhooksIn } from '../support/provider-webhooks';
import { linearHookHeaders, startLinearSimulator, type LinearSimulator } from '../simulators/linear';

let issues: string[] = [];
let changes = 0;

describeWebhooksIn<LinearSimulator>({
  provider: 'linear',
  async start() {
    const sim = await startLinearSimulator();
    issues = sim.seedIssues(3).map((i) => i.id);
    return sim;
  },
  async close(sim) {
    // Every query and mutation the adapter sent was valid against Linear's schema.
    if (sim.specViolations.length || sim.simulatorGaps.length) throw new Error(`Linear simulator: ${JSON.stringify([...sim.specViolations, ...sim.simulatorGaps])}`);
    await sim.close();
  },
  connect: (server, sim) => connect(server, { provider: 'linear', linked_user_origin_id: 'webhooks-in', credentials: { access_token: sim.apiKey }, base_url: sim.url }),
  registered: (sim) => [...sim.hooks.webhooks.values()].map((h) => ({ url: h.url, secret: h.secret })),
  sent: (sim) => sim.hooks.sender.sent,
  change(sim) {
    const marker = `Changed in Linear ${++changes} ${randomUUID().slice(0, 8)}`;
    sim.updateIssueRemotely(issues[0]!, { title: marker });
    return { remoteId: issues[0]!, eventType: 'ticketing.ticket.updated', marker };
  },
  remove(sim) {
    sim.trashIssueRemotely(issues[1]!);
    return { remoteId: issues[1]!, eventType: 'ticketing.ticket.deleted' };
  },
  sampleRemoteId: randomUUID(),
  signsTime: true,
  body: (remoteId, _deliveryId, at = new Date()) =>
    JSON.stringify({ action: 'update', type: 'Issue', data: { id: remoteId, title: 'x' }, organizationId: randomUUID(), webhookTimestamp: at.getTime(), webhookId: randomUUID(), createdAt: at.toISOString() }),
  sign: (secret, body, _at, deliveryId) => linearHookHeaders(secret, body, { event: 'Issue', delivery: deliveryId }),
  providerCalls: (sim) => sim.requests.filter((r) => r.path === '/graphql').length,
  // After the first sync a changed issue is read by id, not listed by an incremental run.
  readsById: (sim) => ({ reads: opsNamed(sim, 'OmniportIssuesByIds'), runs: opsNamed(sim, 'OmniportIssues') }),
  more(get) {
    it('a new comment is read by id, with no run of the comment stream', async () => {
      const { server, sim, connectionId } = get();
      const runs = opsNamed(sim, 'OmniportComments');
      const reads = opsNamed(sim, 'OmniportCommentsByIds');
      const comment = sim.addCommentRemotely(issues[2]!, `Comment from Linear ${randomUUID().slice(0, 8)}`);
      const stored = async () => (await server.sql('select data from unified_objects where connection_id = $1 and object_type = $2 and remote_id = $3', [connectionId, 'ticketing.comment', comment.id]))[0];
      for (let i = 0; i < 300 && !(await stored()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(((await stored())!.data as { body: string }).body).toBe(comment.body);
      // A run would be queued once the burst's window (500 ms) ends.
      await new Promise((r) => setTimeout(r, 1500));
      expect(opsNamed(sim, 'OmniportCommentsByIds')).toBe(reads + 1);
      expect(opsNamed(sim, 'OmniportComments')).toBe(runs);
    });
  },
});

function opsNamed(sim: LinearSimulator, name: string): number {
  return sim.operations.filter((o) => o.name === name && o.status === 200).length;
}
