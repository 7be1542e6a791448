/** The Freshdesk simulator behaves as the API v2 reference says where the adapter depends on it. */
import { afterEach, expect, it } from 'vitest';
import { startFreshdeskSimulator, type FreshdeskSimulator } from '.';

let sim: FreshdeskSimulator;
afterEach(() => sim?.close());

async function call(path: string, init: { method?: string; body?: unknown; key?: string } = {}) {
  const res = await fetch(`${sim.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Basic ${Buffer.from(`${init.key ?? sim.apiKeys[0]}:X`).toString('base64')}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

it('lists tickets created in the last 30 days unless updated_since is given, pages with a Link header, and caps the pages', async () => {
  sim = await startFreshdeskSimulator({ maxTicketPages: 3 });
  sim.seedTickets(5);
  sim.clock.advance(31 * 86_400_000);
  sim.seedTickets(2);
  expect((await call('/api/v2/tickets?per_page=100')).json).toHaveLength(2);
  const first = await call('/api/v2/tickets?per_page=2&updated_since=1970-01-01T00:00:00Z&order_by=updated_at&order_type=asc');
  expect(first.json).toHaveLength(2);
  expect(first.headers.get('link')).toMatch(/page=2.*rel="next"/);
  expect(first.json[0]).not.toHaveProperty('description');
  expect(first.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  const capped = await call('/api/v2/tickets?per_page=2&page=4&updated_since=1970-01-01T00:00:00Z');
  expect(capped.status).toBe(400);
  expect(capped.json.errors[0].field).toBe('page');
});

it('answers 400 and records a violation for what the reference does not document; 401 for a wrong key', async () => {
  sim = await startFreshdeskSimulator();
  const bad = await call('/api/v2/tickets', { method: 'POST', body: { subject: 'x', requester_id: sim.seed!.casey, colour: 'red' } });
  expect(bad.status).toBe(400);
  expect(bad.json).toMatchObject({ description: 'Validation failed', errors: [{ field: 'colour', code: 'invalid_field' }] });
  expect(sim.contractViolations).toHaveLength(1);
  sim.contractViolations.length = 0;
  const noRequester = await call('/api/v2/tickets', { method: 'POST', body: { subject: 'x' } });
  expect(noRequester.json.errors[0]).toMatchObject({ field: 'requester_id', code: 'missing_field' });
  expect((await call('/api/v2/agents/me', { key: 'nope' })).status).toBe(401);
});

it('moves a deleted ticket to the trash, listed with filter=deleted only', async () => {
  sim = await startFreshdeskSimulator();
  const id = sim.seed!.ticket;
  expect((await call(`/api/v2/tickets/${id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await call('/api/v2/tickets')).json).toEqual([]);
  expect((await call('/api/v2/tickets?filter=deleted')).json.map((t: { id: number }) => t.id)).toEqual([id]);
  expect((await call(`/api/v2/tickets/${id}`)).json.deleted).toBe(true);
});
