import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { syncAndWait, waitForSync } from '../support/sync-wait';

/**
 * The built-in sandbox (OMNIPORT_SANDBOX=true): Zendesk and HubSpot simulators served in-process, connected
 * through the real adapters with no credentials, with demo data and changes of their own.
 */
describe('sandbox providers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { OMNIPORT_SANDBOX: 'true' } });
  });
  afterAll(async () => server?.close());

  const connect = async (provider: string, origin: string, extra: Record<string, unknown> = {}) =>
    server.call('POST', '/connections', { body: { provider, linked_user_origin_id: origin, ...extra } });

  it('are listed by GET /providers, clearly marked', async () => {
    const res = await server.call('GET', '/providers');
    expect(res.status).toBe(200);
    const byName = new Map((res.body.data as { name: string; display_name: string; sandbox: boolean; auth_kind: string }[]).map((p) => [p.name, p]));
    expect(byName.get('sandbox_zendesk')).toMatchObject({ display_name: 'Sandbox Zendesk', sandbox: true, auth_kind: 'api_token' });
    expect(byName.get('sandbox_hubspot')).toMatchObject({ display_name: 'Sandbox HubSpot', sandbox: true });
    expect(byName.get('zendesk')).toMatchObject({ sandbox: false });
  });

  it('take neither credentials nor an address from the tenant', async () => {
    const withUrl = await connect('sandbox_zendesk', 'x', { base_url: 'http://127.0.0.1:5432' });
    expect(withUrl.status).toBe(400);
    expect(withUrl.body.details).toMatchObject({ code: 'validation_failed', field: 'base_url' });
    const withCredentials = await connect('sandbox_zendesk', 'x', { credentials: { email: 'a@b.c', api_token: 't' } });
    expect(withCredentials.status).toBe(400);
    expect(withCredentials.body.details).toMatchObject({ field: 'credentials' });
    // A real provider still needs its credentials.
    const real = await connect('zendesk', 'x', { base_url: 'https://acme.zendesk.com' });
    expect(real.status).toBe(400);
    expect(real.body.details.field).toBe('credentials');
  });

  it('Sandbox Zendesk: synced demo tickets, writes, and changes of its own seen by the next sync', async () => {
    const started = Date.now();
    const created = await connect('sandbox_zendesk', 'customer-42');
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ provider: 'sandbox_zendesk', vertical: 'ticketing', base_url: 'sandbox://zendesk' });
    const token = created.body.data.connection_token as string;
    const headers = { 'x-connection-token': token };
    const status = await waitForSync(server, token, started);
    const records = Object.fromEntries(status.streams.map((s) => [s.stream, s.records_in_run]));
    expect(records['ticketing.ticket']).toBeGreaterThanOrEqual(300);
    expect(records['ticketing.comment']).toBeGreaterThanOrEqual(900);

    const tickets = await server.call('GET', '/ticketing/tickets?limit=5', { headers });
    expect(tickets.status).toBe(200);
    expect(tickets.body.data).toHaveLength(5);
    const users = await server.call('GET', '/ticketing/users?limit=100', { headers });
    const contacts = await server.call('GET', '/ticketing/contacts?limit=100', { headers });
    expect(users.body.data.length).toBeGreaterThan(3);
    expect(contacts.body.data.length).toBeGreaterThan(50);

    const ticket = await server.call('POST', '/ticketing/tickets', {
      headers,
      body: { name: 'Printer on fire', description: 'It started smoking.', priority: 'HIGH', tags: ['hardware'], assigned_to: [users.body.data[0].id], contact_id: contacts.body.data[0].id },
    });
    expect(ticket.status).toBe(201);
    const id = ticket.body.data.id as string;
    const comment = await server.call('POST', '/ticketing/comments', { headers, body: { ticket_id: id, body: 'On our way' } });
    expect(comment.status).toBe(201);
    const patched = await server.call('PATCH', `/ticketing/tickets?id=${id}`, { body: { status: 'CLOSED' } });
    expect(patched.status).toBe(200);
    expect(patched.body.status).toBe('CLOSED');
    const remote = server.omniport.sandbox!.accountsOf(server.tenant.projectId)!.zendesk.state.tickets.get(Number(ticket.body.data.remote_id));
    expect(remote?.subject).toBe('Printer on fire');

    // The sandbox changes records on its own (every minute; here at once): the next incremental sync sees them.
    const before = Date.now();
    server.omniport.sandbox!.changeSomething();
    await syncAndWait(server, token);
    const changed = await server.call('GET', `/ticketing/tickets?limit=1000&modified_after=${encodeURIComponent(new Date(before - 1000).toISOString())}`, { headers });
    expect(changed.status).toBe(200);
    expect(changed.body.data.length).toBeGreaterThanOrEqual(1);
  });

  it('Sandbox HubSpot: contacts, companies and deals in stages', async () => {
    const started = Date.now();
    const created = await connect('sandbox_hubspot', 'customer-42');
    expect(created.status).toBe(201);
    const token = created.body.data.connection_token as string;
    const headers = { 'x-connection-token': token };
    await waitForSync(server, token, started);
    const contacts = await server.call('GET', '/crm/contacts?limit=1000', { headers });
    const companies = await server.call('GET', '/crm/companies?limit=100', { headers });
    const deals = await server.call('GET', '/crm/deals?limit=100', { headers });
    const stages = await server.call('GET', '/crm/stages?limit=100', { headers });
    expect(contacts.body.data.length).toBeGreaterThanOrEqual(250);
    expect(companies.body.data.map((c: { name: string }) => c.name)).toContain('Northwind Traders');
    expect(deals.body.data.length).toBeGreaterThanOrEqual(80);
    const stageIds = new Set(stages.body.data.map((s: { id: string }) => s.id));
    expect(deals.body.data.every((d: { stage_id: string }) => stageIds.has(d.stage_id))).toBe(true);

    const deal = deals.body.data[0] as { id: string };
    const patched = await server.call('PATCH', `/crm/deals/${deal.id}`, { body: { amount: '1234.56' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.amount).toBe('1234.56');
  });

  it('each project sees only its own sandbox connections', async () => {
    const other = await server.createTenant('other');
    const list = await server.call('GET', '/connections', { apiKey: other.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(0);
  });
});

describe('the sandbox setting', () => {
  it('is off in the tests by default and adds no provider', async () => {
    const server = await startTestServer();
    try {
      const res = await server.call('GET', '/providers');
      expect(res.body.data.some((p: { sandbox: boolean }) => p.sandbox)).toBe(false);
      expect(server.omniport.sandbox).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
