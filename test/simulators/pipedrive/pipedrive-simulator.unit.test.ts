import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatViolation } from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';
import { startPipedriveSimulator, type PipedriveSimulator } from './index';

const TOKEN = 'pd-test-token';

let sim: PipedriveSimulator;

type Auth = { apiToken?: string; bearer?: string; query?: boolean; none?: boolean };

async function call(method: string, path: string, body?: unknown, auth: Auth = {}) {
  const headers: Record<string, string> = {};
  let url = sim.url + path;
  if (!auth.none) {
    if (auth.bearer) headers.authorization = `Bearer ${auth.bearer}`;
    else if (auth.query) url += `${path.includes('?') ? '&' : '?'}api_token=${auth.apiToken ?? TOKEN}`;
    else headers['x-api-token'] = auth.apiToken ?? TOKEN;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json: any = text ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, json };
}

/** Every simulator response and every request these tests send is expected to match the documents. */
function expectNoViolations() {
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
}

const specsPresent = Boolean(specPath('pipedrive', 'openapi-v1.yaml') && specPath('pipedrive', 'openapi-v2.yaml'));

beforeAll(async () => {
  // warm the (process-wide) document cache once so per-test start-up stays fast
  const warm = await startPipedriveSimulator();
  await warm.close();
}, 60_000);
beforeEach(async () => {
  sim = await startPipedriveSimulator();
});
afterEach(async () => {
  await sim.close();
});

