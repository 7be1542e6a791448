import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHubSpotSimulator, type HubSpotSimulator } from './index';

const TOKEN = 'hs-test-token';

let sim: HubSpotSimulator;

async function call(method: string, path: string, body?: unknown, token: string | null = TOKEN) {
  const res = await fetch(sim.url + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json: any = text ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, json };
}

beforeEach(async () => {
  sim = await startHubSpotSimulator();
});
afterEach(async () => {
  await sim.close();
});

describe('auth, rate-limit headers, request log', () => {
  it('rejects missing or unknown tokens with HubSpot 401 bodies', async () => {
    for (const token of [null, 'nope']) {
      const r = await call('GET', '/crm/v3/objects/contacts', undefined, token);
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ status: 'error', category: 'INVALID_AUTHENTICATION', message: expect.stringContaining('Authentication credentials not found') });
      expect(r.json.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers expired OAuth tokens with EXPIRED_AUTHENTICATION', async () => {
    sim.addAccessToken('old', { kind: 'oauth', expiresAt: sim.clock.now() - 2 * 3_600_000 });
    const r = await call('GET', '/crm/v3/objects/contacts', undefined, 'old');
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ category: 'EXPIRED_AUTHENTICATION', message: 'The OAuth token used to make this call expired 2 hour(s) ago.' });
  });

  it('sends the X-HubSpot-RateLimit-* headers and counts down', async () => {
    const a = await call('GET', '/crm/v3/objects/contacts');
    const b = await call('GET', '/crm/v3/objects/contacts');
    for (const h of ['daily', 'daily-remaining', 'interval-milliseconds', 'max', 'remaining', 'secondly', 'secondly-remaining']) {
      expect(a.headers.get(`x-hubspot-ratelimit-${h}`), h).toMatch(/^\d+$/);
    }
    expect(a.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    expect(Number(b.headers.get('x-hubspot-ratelimit-remaining'))).toBe(Number(a.headers.get('x-hubspot-ratelimit-remaining')) - 1);
    expect(Number(b.headers.get('x-hubspot-ratelimit-daily-remaining'))).toBe(Number(a.headers.get('x-hubspot-ratelimit-daily-remaining')) - 1);
    // OAuth tokens get no daily headers
    sim.addAccessToken('oauth-token', { kind: 'oauth' });
    const c = await call('GET', '/crm/v3/objects/contacts', undefined, 'oauth-token');
    expect(c.headers.get('x-hubspot-ratelimit-daily')).toBeNull();
    expect(c.headers.get('x-hubspot-ratelimit-max')).toBe('190');
  });

  it('enforces the ten-second window when asked to', async () => {
    await sim.close();
    sim = await startHubSpotSimulator({ rateLimit: { max: 2, enforce: true } });
    expect((await call('GET', '/crm/v3/owners')).status).toBe(200);
    expect((await call('GET', '/crm/v3/owners')).status).toBe(200);
    const r = await call('GET', '/crm/v3/owners');
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({ status: 'error', errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING', message: 'You have reached your ten_secondly_rolling limit.' });
    sim.clock.advance(10_001);
    expect((await call('GET', '/crm/v3/owners')).status).toBe(200);
  });

  it('enforces the search API per-second limit when asked to', async () => {
    await sim.close();
    sim = await startHubSpotSimulator({ rateLimit: { enforce: true } });
    sim.clock.freeze();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call('POST', '/crm/v3/objects/contacts/search', {})).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    sim.clock.advance(1_000);
    expect((await call('POST', '/crm/v3/objects/contacts/search', {})).status).toBe(200);
  });

  it('records requests without credential values', async () => {
    await call('POST', '/crm/v3/objects/contacts?hapikey=secret', { properties: { email: 'a@example.com' } });
    const rec = sim.requests.at(-1)!;
    expect(rec).toMatchObject({ method: 'POST', path: '/crm/v3/objects/contacts', status: 201, auth: { scheme: 'bearer', label: 'default', valid: true } });
    expect(rec.body).toEqual({ properties: { email: 'a@example.com' } });
    expect(JSON.stringify(rec)).not.toContain(TOKEN);
    expect(JSON.stringify(rec)).not.toContain('secret');
    expect(rec.headers.authorization).toBe('Bearer [redacted]');
  });
});

