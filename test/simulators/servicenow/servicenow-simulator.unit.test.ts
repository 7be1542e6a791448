/** The ServiceNow simulator behaves as the REST API reference says where the adapter depends on it, and refuses what it does not document. */
import { afterEach, expect, it } from 'vitest';
import { startServiceNowSimulator, type ServiceNowSimulator } from '.';

let sim: ServiceNowSimulator;
afterEach(() => sim?.close());

async function call(path: string, init: { method?: string; body?: unknown; auth?: string } = {}) {
  const auth = init.auth ?? `Basic ${Buffer.from(`${sim.credentials.username}:${sim.credentials.password}`).toString('base64')}`;
  const res = await fetch(`${sim.url}${path}`, { method: init.method ?? 'GET', headers: { authorization: auth, ...(init.body ? { 'content-type': 'application/json' } : {}) }, body: init.body ? JSON.stringify(init.body) : undefined });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

it('pages a table with sysparm_limit and sysparm_offset, a Link header naming the next page, and X-Total-Count', async () => {
  sim = await startServiceNowSimulator();
  sim.seedIncidents(4);
  const first = await call('/api/now/table/incident?sysparm_limit=2&sysparm_query=ORDERBYsys_created_on');
  expect(first.json.result).toHaveLength(2);
  expect(first.headers.get('x-total-count')).toBe('5');
  expect(first.headers.get('link')).toMatch(/sysparm_offset=2[^>]*>;rel="next"/);
  const last = await call('/api/now/table/incident?sysparm_limit=2&sysparm_offset=4&sysparm_query=ORDERBYsys_created_on');
  expect(last.json.result).toHaveLength(1);
  expect(last.headers.get('link')).not.toMatch(/rel="next"/);
  // Reference fields: {link, value} unless sysparm_exclude_reference_link=true.
  expect(first.json.result[0].caller_id).toMatchObject({ value: expect.stringMatching(/^[0-9a-f]{32}$/) });
  const plain = await call('/api/now/table/incident?sysparm_limit=1&sysparm_exclude_reference_link=true');
  expect(plain.json.result[0].caller_id).toMatch(/^[0-9a-f]{32}$/);
});

it('refuses undocumented parameters, unknown columns and bad datetimes as contract violations', async () => {
  sim = await startServiceNowSimulator();
  expect((await call('/api/now/table/incident?per_page=2')).status).toBe(400);
  expect((await call('/api/now/table/incident?sysparm_query=nope=1')).status).toBe(400);
  expect((await call('/api/now/table/incident?sysparm_query=sys_updated_on>=2024-01-01T00:00:00Z')).status).toBe(400);
  expect((await call('/api/now/table/incident', { method: 'POST', body: { short_description: 'x', priority: '1' } })).status).toBe(400);
  expect(sim.contractViolations).toHaveLength(4);
});

it('computes priority from impact and urgency, writes journal fields as entries, and enforces the Resolved data policy', async () => {
  sim = await startServiceNowSimulator();
  const created = await call('/api/now/table/incident?sysparm_exclude_reference_link=true', { method: 'POST', body: { short_description: 'x', impact: '1', urgency: '1' } });
  expect(created.status).toBe(201);
  const id = created.json.result.sys_id as string;
  expect(created.json.result.priority).toBe('1');
  expect((await call(`/api/now/table/incident/${id}`, { method: 'PATCH', body: { work_notes: 'private' } })).status).toBe(200);
  const journal = await call(`/api/now/table/sys_journal_field?sysparm_query=element_id=${id}`);
  expect(journal.json.result).toMatchObject([{ element: 'work_notes', value: 'private', sys_created_by: 'admin' }]);
  const refused = await call(`/api/now/table/incident/${id}`, { method: 'PATCH', body: { state: '6' } });
  expect(refused.status).toBe(403);
  expect(refused.json.error.detail).toMatch(/Data Policy/);
  expect(sim.contractViolations).toEqual([]);
});

it('answers 401 without valid credentials, and a spent hourly rule with 429, Retry-After and the X-RateLimit headers', async () => {
  sim = await startServiceNowSimulator({ rateLimit: { perHour: 2, enforce: true } });
  expect((await call('/api/now/table/incident', { auth: 'Basic eDp5' })).status).toBe(401);
  await call('/api/now/table/sys_user_group');
  await call('/api/now/table/sys_user_group');
  const limited = await call('/api/now/table/sys_user_group');
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(limited.headers.get('x-ratelimit-limit')).toBe('2');
  expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
});
