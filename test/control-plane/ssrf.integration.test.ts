import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { zendeskAdapter } from '../../src/providers/zendesk';
import { startZendeskSimulator } from '../simulators/zendesk';
import { startTestServer, type TestServer } from '../support/harness';

let server: TestServer;
let sim: Awaited<ReturnType<typeof startZendeskSimulator>>;
beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false });
  // Production default: provider addresses must be reachable from the internet.
  server = await startTestServer({ work: false, providers: new ProviderRegistry([zendeskAdapter]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'false' } });
});
afterAll(async () => {
  await server.close();
  await sim.close();
});

it('refuses a connection whose base_url points at loopback or private addresses, before calling it', async () => {
  const cred = sim.credentials[0]!;
  for (const base_url of [sim.url, 'http://10.0.0.8', 'http://[::1]:8080', 'http://169.254.169.254']) {
    const res = await server.call('POST', '/connections', {
      body: { provider: 'zendesk', linked_user_origin_id: 'c', credentials: { email: cred.email, api_token: cred.apiToken }, base_url },
    });
    expect(res.status, base_url).toBe(400);
    expect(res.body.details.field).toBe('base_url');
  }
  expect(sim.requests).toHaveLength(0);
});