describe('auth, rate-limit headers, faults, request log', () => {
  it('accepts x-api-token, api_token and OAuth bearer tokens; rejects others with 401', async () => {
    sim.addOAuthToken('oauth-1');
    expect((await call('GET', '/api/v2/persons')).status).toBe(200);
    expect((await call('GET', '/api/v2/persons', undefined, { query: true })).status).toBe(200);
    expect((await call('GET', '/api/v2/persons', undefined, { bearer: 'oauth-1' })).status).toBe(200);
    for (const auth of [{ none: true }, { apiToken: 'wrong' }, { bearer: TOKEN }] as Auth[]) {
      const r = await call('GET', '/api/v2/persons', undefined, auth);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ success: false, error: 'unauthorized access', errorCode: 401, error_info: expect.any(String), data: null, additional_data: null });
    }
    sim.addOAuthToken('expired', { expiresAt: sim.clock.now() - 1 });
    expect((await call('GET', '/v1/users', undefined, { bearer: 'expired' })).status).toBe(401);
  });

  it('sends x-ratelimit-* headers (and x-daily-requests-left for API tokens)', async () => {
    sim.addOAuthToken('oauth-1');
    const a = await call('GET', '/api/v2/persons');
    expect(a.headers.get('x-ratelimit-limit')).toBe('80');
    expect(Number(a.headers.get('x-ratelimit-remaining'))).toBeLessThan(80);
    expect(Number(a.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    expect(a.headers.get('x-daily-requests-left')).toBe('10000');
    await call('POST', '/api/v2/organizations', { name: 'Acme' });
    expect((await call('GET', '/api/v2/persons')).headers.get('x-daily-requests-left')).toBe('9999');
    const o = await call('GET', '/api/v2/persons', undefined, { bearer: 'oauth-1' });
    expect(o.headers.get('x-ratelimit-limit')).toBe('320');
    expect(o.headers.get('x-daily-requests-left')).toBeNull();
  });

  it('enforces the burst window when asked to', async () => {
    await sim.close();
    sim = await startPipedriveSimulator({ rateLimit: { apiTokenLimit: 2, enforce: true } });
    sim.clock.freeze(Math.floor(sim.clock.now() / 2000) * 2000 + 100);
    expect((await call('GET', '/v1/users')).status).toBe(200);
    expect((await call('GET', '/v1/users')).status).toBe(200);
    const r = await call('GET', '/v1/users');
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({ success: false, error: 'Request over limit', data: null, additional_data: null });
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    sim.clock.advance(2000);
    expect((await call('GET', '/v1/users')).status).toBe(200);
  });

  it('injects faults: 429 with Retry-After, 5xx, dropped sockets, delays', async () => {
    const f = sim.faults.add({ method: 'GET', path: /^\/api\/v2\/deals/, status: 429, retryAfterSeconds: 2, times: 1 });
    const r = await call('GET', '/api/v2/deals');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('2');
    expect(r.json).toMatchObject({ success: false, error: 'Request over limit', error_info: expect.any(String), data: null, additional_data: null });
    expect((await call('GET', '/api/v2/deals')).status).toBe(200);
    expect(f.remaining).toBe(0);
    sim.faults.add({ path: '/api/v2/persons', status: 503 });
    const s = await call('GET', '/api/v2/persons');
    expect(s.status).toBe(503);
    expect(s.json.success).toBe(false);
    sim.faults.add({ path: '/api/v2/persons', status: 0 });
    await expect(fetch(`${sim.url}/api/v2/persons`, { headers: { 'x-api-token': TOKEN } })).rejects.toThrow();
    sim.faults.add({ path: '/api/v2/persons', delayMs: 120 });
    const t0 = Date.now();
    expect((await call('GET', '/api/v2/persons')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
  });

  it('records requests without credential values', async () => {
    await call('GET', '/api/v2/persons?limit=5', undefined, { query: true });
    await call('POST', '/api/v2/organizations', { name: 'Acme' });
    const [get, post] = sim.requests;
    expect(get).toMatchObject({ method: 'GET', path: '/api/v2/persons', query: { limit: '5', api_token: '[redacted]' }, auth: { scheme: 'api_token', label: 'default', valid: true }, status: 200 });
    expect(post).toMatchObject({ body: { name: 'Acme' }, headers: { 'x-api-token': '[redacted]' } });
    expect(JSON.stringify(sim.requests)).not.toContain(TOKEN);
  });
});

describe('API v2 entities', () => {
  it('creates, reads, patches and deletes persons with the documented shapes', async () => {
    const org = (await call('POST', '/api/v2/organizations', { name: 'Acme', address: { value: 'Main St 1, Tallinn' } })).json.data;
    expect(org).toMatchObject({ id: expect.any(Number), name: 'Acme', owner_id: 1, is_deleted: false, address: { value: 'Main St 1, Tallinn' }, custom_fields: {} });
    const created = await call('POST', '/api/v2/persons', {
      name: 'Ada Lovelace',
      org_id: org.id,
      emails: [{ value: 'ada@example.com', label: 'work' }, { value: 'ada@home.example', primary: false, label: 'home' }],
      phones: [{ value: '+372 555', primary: true, label: 'mobile' }],
    });
    expect(created.status).toBe(200);
    const p = created.json.data;
    expect(created.json.success).toBe(true);
    expect(p).toMatchObject({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      org_id: org.id,
      owner_id: 1,
      emails: [
        { value: 'ada@example.com', primary: true, label: 'work' },
        { value: 'ada@home.example', primary: false, label: 'home' },
      ],
      is_deleted: false,
      visible_to: 3,
    });
    expect(p.add_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    sim.clock.advance(5_000);
    const patched = await call('PATCH', `/api/v2/persons/${p.id}`, { name: 'Ada King', org_id: null });
    expect(patched.json.data).toMatchObject({ name: 'Ada King', org_id: null });
    expect(Date.parse(patched.json.data.update_time)).toBeGreaterThan(Date.parse(p.update_time));

    const del = await call('DELETE', `/api/v2/persons/${p.id}`);
    expect(del.json).toEqual({ success: true, data: { id: p.id } });
    expect((await call('GET', `/api/v2/persons/${p.id}`)).json.data.is_deleted).toBe(true);
    expect((await call('GET', '/api/v2/persons')).json.data).toEqual([]);
    expect((await call('PATCH', `/api/v2/persons/${p.id}`, { name: 'x' })).status).toBe(404);
    const missing = await call('GET', '/api/v2/persons/99999');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ success: false, error: 'Person not found', error_info: expect.any(String), data: null, additional_data: null });
    expectNoViolations();
  });

  it('validates inputs like Pipedrive (400 with success:false)', async () => {
    const noName = await call('POST', '/api/v2/persons', { emails: [] });
    expect(noName.status).toBe(400);
    expect(noName.json).toMatchObject({ success: false, error: expect.stringContaining('name'), data: null, additional_data: null });
    expect((await call('POST', '/api/v2/deals', { title: 'x', stage_id: 999 })).status).toBe(400);
    expect((await call('POST', '/api/v2/deals', { title: 'x', person_id: 424242 })).status).toBe(400);
    expect((await call('GET', '/api/v2/persons?limit=501')).status).toBe(400);
    expect((await call('GET', '/api/v2/persons?updated_since=yesterday')).status).toBe(400);
  });

  it('handles deals: value/currency, stages, status times, expected_close_date', async () => {
    const stages = (await call('GET', '/api/v2/stages')).json.data;
    expect(stages).toHaveLength(5);
    expect(stages[0]).toMatchObject({ id: expect.any(Number), name: 'Lead In', pipeline_id: 1, order_nr: 1 });
    const pipelines = (await call('GET', '/api/v2/pipelines')).json;
    expect(pipelines).toMatchObject({ success: true, data: [{ id: 1, name: 'Sales pipeline' }], additional_data: { next_cursor: null } });
    const person = sim.seedPersons(1)[0]!;
    const d = (await call('POST', '/api/v2/deals', { title: 'Big deal', value: 1234.56, currency: 'EUR', person_id: person.id, stage_id: stages[2].id, expected_close_date: '2030-01-31' })).json.data;
    expect(d).toMatchObject({ title: 'Big deal', value: 1234.56, currency: 'EUR', person_id: person.id, pipeline_id: 1, stage_id: stages[2].id, status: 'open', won_time: null, expected_close_date: '2030-01-31' });
    const won = (await call('PATCH', `/api/v2/deals/${d.id}`, { status: 'won' })).json.data;
    expect(won.status).toBe('won');
    expect(won.won_time).toMatch(/Z$/);
    expect(won.close_time).toBe(won.won_time);
    expect((await call('GET', '/api/v2/deals?status=won')).json.data.map((x: { id: number }) => x.id)).toEqual([d.id]);
    await call('DELETE', `/api/v2/deals/${d.id}`);
    expect((await call('GET', '/api/v2/deals')).json.data).toEqual([]);
    expect((await call('GET', '/api/v2/deals?status=deleted')).json.data[0]).toMatchObject({ id: d.id, is_deleted: true });
    expectNoViolations();
  });

  it('pages with cursors, updated_since and sort_by', async () => {
    const now = sim.clock.now();
    sim.seedPersons(1_250, { addedFrom: now - 10 * 86_400_000, addedTo: now - 5 * 86_400_000, updatedTo: now - 5 * 86_400_000 });
    const ids: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: { json: { data: { id: number }[]; additional_data: { next_cursor: string | null } } } = await call('GET', `/api/v2/persons?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
      ids.push(...r.json.data.map((x) => x.id));
      cursor = r.json.additional_data.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(1_250);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    // remote changes show up with updated_since, ordered by update_time
    const changed = sim.entities('persons').slice(10, 15);
    changed.forEach((p, i) => sim.updateEntity('persons', p.id, { name: `Changed ${i}` }, { at: now - 60_000 + i * 1000 }));
    const since = new Date(now - 120_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const r1 = await call('GET', `/api/v2/persons?updated_since=${since}&sort_by=update_time&sort_direction=asc&limit=2`);
    expect(r1.json.data.map((x: { name: string }) => x.name)).toEqual(['Changed 0', 'Changed 1']);
    const r2 = await call('GET', `/api/v2/persons?updated_since=${since}&sort_by=update_time&sort_direction=asc&limit=2&cursor=${r1.json.additional_data.next_cursor}`);
    expect(r2.json.data.map((x: { name: string }) => x.name)).toEqual(['Changed 2', 'Changed 3']);
    const bad = await call('GET', `/api/v2/persons?cursor=${r1.json.additional_data.next_cursor}`);
    expect(bad.status).toBe(400);
    expectNoViolations();
  });

  it('stores custom field values keyed by 40-char hashes', async () => {
    const tier = sim.addCustomField('person', { name: 'Tier', field_type: 'enum', options: ['Gold', 'Silver'] });
    const score = sim.addCustomField('person', { name: 'Score', field_type: 'double' });
    expect(tier.key).toMatch(/^[0-9a-f]{40}$/);
    const gold = tier.options![0]!.id;
    const p = await call('POST', '/api/v2/persons', { name: 'Grace', custom_fields: { [tier.key]: gold, [score.key]: 9.5 } });
    expect(p.json.data.custom_fields).toEqual({ [tier.key]: gold, [score.key]: 9.5 });
    const labelled = await call('GET', `/api/v2/persons/${p.json.data.id}?include_option_labels=true&custom_fields=${tier.key}`);
    expect(labelled.json.data.custom_fields).toEqual({ [tier.key]: { id: gold, label: 'Gold' } });
    expect((await call('PATCH', `/api/v2/persons/${p.json.data.id}`, { custom_fields: { [tier.key]: 123456 } })).status).toBe(400);
    expect((await call('PATCH', `/api/v2/persons/${p.json.data.id}`, { custom_fields: { ['f'.repeat(40)]: 'x' } })).status).toBe(400);
    const cleared = await call('PATCH', `/api/v2/persons/${p.json.data.id}`, { custom_fields: { [score.key]: null } });
    expect(cleared.json.data.custom_fields[score.key]).toBeNull();
    expectNoViolations();
  });

  it('serves activities (v2) and the deprecated v1 activities list', async () => {
    const deal = sim.seedDeals(1, { linkPersons: false })[0]!;
    const a = await call('POST', '/api/v2/activities', { subject: 'Call Ada', type: 'call', deal_id: deal.id, due_date: '2030-01-01', due_time: '10:00', duration: '00:30' });
    expect(a.json.data).toMatchObject({ subject: 'Call Ada', type: 'call', deal_id: deal.id, done: false, due_date: '2030-01-01' });
    const done = await call('PATCH', `/api/v2/activities/${a.json.data.id}`, { done: true });
    expect(done.json.data.marked_as_done_time).toMatch(/Z$/);
    expect((await call('GET', '/api/v2/activities?done=true')).json.data).toHaveLength(1);
    const v1 = await call('GET', '/v1/activities?user_id=0&start=0&limit=10');
    expect(v1.json.data[0]).toMatchObject({ id: a.json.data.id, user_id: 1, done: true, type: 'call', active_flag: true, deal_title: deal.title });
    expect(v1.json.data[0].add_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Only known when the official description is there to compare with.
    if (sim.specAvailable) expect(sim.specUndocumented).toContainEqual({ method: 'GET', path: '/v1/activities' });
    expectNoViolations();
  });

  it("refuses v2 activity writes with person_id (read-only) and takes the person from the primary participant", async () => {
    const person = sim.seedPersons(1)[0]!;
    const refused = await call('POST', '/api/v2/activities', { subject: 'Call', type: 'call', person_id: person.id });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ success: false, error: "'person_id' is a read-only field. Add a primary participant to set 'person_id' instead.", code: 'ERR_BAD_REQUEST' });
    const a = await call('POST', '/api/v2/activities', { subject: 'Call', type: 'call', participants: [{ person_id: person.id, primary: true }] });
    expect(a.json.data).toMatchObject({ person_id: person.id, participants: [{ person_id: person.id, primary: true }] });
    expect((await call('PATCH', `/api/v2/activities/${a.json.data.id}`, { person_id: null })).status).toBe(400);
    const cleared = await call('PATCH', `/api/v2/activities/${a.json.data.id}`, { participants: [] });
    expect(cleared.json.data).toMatchObject({ person_id: null, participants: [] });
  });
});

describe('API v1', () => {
  it('lists users (incl. /users/me)', async () => {
    const r = await call('GET', '/v1/users');
    expect(r.json.data).toHaveLength(3);
    expect(r.json.data[0]).toMatchObject({ id: 1, is_you: true, active_flag: true, email: expect.stringContaining('@') });
    expect((await call('GET', '/api/v1/users/me')).json.data).toMatchObject({ id: 1, company_domain: 'omniport-test' });
    expectNoViolations();
  });

  it('creates and pages notes with offset pagination (data: null when empty)', async () => {
    expect((await call('GET', '/v1/notes')).json).toMatchObject({ success: true, data: null, additional_data: { pagination: { start: 0, more_items_in_collection: false } } });
    const [person] = sim.seedPersons(1);
    const n = await call('POST', '/v1/notes', { content: 'Hello', person_id: person!.id });
    expect(n.json.data).toMatchObject({ content: 'Hello', person_id: person!.id, person: { name: person!.name }, active_flag: true, user_id: 1 });
    expect((await call('POST', '/v1/notes', { content: 'orphan' })).status).toBe(400);
    sim.seedNotes(30, { linkTo: 'persons' });
    const p1 = await call('GET', '/v1/notes?start=0&limit=20&sort=update_time DESC');
    expect(p1.json.data).toHaveLength(20);
    expect(p1.json.additional_data.pagination).toEqual({ start: 0, limit: 20, more_items_in_collection: true, next_start: 20 });
    const p2 = await call('GET', '/v1/notes?start=20&limit=20');
    expect(p2.json.data).toHaveLength(11);
    const put = await call('PUT', `/v1/notes/${n.json.data.id}`, { content: 'Edited' });
    expect(put.json.data.content).toBe('Edited');
    expect((await call('DELETE', `/v1/notes/${n.json.data.id}`)).json).toEqual({ success: true, data: true });
    expectNoViolations();
  });

  it('describes fields; custom fields carry a 40-char key, name and field_type', async () => {
    const created = await call('POST', '/v1/dealFields', { name: 'Region', field_type: 'enum', options: [{ label: 'EMEA' }, { label: 'APAC' }] });
    expect(created.json.data).toMatchObject({ name: 'Region', field_type: 'enum', edit_flag: true, options: [{ id: expect.any(Number), label: 'EMEA' }, { id: expect.any(Number), label: 'APAC' }] });
    expect(created.json.data.key).toMatch(/^[0-9a-f]{40}$/);
    const list = await call('GET', '/v1/dealFields');
    const keys = list.json.data.map((f: { key: string }) => f.key);
    expect(keys).toEqual(expect.arrayContaining(['title', 'value', 'stage_id', 'status', created.json.data.key]));
    for (const seg of ['personFields', 'organizationFields']) expect((await call('GET', `/v1/${seg}`)).json.data.length).toBeGreaterThan(5);
    const v2 = await call('GET', '/api/v2/dealFields');
    expect(v2.json.data.find((f: { field_code: string }) => f.field_code === created.json.data.key)).toMatchObject({ field_name: 'Region', field_type: 'enum', is_custom_field: true });
    // the new field is usable right away in v2 custom_fields
    const region = created.json.data.options[1].id;
    const deal = await call('POST', '/api/v2/deals', { title: 'APAC deal', custom_fields: { [created.json.data.key]: region } });
    expect(deal.json.data.custom_fields[created.json.data.key]).toBe(region);
    expectNoViolations();
    if (sim.specAvailable) {
      // known differences between Pipedrive's documents and its API are kept apart, with the reason
      expect(sim.specDeviations.map((d) => d.reason)).toEqual(expect.arrayContaining([expect.stringContaining('YYYY-MM-DD HH:MM:SS'), expect.stringContaining('allOf')]));
    }
  });
});

describe('spec validation', () => {
  it.runIf(specsPresent)('records request violations made by the client', async () => {
    expect(sim.specAvailable).toBe(true);
    await call('GET', '/api/v2/persons?sort_by=name');
    await call('POST', '/api/v2/persons', { name: 42 });
    const messages = sim.specViolations.map(formatViolation);
    expect(messages.some((m) => m.includes('request GET /api/v2/persons') && m.includes('sort_by'))).toBe(true);
    expect(messages.some((m) => m.includes('request POST /api/v2/persons') && m.includes('/name'))).toBe(true);
    expect(sim.specViolations.every((v) => v.kind === 'request')).toBe(true);
  });

  it('skips validation when the documents are absent', async () => {
    const s = await startPipedriveSimulator({ specFiles: { v1: '/nonexistent/v1.yaml' }, validateSpec: false });
    try {
      expect(s.specAvailable).toBe(false);
      const r = await fetch(`${s.url}/api/v2/persons?sort_by=name`, { headers: { 'x-api-token': TOKEN } });
      expect(r.status).toBe(400);
      expect(s.specViolations).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('seeding and remote changes', () => {
  it('seeds 20,000 persons and 5,000 deals and serves them', async () => {
    sim.seedOrganizations(1_000);
    sim.seedPersons(20_000, { linkOrganizations: true });
    sim.seedDeals(5_000, { linkPersons: true });
    expect(sim.entities('persons')).toHaveLength(20_000);
    const r = await call('GET', '/api/v2/deals?limit=500&sort_by=update_time&sort_direction=desc');
    expect(r.json.data).toHaveLength(500);
    expect(r.json.additional_data.next_cursor).toEqual(expect.any(String));
    const times = r.json.data.map((d: { update_time: string }) => Date.parse(d.update_time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expectNoViolations();
  });

  it('remote updates and deletes bump update_time', async () => {
    const [p] = sim.seedPersons(1);
    const before = p!.update_time;
    sim.clock.advance(10_000);
    sim.updateEntity('persons', p!.id, { name: 'Remote Edit' });
    expect(p!.update_time).toBeGreaterThan(before);
    sim.clock.advance(10_000);
    sim.deleteEntity('persons', p!.id);
    const got = await call('GET', `/api/v2/persons/${p!.id}`);
    expect(got.json.data).toMatchObject({ name: 'Remote Edit', is_deleted: true });
    sim.purgeEntity('persons', p!.id);
    expect((await call('GET', `/api/v2/persons/${p!.id}`)).status).toBe(404);
  });
});
