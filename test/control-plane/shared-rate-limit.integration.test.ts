/** Two API processes on one database spend one per-key budget (counted in the database), with RateLimit-* headers. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOmniport, type Omniport } from '../../src/app';
import { startTestServer, testConfig, type TestServer } from '../support/harness';

const BUDGET = 4;
let first: TestServer;
let second: Omniport;
let secondUrl: string;

beforeAll(async () => {
  const env = { OMNIPORT_RATE_LIMIT_PER_MINUTE: String(BUDGET) };
  first = await startTestServer({ work: false, env });
  second = await createOmniport(testConfig(env), { target: first.target!, box: first.box, jobs: { work: false } });
  secondUrl = await second.server.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

it('counts a key’s requests across both processes and answers 429 past the shared budget', async () => {
  const key = first.tenant.apiKey;
  const viaSecond = (path: string) => fetch(secondUrl + path, { headers: { 'x-api-key': key } });
  const remaining: number[] = [];
  for (let i = 0; i < BUDGET; i++) {
    const res = i % 2 === 0 ? await first.call('GET', '/linked-users') : await viaSecond('/linked-users');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe(String(BUDGET));
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    remaining.push(Number(res.headers.get('ratelimit-remaining')));
  }
  expect(remaining).toEqual([3, 2, 1, 0]);
  // Each process alone has seen only half the budget: both refuse now.
  const refusedFirst = await first.call('GET', '/linked-users');
  const refusedSecond = await viaSecond('/linked-users');
  for (const res of [refusedFirst, refusedSecond]) {
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  expect(refusedFirst.body).toMatchObject({ statusCode: 429, details: { code: 'rate_limited' } });
  // Another key has its own budget.
  const other = await first.createTenant('shared-limit-other');
  expect((await fetch(secondUrl + '/linked-users', { headers: { 'x-api-key': other.apiKey } })).status).toBe(200);
});
