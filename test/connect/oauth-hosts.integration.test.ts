/**
 * The project's OAuth app is used only on the provider's own hosts (src/core/oauth-hosts.ts): for every provider
 * whose token endpoint is relative to the account's address, an OAuth start on another host is refused before the
 * browser is sent anywhere (so the callback can never POST the client secret there), a valid host still reaches
 * its authorize page, an app registered for one self-managed host is used for that host only, and a renewal of a
 * connection whose login host is not the provider's never calls it. Run with the address guard on, as in production.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressResolver } from '../../src/core/network';
import { defaultProviders, ProviderRegistry } from '../../src/providers/registry';
import { zohoAdapter } from '../../src/providers/zoho';
import { startTestServer, type TestServer } from '../support/harness';
import { startZohoSimulator, type ZohoSimulator } from '../simulators/zoho';
import { createLink, request } from '../support/connect-flow';

/** Names the test plays as public (none resolves on this machine): the provider's and the attacker's. */
const PUBLIC_NAMES = /(^|\.)(zendesk\.com|salesforce\.com|gitlab\.com|zoho\.[a-z.]+|zohocloud\.ca|service-now\.com|attacker\.example|acme-corp\.example)$/;
const realLookup = addressResolver.lookup;
const looked: string[] = [];

let server: TestServer;
beforeAll(async () => {
  addressResolver.lookup = ((host: string, options: object, callback: (e: Error | null, a: LookupAddress[]) => void) => {
    looked.push(host);
    if (!PUBLIC_NAMES.test(host)) return (realLookup as unknown as (h: string, o: object, c: unknown) => void)(host, options, callback);
    callback(null, [{ address: '93.184.216.34', family: 4 }]);
  }) as typeof addressResolver.lookup;
  server = await startTestServer({ work: false, providers: new ProviderRegistry(defaultProviders()), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'false' } });
  for (const provider of ['zendesk', 'salesforce', 'gitlab', 'zoho', 'servicenow']) {
    const res = await server.call('PUT', `/oauth-apps/${provider}`, { body: { client_id: `${provider}-client`, client_secret: `${provider}-secret-value` } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});
afterAll(async () => {
  addressResolver.lookup = realLookup;
  await server?.close();
});

const flowCount = async () => Number((await server.sql('select count(*)::int as n from oauth_flows'))[0]!.n);

/** Starts the OAuth flow from a fresh magic link with the form as the connect page posts it. */
async function start(provider: string, form: Record<string, string>) {
  const link = await createLink(server, { linked_user_origin_id: `hosts-${provider}-${Math.random()}` });
  return request(`${link.url}/providers/${provider}/oauth`, { form });
}

// Each provider whose token URL depends on the account's host, a valid account or login address and where its
// authorize page is, and the addresses an attacker holding a magic link would type.
const cases: { provider: string; valid: Record<string, string>; authorize: string }[] = [
  { provider: 'zendesk', valid: { base_url: 'https://acme.zendesk.com' }, authorize: 'https://acme.zendesk.com/oauth/authorizations/new' },
  { provider: 'salesforce', valid: { base_url: 'https://test.salesforce.com' }, authorize: 'https://test.salesforce.com/services/oauth2/authorize' },
  {
    provider: 'salesforce',
    valid: { base_url: 'https://login.salesforce.com', login_host: 'https://acme--dev.sandbox.my.salesforce.com' },
    authorize: 'https://acme--dev.sandbox.my.salesforce.com/services/oauth2/authorize',
  },
  { provider: 'gitlab', valid: { base_url: 'https://gitlab.com' }, authorize: 'https://gitlab.com/oauth/authorize' },
  { provider: 'zoho', valid: { base_url: 'https://accounts.zoho.uk' }, authorize: 'https://accounts.zoho.uk/oauth/v2/auth' },
  { provider: 'servicenow', valid: { base_url: 'https://acme.service-now.com' }, authorize: 'https://acme.service-now.com/oauth_auth.do' },
];
const attacks = [
  'https://93.184.216.34',
  'https://attacker.example',
  'https://zendesk.com.attacker.example',
  'https://salesforce.com.attacker.example',
  'https://acme.zendesk.com:8443',
  'http://acme.zendesk.com',
  'https://my.salesforce.com',
  'https://accounts.zoho.com.attacker.example',
  'https://acme.service-now.com.attacker.example',
];

describe('OAuth bound to the provider hosts', () => {
  it.each(cases)('$provider: a valid address reaches its authorize page ($authorize)', async ({ provider, valid, authorize }) => {
    const res = await start(provider, valid);
    expect(res.status, res.text).toBe(303);
    const url = new URL(res.location!);
    expect(`${url.origin}${url.pathname}`).toBe(authorize);
    expect(url.searchParams.get('client_id')).toBe(`${provider}-client`);
  });

  it.each(['zendesk', 'salesforce', 'gitlab', 'zoho', 'servicenow'])('%s: any other host is refused before the browser is sent anywhere', async (provider) => {
    const before = await flowCount();
    for (const address of attacks) {
      const forms: Record<string, string>[] = [{ base_url: address }, ...(provider === 'salesforce' ? [{ base_url: 'https://login.salesforce.com', login_host: address }] : [])];
      for (const form of forms) {
        const res = await start(provider, form);
        expect(res.status, `${provider} ${JSON.stringify(form)}: ${res.text.slice(0, 200)}`).toBe(400);
        expect(res.location).toBeNull();
        expect(res.headers.get('set-cookie')).toBeNull();
        expect(res.text, address).toMatch(/OAuth app can be used with/);
        expect(res.text).not.toContain(`${provider}-secret-value`);
      }
    }
    expect(await flowCount()).toBe(before);
  });

  it('an OAuth app registered on a self-managed GitLab is used for that host only', async () => {
    const app = await server.call('PUT', '/oauth-apps/gitlab', {
      body: { client_id: 'acme-gitlab', client_secret: 'acme-gitlab-secret', authorize_url: 'https://gitlab.acme-corp.example/oauth/authorize', token_url: 'https://gitlab.acme-corp.example/oauth/token' },
    });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    const ok = await start('gitlab', { base_url: 'https://gitlab.acme-corp.example' });
    expect(ok.status, ok.text).toBe(303);
    expect(new URL(ok.location!).host).toBe('gitlab.acme-corp.example');
    // Its tokens are for its own instance: neither GitLab.com nor another host gets them.
    for (const base_url of ['https://gitlab.com', 'https://attacker.example']) {
      const res = await start('gitlab', { base_url });
      expect(res.status, base_url).toBe(400);
    }
    await server.call('PUT', '/oauth-apps/gitlab', { body: { client_id: 'gitlab-client', client_secret: 'gitlab-secret-value', authorize_url: null, token_url: null } });
  });

  it('the connect page offers Zoho UK and a My Domain address for Salesforce', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'hosts-page' });
    expect((await request(`${link.url}/providers/zoho`)).text).toContain('United Kingdom (accounts.zoho.uk)');
    const salesforce = (await request(`${link.url}/providers/salesforce`)).text;
    expect(salesforce).toContain('name="login_host"');
    expect(salesforce).toContain('https://your-org.my.salesforce.com');
  });
});

