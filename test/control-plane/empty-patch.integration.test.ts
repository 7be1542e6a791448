/**
 * Endpoint 7 as the interface shows it (remote_data in the answer without a query option), and an empty
 * PATCH as a no-op on every object: the stored object answered, the provider not called.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { syncAndWait } from '../support/sync-wait';
import { connectHubSpot, connectZendesk } from '../support/connect-simulators';
import { startHubSpotSimulator, type HubSpotSimulator } from '../simulators/hubspot';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';

let server: TestServer;
let hubspot: HubSpotSimulator;
let zendesk: ZendeskSimulator;
let hsToken: string;
let zdToken: string;

beforeAll(async () => {
  hubspot = await startHubSpotSimulator({ accessTokens: ['hs-patch'] });
  hubspot.seedContacts(2);
  hubspot.seedDeals(3);
  zendesk = await startZendeskSimulator({ validateSpec: false });
  zendesk.seedTickets(2);
  server = await startTestServer();
  hsToken = await connectHubSpot(server, hubspot, 'hs-patch', { origin: 'patch' });
  zdToken = await connectZendesk(server, zendesk, { origin: 'patch' });
  await syncAndWait(server, hsToken);
  await syncAndWait(server, zdToken);
});
afterAll(async () => {
  await server?.close();
  await hubspot?.close();
  await zendesk?.close();
});

/**
 * Updates sent to a simulator. Reads are not counted: the connection's first sync (queued when it was made)
 * may still be running in the background, and HubSpot reads through POST.
 */
const writesTo = (sim: { requests: { method: string }[] }) => sim.requests.filter((r) => r.method !== 'GET' && r.method !== 'POST').length;

it('answers PATCH /crm/deals/{id} with remote_data, and an empty body (the Panora SDK’s) without calling HubSpot', async () => {
  const [deal] = (await server.call('GET', '/crm/deals?limit=1', { headers: { 'x-connection-token': hsToken } })).body.data;
  const before = writesTo(hubspot);
  const empty = await server.call('PATCH', `/crm/deals/${deal.id}`, { body: {} });
  expect(empty.status).toBe(200);
  expect(empty.body.data).toMatchObject({ id: deal.id, remote_id: deal.remote_id, field_mappings: {} });
  expect(empty.body.data.remote_data).toMatchObject({ id: deal.remote_id });
  expect(writesTo(hubspot)).toBe(before);

  const renamed = await server.call('PATCH', `/crm/deals/${deal.id}`, { body: { name: 'Renamed deal' } });
  expect(renamed.status).toBe(200);
  expect(renamed.body.data.name).toBe('Renamed deal');
  expect(renamed.body.data.remote_data.properties.dealname).toBe('Renamed deal');
  const without = await server.call('PATCH', `/crm/deals/${deal.id}?remote_data=false`, { body: { id: deal.id } });
  expect(without.body.data.remote_data ?? null).toBeNull();
});

it('treats an empty PATCH of a contact or a ticket as a no-op', async () => {
  const [contact] = (await server.call('GET', '/crm/contacts?limit=1', { headers: { 'x-connection-token': hsToken } })).body.data;
  const before = writesTo(hubspot);
  const res0 = await server.call('PATCH', `/crm/contacts/${contact.id}`, { body: {} });
  expect(res0.status).toBe(200);
  expect(res0.body.data.id).toBe(contact.id);
  expect(writesTo(hubspot)).toBe(before);
  const [ticket] = (await server.call('GET', '/ticketing/tickets?limit=1', { headers: { 'x-connection-token': zdToken } })).body.data;
  const writes = writesTo(zendesk);
  const res = await server.call('PATCH', `/ticketing/tickets?id=${ticket.id}`, { body: { id: ticket.id } });
  expect(res.status).toBe(200);
  expect(res.body.id).toBe(ticket.id);
  expect(writesTo(zendesk)).toBe(writes);
});

it('accepts the Panora client’s PATCH /crm/<objects>?id= form, body {id} included', async () => {
  const [contact] = (await server.call('GET', '/crm/contacts?limit=1', { headers: { 'x-connection-token': hsToken } })).body.data;
  const before = writesTo(hubspot);
  const noop = await server.call('PATCH', `/crm/contacts?id=${contact.id}`, { body: { id: contact.id } });
  expect(noop.status, JSON.stringify(noop.body)).toBe(200);
  expect(noop.body.data.id).toBe(contact.id);
  expect(writesTo(hubspot)).toBe(before);
  const changed = await server.call('PATCH', `/crm/contacts?id=${contact.id}`, { body: { id: contact.id, first_name: 'Renamed' } });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  expect(changed.body.data.first_name).toBe('Renamed');
  const mismatch = await server.call('PATCH', `/crm/contacts?id=${contact.id}`, { body: { id: '00000000-0000-0000-0000-000000000000' } });
  expect(mismatch.status).toBe(400);
  const [deal] = (await server.call('GET', '/crm/deals?limit=1', { headers: { 'x-connection-token': hsToken } })).body.data;
  const dealNoop = await server.call('PATCH', `/crm/deals?id=${deal.id}`, { body: {} });
  expect(dealNoop.status).toBe(200);
  expect(dealNoop.body.data.remote_data).toBeDefined();
});
