/**
 * Passthrough on three providers through the real server: the provider's own answer (any status), with the
 * connection's credentials, never another host, never a caller's credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { zendeskDriver } from '../conformance/drivers/zendesk';
import { githubDriver } from '../conformance/drivers/github';
import { hubspotDriver } from '../conformance/drivers/hubspot';

let server: TestServer;
const sims: Array<{ close(): Promise<void> }> = [];
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ work: false });
  for (const driver of [zendeskDriver, githubDriver, hubspotDriver]) {
    const sim = await driver.start();
    sims.push(sim);
    const res = await server.call('POST', '/connections', { body: { provider: driver.provider, linked_user_origin_id: 'passthrough', ...sim.connection } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    tokens[driver.provider] = res.body.data.connection_token;
  }
});
afterAll(async () => {
  await server?.close();
  for (const s of sims) await s.close();
});

const pass = (provider: string, body: unknown) => server.call('POST', '/passthrough', { headers: { 'x-connection-token': tokens[provider]! }, body });

describe('passthrough', () => {
  it('reads from Zendesk with the connection’s credentials', async () => {
    const res = await pass('zendesk', { method: 'GET', path: '/api/v2/ticket_fields', query: { locale: 'en-US' } });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe(200);
    expect(Array.isArray(res.body.data.body.ticket_fields)).toBe(true);
    expect(res.body.data.headers['content-type']).toMatch(/json/);
    expect(JSON.stringify(res.body)).not.toMatch(/test-token/);
  });

  it('writes to GitHub and hands back a provider refusal as it came', async () => {
    const created = await pass('github', { method: 'POST', path: '/repos/octo-org/helpdesk/issues', body: { title: 'Through passthrough' } });
    expect(created.body.data.status).toBe(201);
    expect(created.body.data.body.title).toBe('Through passthrough');
    const missing = await pass('github', { method: 'GET', path: '/repos/octo-org/no-such-repo' });
    expect(missing.status).toBe(200);
    expect(missing.body.data.status).toBe(404);
  });

  it('searches HubSpot with a POST body', async () => {
    const res = await pass('hubspot', { method: 'POST', path: '/crm/v3/objects/contacts/search', body: { filterGroups: [], limit: 1 } });
    expect(res.body.data.status).toBe(200);
    expect(res.body.data.body).toHaveProperty('results');
  });

  it('refuses absolute URLs, escapes from the base URL and credential overrides, before calling the provider', async () => {
    for (const path of ['https://evil.example.net/x', '//evil.example.net/x', 'api/v2/tickets', '/api/../../etc', '/api/%2e%2e/x', '/a\\b', '/x?y=1', '/\r\nHost: x']) {
      const res = await pass('zendesk', { method: 'GET', path });
      expect(res.status, path).toBe(400);
      expect(res.body.details.field, path).toBe('path');
    }
    for (const header of ['Authorization', 'cookie', 'Host', 'x-api-key', 'Proxy-Authorization']) {
      const res = await pass('zendesk', { method: 'GET', path: '/api/v2/ticket_fields', headers: { [header]: 'Bearer stolen' } });
      expect(res.status, header).toBe(400);
      expect(res.body.details.field).toBe(`headers.${header}`);
    }
    const noToken = await server.call('POST', '/passthrough', { body: { method: 'GET', path: '/api/v2/ticket_fields' } });
    expect(noToken.status).toBe(400);
  });
});
