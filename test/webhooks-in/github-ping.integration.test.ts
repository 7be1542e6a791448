/**
 * GitHub pings each repository hook as it is created, while Omniport is still creating the others: the ping
 * reaches an address already recorded with the secret Omniport offered, and is answered 202. Before, the
 * address was recorded only once every hook existed, and such a ping got 401 (it failed CI once, the same
 * race with one repository).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../support/connect-simulators';
import { startTestServer, type TestServer } from '../support/harness';
import { startGithubSimulator, type GithubSimulator } from '../simulators/github';

let server: TestServer;
let sim: GithubSimulator;

beforeAll(async () => {
  sim = await startGithubSimulator({ validateSpec: false });
  sim.state.addRepo({ owner: 'octo-org', name: 'billing', collaborators: { [sim.viewer.login]: 'admin' } });
  server = await startTestServer({ work: false });
  server.omniport.services.providerWebhooks.usePublicUrl(server.url);
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

it("answers the ping of a repository's new hook while the other repositories' hooks are still being created", async () => {
  // The second hook's creation is held: the first hook's ping arrives while the registration is under way.
  let created = 0;
  const held = sim.faults.add({ method: 'POST', path: /^\/repos\/octo-org\/[^/]+\/hooks$/, delayMs: 1_500, when: () => ++created === 2 });
  const token = await connect(server, { provider: 'github', linked_user_origin_id: 'ping', credentials: { access_token: sim.token }, base_url: sim.url });
  expect(held.hits).toBe(1);
  await sim.hooks.sender.settle();
  const pings = sim.hooks.sender.sent.filter((s) => s.headers['x-github-event'] === 'ping');
  expect(pings).toHaveLength(2);
  expect(pings.map((p) => p.status)).toEqual([202, 202]);
  const status = (await server.call('GET', '/sync/status', { headers: { 'x-connection-token': token } })).body.data.real_time;
  expect(status).toMatchObject({ active: true, mode: 'registered' });
});