describe('fault injection', () => {
  it('injects 429 with HubSpot body, Retry-After and zero remaining', async () => {
    const f = sim.faults.add({ method: 'GET', path: /\/crm\/v3\/objects\/contacts$/, status: 429, times: 2, retryAfterSeconds: 3 });
    const a = await call('GET', '/crm/v3/objects/contacts');
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('3');
    expect(a.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
    expect(a.json).toMatchObject({ errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' });
    expect((await call('GET', '/crm/v3/objects/contacts')).status).toBe(429);
    expect((await call('GET', '/crm/v3/objects/contacts')).status).toBe(200);
    expect(f.hits).toBe(2);
    expect(sim.requests.map((r) => r.faultId)).toEqual([f.id, f.id, null]);
  });

  it('uses the search policy name for search endpoints and honours custom bodies', async () => {
    sim.faults.add({ path: /search$/, status: 429 });
    sim.faults.add({ path: /deals$/, status: 502, body: '<html>bad gateway</html>' });
    const s = await call('POST', '/crm/v3/objects/contacts/search', {});
    expect(s.json.policyName).toBe('SECONDLY');
    const res = await fetch(`${sim.url}/crm/v3/objects/deals`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(502);
    expect(await res.text()).toBe('<html>bad gateway</html>');
  });

  it('drops the socket for status 0 and delays requests', async () => {
    sim.faults.add({ path: '/crm/v3/owners', status: 0 });
    await expect(fetch(`${sim.url}/crm/v3/owners`, { headers: { authorization: `Bearer ${TOKEN}` } })).rejects.toThrow();
    sim.faults.add({ path: '/crm/v3/owners', delayMs: 150 });
    const t0 = Date.now();
    expect((await call('GET', '/crm/v3/owners')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(sim.faults.active).toHaveLength(0);
  });
});

describe('CRM objects v3', () => {
  it('creates, reads, updates, lists and archives contacts', async () => {
    const created = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'ada@example.com', firstname: 'Ada', lastname: 'Lovelace' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^\d+$/), archived: false, properties: { email: 'ada@example.com', firstname: 'Ada', hs_object_id: created.json.id } });
    expect(Date.parse(created.json.createdAt)).not.toBeNaN();
    const id = created.json.id as string;

    const got = await call('GET', `/crm/v3/objects/contacts/${id}?properties=phone,nonexistent_prop`);
    expect(got.json.properties).toEqual({ createdate: created.json.createdAt, hs_object_id: id, lastmodifieddate: expect.any(String), phone: null });
    const byEmail = await call('GET', `/crm/v3/objects/contacts/ada@example.com?idProperty=email`);
    expect(byEmail.json.id).toBe(id);

    sim.clock.advance(1000);
    const patched = await call('PATCH', `/crm/v3/objects/contacts/${id}`, { properties: { phone: 5550100 } });
    expect(patched.status).toBe(200);
    expect(patched.json.properties.phone).toBe('5550100');
    expect(Date.parse(patched.json.updatedAt)).toBeGreaterThan(Date.parse(created.json.updatedAt));

    expect((await call('DELETE', `/crm/v3/objects/contacts/${id}`)).status).toBe(204);
    expect((await call('DELETE', `/crm/v3/objects/contacts/424242`)).status).toBe(204);
    const gone = await call('GET', `/crm/v3/objects/contacts/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' });
    const archived = await call('GET', '/crm/v3/objects/contacts?archived=true');
    expect(archived.json.results).toHaveLength(1);
    expect(archived.json.results[0]).toMatchObject({ id, archived: true, archivedAt: expect.any(String) });
  });

  it('pages lists with after/limit (limit capped at 100)', async () => {
    sim.seedCompanies(250);
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const r = await call('GET', `/crm/v3/objects/companies?limit=500${after ? `&after=${after}` : ''}`);
      expect(r.json.results.length).toBeLessThanOrEqual(100);
      seen.push(...r.json.results.map((x: { id: string }) => x.id));
      after = r.json.paging?.next?.after;
      if (after) expect(r.json.paging.next.link).toContain(`after=${after}`);
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(250);
  });

  it('rejects unknown properties with PROPERTY_DOESNT_EXIST', async () => {
    const r = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'x@example.com', favourite_colour: 'blue' } });
    expect(r.status).toBe(400);
    expect(r.json.category).toBe('VALIDATION_ERROR');
    expect(r.json.message).toMatch(/^Property values were not valid: \[/);
    const list = JSON.parse(r.json.message.slice('Property values were not valid: '.length));
    expect(list).toEqual([
      { isValid: false, message: 'Property "favourite_colour" does not exist', error: 'PROPERTY_DOESNT_EXIST', name: 'favourite_colour', localizedErrorMessage: 'Property "favourite_colour" does not exist' },
    ]);
    expect(sim.records('contacts')).toHaveLength(0);
  });

  it('validates options, numbers, read-only values and unique emails', async () => {
    const bad = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'x', dealstage: 'nope', amount: 'abc', hs_lastmodifieddate: '1' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('INVALID_OPTION');
    expect(bad.json.message).toContain('READ_ONLY_VALUE');
    expect(bad.json.message).toContain('abc was not a valid number');
    await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'dup@example.com' } });
    const dup = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'DUP@example.com' } });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({ category: 'CONFLICT', message: expect.stringMatching(/^Contact already exists\. Existing ID: \d+$/) });
    const owner = sim.state.owners[0]!.id;
    expect((await call('POST', '/crm/v3/objects/contacts', { properties: { hubspot_owner_id: owner } })).status).toBe(201);
    expect((await call('POST', '/crm/v3/objects/contacts', { properties: { hubspot_owner_id: '999999' } })).status).toBe(400);
    const note = await call('POST', '/crm/v3/objects/notes', { properties: { hs_note_body: 'no timestamp' } });
    expect(note.status).toBe(400);
  });

  it('keeps deal amounts exactly as sent', async () => {
    const r = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'Big', amount: '1234.56', dealstage: 'qualifiedtobuy' } });
    expect(r.json.properties.amount).toBe('1234.56');
    const r2 = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'Zeros', amount: '1234.50', dealstage: 'closedwon' } });
    const got = await call('GET', `/crm/v3/objects/deals/${r2.json.id}`);
    expect(got.json.properties).toMatchObject({ amount: '1234.50', pipeline: 'default', dealstage: 'closedwon' });
  });

  it('normalises datetime and date values', async () => {
    sim.addProperty('deals', { name: 'renewal_date', type: 'date', fieldType: 'date' });
    const r = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'd', closedate: '1700000000000', renewal_date: '2024-03-01' } });
    expect(r.json.properties.closedate).toBe('2023-11-14T22:13:20.000Z');
    expect(r.json.properties.renewal_date).toBe('2024-03-01');
    const notMidnight = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'd', renewal_date: '1700000000000' } });
    expect(notMidnight.status).toBe(400);
    expect(notMidnight.json.message).toContain('not midnight');
  });
});

describe('batch endpoints', () => {
  it('batch/create answers 201 when every input is valid', async () => {
    const r = await call('POST', '/crm/v3/objects/contacts/batch/create', { inputs: [{ properties: { email: 'a@x.io' } }, { properties: { email: 'b@x.io' } }] });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ status: 'COMPLETE', startedAt: expect.any(String), completedAt: expect.any(String) });
    expect(r.json.results).toHaveLength(2);
  });

  it('batch/create rejects the whole batch when one input is invalid', async () => {
    const r = await call('POST', '/crm/v3/objects/contacts/batch/create', {
      inputs: [{ properties: { email: 'ok@x.io' } }, { properties: { email: 'bad@x.io', not_a_prop: '1' } }],
    });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(r.json.message).toContain('PROPERTY_DOESNT_EXIST');
    expect(sim.records('contacts')).toHaveLength(0);
    const tooMany = await call('POST', '/crm/v3/objects/contacts/batch/create', { inputs: Array.from({ length: 101 }, () => ({ properties: {} })) });
    expect(tooMany.status).toBe(400);
    // an existing email fails the whole batch with 409 CONFLICT
    await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'taken@x.io' } });
    const conflict = await call('POST', '/crm/v3/objects/contacts/batch/create', { inputs: [{ properties: { email: 'new@x.io' } }, { properties: { email: 'taken@x.io' } }] });
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({ category: 'CONFLICT', message: expect.stringContaining('Contact already exists') });
    expect(sim.records('contacts')).toHaveLength(1);
  });

  it('batch/create reports per-input errors (207) when every input has an objectWriteTraceId', async () => {
    const r = await call('POST', '/crm/v3/objects/contacts/batch/create', {
      inputs: [
        { objectWriteTraceId: 't1', properties: { email: 'ok@x.io' } },
        { objectWriteTraceId: 't2', properties: { not_a_prop: '1' } },
      ],
    });
    expect(r.status).toBe(207);
    expect(r.json.results).toEqual([expect.objectContaining({ objectWriteTraceId: 't1' })]);
    expect(r.json.numErrors).toBe(1);
    expect(r.json.errors[0]).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR', context: { objectWriteTraceId: ['t2'] } });
    expect(sim.records('contacts')).toHaveLength(1);
  });

  it('batch/read returns 207 for partially missing ids and 404 when none exist', async () => {
    const [a, b] = sim.seedContacts(2);
    const r = await call('POST', '/crm/v3/objects/contacts/batch/read', { inputs: [{ id: a!.id }, { id: b!.id }, { id: '1' }], properties: ['email'] });
    expect(r.status).toBe(207);
    expect(r.json.results.map((x: { id: string }) => x.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(r.json.results[0].properties.email).toContain('@example.com');
    expect(r.json.errors[0]).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { ids: ['1'] } });
    expect((await call('POST', '/crm/v3/objects/contacts/batch/read', { inputs: [{ id: '1' }] })).status).toBe(404);
  });

  it('batch/update updates records and rejects duplicate ids', async () => {
    const [a] = sim.seedDeals(1);
    const r = await call('POST', '/crm/v3/objects/deals/batch/update', { inputs: [{ id: a!.id, properties: { amount: '10.10' } }] });
    expect(r.status).toBe(200);
    expect(sim.getRecord('deals', a!.id)!.properties.amount).toBe('10.10');
    const dup = await call('POST', '/crm/v3/objects/deals/batch/update', { inputs: [{ id: a!.id, properties: {} }, { id: a!.id, properties: {} }] });
    expect(dup.status).toBe(400);
    expect(dup.json.message).toContain('Duplicate IDs');
  });
});

describe('search', () => {
  it('filters on modification dates, sorts and pages', async () => {
    const now = sim.clock.now();
    sim.seedContacts(300, { createdFrom: now - 100 * 86_400_000, createdTo: now - 50 * 86_400_000, modifiedTo: now - 50 * 86_400_000 });
    const recent = sim.records('contacts').slice(0, 25);
    recent.forEach((r, i) => sim.updateRecord('contacts', r.id, { jobtitle: 'CTO' }, { at: now - 10_000 + i }));
    const body = (after?: string) => ({
      filterGroups: [{ filters: [{ propertyName: 'lastmodifieddate', operator: 'GTE', value: String(now - 20_000) }] }],
      sorts: [{ propertyName: 'lastmodifieddate', direction: 'ASCENDING' }],
      properties: ['jobtitle'],
      limit: 10,
      ...(after ? { after } : {}),
    });
    const p1 = await call('POST', '/crm/v3/objects/contacts/search', body());
    expect(p1.status).toBe(200);
    expect(p1.json.total).toBe(25);
    expect(p1.json.results).toHaveLength(10);
    expect(p1.json.results[0].id).toBe(recent[0]!.id);
    expect(p1.json.results[0].properties).toMatchObject({ jobtitle: 'CTO', hs_object_id: recent[0]!.id });
    expect(p1.json.paging.next.after).toBe('10');
    const p3 = await call('POST', '/crm/v3/objects/contacts/search', body('20'));
    expect(p3.json.results).toHaveLength(5);
    expect(p3.json.paging).toBeUndefined();

    // ISO values, LT and the hs_ alias
    const lt = await call('POST', '/crm/v3/objects/contacts/search', {
      filterGroups: [{ filters: [{ propertyName: 'hs_lastmodifieddate', operator: 'LT', value: new Date(now - 20_000).toISOString() }] }],
      limit: 1,
    });
    expect(lt.json.total).toBe(275);
    const deals = await call('POST', '/crm/v3/objects/deals/search', { filterGroups: [{ filters: [{ propertyName: 'createdate', operator: 'GT', value: '0' }] }] });
    expect(deals.status).toBe(200);
  });

  it('enforces the 200 page size and the 10,000 result cap', async () => {
    sim.seedContacts(10_050);
    expect((await call('POST', '/crm/v3/objects/contacts/search', { limit: 201 })).status).toBe(400);
    const last = await call('POST', '/crm/v3/objects/contacts/search', { limit: 200, after: '9800' });
    expect(last.status).toBe(200);
    expect(last.json.total).toBe(10_050);
    expect(last.json.results).toHaveLength(200);
    expect(last.json.paging.next.after).toBe('10000');
    const beyond = await call('POST', '/crm/v3/objects/contacts/search', { limit: 100, after: '10000' });
    expect(beyond.status).toBe(400);
    expect(beyond.json).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
  });

  it('hides recently modified records behind the index lag', async () => {
    sim.setSearchIndexLag(5_000);
    sim.clock.freeze();
    const created = await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'lag@example.com', firstname: 'Old' } });
    const q = { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'lag@example.com' }] }], properties: ['firstname'] };
    expect((await call('POST', '/crm/v3/objects/contacts/search', q)).json.total).toBe(0);
    sim.clock.advance(5_000);
    expect((await call('POST', '/crm/v3/objects/contacts/search', q)).json.results[0].properties.firstname).toBe('Old');
    await call('PATCH', `/crm/v3/objects/contacts/${created.json.id}`, { properties: { firstname: 'New' } });
    expect((await call('POST', '/crm/v3/objects/contacts/search', q)).json.results[0].properties.firstname).toBe('Old');
    sim.clock.advance(5_000);
    expect((await call('POST', '/crm/v3/objects/contacts/search', q)).json.results[0].properties.firstname).toBe('New');
    // reads are not lagged
    expect((await call('GET', `/crm/v3/objects/contacts/${created.json.id}?properties=firstname`)).json.properties.firstname).toBe('New');
  });

  it('supports IN, HAS_PROPERTY, query and OR-ed filter groups', async () => {
    await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'a@x.io', firstname: 'Ann', lifecyclestage: 'lead' } });
    await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'b@x.io', firstname: 'Bob', lifecyclestage: 'customer', phone: '1' } });
    await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'c@x.io', firstname: 'Cy' } });
    const search = async (b: unknown) => (await call('POST', '/crm/v3/objects/contacts/search', b)).json.total;
    expect(await search({ filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'IN', values: ['lead', 'customer'] }] }] })).toBe(2);
    expect(await search({ filterGroups: [{ filters: [{ propertyName: 'phone', operator: 'HAS_PROPERTY' }] }] })).toBe(1);
    expect(await search({ query: 'bob' })).toBe(1);
    expect(
      await search({
        filterGroups: [{ filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'ann' }] }, { filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'Cy' }] }],
      }),
    ).toBe(2);
  });
});

describe('properties, owners, pipelines', () => {
  it('lists default properties and creates custom ones', async () => {
    const list = await call('GET', '/crm/v3/properties/contacts');
    const email = list.json.results.find((p: { name: string }) => p.name === 'email');
    expect(email).toMatchObject({ name: 'email', label: 'Email', type: 'string', fieldType: 'text', hasUniqueValue: true });
    const stage = (await call('GET', '/crm/v3/properties/deals/dealstage')).json;
    expect(stage.options.map((o: { value: string }) => o.value)).toContain('closedwon');

    const created = await call('POST', '/crm/v3/properties/contacts', { name: 'favourite_colour', label: 'Favourite colour', type: 'enumeration', fieldType: 'select', groupName: 'contactinformation', options: [{ label: 'Blue', value: 'blue' }] });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'favourite_colour', type: 'enumeration', fieldType: 'select' });
    expect(created.json.hubspotDefined).toBeUndefined();
    expect((await call('POST', '/crm/v3/properties/contacts', { name: 'favourite_colour', label: 'x', type: 'string', fieldType: 'text', groupName: 'g' })).status).toBe(409);
    expect((await call('POST', '/crm/v3/objects/contacts', { properties: { favourite_colour: 'blue' } })).status).toBe(201);
    expect((await call('POST', '/crm/v3/objects/contacts', { properties: { favourite_colour: 'red' } })).status).toBe(400);
  });

  it('pages owners and serves the deal pipeline with stages', async () => {
    for (let i = 0; i < 5; i++) sim.addOwner();
    const p1 = await call('GET', '/crm/v3/owners?limit=5');
    expect(p1.json.results).toHaveLength(5);
    expect(p1.json.results[0]).toMatchObject({ id: expect.any(String), email: expect.stringContaining('@'), type: 'PERSON', firstName: expect.any(String), userId: expect.any(Number), archived: false });
    const p2 = await call('GET', `/crm/v3/owners?limit=5&after=${encodeURIComponent(p1.json.paging.next.after)}`);
    expect(p2.json.results).toHaveLength(3);
    expect(p2.json.paging).toBeUndefined();

    const pipelines = await call('GET', '/crm/v3/pipelines/deals');
    expect(pipelines.json.results[0]).toMatchObject({ id: 'default', label: 'Sales Pipeline' });
    const stages = await call('GET', '/crm/v3/pipelines/deals/default/stages');
    expect(stages.json.results.find((s: { id: string }) => s.id === 'closedwon')).toMatchObject({ metadata: { isClosed: 'true', probability: '1.0' } });
    expect((await call('GET', '/crm/v3/pipelines/deals/nope')).status).toBe(404);
  });
});

describe('associations', () => {
  it('creates associations on create and returns them on reads (v3) and v4 endpoints', async () => {
    const contact = (await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'c@x.io' } })).json;
    const company = (await call('POST', '/crm/v3/objects/companies', { properties: { name: 'Acme' } })).json;
    const deal = await call('POST', '/crm/v3/objects/deals', {
      properties: { dealname: 'D' },
      associations: [{ to: { id: contact.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }],
    });
    expect(deal.status).toBe(201);
    const badAssoc = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'D' }, associations: [{ to: { id: '1' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }] });
    expect(badAssoc.status).toBe(400);

    const put = await call('PUT', `/crm/v4/objects/contacts/${contact.id}/associations/default/companies/${company.id}`);
    expect(put.status).toBe(200);
    expect(put.json.results[0]).toMatchObject({ from: { id: contact.id }, to: { id: company.id }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 } });

    const read = await call('GET', `/crm/v3/objects/contacts/${contact.id}?associations=companies,deals`);
    expect(read.json.associations).toEqual({
      companies: { results: [{ id: company.id, type: 'contact_to_company_unlabeled' }] },
      deals: { results: [{ id: deal.json.id, type: 'contact_to_deal' }] },
    });

    const v4 = await call('GET', `/crm/v4/objects/companies/${company.id}/associations/contacts`);
    expect(v4.json.results).toEqual([{ toObjectId: Number(contact.id), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 280, label: null }] }]);

    const batch = await call('POST', '/crm/v4/associations/contacts/deals/batch/read', { inputs: [{ id: contact.id }, { id: '999' }] });
    expect(batch.status).toBe(207);
    expect(batch.json.results).toEqual([{ from: { id: contact.id }, to: [{ toObjectId: Number(deal.json.id), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 4, label: null }] }] }]);
    expect(batch.json.errors[0].context).toEqual({ fromObjectId: ['999'] });

    // labelled create (primary company) and delete
    const primary = await call('PUT', `/crm/v4/objects/contacts/${contact.id}/associations/companies/${company.id}`, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }]);
    expect(primary.json.labels).toEqual(['Primary']);
    expect((await call('DELETE', `/crm/v4/objects/contacts/${contact.id}/associations/companies/${company.id}`)).status).toBe(204);
    expect((await call('GET', `/crm/v4/objects/contacts/${contact.id}/associations/companies`)).json.results).toEqual([]);
  });
});

describe('seeding and remote changes', () => {
  it('seeds 20,000 contacts and 5,000 deals with their associations', async () => {
    sim.seedCompanies(1_000);
    sim.seedContacts(20_000, { associateCompanies: true });
    sim.seedDeals(5_000, { associateContacts: true });
    expect(sim.records('contacts')).toHaveLength(20_000);
    const first = await call('GET', '/crm/v3/objects/deals?limit=100&associations=contacts');
    expect(first.json.results).toHaveLength(100);
    expect(first.json.results[0].associations.contacts.results).toHaveLength(1);
    const emails = new Set(sim.records('contacts').map((c) => c.properties.email));
    expect(emails.size).toBe(20_000);
  });

  it('remote updates and archives bump the modification time', async () => {
    const [c] = sim.seedContacts(1);
    const before = c!.updatedAt;
    sim.clock.advance(60_000);
    sim.updateRecord('contacts', c!.id, { firstname: 'Changed' });
    expect(c!.updatedAt).toBeGreaterThan(before);
    const r = await call('GET', `/crm/v3/objects/contacts/${c!.id}`);
    expect(r.json.properties.firstname).toBe('Changed');
    expect(Date.parse(r.json.properties.lastmodifieddate)).toBe(c!.updatedAt);
    sim.clock.advance(1_000);
    sim.archiveRecord('contacts', c!.id);
    expect((await call('GET', `/crm/v3/objects/contacts/${c!.id}`)).status).toBe(404);
    const archived = await call('GET', `/crm/v3/objects/contacts/${c!.id}?archived=true`);
    expect(archived.json.archived).toBe(true);
    sim.purgeRecord('contacts', c!.id);
    expect((await call('GET', `/crm/v3/objects/contacts/${c!.id}?archived=true`)).status).toBe(404);
  });
});
