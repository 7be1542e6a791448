import http from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/core/errors';
import { FileFetcher } from '../../src/core/file-fetch';
import { addressResolver } from '../../src/core/network';
import { ProviderRegistry } from '../../src/providers/registry';
import { zendeskAdapter } from '../../src/providers/zendesk';
import { startZendeskSimulator } from '../simulators/zendesk';
import { startTestServer, type TestServer } from '../support/harness';
import { acmeOAuthProvider } from '../support/connect-providers';
import { createLink, request, startOAuth } from '../support/connect-flow';

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

describe('every outbound call is checked on the address it dials', () => {
  /** A local service standing for the internal network: it must never be reached. */
  let internal: http.Server;
  let port: number;
  let hits = 0;
  const realLookup = addressResolver.lookup;
  beforeAll(async () => {
    internal = http.createServer((_req, res) => {
      hits++;
      res.end('internal secret');
    });
    await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
    port = (internal.address() as AddressInfo).port;
  });
  afterAll(async () => {
    addressResolver.lookup = realLookup;
    await new Promise((r) => internal.close(r));
  });

  /** A name that resolves to a public address on its first lookup and to loopback afterwards (DNS rebinding). */
  function rebinding(name: string) {
    let calls = 0;
    addressResolver.lookup = ((host: string, options: object, callback: (e: Error | null, a: LookupAddress[]) => void) => {
      if (host !== name) return (realLookup as unknown as (h: string, o: object, c: unknown) => void)(host, options, callback);
      calls++;
      callback(null, [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }]);
    }) as typeof addressResolver.lookup;
    return () => calls;
  }

  it('refuses attachment URLs on IP literals in every spelling, naming no address or port state', async () => {
    const files = new FileFetcher(false);
    const urls = [
      `http://127.0.0.1:${port}/internal-secret.txt`,
      `http://2130706433:${port}/x`,
      `http://0x7f000001:${port}/x`,
      `http://127.1:${port}/x`,
      `http://0.0.0.0:${port}/x`,
      `http://[::ffff:127.0.0.1]:${port}/x`,
      `http://[::1]:${port}/x`,
      `http://127.0.0.1.:${port}/x`,
      `http://localhost:${port}/x`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/x',
      'http://100.64.0.1/x',
    ];
    for (const url of urls) {
      const err = (await files.fetch(url, 'attachments[0]').catch((e: unknown) => e)) as AppError;
      expect(err.code, url).toBe('unprocessable');
      expect(err.message, url).toBe('attachments[0]: private and loopback addresses are refused');
      await expect(files.checkUrl(url, 'file_url'), url).rejects.toMatchObject({ code: 'validation_failed' });
    }
    expect(hits).toBe(0);
  });

  it('refuses a provider call whose name turns private after the connection check (DNS rebinding)', async () => {
    const calls = rebinding('zendesk.rebind.test');
    const cred = sim.credentials[0]!;
    const before = sim.requests.length;
    const res = await server.call('POST', '/connections', {
      body: {
        provider: 'zendesk',
        linked_user_origin_id: 'rebind',
        credentials: { email: cred.email, api_token: cred.apiToken },
        base_url: `http://zendesk.rebind.test:${new URL(sim.url).port}`,
      },
    });
    expect(calls()).toBeGreaterThanOrEqual(2); // checked public, then dialled private
    expect(res.status).toBeLessThan(500);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    expect(sim.requests.length).toBe(before);
  });

  it('refuses a passthrough call to a connection whose name turned private after it was made', async () => {
    const calls = rebinding('passthrough.rebind.test');
    // The connection was made while the name was public (its check is the first lookup; the provider's answer is not the point here).
    const connections = server.omniport.services.connections as unknown as { verify: () => Promise<void> };
    const verify = connections.verify;
    connections.verify = async () => {};
    const cred = sim.credentials[0]!;
    const made = await server.call('POST', '/connections', {
      body: { provider: 'zendesk', linked_user_origin_id: 'rebind-pass', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: `http://passthrough.rebind.test:${port}` },
    });
    connections.verify = verify;
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const res = await server.call('POST', '/passthrough', {
      headers: { 'x-connection-token': made.body.data.connection_token },
      body: { method: 'GET', path: '/api/v2/tickets' },
    });
    expect(calls()).toBeGreaterThanOrEqual(2);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(600);
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|internal secret/);
    expect(hits).toBe(0);
  });

  it('refuses an OAuth token call whose host turned private after the flow started', async () => {
    const oauthServer = await startTestServer({ work: false, providers: new ProviderRegistry([acmeOAuthProvider]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      // A host the provider's OAuth rules accept (*.acme-helpdesk.example), public when the flow starts.
      const calls = rebinding('rebind.acme-helpdesk.example');
      expect((await oauthServer.call('PUT', '/oauth-apps/acme-oauth', { body: { client_id: 'cid', client_secret: 'the-client-secret' } })).status).toBe(200);
      const link = await createLink(oauthServer, { linked_user_origin_id: 'rebind-oauth' });
      // The account's address is checked (public) when the flow starts; the token call dials it again.
      const { authorizeUrl, cookie } = await startOAuth(link.url, 'https://rebind.acme-helpdesk.example');
      const state = authorizeUrl.searchParams.get('state')!;
      const callback = await request(`${oauthServer.url}/connect/oauth/callback?state=${encodeURIComponent(state)}&code=the-code`, { cookie });
      expect(calls()).toBeGreaterThanOrEqual(2);
      expect(callback.status).toBeGreaterThanOrEqual(400);
      expect(callback.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|internal secret/);
      expect(hits).toBe(0);
      expect((await oauthServer.call('GET', '/connections')).body.data).toEqual([]);
    } finally {
      await oauthServer.close();
    }
  });

  it('refuses OAuth app endpoints on private addresses when they are set', async () => {
    for (const [field, url] of [
      ['token_url', 'http://169.254.169.254/latest/meta-data/'],
      ['token_url', `http://127.0.0.1:${port}/token`],
      ['authorize_url', 'http://[::ffff:10.0.0.1]/authorize'],
    ] as const) {
      const res = await server.call('PUT', '/oauth-apps/zendesk', { body: { client_id: 'cid', client_secret: 's', [field]: url } });
      expect(res.status, url).toBe(400);
      expect(res.body.details.field).toBe(field);
    }
    expect(hits).toBe(0);
  });
});
