/**
 * Refusals that depend on a setting name the setting and the value that lifts them; a conflict names the
 * field and the object that holds the value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  // As with PostgreSQL by default: no sandbox, public addresses only, a request budget.
  server = await startTestServer({ work: false, env: { OMNIPORT_SANDBOX: 'false', OMNIPORT_ALLOW_PRIVATE_URLS: 'false', OMNIPORT_RATE_LIMIT_PER_MINUTE: '40' } });
});
afterAll(() => server?.close());

describe('errors that say the fix', () => {
  it('a sandbox provider where the sandbox is off names OMNIPORT_SANDBOX', async () => {
    const res = await server.call('POST', '/connections', { body: { provider: 'sandbox_zendesk', linked_user_origin_id: 'customer-42' } });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('provider');
    expect(res.body.message).toContain('OMNIPORT_SANDBOX=true');
    // The same in every place a provider is named.
    const link = await server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'customer-42', providers: ['sandbox_hubspot'] } });
    expect(link.status, JSON.stringify(link.body)).toBe(400);
    expect(link.body.message).toContain('OMNIPORT_SANDBOX=true');
    // Any other unknown name says nothing of the sandbox.
    const other = await server.call('POST', '/connections', { body: { provider: 'nope', linked_user_origin_id: 'customer-42', credentials: {} } });
    expect(other.body.message).toBe('unknown provider "nope"');
  });

  it('a local webhook receiver names OMNIPORT_ALLOW_PRIVATE_URLS=true, for plain http and for a private address', async () => {
    for (const url of ['http://localhost:4000/hook', 'https://127.0.0.1:4000/hook']) {
      const res = await server.call('POST', '/webhooks', { body: { url, events: ['*'] } });
      expect(res.status, url).toBe(400);
      expect(res.body.details.field).toBe('url');
      expect(res.body.message, url).toContain('OMNIPORT_ALLOW_PRIVATE_URLS=true');
    }
  });

  it('a second POST /linked-users with the same origin id is a 409 naming the field and the existing id', async () => {
    const first = await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'customer-42' } });
    expect(first.status).toBe(201);
    const id = first.body.data.id_linked_user as string;
    const dup = await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'customer-42' } });
    expect(dup.status).toBe(409);
    expect(dup.body.details).toMatchObject({ code: 'conflict', field: 'linked_user_origin_id', id_linked_user: id });
    expect(dup.body.message).toContain(id);
    expect(dup.body.message).toContain('customer-42');
  });

  it('our own request budget names OMNIPORT_RATE_LIMIT_PER_MINUTE', async () => {
    let last;
    for (let i = 0; i < 45; i++) {
      last = await server.call('GET', '/linked-users?limit=1');
      if (last.status === 429) break;
    }
    expect(last!.status).toBe(429);
    expect(last!.body.message).toContain('OMNIPORT_RATE_LIMIT_PER_MINUTE');
  });
});
