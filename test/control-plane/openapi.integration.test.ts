/**
 * The OpenAPI document as a product: every operation named (a unique operationId shaped like
 * `ticketing.tickets.list`), public operations marked as needing no API key.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { operationIdOf } from '../../src/http/operation-ids';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ work: false });
});
afterAll(async () => {
  await server?.close();
});

type Operation = { operationId?: string; security?: unknown[] };

it('names every operation uniquely, as a client method would be named', async () => {
  const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body as { paths: Record<string, Record<string, Operation>> };
  const ids: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/);
      ids.push(op.operationId!);
    }
  }
  expect(ids.length).toBeGreaterThan(90);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  expect(ids).toEqual(
    expect.arrayContaining(['ticketing.tickets.list', 'ticketing.tickets.create', 'ticketing.tickets.createBatch', 'ticketing.tickets.get', 'crm.deals.update', 'webhooks.rotateSecret', 'auth.generateApiKey', 'magicLink.create', 'sync.start']),
  );
  // Public operations need no API key; the others inherit the document's security.
  expect(doc.paths['/health']!.get!.security).toEqual([]);
  expect(doc.paths['/ticketing/tickets']!.get!.security).toBeUndefined();
});

it('derives names from method and path', () => {
  expect(operationIdOf('GET', '/crm/contacts')).toBe('crm.contacts.list');
  expect(operationIdOf('GET', '/crm/contacts/:id')).toBe('crm.contacts.get');
  expect(operationIdOf('PATCH', '/crm/contacts')).toBe('crm.contacts.updateByQueryId');
  expect(operationIdOf('POST', '/webhooks/deliveries/:id/retry')).toBe('webhooks.deliveries.retry');
  expect(operationIdOf('GET', '/project')).toBe('project.get');
  expect(operationIdOf('PATCH', '/connect-settings')).toBe('connectSettings.update');
});

it('refuses an unknown query parameter with a 400 naming it', async () => {
  const res = await server.call('GET', '/auth/api-keys?limit=5&status=OPEN');
  expect(res.status).toBe(400);
  expect(JSON.stringify(res.body)).toContain('status');
  expect((await server.call('GET', '/auth/api-keys?limit=5')).status).toBe(200);
});
