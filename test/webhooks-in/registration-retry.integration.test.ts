/**
 * A provider webhook that could not be created with its connection (the provider failed) is created later by
 * the housekeeping's `registerMissing`, once; a connection never gets two. GitLab project hooks, through the
 * real server and simulator.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../support/connect-simulators';
import { startTestServer, type TestServer } from '../support/harness';
import { startGitlabSimulator, type GitlabSimulator } from '../simulators/gitlab';

let server: TestServer;
let sim: GitlabSimulator;

beforeAll(async () => {
  sim = await startGitlabSimulator({ validateSpec: false });
  server = await startTestServer({ work: false });
  server.omniport.services.providerWebhooks.usePublicUrl(server.url);
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const hookCreations = () => sim.requests.filter((r) => r.method === 'POST' && /^\/api\/v4\/projects\/\d+\/hooks$/.test(r.path));

it('creates the webhook the provider refused when the connection was made, and only once', async () => {
  const refused = sim.faults.add({ method: 'POST', path: /^\/api\/v4\/projects\/\d+\/hooks$/, status: 503, times: Infinity });
  const token = await connect(server, { provider: 'gitlab', linked_user_origin_id: 'retry', credentials: { access_token: sim.token }, base_url: sim.url });
  expect(refused.hits).toBeGreaterThan(0);
  const status = async () => (await server.call('GET', '/sync/status', { headers: { 'x-connection-token': token } })).body.data.real_time;
  expect(await status()).toMatchObject({ active: false });
  expect(sim.hooks.hooks.size).toBe(0);

  sim.faults.clear();
  const before = hookCreations().length;
  expect(await server.omniport.services.providerWebhooks.registerMissing()).toBe(1);
  expect(hookCreations().length).toBeGreaterThan(before);
  expect(sim.hooks.hooks.size).toBeGreaterThan(0);
  expect(await status()).toMatchObject({ active: true, mode: 'registered' });

  // Nothing is missing any more: no call.
  const after = hookCreations().length;
  expect(await server.omniport.services.providerWebhooks.registerMissing()).toBe(0);
  expect(hookCreations().length).toBe(after);
});
