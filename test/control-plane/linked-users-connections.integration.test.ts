import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Tenant, type TestServer } from '../support/harness';
import { testRegistry } from '../support/test-provider';

let server: TestServer;
let other: Tenant;
const unknownId = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  server = await startTestServer({ providers: testRegistry() });
  other = await server.createTenant('other');
});
afterAll(() => server.close());

const strip = (body: { details?: Record<string, unknown> }) => ({ ...body, details: { ...body.details, request_id: undefined } });

describe('linked users', () => {
  it('creates, gets, lists and looks up by origin id; a duplicate origin id is a 409', async () => {
    const created = await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'cust-1', alias: 'Acme', email: 'ops@acme.test' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ statusCode: 201, data: { linked_user_origin_id: 'cust-1', alias: 'Acme', email: 'ops@acme.test' } });
    const id = created.body.data.id_linked_user;

    expect((await server.call('GET', `/linked-users/${id}`)).body.data.id_linked_user).toBe(id);
    const lookup = await server.call('GET', '/linked-users?linked_user_origin_id=cust-1');
    expect(lookup.body.data).toHaveLength(1);
    expect(lookup.body.data[0].id_linked_user).toBe(id);

    const dup = await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'cust-1' } });
    expect(dup.status).toBe(409);
    expect(dup.body.details.code).toBe('conflict');

    const badEmail = await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'x', email: 'not-an-email' } });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.details.issues[0].path).toBe('body.email');
  });

  it('answers another project’s linked users as unknown', async () => {
    const theirs = await server.call('POST', '/linked-users', { apiKey: other.apiKey, body: { linked_user_origin_id: 'cust-1' } });
    expect(theirs.status).toBe(201); // the same origin id in another project is another linked user
    const cross = await server.call('GET', `/linked-users/${theirs.body.data.id_linked_user}`);
    const unknown = await server.call('GET', `/linked-users/${unknownId}`);
    expect(cross.status).toBe(404);
    expect(strip(cross.body)).toEqual(strip(unknown.body));
    expect((await server.call('GET', '/linked-users/not-a-uuid')).status).toBe(404);
    const mine = await server.call('GET', '/linked-users?linked_user_origin_id=cust-1');
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0].id_project).toBe(server.tenant.projectId);
  });
});

describe('connections', () => {
  const credentials = { email: 'agent@acme.test', api_token: 'zd-secret-token-value-123' };

  it('creates a connection with encrypted credentials and a random token', async () => {
    const res = await server.call('POST', '/connections', {
      body: { provider: 'acme-desk', linked_user_origin_id: 'cust-2', credentials, base_url: 'https://acme.example.com/' },
    });
    expect(res.status).toBe(201);
    const conn = res.body.data;
    expect(conn).toMatchObject({ provider: 'acme-desk', vertical: 'ticketing', status: 'valid', base_url: 'https://acme.example.com' });
    expect(conn.connection_token).toMatch(/^ct_[A-Za-z0-9]{43}$/);
    expect(JSON.stringify(res.body)).not.toContain(credentials.api_token);

    // Nothing secret is stored in clear: not the credentials, not the token.
    const rows = await server.sql('select * from connections where id = $1', [conn.id_connection]);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(credentials.api_token);
    expect(stored).not.toContain(credentials.email);
    expect(stored).not.toContain(conn.connection_token);
    // …and the encryption round-trips.
    const row = await server.omniport.services.connections.get(
      { projectId: server.tenant.projectId, userId: server.tenant.userId, apiKeyId: '' },
      conn.id_connection,
    );
    expect(server.omniport.services.connections.credentialsOf(row.row)).toEqual(credentials);
    expect(row.connectionToken).toBe(conn.connection_token);

    // The linked user was created on the fly.
    const lu = await server.call('GET', '/linked-users?linked_user_origin_id=cust-2');
    expect(lu.body.data[0].id_linked_user).toBe(conn.id_linked_user);

    const listed = await server.call('GET', `/connections?id_linked_user=${conn.id_linked_user}`);
    expect(listed.body.data.map((c: { id_connection: string }) => c.id_connection)).toEqual([conn.id_connection]);
    expect((await server.call('GET', `/connections/${conn.id_connection}`)).body.data.connection_token).toBe(conn.connection_token);
  });

  it('validates the provider and its credential fields', async () => {
    const unknown = await server.call('POST', '/connections', {
      body: { provider: 'nope', linked_user_origin_id: 'c', credentials },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toMatchObject({ field: 'provider', allowed: ['acme-desk'] });
    const badCreds = await server.call('POST', '/connections', {
      body: { provider: 'acme-desk', linked_user_origin_id: 'c', credentials: { email: 'x' } },
    });
    expect(badCreds.status).toBe(400);
    const paths = badCreds.body.details.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['credentials.email', 'credentials.api_token']));
    const badUrl = await server.call('POST', '/connections', {
      body: { provider: 'acme-desk', linked_user_origin_id: 'c', credentials, base_url: 'ftp://x' },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.details.issues[0].path).toBe('body.base_url');
  });

  it('answers another project’s connections as unknown, for reads and deletes', async () => {
    const theirs = await server.call('POST', '/connections', {
      apiKey: other.apiKey,
      body: { provider: 'acme-desk', linked_user_origin_id: 'cust-9', credentials },
    });
    const id = theirs.body.data.id_connection;
    const get = await server.call('GET', `/connections/${id}`);
    const del = await server.call('DELETE', `/connections/${id}`);
    const unknownGet = await server.call('GET', `/connections/${unknownId}`);
    expect(get.status).toBe(404);
    expect(del.status).toBe(404);
    expect(strip(get.body)).toEqual(strip(unknownGet.body));
    const mine = await server.call('GET', '/connections?limit=1000');
    expect(mine.body.data.some((c: { id_connection: string }) => c.id_connection === id)).toBe(false);
    const byForeignLinkedUser = await server.call('GET', `/connections?id_linked_user=${theirs.body.data.id_linked_user}`);
    expect(byForeignLinkedUser.body.data).toEqual([]);
    // Still there for its owner.
    expect((await server.call('GET', `/connections/${id}`, { apiKey: other.apiKey })).status).toBe(200);
  });

  it('deletes a connection', async () => {
    const res = await server.call('POST', '/connections', { body: { provider: 'acme-desk', linked_user_origin_id: 'c3', credentials } });
    const id = res.body.data.id_connection;
    expect((await server.call('DELETE', `/connections/${id}`)).status).toBe(204);
    expect((await server.call('GET', `/connections/${id}`)).status).toBe(404);
  });
});
