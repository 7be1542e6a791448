/**
 * Failed-authentication limits slow guessing and never lock out a valid key (issue 40 row 3): after 1,000 bad-key
 * requests from one address its valid key is served, with and without a trusted reverse proxy; behind one
 * (OMNIPORT_TRUST_PROXY) the limits count the real client, and the dashboard's cookie is Secure when the proxy
 * says the browser used https. Dashboard sign-ins are also counted per attempted key prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { DashboardClient } from '../dashboard/dashboard-client';

const BAD_REQUESTS = 1_000;

/** `count` requests with a wrong key, 25 at a time: their statuses, counted. */
async function badKeys(server: TestServer, count: number, headers: Record<string, string> = {}) {
  const statuses = new Map<number, number>();
  for (let i = 0; i < count; i += 25) {
    const batch = Array.from({ length: Math.min(25, count - i) }, (_, j) =>
      server.call('GET', '/linked-users', { apiKey: `sk_test_wrong${i + j}`, headers }).then((r) => r.status),
    );
    for (const status of await Promise.all(batch)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return Object.fromEntries(statuses);
}

describe('without a proxy: the TCP peer is the address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ work: false });
  });
  afterAll(() => server.close());

  it(`serves a valid key after ${BAD_REQUESTS} bad-key requests from its address`, async () => {
    const statuses = await badKeys(server, BAD_REQUESTS);
    // The default budget is 60 a minute: the rest are slowed to 429 with Retry-After.
    expect(statuses).toEqual({ 401: 60, 429: BAD_REQUESTS - 60 });
    const ok = await server.call('GET', '/linked-users');
    expect(ok.status).toBe(200);
    expect((await server.call('GET', '/linked-users', { headers: { authorization: `Bearer ${server.tenant.apiKey}` }, apiKey: null })).status).toBe(200);
    // A forwarded address is not believed from an untrusted peer: the attempt still counts against the peer.
    const spoofed = await server.call('GET', '/linked-users', { apiKey: 'sk_test_wrong', headers: { 'x-forwarded-for': '198.51.100.9' } });
    expect(spoofed.status).toBe(429);
    expect(Number(spoofed.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('behind a trusted proxy (OMNIPORT_TRUST_PROXY)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ work: false, env: { OMNIPORT_TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => server.close());

  const from = (client: string, proto = 'https') => ({ 'x-forwarded-for': client, 'x-forwarded-proto': proto });

  it(`counts the real client: ${BAD_REQUESTS} bad keys from one slow down that client only, and its valid key is served`, async () => {
    const statuses = await badKeys(server, BAD_REQUESTS, from('203.0.113.7'));
    expect(statuses).toEqual({ 401: 60, 429: BAD_REQUESTS - 60 });
    expect((await server.call('GET', '/linked-users', { headers: from('203.0.113.7') })).status).toBe(200);
    // Another client behind the same proxy has its own budget.
    expect((await server.call('GET', '/linked-users', { apiKey: 'sk_test_wrong', headers: from('198.51.100.9') })).status).toBe(401);
  });

  it('sets the dashboard cookie Secure when the proxy says the browser used https', async () => {
    const client = new DashboardClient(server.url);
    await client.get('/dashboard/login', from('198.51.100.20'));
    const res = await client.post('/dashboard/login', { api_key: server.tenant.apiKey }, { headers: from('198.51.100.20') });
    expect(res.status).toBe(303);
    const session = res.cookies.find((c) => c.startsWith('omniport_dashboard='));
    expect(session).toMatch(/; Secure/);
    // Over plain http (as the proxy reports it), no Secure flag.
    const plain = new DashboardClient(server.url);
    await plain.get('/dashboard/login', from('198.51.100.21', 'http'));
    const res2 = await plain.post('/dashboard/login', { api_key: server.tenant.apiKey }, { headers: from('198.51.100.21', 'http') });
    expect(res2.cookies.find((c) => c.startsWith('omniport_dashboard='))).not.toMatch(/Secure/);
  });

  it('limits dashboard sign-ins per address and per attempted key prefix, and the right key still signs in', async () => {
    // One guesser at one address: ten failures, then 429; the right key from that address still signs in.
    const guesser = new DashboardClient(server.url);
    await guesser.get('/dashboard/login', from('203.0.113.50'));
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await guesser.post('/dashboard/login', { api_key: `sk_test_${i}${'a'.repeat(40)}` }, { headers: from('203.0.113.50') })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect((await guesser.post('/dashboard/login', { api_key: server.tenant.apiKey }, { headers: from('203.0.113.50') })).status).toBe(303);

    // Guesses at one key's prefix from many addresses: the prefix's budget runs out although no address's does.
    const prefix = server.tenant.apiKey.slice(0, 12);
    const spread: number[] = [];
    for (let i = 0; i < 12; i++) {
      const c = new DashboardClient(server.url);
      await c.get('/dashboard/login', from(`192.0.2.${i + 1}`));
      spread.push((await c.post('/dashboard/login', { api_key: `${prefix}${'z'.repeat(30)}${i}` }, { headers: from(`192.0.2.${i + 1}`) })).status);
    }
    expect(spread.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(spread.slice(10)).toEqual([429, 429]);
    const owner = new DashboardClient(server.url);
    await owner.get('/dashboard/login', from('192.0.2.100'));
    expect((await owner.post('/dashboard/login', { api_key: server.tenant.apiKey }, { headers: from('192.0.2.100') })).status).toBe(303);
  });
});
