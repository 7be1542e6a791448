import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ work: false, env: { OMNIPORT_RATE_LIMIT_PER_MINUTE: '3' } });
});
afterAll(() => server.close());

it('answers 429 with the error body and Retry-After past the per-key budget; other keys and public routes are unaffected', async () => {
  for (let i = 0; i < 3; i++) expect((await server.call('GET', '/linked-users')).status).toBe(200);
  const limited = await server.call('GET', '/linked-users');
  expect(limited.status).toBe(429);
  expect(limited.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', details: { code: 'rate_limited' } });
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

  const other = await server.createTenant('other');
  expect((await server.call('GET', '/linked-users', { apiKey: other.apiKey })).status).toBe(200);
  expect((await server.call('GET', '/health', { apiKey: null })).status).toBe(200);
});
