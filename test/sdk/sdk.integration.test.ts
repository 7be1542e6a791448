/**
 * The generated TypeScript SDK (sdk/): up to date with the server's /openapi.json, and used against the
 * real server and a Zendesk simulator — create, list to the end with cursors, patch, and errors (400 and
 * 404) surfaced as typed error bodies.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { syncAndWait } from '../support/sync-wait';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { sdkTypes, sdkTypesFile } from '../../scripts/sdk-generate';
import { createOmniportClient, paginate, type OmniportClient, type OmniportErrorCode } from '../../sdk/src/index';

let server: TestServer;
let zendesk: ZendeskSimulator;
let client: OmniportClient;

beforeAll(async () => {
  zendesk = await startZendeskSimulator({ validateSpec: false });
  zendesk.seedTickets(3);
  server = await startTestServer();
  const connectionToken = await connectZendesk(server, zendesk, { origin: 'sdk-customer' });
  await syncAndWait(server, connectionToken);
  client = createOmniportClient({ baseUrl: server.url, apiKey: server.tenant.apiKey, connectionToken });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await zendesk?.close();
});

describe('the generated SDK', () => {
  it('is what `npm run sdk:generate` produces from the current /openapi.json', async () => {
    const doc = (await server.call('GET', '/openapi.json', { apiKey: null })).body;
    expect(fs.readFileSync(sdkTypesFile, 'utf8') === (await sdkTypes(doc)), 'sdk/src/openapi.d.ts is stale: run npm run sdk:generate').toBe(true);
  });

  it('creates, lists to the end with cursors and patches tickets', async () => {
    const created: string[] = [];
    for (const name of ['SDK one', 'SDK two', 'SDK three']) {
      const { data, error, response } = await client.POST('/ticketing/tickets', { body: { name, description: `${name}, from the SDK`, priority: 'LOW' } });
      expect(error, JSON.stringify(error)).toBeUndefined();
      expect(response.status).toBe(201);
      created.push(data!.data.id);
    }

    const seen: string[] = [];
    let pages = 0;
    for await (const ticket of paginate((cursor) => {
      pages++;
      return client.GET('/ticketing/tickets', { params: { query: { limit: 2, cursor } } });
    })) {
      seen.push(ticket.id);
    }
    expect(seen).toEqual(expect.arrayContaining(created));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(6); // 3 seeded, 3 created
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(seen.length / 2));

    const patched = await client.PATCH('/ticketing/tickets/{id}', { params: { path: { id: created[0]! } }, body: { name: 'SDK one, renamed', status: 'IN_PROGRESS' } });
    expect(patched.error).toBeUndefined();
    expect(patched.data).toMatchObject({ id: created[0], name: 'SDK one, renamed', status: 'IN_PROGRESS' });
    const read = await client.GET('/ticketing/tickets/{id}', { params: { path: { id: created[0]! } } });
    expect(read.data?.data.name).toBe('SDK one, renamed');
  });

  it('surfaces a 400 and a 404 as typed error bodies', async () => {
    const invalid = await client.POST('/ticketing/tickets', { body: { name: 'x', status: 'NOPE' as 'OPEN' } });
    expect(invalid.data).toBeUndefined();
    expect(invalid.response.status).toBe(400);
    const code: OmniportErrorCode | undefined = invalid.error?.details?.code;
    expect(code).toBe('validation_failed');
    expect(invalid.error?.message).toContain('status');

    const missing = await client.GET('/ticketing/tickets/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ statusCode: 404, details: { code: 'not_found' } });
  });
});
