import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Tenant, type TestServer } from '../support/harness';

let server: TestServer;
let other: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  other = await server.createTenant('other');
});
afterAll(() => server.close());

describe('API keys', () => {
  it('generates a key for a user of the project; the new key works with both headers', async () => {
    const { tenant } = server;
    const res = await server.call('POST', '/auth/generate-apikey', {
      body: { projectId: tenant.projectId, userId: tenant.userId, keyName: 'ci' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key_name: 'ci', id_project: tenant.projectId, id_user: tenant.userId });
    expect(res.body.api_key).toMatch(/^sk_test_[A-Za-z0-9]{43}$/);
    expect(res.body.id_api_key).toMatch(/^[0-9a-f-]{36}$/);

    const viaHeader = await server.call('GET', '/auth/api-keys', { apiKey: null, headers: { 'x-api-key': res.body.api_key } });
    expect(viaHeader.status).toBe(200);
    const viaBearer = await server.call('GET', '/auth/api-keys', { apiKey: null, headers: { authorization: `Bearer ${res.body.api_key}` } });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body.data.map((k: { key_name: string }) => k.key_name)).toEqual(['bootstrap', 'ci']);
    // The secret is never listed again, only its prefix.
    expect(JSON.stringify(viaBearer.body)).not.toContain(res.body.api_key);
  });

  it('stores only the SHA-256 of a key', async () => {
    const rows = await server.sql('select key_hash from api_keys');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const dump = JSON.stringify(await server.sql('select * from api_keys'));
    expect(dump).not.toContain(server.tenant.apiKey);
  });

  it('answers a missing, malformed, unknown or revoked key with 401 and the error body', async () => {
    const missing = await server.call('GET', '/auth/api-keys', { apiKey: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', details: { code: 'unauthorized' } });
    expect(missing.body.details.request_id).toBe(missing.headers.get('x-request-id'));

    for (const key of ['nope', 'sk_test_' + 'a'.repeat(43), 'Bearer']) {
      const res = await server.call('GET', '/auth/api-keys', { apiKey: key });
      expect(res.status).toBe(401);
    }
    const badScheme = await server.call('GET', '/auth/api-keys', { apiKey: null, headers: { authorization: `Basic ${server.tenant.apiKey}` } });
    expect(badScheme.status).toBe(401);

    const created = await server.call('POST', '/auth/generate-apikey', {
      body: { projectId: server.tenant.projectId, userId: server.tenant.userId, keyName: 'short-lived' },
    });
    const revoked = await server.call('DELETE', `/auth/api-keys/${created.body.id_api_key}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toEqual(expect.any(String));
    const again = await server.call('DELETE', `/auth/api-keys/${created.body.id_api_key}`);
    expect(again.status).toBe(200);
    const afterRevoke = await server.call('GET', '/auth/api-keys', { apiKey: created.body.api_key });
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.message).toMatch(/revoked/);
  });

  it('treats another project and its users as unknown', async () => {
    const { tenant } = server;
    const foreignProject = await server.call('POST', '/auth/generate-apikey', {
      body: { projectId: other.projectId, userId: other.userId, keyName: 'steal' },
    });
    expect(foreignProject.status).toBe(404);
    expect(foreignProject.body.details).toMatchObject({ code: 'not_found', field: 'projectId' });

    const foreignUser = await server.call('POST', '/auth/generate-apikey', {
      body: { projectId: tenant.projectId, userId: other.userId, keyName: 'steal' },
    });
    expect(foreignUser.status).toBe(404);
    expect(foreignUser.body.details).toMatchObject({ field: 'userId' });

    const otherKeys = await server.call('GET', '/auth/api-keys', { apiKey: other.apiKey });
    const otherKeyId = otherKeys.body.data[0].id_api_key;
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const crossRevoke = await server.call('DELETE', `/auth/api-keys/${otherKeyId}`);
    const unknownRevoke = await server.call('DELETE', `/auth/api-keys/${unknownId}`);
    expect(crossRevoke.status).toBe(404);
    expect({ ...crossRevoke.body, details: { ...crossRevoke.body.details, request_id: 0 } }).toEqual({
      ...unknownRevoke.body,
      details: { ...unknownRevoke.body.details, request_id: 0 },
    });
    // The other project's key still works: nothing was revoked.
    expect((await server.call('GET', '/auth/api-keys', { apiKey: other.apiKey })).status).toBe(200);
    // Each project lists only its own keys.
    const mine = await server.call('GET', '/auth/api-keys');
    expect(mine.body.data.every((k: { id_project: string }) => k.id_project === tenant.projectId)).toBe(true);
  });

  it('rejects invalid bodies with the path of each field', async () => {
    const res = await server.call('POST', '/auth/generate-apikey', { body: { projectId: 42, keyName: '', extra: true } });
    expect(res.status).toBe(400);
    expect(res.body.details.code).toBe('validation_failed');
    const paths = res.body.details.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['body.projectId', 'body.userId', 'body.keyName']));
    expect(JSON.stringify(res.body.details.issues)).toContain('extra');
  });

  it('paginates keys with opaque cursors both ways', async () => {
    for (let i = 0; i < 5; i++) {
      await server.call('POST', '/auth/generate-apikey', {
        body: { projectId: server.tenant.projectId, userId: server.tenant.userId, keyName: `page-${i}` },
      });
    }
    const all = (await server.call('GET', '/auth/api-keys?limit=1000')).body.data.map((k: { id_api_key: string }) => k.id_api_key);
    const seen: string[] = [];
    let cursor: string | null = null;
    let lastPage: { prev_cursor: string | null } | undefined;
    do {
      const res = await server.call('GET', `/auth/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((k: { id_api_key: string }) => k.id_api_key));
      cursor = res.body.next_cursor;
      lastPage = res.body;
    } while (cursor);
    expect(seen).toEqual(all);
    const back = await server.call('GET', `/auth/api-keys?limit=2&cursor=${lastPage!.prev_cursor}`);
    expect(back.body.data.map((k: { id_api_key: string }) => k.id_api_key)).toEqual(all.slice(-2 - (all.length % 2 || 2), -(all.length % 2 || 2)));
    const bad = await server.call('GET', '/auth/api-keys?cursor=garbage');
    expect(bad.status).toBe(400);
    expect(bad.body.details.field).toBe('cursor');
    const tooMany = await server.call('GET', '/auth/api-keys?limit=1001');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details.issues[0].path).toBe('querystring.limit');
  });
});
