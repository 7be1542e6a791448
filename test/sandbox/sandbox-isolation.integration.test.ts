import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';

/**
 * Sandbox accounts per project (issue 40, row 2): the sandbox is on by default, so every tenant of an Omniport
 * can connect it; what one project writes in its sandbox must be out of every other project's reach, through
 * the unified API and the passthrough alike.
 */
describe('each project has sandbox accounts of its own', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { OMNIPORT_SANDBOX: 'true' } });
  });
  afterAll(async () => server?.close());

  const connect = async (apiKey: string, provider: string) => {
    const started = Date.now();
    const res = await server.call('POST', '/connections', { apiKey, body: { provider, linked_user_origin_id: 'customer-42' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const token = res.body.data.connection_token as string;
    // The first sync, with this project's key.
    for (const deadline = started + 60_000; ; ) {
      const status = await server.call('GET', '/sync/status', { apiKey, headers: { 'x-connection-token': token } });
      const streams = status.body.data.streams as { status: string; last_success_at: string | null }[];
      if (streams.length && streams.every((st) => st.status === 'idle' && st.last_success_at)) return token;
      if (Date.now() > deadline) throw new Error(`the first sync did not finish: ${JSON.stringify(status.body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const passthrough = (apiKey: string, token: string, body: Record<string, unknown>) =>
    server.call('POST', '/passthrough', { apiKey, headers: { 'x-connection-token': token }, body });

  it('project B’s passthrough neither reads nor changes project A’s sandbox tickets', async () => {
    const a = server.tenant;
    const b = await server.createTenant('project-b');
    const tokenA = await connect(a.apiKey, 'sandbox_zendesk');
    const tokenB = await connect(b.apiKey, 'sandbox_zendesk');

    const secret = await server.call('POST', '/ticketing/tickets', { apiKey: a.apiKey, headers: { 'x-connection-token': tokenA }, body: { name: 'Project A only', description: 'Internal.' } });
    expect(secret.status).toBe(201);
    const remoteId = secret.body.data.remote_id as string;

    const read = await passthrough(b.apiKey, tokenB, { method: 'GET', path: `/api/v2/tickets/${remoteId}` });
    expect(read.status).toBe(200);
    expect(read.body.data.status).toBe(404);
    const exported = await passthrough(b.apiKey, tokenB, { method: 'GET', path: '/api/v2/incremental/tickets/cursor', query: { start_time: '0', per_page: '1000' } });
    expect(exported.body.data.status).toBe(200);
    expect(JSON.stringify(exported.body.data.body)).not.toContain('Project A only');

    // A seeded ticket both accounts have: B changing its own leaves A's as it was.
    const seeded = (await server.call('GET', '/ticketing/tickets?limit=1', { apiKey: a.apiKey, headers: { 'x-connection-token': tokenA } })).body.data[0] as { remote_id: string; name: string };
    const changed = await passthrough(b.apiKey, tokenB, { method: 'PUT', path: `/api/v2/tickets/${seeded.remote_id}`, body: { ticket: { subject: 'Changed by project B' } } });
    expect(changed.body.data.status).toBe(200);
    const mine = await passthrough(a.apiKey, tokenA, { method: 'GET', path: `/api/v2/tickets/${seeded.remote_id}` });
    expect(mine.body.data.body.ticket.subject).toBe(seeded.name);
    expect(server.omniport.sandbox!.accountsOf(a.projectId)!.zendesk.state.tickets.get(Number(remoteId))?.subject).toBe('Project A only');
    expect(server.omniport.sandbox!.accountsOf(b.projectId)!.zendesk.state.tickets.get(Number(remoteId))).toBeUndefined();
  });

  it('HubSpot too: project B cannot read the contact project A created', async () => {
    const a = server.tenant;
    const b = await server.createTenant('project-c');
    const tokenA = await connect(a.apiKey, 'sandbox_hubspot');
    const tokenB = await connect(b.apiKey, 'sandbox_hubspot');
    const contact = await server.call('POST', '/crm/contacts', {
      apiKey: a.apiKey,
      headers: { 'x-connection-token': tokenA },
      body: { first_name: 'Only', last_name: 'InA', email_addresses: [{ email_address: 'only.in.a@example.com', email_address_type: 'WORK' }] },
    });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    const read = await passthrough(b.apiKey, tokenB, { method: 'GET', path: `/crm/v3/objects/contacts/${contact.body.data.remote_id}` });
    expect(read.body.data.status).toBe(404);
  });
});
