/**
 * One vertical per connection token, on reads as on writes: a CRM token on /ticketing/… (and a ticketing
 * token on /crm/…) is the same 422 naming the token, never an empty list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { createHubSpotAdapter } from '../../src/providers/hubspot';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';
import { startTestServer, type TestServer } from '../support/harness';
import { connect, connectHubSpot } from '../support/connect-simulators';
import { testTokenProvider } from '../support/test-provider';

let sim: HubSpotSimulator;
let server: TestServer;
let hubspot: string;
let desk: string;

beforeAll(async () => {
  sim = await startHubSpotSimulator();
  server = await startTestServer({ work: false, providers: new ProviderRegistry([createHubSpotAdapter(), testTokenProvider]) });
  hubspot = await connectHubSpot(server, sim, 'hs-test-token');
  desk = await connect(server, { provider: 'acme-desk', linked_user_origin_id: 'desk', credentials: { email: 'a@acme.example', api_token: 't' } });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

describe('a token of the other vertical', () => {
  it.each([
    ['hubspot', '/ticketing/tickets', () => hubspot, { name: 'x', description: 'y' }, 'hubspot is not a ticketing provider'],
    ['hubspot', '/ticketing/tags', () => hubspot, undefined, 'hubspot is not a ticketing provider'],
    ['acme-desk', '/crm/contacts', () => desk, { first_name: 'x' }, 'acme-desk is not a CRM provider'],
    ['acme-desk', '/crm/deals', () => desk, undefined, 'acme-desk is not a CRM provider'],
  ])('%s token on %s: the read answers 422 as the write does', async (_p, path, token, writeBody, message) => {
    const headers = { 'x-connection-token': token() };
    const read = await server.call('GET', path, { headers });
    expect(read.status, JSON.stringify(read.body)).toBe(422);
    expect(read.body).toMatchObject({ statusCode: 422, message, details: { code: 'unsupported_by_provider', field: 'x-connection-token' } });
    if (writeBody) {
      const write = await server.call('POST', path, { headers, body: writeBody });
      expect(write.status, JSON.stringify(write.body)).toBe(422);
      expect(write.body).toMatchObject({ error: read.body.error, message, details: { code: 'unsupported_by_provider', field: 'x-connection-token' } });
    }
  });

  it('the token of the right vertical still lists', async () => {
    const res = await server.call('GET', '/crm/contacts', { headers: { 'x-connection-token': hubspot } });
    expect(res.status).toBe(200);
  });
});
