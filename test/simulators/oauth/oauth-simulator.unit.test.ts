import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthSimulator, type OAuthSimulator } from './index';

/** The OAuth 2.0 simulator keeps the rules the connect page's tests rely on. */

let sim: OAuthSimulator;
const redirectUri = 'http://127.0.0.1:9/callback';
const verifier = 'v'.repeat(50);
const challenge = createHash('sha256').update(verifier).digest('base64url');

beforeAll(async () => {
  sim = await startOAuthSimulator();
  sim.addRedirectUri(sim.clients[0]!.clientId, redirectUri);
});
afterAll(() => sim.close());

const client = () => sim.clients[0]!;

async function get(path: string) {
  const res = await fetch(sim.url + path, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

async function post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(sim.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), body: text ? (JSON.parse(text) as Record<string, string>) : {} };
}

const authorizeQuery = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ response_type: 'code', client_id: client().clientId, redirect_uri: redirectUri, state: 's1', code_challenge: challenge, code_challenge_method: 'S256', ...extra });

async function code(extra: Record<string, string> = {}): Promise<string> {
  const res = await post('/oauth/authorize/decision', { ...Object.fromEntries(authorizeQuery(extra)), decision: 'approve' });
  return new URL(res.location!).searchParams.get('code')!;
}

const exchange = (c: string, extra: Record<string, string> = {}) =>
  post('/oauth/token', { grant_type: 'authorization_code', code: c, redirect_uri: redirectUri, code_verifier: verifier, client_id: client().clientId, client_secret: client().clientSecret, ...extra });

const refresh = (token: string) =>
  post('/oauth/token', { grant_type: 'refresh_token', refresh_token: token, client_id: client().clientId, client_secret: client().clientSecret });

describe('authorization endpoint', () => {
  it('shows a consent page, and refuses unknown clients and redirect URIs without redirecting', async () => {
    const page = await get(`/oauth/authorize?${authorizeQuery()}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Approve');
    expect((await get(`/oauth/authorize?${authorizeQuery({ client_id: 'nope' })}`)).status).toBe(400);
    const badRedirect = await get(`/oauth/authorize?${authorizeQuery({ redirect_uri: 'https://evil.example.net/cb' })}`);
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.location).toBeNull();
  });

  it('answers protocol errors and a denial at the redirect URI, with the state', async () => {
    const badType = new URL((await get(`/oauth/authorize?${authorizeQuery({ response_type: 'token' })}`)).location!);
    expect(Object.fromEntries(badType.searchParams)).toMatchObject({ error: 'unsupported_response_type', state: 's1' });
    const plain = new URL((await get(`/oauth/authorize?${authorizeQuery({ code_challenge_method: 'plain' })}`)).location!);
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    const denied = await post('/oauth/authorize/decision', { ...Object.fromEntries(authorizeQuery()), decision: 'deny' });
    expect(Object.fromEntries(new URL(denied.location!).searchParams)).toMatchObject({ error: 'access_denied', state: 's1' });
  });
});

describe('token endpoint', () => {
  it('exchanges a code once, checking the client, the redirect URI and PKCE', async () => {
    expect((await exchange(await code(), { code_verifier: 'w'.repeat(50) })).body).toMatchObject({ error: 'invalid_grant', error_description: 'PKCE verification failed' });
    expect((await exchange(await code(), { code_verifier: '' })).body.error_description).toBe('code_verifier required');
    expect((await exchange(await code(), { redirect_uri: 'http://127.0.0.1:9/other' })).body.error_description).toBe('redirect_uri does not match');
    const wrongSecret = await exchange(await code(), { client_secret: 'nope' });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe('invalid_client');

    const c = await code();
    const ok = await exchange(c);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.stringMatching(/^sim_at_/), refresh_token: expect.stringMatching(/^sim_rt_/) });
    // A replayed code is refused and revokes what it issued.
    expect((await exchange(c)).body).toMatchObject({ error: 'invalid_grant', error_description: 'authorization code already used' });
    expect((await refresh(ok.body.refresh_token!)).body.error).toBe('invalid_grant');
  });

  it('accepts client_secret_basic, but not two client authentications at once', async () => {
    const basic = `Basic ${Buffer.from(`${client().clientId}:${client().clientSecret}`).toString('base64')}`;
    const c = await code();
    const viaBasic = await post('/oauth/token', { grant_type: 'authorization_code', code: c, redirect_uri: redirectUri, code_verifier: verifier }, { authorization: basic });
    expect(viaBasic.status).toBe(200);
    const both = await post('/oauth/token', { grant_type: 'authorization_code', code: await code(), redirect_uri: redirectUri, code_verifier: verifier, client_secret: 'x' }, { authorization: basic });
    expect(both.body.error).toBe('invalid_request');
    expect((await post('/oauth/token', { grant_type: 'password', client_id: client().clientId, client_secret: client().clientSecret })).body.error).toBe('unsupported_grant_type');
  });

  it('rotates refresh tokens; reusing a rotated one revokes the whole family', async () => {
    const first = (await exchange(await code())).body;
    const second = await refresh(first.refresh_token!);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    const meWith = (t: string) => fetch(`${sim.url}/api/me`, { headers: { authorization: `Bearer ${t}` } }).then((r) => r.status);
    expect(await meWith(second.body.access_token!)).toBe(200);
    expect((await refresh(first.refresh_token!)).body.error).toBe('invalid_grant'); // reuse detected
    expect(await meWith(second.body.access_token!)).toBe(401);
    expect((await refresh(second.body.refresh_token!)).body.error).toBe('invalid_grant');
  });

  it('revokes tokens (RFC 7009)', async () => {
    const tokens = (await exchange(await code())).body;
    const revoked = await post('/oauth/revoke', { token: tokens.refresh_token!, client_id: client().clientId, client_secret: client().clientSecret });
    expect(revoked.status).toBe(200);
    expect((await refresh(tokens.refresh_token!)).body.error).toBe('invalid_grant');
    const me = await fetch(`${sim.url}/api/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toContain('invalid_token');
  });
});
