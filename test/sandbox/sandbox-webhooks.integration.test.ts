import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { waitForSync } from '../support/sync-wait';

/**
 * The sandbox simulators' own webhooks (issue 40, row 2): a tenant can register any endpoint in its simulated
 * Zendesk through the passthrough, but the simulators deliver only to Omniport's own receiver of this process,
 * never to a loopback, private or public host, another path, nor through a redirect. The address guard is on.
 */
describe('sandbox webhooks go to Omniport’s own receiver and nowhere else', () => {
  let server: TestServer;
  let listener: http.Server;
  let listenerPort = 0;
  const hits: string[] = [];
  let token = '';
  const headers = () => ({ 'x-connection-token': token });

  beforeAll(async () => {
    server = await startTestServer({ env: { OMNIPORT_SANDBOX: 'true', OMNIPORT_ALLOW_PRIVATE_URLS: 'false' } });
    listener = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      // A redirect to Omniport's receiver must not be followed either.
      if (req.url?.startsWith('/redirect')) res.writeHead(307, { location: `${server.url}/webhooks/providers/sandbox_zendesk/AAAAAAAAAAAAAAAAAAAAAAAA` }).end();
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    listenerPort = (listener.address() as AddressInfo).port;
    const started = Date.now();
    const created = await server.call('POST', '/connections', { body: { provider: 'sandbox_zendesk', linked_user_origin_id: 'hooks' } });
    expect(created.status).toBe(201);
    token = created.body.data.connection_token;
    await waitForSync(server, token, started);
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((r) => listener?.close(r));
  });

  const sim = () => server.omniport.sandbox!.accountsOf(server.tenant.projectId)!.zendesk;

  it('refuses every endpoint but the receiver: loopback forms, localhost, a redirect, Omniport’s other paths', async () => {
    const endpoints = [
      `http://127.0.0.1:${listenerPort}/hook`,
      `http://[::ffff:127.0.0.1]:${listenerPort}/hook`,
      `http://localhost:${listenerPort}/hook`,
      `http://127.0.0.1:${listenerPort}/redirect`,
      // Omniport's own address, but not a sandbox receiver: the API, and a real provider's receiver.
      `${server.url}/passthrough`,
      `${server.url}/webhooks/providers/zendesk/AAAAAAAAAAAAAAAAAAAAAAAA`,
      `${server.url}/webhooks/providers/sandbox_zendesk/AAAAAAAAAAAAAAAAAAAAAAAA?next=http://127.0.0.1:${listenerPort}/`,
    ];
    for (const endpoint of endpoints) {
      const res = await server.call('POST', '/passthrough', {
        headers: headers(),
        body: {
          method: 'POST',
          path: '/api/v2/webhooks',
          body: { webhook: { name: 'mine', endpoint, http_method: 'POST', request_format: 'json', status: 'active', subscriptions: ['zen:event-type:ticket.created'] } },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.status).toBe(201);
    }
    const ticket = await server.call('POST', '/ticketing/tickets', { headers: headers(), body: { name: 'Printer on fire', description: 'Smoke.' } });
    expect(ticket.status).toBe(201);
    // Wait for the sends to be attempted (the simulator queues them after answering), not for a fixed time.
    const attempted = () => new Set(sim().webhooks.sender.sent.filter((s) => endpoints.includes(s.url)).map((s) => s.url)).size === endpoints.length;
    for (const deadline = Date.now() + 15_000; !attempted() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await sim().webhooks.sender.settle();

    expect(hits).toEqual([]);
    const sent = sim().webhooks.sender.sent.filter((s) => endpoints.includes(s.url));
    // One request per endpoint was due (a ticket.created), and none went out.
    expect(new Set(sent.map((s) => s.url))).toEqual(new Set(endpoints));
    expect(sent.every((s) => s.status === 0)).toBe(true);
  });

  it('delivers to this Omniport’s receiver: a ticket made in the sandbox is stored without waiting for a sync', async () => {
    const status = await server.call('GET', '/sync/status', { headers: headers() });
    expect(status.body.data.real_time).toMatchObject({ active: true, mode: 'registered' });
    const hook = [...sim().webhooks.hooks.values()].find((h) => h.name === 'Omniport real-time updates');
    expect(hook?.endpoint).toMatch(new RegExp(`^${server.url}/webhooks/providers/sandbox_zendesk/[A-Za-z0-9]{16,64}$`));

    const made = sim().createTicketRemotely({ subject: 'Made in the sandbox', comment: { body: 'Hello' }, requester_id: [...sim().state.users.values()].find((u) => u.role === 'end-user')!.id });
    const deadline = Date.now() + 15_000;
    let found: { name: string } | undefined;
    while (!found && Date.now() < deadline) {
      const res = await server.call('GET', `/ticketing/tickets?limit=1000`, { headers: headers() });
      found = (res.body.data as { name: string; remote_id: string }[] | undefined)?.find((t) => t.remote_id === String(made.id));
      if (!found) await new Promise((r) => setTimeout(r, 200));
    }
    expect(found?.name, JSON.stringify(sim().webhooks.sender.sent.map((s) => [s.url, s.status]))).toBe('Made in the sandbox');
    const delivered = sim().webhooks.sender.sent.filter((s) => s.url === hook!.endpoint);
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered.every((s) => s.status === 202)).toBe(true);
    const received = await server.call('GET', '/sync/status', { headers: headers() });
    expect(received.body.data.real_time.last_received_at).not.toBeNull();
    expect(hits).toEqual([]);
  });
});
