import { expect } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import type { TestServer } from './harness';
import type { OAuthSimulator } from '../simulators/oauth';
import { acmeOAuthProvider, acmeTokenProvider } from './connect-providers';

/** The test-only providers of the connect page (OAuth and token-based). */
export const connectRegistry = () => new ProviderRegistry([acmeOAuthProvider, acmeTokenProvider]);

/** Sets the project's OAuth app for acme-oauth and registers Omniport's callback with the simulator. */
export async function setOAuthApp(server: TestServer, sim: OAuthSimulator, apiKey = server.tenant.apiKey, extra: Record<string, unknown> = {}) {
  const client = sim.clients[0]!;
  const res = await server.call('PUT', '/oauth-apps/acme-oauth', {
    apiKey,
    body: { client_id: client.clientId, client_secret: client.clientSecret, ...extra },
  });
  expect(res.status).toBe(200);
  sim.addRedirectUri(client.clientId, `${server.url}/connect/oauth/callback`);
  return res.body.data;
}

export async function createLink(server: TestServer, body: Record<string, unknown> = {}, apiKey = server.tenant.apiKey) {
  const res = await server.call('POST', '/magic-link/create', { apiKey, body: { linked_user_origin_id: 'cust-oauth', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id_invite_link: string; url: string; expires_at: string; linked_user: { id_linked_user: string } };
}

export interface Page {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

/** A browser-less request: redirects not followed, cookies given explicitly. */
export async function request(url: string, init: { method?: string; form?: Record<string, string>; cookie?: string } = {}): Promise<Page> {
  const headers: Record<string, string> = {};
  if (init.cookie) headers.cookie = init.cookie;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
}

/** Starts the OAuth flow from a magic link: the authorize URL and the flow cookie (`name=value`). */
export async function startOAuth(linkUrl: string, baseUrl: string, provider = 'acme-oauth') {
  const res = await request(`${linkUrl}/providers/${provider}/oauth`, { form: { base_url: baseUrl } });
  expect(res.status, res.text).toBe(303);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0]!;
  expect(cookie).toMatch(/^omniport_oauth_[0-9a-f]{32}=/);
  return { authorizeUrl: new URL(res.location!), cookie, setCookie };
}

/** What the simulator's Approve (or Deny) button does: the URL the browser is sent back to. */
export async function decide(sim: OAuthSimulator, authorizeUrl: URL, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const form = Object.fromEntries(authorizeUrl.searchParams);
  const res = await request(`${sim.url}${sim.paths.authorize}/decision`, { form: { ...form, decision } });
  expect(res.status).toBe(302);
  return new URL(res.location!);
}

/** The whole flow without a browser: returns the callback's answer. */
export async function connectWithOAuth(linkUrl: string, sim: OAuthSimulator, baseUrl = sim.url) {
  const { authorizeUrl, cookie } = await startOAuth(linkUrl, baseUrl);
  const callback = await decide(sim, authorizeUrl);
  const res = await request(callback.href, { cookie });
  return { res, cookie, callback, authorizeUrl };
}
