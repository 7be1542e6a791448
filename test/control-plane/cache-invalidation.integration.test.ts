/**
 * API keys, connections and field mappings are cached in every server process, and a change made through
 * another process is seen as soon as the database's notification reaches it (milliseconds; a loaded machine
 * was seen to answer one request from memory before it arrived), a change made through the process itself at once: two servers on one database (PostgreSQL: two pools,
 * each with its own listening connection; PGlite: two servers on one embedded instance in this process).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOmniport, type Omniport } from '../../src/app';
import { startTestServer, testConfig, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

let a: TestServer;
let b: Omniport;
let bUrl: string;
let sim: ZendeskSimulator;

beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false });
  a = await startTestServer({ work: false });
  b = await createOmniport(testConfig(), { target: a.target!, box: a.box, jobs: { work: false } });
  bUrl = await b.server.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  // On the embedded database both servers share one PGlite instance: the first one closes it.
  if (b?.database.kind === 'postgres') await b.close();
  else if (b) {
    await b.server.close();
    await b.jobs.stop();
    await b.services.lookupCache.stop();
  }
  await a?.close();
  await sim?.close();
});

/**
 * Server B's answer once the notification of a change made elsewhere has reached it: asked until it is `status`
 * (for at most 5 s; each request is one of B's, from its cache or not).
 */
async function onBOnceNotified(status: number, path: string, headers: Record<string, string>) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const res = await onB(path, headers);
    if (res.status === status || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A request to server B. */
async function onB(path: string, headers: Record<string, string>) {
  const res = await fetch(`${bUrl}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as { data?: unknown; details?: { code: string } } };
}

it('refuses a key revoked through another process once the notification reaches it', async () => {
  const issued = await a.call('POST', '/auth/generate-apikey', { body: { projectId: a.tenant.projectId, userId: a.tenant.userId, keyName: 'short-lived' } });
  expect(issued.status).toBe(201);
  const key = issued.body.api_key as string;
  // B has the key in its cache (twice: the second answer comes from memory).
  for (let i = 0; i < 2; i++) expect((await onB('/connections', { 'x-api-key': key })).status).toBe(200);

  expect((await a.call('DELETE', `/auth/api-keys/${issued.body.id_api_key}`)).status).toBe(200);
  const refused = await onBOnceNotified(401, '/connections', { 'x-api-key': key });
  expect(refused.status).toBe(401);
  expect(refused.body.details?.code).toBe('unauthorized');
});

it('refuses a key revoked through this process on the very next request, without waiting for the database notification', async () => {
  const issued = await a.call('POST', '/auth/generate-apikey', { body: { projectId: a.tenant.projectId, userId: a.tenant.userId, keyName: 'revoked-here' } });
  const key = issued.body.api_key as string;
  for (let i = 0; i < 2; i++) expect((await a.call('GET', '/connections', { headers: { 'x-api-key': key } })).status).toBe(200);
  // Paused: a notification cannot arrive before the next request; the revoking process forgets the key by itself.
  const notify = a.omniport.services.lookupCache as unknown as { invalidate(payload: string): void };
  const invalidate = notify.invalidate.bind(notify);
  notify.invalidate = () => undefined;
  try {
    const revoke = a.call('DELETE', `/auth/api-keys/${issued.body.id_api_key}`);
    expect((await revoke).status).toBe(200);
  } finally {
    notify.invalidate = invalidate;
  }
  expect((await a.call('GET', '/connections', { headers: { 'x-api-key': key } })).status).toBe(401);
});

it('refuses a key revoked by SQL (another tool) too, and a connection deleted or needing reauthorisation elsewhere', async () => {
  const token = await connectZendesk(a, sim, { origin: 'cache' });
  const listed = await a.call('GET', '/connections?limit=100');
  const connectionId = (listed.body.data as { id_connection: string; connection_token: string }[]).find((c) => c.connection_token === token)!.id_connection;
  const headers = { 'x-api-key': a.tenant.apiKey, 'x-connection-token': token };
  for (let i = 0; i < 2; i++) expect((await onB('/ticketing/tickets?limit=1', headers)).status).toBe(200);

  await a.sql(`update connections set status = 'needs_reauth' where id = $1`, [connectionId]);
  const passthroughOnB = () =>
    fetch(`${bUrl}/passthrough`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ method: 'GET', path: '/api/v2/ticket_fields' }) });
  let passthrough = await passthroughOnB();
  for (const deadline = Date.now() + 5_000; passthrough.status !== 401 && Date.now() < deadline; passthrough = await passthroughOnB()) {
    await passthrough.arrayBuffer();
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(passthrough.status).toBe(401);
  expect(((await passthrough.json()) as { details: { code: string } }).details.code).toBe('needs_reauth');

  expect((await a.call('DELETE', `/connections/${connectionId}`)).status).toBe(204);
  const gone = await onBOnceNotified(401, '/ticketing/tickets?limit=1', headers);
  expect(gone.status).toBe(401);
  expect(gone.body.details?.code).toBe('invalid_connection_token');

  const other = await a.call('POST', '/auth/generate-apikey', { body: { projectId: a.tenant.projectId, userId: a.tenant.userId, keyName: 'by-sql' } });
  for (let i = 0; i < 2; i++) expect((await onB('/connections', { 'x-api-key': other.body.api_key })).status).toBe(200);
  await a.sql('update api_keys set revoked_at = now() where id = $1', [other.body.id_api_key]);
  expect((await onBOnceNotified(401, '/connections', { 'x-api-key': other.body.api_key })).status).toBe(401);
});

it('keeps refusing revoked keys when the listening connection is lost, and caches again once it is back', async () => {
  if (b.database.kind !== 'postgres') return; // PGlite: one process, notifications cannot be lost
  const issued = await a.call('POST', '/auth/generate-apikey', { body: { projectId: a.tenant.projectId, userId: a.tenant.userId, keyName: 'listener' } });
  const key = issued.body.api_key as string;
  for (let i = 0; i < 2; i++) expect((await onB('/connections', { 'x-api-key': key })).status).toBe(200);
  // Every listening connection of this database is cut (A's and B's): the caches stop answering as soon as each process learns it.
  const cut = await a.sql(`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
  expect(cut.length).toBeGreaterThanOrEqual(2);
  await a.sql('update api_keys set revoked_at = now() where id = $1', [issued.body.id_api_key]);
  expect((await onBOnceNotified(401, '/connections', { 'x-api-key': key })).status).toBe(401);
  // The listeners come back by themselves (and start empty).
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const back = await a.sql(`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
    if (Number(back[0]!.n) >= 2) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const again = await a.call('POST', '/auth/generate-apikey', { body: { projectId: a.tenant.projectId, userId: a.tenant.userId, keyName: 'after' } });
  for (let i = 0; i < 2; i++) expect((await onB('/connections', { 'x-api-key': again.body.api_key })).status).toBe(200);
  expect((await a.call('DELETE', `/auth/api-keys/${again.body.id_api_key}`)).status).toBe(200);
  expect((await onBOnceNotified(401, '/connections', { 'x-api-key': again.body.api_key })).status).toBe(401);
});
