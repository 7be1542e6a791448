/**
 * Idempotency-Key on the API's writes, through the real server: the first answer replayed (nothing more
 * created at the provider), another request with the key refused, a retry while the first runs held off,
 * answers that prove nothing happened not kept, keys per project and route, expiry, interrupted requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { rotateKeys } from '../../src/core/key-rotation';

let server: TestServer;
let sim: ZendeskSimulator;
let token: string;

beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false });
  server = await startTestServer({ work: false });
  token = await connectZendesk(server, sim, { origin: 'idempotency' });
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const tickets = () => sim.state.tickets.size;
const create = (key: string, body: unknown = { name: 'Printer on fire', description: 'Smoke' }, apiKey?: string) =>
  server.call('POST', '/ticketing/tickets', { headers: { 'x-connection-token': token, 'idempotency-key': key }, body, apiKey });

describe('Idempotency-Key', () => {
  it('replays the first answer of a create and creates nothing more', async () => {
    const key = randomUUID();
    const before = tickets();
    const first = await create(key);
    expect(first.status).toBe(201);
    const again = await create(key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(tickets()).toBe(before + 1);
  });

  it('replays a batch, and an error answer, as they were', async () => {
    const key = randomUUID();
    const before = tickets();
    const body = [{ name: 'one', description: 'd' }, { name: 'two', description: 'd', assigned_to: [randomUUID()] }];
    const first = await server.call('POST', '/ticketing/tickets/batch', { headers: { 'x-connection-token': token, 'idempotency-key': key }, body });
    expect(first.status).toBe(207);
    const again = await server.call('POST', '/ticketing/tickets/batch', { headers: { 'x-connection-token': token, 'idempotency-key': key }, body });
    expect(again.status).toBe(207);
    expect(again.body).toEqual(first.body);
    expect(tickets()).toBe(before + 1);

    const refusedKey = randomUUID();
    const unknownUser = { name: 'x', assigned_to: [randomUUID()] };
    const refused = await create(refusedKey, unknownUser);
    expect(refused.status).toBe(422);
    expect(refused.body.details.code).toBe('unknown_reference');
    const replayed = await create(refusedKey, unknownUser);
    expect(replayed.status).toBe(422);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(refused.body);
  });

  it('refuses the key with another request (422), whatever the key order of the body', async () => {
    const key = randomUUID();
    expect((await create(key, { name: 'A', description: 'd' })).status).toBe(201);
    const reordered = await create(key, { description: 'd', name: 'A' });
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    const other = await create(key, { name: 'B', description: 'd' });
    expect(other.status).toBe(422);
    expect(other.body.details).toMatchObject({ code: 'idempotency_key_reused', field: 'headers.idempotency-key' });
  });

  it('lets exactly one of two concurrent requests with one key run', async () => {
    const key = randomUUID();
    const before = tickets();
    sim.faults.add({ method: 'POST', path: '/api/v2/tickets', delayMs: 400, times: 1 });
    const [a, b] = await Promise.all([create(key), create(key)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(201);
    expect([201, 409]).toContain(statuses[1]);
    const held = [a, b].find((r) => r.status === 409);
    if (held) {
      expect(held.body.details.code).toBe('idempotency_in_progress');
      expect(held.headers.get('retry-after')).toBeTruthy();
    }
    expect(tickets()).toBe(before + 1);
  });

  it('keeps keys apart per project and per route', async () => {
    const key = randomUUID();
    const before = tickets();
    expect((await create(key)).status).toBe(201);
    const other = await server.createTenant('idempotency-other');
    const linked = await server.call('POST', '/linked-users', { apiKey: other.apiKey, headers: { 'idempotency-key': key }, body: { linked_user_origin_id: 'x' } });
    expect(linked.status).toBe(201);
    expect(linked.headers.get('idempotent-replayed')).toBeNull();
    const sameProjectOtherRoute = await server.call('POST', '/linked-users', { headers: { 'idempotency-key': key }, body: { linked_user_origin_id: 'y' } });
    expect(sameProjectOtherRoute.status).toBe(201);
    expect(tickets()).toBe(before + 1);
  });

  it('does not keep an answer that proves nothing happened: the key can be used again', async () => {
    const key = randomUUID();
    const before = tickets();
    sim.faults.add({ method: 'POST', path: '/api/v2/tickets', status: 429, retryAfterSeconds: 30, times: 1 });
    const limited = await create(key);
    expect(limited.status).toBe(503);
    expect(limited.body.details.code).toBe('provider_rate_limited');
    expect(tickets()).toBe(before);
    const retried = await create(key);
    expect(retried.status).toBe(201);
    expect(tickets()).toBe(before + 1);
  });

  it('runs an expired key again, and a retry of an interrupted first request learns its real outcome', async () => {
    const expired = randomUUID();
    expect((await create(expired)).status).toBe(201);
    await server.sql(`update idempotency_keys set expires_at = now() - interval '1 second' where key = $1`, [expired]);
    const before = tickets();
    const fresh = await create(expired);
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(tickets()).toBe(before + 1);

    // A claim left behind by a process that died mid-request, after Zendesk created the ticket: its heartbeat
    // stopped a minute ago. The retry takes it over and sends the creation again with the same Zendesk
    // Idempotency-Key (derived from this key), which Zendesk deduplicates: the first ticket, no second one.
    const orphan = randomUUID();
    const first = await create(orphan);
    expect(first.status).toBe(201);
    const dead = `update idempotency_keys set state = 'in_progress', response_status = null, owner = 'a-dead-process', heartbeat_at = now() - interval '1 minute' where key = $1`;
    await server.sql(dead, [orphan]);
    const recovered = await create(orphan);
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(201);
    expect(recovered.headers.get('idempotent-replayed')).toBeNull();
    expect(recovered.body.data.remote_id).toBe(first.body.data.remote_id);
    expect(tickets()).toBe(before + 2);
    // Kept as the answer from then on.
    expect((await create(orphan)).headers.get('idempotent-replayed')).toBe('true');

    // A write that is not a provider write the adapters can check (the control plane): outcome_unknown at once.
    const linked = randomUUID();
    expect((await server.call('POST', '/linked-users', { headers: { 'idempotency-key': linked }, body: { linked_user_origin_id: 'orphaned' } })).status).toBe(201);
    await server.sql(dead, [linked]);
    const unknown = await server.call('POST', '/linked-users', { headers: { 'idempotency-key': linked }, body: { linked_user_origin_id: 'orphaned' } });
    expect(unknown.status).toBe(502);
    expect(unknown.body.details.code).toBe('outcome_unknown');
  });

  it('keeps stored answers encrypted (they hold connection tokens), replays them, and rotation covers them', async () => {
    const key = randomUUID();
    const cred = sim.credentials[0]!;
    const body = { provider: 'zendesk', linked_user_origin_id: 'sealed-answer', credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url };
    const first = await server.call('POST', '/connections', { headers: { 'idempotency-key': key }, body });
    expect(first.status).toBe(201);
    const secret = first.body.data.connection_token as string;
    const [row] = await server.sql('select response_body from idempotency_keys where key = $1', [key]);
    expect(row!.response_body as string).toMatch(/^v2\./);
    expect(JSON.stringify(await server.sql('select * from idempotency_keys'))).not.toContain(secret);
    const again = await server.call('POST', '/connections', { headers: { 'idempotency-key': key }, body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    // An answer an older version stored in clear is still replayed, and `keys rotate` encrypts it.
    await server.sql('update idempotency_keys set response_body = $2 where key = $1', [key, JSON.stringify(first.body)]);
    expect((await server.call('POST', '/connections', { headers: { 'idempotency-key': key }, body })).body).toEqual(first.body);
    const report = await rotateKeys(server.omniport.database.db, server.box);
    expect(report.failed).toBe(0);
    expect(report.columns.find((c) => c.column === 'idempotency_keys.response_body (clear)')!.rotated).toBe(1);
    const [after] = await server.sql('select response_body from idempotency_keys where key = $1', [key]);
    expect(after!.response_body as string).toMatch(/^v2\./);
    expect((await server.call('POST', '/connections', { headers: { 'idempotency-key': key }, body })).body).toEqual(first.body);
  });

  it('refuses a malformed key, and documents the header on every write operation', async () => {
    const bad = await create('tab\there');
    expect(bad.status).toBe(400);
    expect(bad.body.details.field).toBe('headers.idempotency-key');
    const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body;
    let writes = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method) || path.startsWith('/connect')) continue;
        writes++;
        expect(op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'), `${method} ${path}`).toBe(true);
      }
    }
    expect(writes).toBeGreaterThan(20);
  });
});
