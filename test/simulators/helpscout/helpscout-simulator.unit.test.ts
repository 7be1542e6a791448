/** The Help Scout simulator behaves as the Mailbox API 2.0 reference says where the adapter depends on it, and refuses what it does not document. */
import { afterEach, expect, it } from 'vitest';
import { startHelpScoutSimulator, type HelpScoutSimulator } from '.';

let sim: HelpScoutSimulator;
afterEach(() => sim?.close());

async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${sim.url}${path}`, { method: init.method ?? 'GET', headers: { authorization: `Bearer ${init.token ?? sim.token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) }, body: init.body ? JSON.stringify(init.body) : undefined });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

it('pages conversations as HAL, 25 a page, with threads only when embedded, and counts a write as two requests', async () => {
  sim = await startHelpScoutSimulator();
  sim.seedConversations(30);
  const first = await call('/v2/conversations?status=all&sortField=createdAt&sortOrder=asc');
  expect(first.json._embedded.conversations).toHaveLength(25);
  expect(first.json.page).toMatchObject({ size: 25, totalElements: 31, totalPages: 2, number: 1 });
  expect(first.json._links.next.href).toMatch(/page=2/);
  expect(first.json._embedded.conversations[0]._embedded).toBeUndefined();
  const second = await call('/v2/conversations?status=all&sortField=createdAt&sortOrder=asc&embed=threads&page=2');
  expect(second.json._links.next).toBeUndefined();
  expect(second.json._embedded.conversations[0]._embedded.threads.length).toBeGreaterThan(0);
  const before = Number(second.headers.get('x-ratelimit-remaining-minute'));
  const note = await call(`/v2/conversations/${sim.seed!.conversation}/notes`, { method: 'POST', body: { text: 'x' } });
  expect(note.status).toBe(201);
  expect(note.headers.get('resource-id')).toMatch(/^\d+$/);
  expect(Number(note.headers.get('x-ratelimit-remaining-minute'))).toBe(before - 2);
});

it('refuses undocumented parameters and bodies as contract violations', async () => {
  sim = await startHelpScoutSimulator();
  expect((await call('/v2/conversations?per_page=5')).status).toBe(400);
  expect((await call('/v2/conversations?modifiedSince=2024-01-01')).status).toBe(400);
  expect((await call('/v2/conversations', { method: 'POST', body: { subject: 'x' } })).status).toBe(400);
  expect((await call(`/v2/conversations/${sim.seed!.conversation}`, { method: 'PATCH', body: { op: 'replace', path: '/priority', value: 1 } })).status).toBe(400);
  expect(sim.contractViolations).toHaveLength(4);
});

it('answers 401 for an unknown token and 429 with X-RateLimit-Retry-After once the minute is spent', async () => {
  sim = await startHelpScoutSimulator({ rateLimit: { perMinute: 2, enforce: true } });
  expect((await call('/v2/users/me', { token: 'nope' })).status).toBe(401);
  await call('/v2/users/me');
  await call('/v2/users/me');
  const limited = await call('/v2/users/me');
  expect(limited.status).toBe(429);
  expect(limited.headers.get('x-ratelimit-remaining-minute')).toBe('0');
  expect(Number(limited.headers.get('x-ratelimit-retry-after'))).toBeGreaterThan(0);
});