describe('renewals go only to the provider hosts', () => {
  let local: TestServer;
  let zoho: ZohoSimulator;
  beforeAll(async () => {
    zoho = await startZohoSimulator({ accessTokens: ['zoho-live-token'] });
    // The simulator is on loopback: this server allows it, and still binds OAuth to Zoho's hosts.
    local = await startTestServer({ work: false, providers: new ProviderRegistry([zohoAdapter]), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
    expect((await local.call('PUT', '/oauth-apps/zoho', { body: { client_id: 'zoho-client', client_secret: 'zoho-secret-value' } })).status).toBe(200);
  });
  afterAll(async () => {
    await local?.close();
    await zoho?.close();
  });

  it('a token connection naming its own accounts server is never renewed there with the project secret', async () => {
    // Made with POST /connections, whose credentials may carry any field: the renewal would go to accounts_server.
    const made = await local.call('POST', '/connections', {
      body: {
        provider: 'zoho',
        linked_user_origin_id: 'zoho-attacker',
        base_url: zoho.url,
        credentials: { access_token: 'zoho-live-token', refresh_token: 'rt-1', accounts_server: 'https://attacker.example', expires_at: '2000-01-01T00:00:00.000Z' },
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const lookedBefore = looked.length;
    const res = await local.call('POST', '/crm/contacts', { headers: { 'x-connection-token': made.body.data.connection_token }, body: { last_name: 'Never sent' } });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.details.code).toBe('needs_reauth');
    expect(res.body.message).toMatch(/does not renew tokens for this address/);
    expect(looked.slice(lookedBefore)).not.toContain('attacker.example');
    const [row] = await local.sql('select status from connections where id = $1', [made.body.data.id_connection]);
    expect(row!.status).toBe('needs_reauth');
  });
});
