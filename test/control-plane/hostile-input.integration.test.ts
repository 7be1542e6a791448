import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { ProviderRegistry } from '../../src/providers/registry';
import { testTokenProvider } from '../support/test-provider';

/** The exact reproductions of issue 20 (rows 5 and 7): each answered 500, or let through, before. */

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ work: false, providers: new ProviderRegistry([testTokenProvider]) });
  const created = await server.call('POST', '/connections', {
    body: { provider: 'acme-desk', linked_user_origin_id: 'hostile', credentials: { email: 'a@example.com', api_token: 't' } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  token = created.body.data.connection_token;
});
afterAll(() => server.close());

const expectValidationError = (res: { status: number; body: any }, field: string) => { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', details: { code: 'validation_failed' } });
  expect(JSON.stringify(res.body.details)).toContain(field);
};

describe('cursors', () => {
  it('a crafted cursor whose key is not a (timestamp, uuid) pair is a 400 naming cursor', async () => {
    // {"d":"next","k":["2020-01-01T00:00:00.000Z","x"]}
    const res = await server.call('GET', '/linked-users?cursor=eyJkIjoibmV4dCIsImsiOlsiMjAyMC0wMS0wMVQwMDowMDowMC4wMDBaIiwieCJdfQ');
    expectValidationError(res, 'cursor');
    expect(res.body.details.field).toBe('cursor');
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const uuid = '7d3c3b0e-2f4a-4c1e-9b1a-1f2e3d4c5b6a';
    for (const k of [[1, 2], ['0000-01-01T00:00:00.000Z', uuid], ['+275760-09-13T00:00:00.000Z', uuid], ['2020-01-01T00:00:00.000Z', uuid, 'x']]) {
      expectValidationError(await server.call('GET', `/connections?cursor=${cursor({ d: 'next', k })}`), 'cursor');
    }
    // Unified lists sort by sequence number: a date there is just as wrong.
    const unified = await server.call('GET', `/ticketing/tickets?cursor=${cursor({ d: 'prev', k: ['x', uuid] })}`, { headers: { 'x-connection-token': token } });
    expectValidationError(unified, 'cursor');
  });

  it('cursors handed out by the API still page both ways', async () => {
    for (let i = 0; i < 3; i++) await server.call('POST', '/linked-users', { body: { linked_user_origin_id: `page-${i}` } });
    const first = await server.call('GET', '/linked-users?limit=2');
    expect(first.body.next_cursor).toBeTruthy();
    const second = await server.call('GET', `/linked-users?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.status).toBe(200);
    const back = await server.call('GET', `/linked-users?limit=2&cursor=${second.body.prev_cursor}`);
    expect(back.body.data.map((u: { id_linked_user: string }) => u.id_linked_user)).toEqual(first.body.data.map((u: { id_linked_user: string }) => u.id_linked_user));
  });
});

it('id filters that are not UUIDs are a 400 naming the filter', async () => {
  expectValidationError(await server.call('GET', '/connections?id_linked_user=abc'), 'id_linked_user');
  expectValidationError(await server.call('GET', '/magic-link?id_linked_user=abc'), 'id_linked_user');
  expectValidationError(await server.call('GET', '/field-mapping/mappings?attributeId=abc'), 'attributeId');
  // Malformed ids in paths stay unknown ids (404), answered without a query.
  expect((await server.call('GET', '/linked-users/abc')).status).toBe(404);
});

it('dates outside 1900–9999 are a 400 naming the field, in queries and bodies', async () => {
  const headers = { 'x-connection-token': token };
  expectValidationError(await server.call('GET', '/ticketing/tickets?created_after=0000-01-01T00:00:00Z', { headers }), 'created_after');
  expectValidationError(await server.call('GET', '/ticketing/users?modified_after=1899-12-31T23:59:59Z', { headers }), 'modified_after');
  expect((await server.call('GET', '/ticketing/tickets?created_after=2020-01-01T00:00:00Z', { headers })).status).toBe(200);
  expectValidationError(await server.call('POST', '/ticketing/tickets', { headers, body: { name: 'x', due_date: '0000-01-01T00:00:00Z' } }), 'due_date');
});

it('NUL and lone surrogates in client text are a 400 naming the field, never stored', async () => {
  const nul = await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'poison\u0000' } });
  expectValidationError(nul, 'body.linked_user_origin_id');
  expect(nul.body.message).toContain('U+0000');
  expectValidationError(await server.call('POST', '/field-mapping/define', {
    body: { object_type_owner: 'ticketing.ticket', name: 'n', description: 'd\u0000', data_type: 'string' },
  }), 'body.description');
  expectValidationError(await server.call('POST', '/linked-users', { body: { linked_user_origin_id: 'ok', alias: 'lone \ud800' } }), 'body.alias');
  expectValidationError(await server.call('GET', '/connections?provider=%00'), 'querystring.provider');
  expectValidationError(await server.call('DELETE', '/oauth-apps/%00'), 'params.provider');
  // A lone surrogate percent-encoded in the path cannot even be decoded: our error format all the same.
  const badUrl = await server.call('GET', '/linked-users/%ED%A0%80');
  expectValidationError(badUrl, 'params');
  expect(badUrl.headers.get('x-request-id')).toBeTruthy();
  expect(await server.sql("select count(*)::int as n from linked_users where origin_id like 'poison%'")).toEqual([{ n: 0 }]);
});

it('a connect-page token with CR/LF, NUL or emoji gets the not-found page, never a Location header', async () => {
  for (const bad of ['ml_abc%0D%0ASet-Cookie:%20x=1', 'ml_%00', 'ml_%F0%9F%98%80', '%20']) {
    for (const path of [`/connect/${bad}/done`, `/connect/${bad}`, `/connect/${bad}/providers/acme-desk`]) {
      const res = await fetch(server.url + path, { redirect: 'manual' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('location'), path).toBeNull();
      expect(res.headers.get('set-cookie'), path).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('</html>');
    }
  }
});

describe('redirect_url', () => {
  it('is compared after normalisation: `..` and empty segments cannot step out of an allowed prefix', async () => {
    const settings = await server.call('PATCH', '/connect-settings', { body: { allowed_redirect_urls: ['https://app-a.example.com/', 'https://app-b.example.com/back/'] } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const create = (redirect_url: string) => server.call('POST', '/magic-link/create', { body: { linked_user_origin_id: 'redirects', redirect_url } });
    for (const escape of [
      'https://app-a.example.com/../..//evil.example.net',
      'https://app-a.example.com//evil.example.net',
      'https://app-b.example.com/back/../../other',
      'https://app-b.example.com/back/%2e%2e/other',
      'https://app-b.example.com/backdoor',
    ]) {
      const refused = await create(escape);
      expect(refused.status, escape).toBe(422);
      expect(refused.body.details).toMatchObject({ code: 'unprocessable', field: 'redirect_url' });
    }
    const accepted = await create('https://APP-A.example.com/done?x=1');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    // Stored and used in its normalised form, the one that was compared.
    const [row] = await server.sql('select redirect_url from invite_links where id = $1', [accepted.body.id_invite_link]);
    expect(row!.redirect_url).toBe('https://app-a.example.com/done?x=1');
  });
});

describe('requests without a valid API key', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ work: false, env: { OMNIPORT_AUTH_FAILURES_PER_MINUTE: '3' } });
  });
  afterAll(() => limited.close());

  it('get a per-address budget: failed attempts past it are 429 with Retry-After in our format, a valid key is still served', async () => {
    // Valid requests never count.
    for (let i = 0; i < 5; i++) expect((await limited.call('GET', '/linked-users')).status).toBe(200);
    expect((await limited.call('GET', '/linked-users', { apiKey: null })).status).toBe(401);
    expect((await limited.call('GET', '/linked-users', { apiKey: 'sk_test_wrong' })).status).toBe(401);
    expect((await limited.call('GET', '/linked-users', { headers: { authorization: 'Bearer sk_test_wrong' }, apiKey: null })).status).toBe(401);
    const refused = await limited.call('GET', '/linked-users', { apiKey: 'sk_test_wrong' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', details: { code: 'rate_limited' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    // Bad attempts from the address are refused for the rest of the minute; a valid key never is, public routes stay open.
    expect((await limited.call('GET', '/linked-users', { apiKey: null })).status).toBe(429);
    expect((await limited.call('GET', '/linked-users')).status).toBe(200);
    expect((await limited.call('GET', '/health', { apiKey: null })).status).toBe(200);
  });
});
