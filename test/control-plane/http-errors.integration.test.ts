import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, type TestServer } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { OMNIPORT_BODY_LIMIT_BYTES: '2048' } });
});
afterAll(() => server.close());

describe('errors, health and documentation', () => {
  it('answers malformed JSON, wrong content type, too large bodies and unknown routes with the error body', async () => {
    const malformed = await server.call('POST', '/linked-users', { rawBody: '{"linked_user_origin_id":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ statusCode: 400, error: 'Bad Request', details: { code: 'malformed_json' } });

    const wrongType = await server.call('POST', '/linked-users', { rawBody: 'linked_user_origin_id=x', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.details.code).toBe('unsupported_media_type');

    const tooLarge = await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'x'.repeat(5000) } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.details.code).toBe('payload_too_large');

    const route = await server.call('GET', '/no/such/route');
    expect(route.status).toBe(404);
    expect(route.body.details.code).toBe('route_not_found');
    // Unknown routes are 404 even without a key: nothing to authenticate against.
    expect((await server.call('GET', '/no/such/route', { apiKey: null })).status).toBe(404);
  });

  it('echoes a plausible request id and never reflects an implausible one', async () => {
    const res = await server.call('GET', '/nope', { headers: { 'x-request-id': 'req-12345678' } });
    expect(res.headers.get('x-request-id')).toBe('req-12345678');
    expect(res.body.details.request_id).toBe('req-12345678');
    const forged = await server.call('GET', '/nope', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves health and readiness without a key', async () => {
    expect((await server.call('GET', '/health', { apiKey: null })).body).toEqual({ status: 'ok' });
    const ready = await server.call('GET', '/ready', { apiKey: null });
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });

  it('serves a valid OpenAPI 3 document and the interactive docs', async () => {
    const res = await server.call('GET', '/openapi.json', { apiKey: null });
    expect(res.status).toBe(200);
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/auth/generate-apikey', '/auth/api-keys', '/auth/api-keys/{id}', '/linked-users', '/connections/{id}']),
    );
    const docs = await fetch(`${server.url}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });
});
