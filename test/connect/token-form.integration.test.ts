import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { startOAuthSimulator, type OAuthSimulator } from '../simulators/oauth';
import { connectRegistry, createLink, request } from '../support/connect-flow';

let server: TestServer;
let sim: OAuthSimulator;
const email = 'jane@acme.test';
const apiToken = 'crm-token-3f9a8b7c6d5e';

beforeAll(async () => {
  sim = await startOAuthSimulator();
  sim.addApiToken(email, apiToken);
  server = await startTestServer({ providers: connectRegistry(), env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'true' } });
  await server.call('PATCH', '/connect-settings', { body: { allowed_redirect_urls: ['https://app.example.com/'] } });
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

describe('token-based providers on the connect page', () => {
  it('shows the provider’s fields with labels, help and the right input types', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-form-1' });
    const page = await request(`${link.url}/providers/acme-crm`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="form-base_url">Your Acme CRM address</label>');
    expect(page.text).toMatch(/<label for="f-email">Email<\/label>\s*<p class="help" id="f-email-help">The email address you sign in to Acme CRM with.<\/p>/);
    expect(page.text).toMatch(/<input id="f-email" name="email" type="email"/);
    expect(page.text).toMatch(/<input id="f-api_token" name="api_token" type="password"/);
    expect(page.text).toMatch(/<label for="f-api_token">API token<\/label>/);
    expect(page.text).toContain(`action="/connect/${link.url.split('/connect/')[1]}/providers/acme-crm/credentials"`);
    // Every script and style carries the response's nonce; nothing inline without it.
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy')!)![1]!;
    expect(page.text).toContain(`<script nonce="${nonce}">`);
    expect(page.text).not.toMatch(/ on[a-z]+="/);
  });

  it('explains what is wrong, keeps what was typed (never the token), and connects nothing', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-form-2' });
    const url = `${link.url}/providers/acme-crm/credentials`;
    const empty = await request(url, { form: { base_url: sim.url, email: 'not-an-email', api_token: '' } });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Please correct the fields marked below.');
    expect(empty.text).toMatch(/id="f-email" name="email" type="email" value="not-an-email"[^>]*aria-invalid="true"/);
    expect(empty.text).toContain('Enter your API token');
    expect(empty.text).toContain(`value="${sim.url}"`);

    const wrong = await request(url, { form: { base_url: sim.url, email, api_token: 'wrong-token-value' } });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('Acme CRM did not accept these credentials');
    expect(wrong.text).not.toContain('wrong-token-value');
    expect(wrong.text).toContain(`value="${email}"`);

    const noAddress = await request(url, { form: { email, api_token: apiToken } });
    expect(noAddress.status).toBe(400);
    expect(noAddress.text).toContain('Enter the address of your Acme CRM account');

    const xss = await request(url, { form: { base_url: sim.url, email: '"><script>alert(1)</script>', api_token: 'x' } });
    expect(xss.text).not.toContain('<script>alert(1)</script>');
    expect(xss.text).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');

    expect((await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data).toEqual([]);
  });

  it('checks the credentials with the provider, then creates the connection and its event', async () => {
    const link = await createLink(server, { linked_user_origin_id: 'cust-form-3', redirect_url: 'https://app.example.com/back' });
    const res = await request(`${link.url}/providers/acme-crm/credentials`, { form: { base_url: `${sim.url}/`, email, api_token: apiToken } });
    expect(res.status, res.text).toBe(303);
    const success = await request(new URL(res.location!, server.url).href);
    expect(success.text).toContain('Acme CRM is connected');
    expect(success.text).toContain('href="https://app.example.com/back"');
    expect(sim.apiCalls.at(-1)).toMatchObject({ path: '/api/me', token: `basic:${email}`, status: 200 });

    const conns = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(conns).toMatchObject([{ provider: 'acme-crm', vertical: 'crm', status: 'valid', base_url: sim.url }]);
    const events = await server.sql("select type, payload from events where payload->>'id_connection' = $1", [conns[0].id_connection]);
    expect(events).toMatchObject([{ type: 'connection.created', payload: { via: 'connect_form' } }]);
    // The connection token is kept for webhook delivery, encrypted: never in clear in the table.
    expect(server.box.decrypt((events[0]!.payload as Record<string, string>).connection_token_encrypted!)).toBe(conns[0].connection_token);
    expect(JSON.stringify(events)).not.toContain(conns[0].connection_token);
    expect(JSON.stringify(events)).not.toContain(apiToken);
    expect(JSON.stringify(await server.sql('select * from connections'))).not.toContain(apiToken);

    // The list page now shows it as connected.
    expect((await request(link.url)).text).toMatch(/Acme CRM<\/span>[\s\S]*?Connected/);

    // Connecting the same account again re-authorises the connection (same id and token).
    await server.sql("update connections set status = 'needs_reauth' where id = $1", [conns[0].id_connection]);
    expect((await request(link.url)).text).toContain('Needs reconnecting');
    const again = await request(`${link.url}/providers/acme-crm/credentials`, { form: { base_url: sim.url, email, api_token: apiToken } });
    expect((await request(new URL(again.location!, server.url).href)).text).toContain('Acme CRM is reconnected');
    const after = (await server.call('GET', `/connections?id_linked_user=${link.linked_user.id_linked_user}`)).body.data;
    expect(after).toMatchObject([{ id_connection: conns[0].id_connection, connection_token: conns[0].connection_token, status: 'valid' }]);
    const types = (await server.sql("select type from events where payload->>'id_connection' = $1 order by created_at", [conns[0].id_connection])).map((r) => r.type);
    expect(types).toEqual(['connection.created', 'connection.reauthorized']);
  });

  it('refuses private and loopback account addresses unless configured', async () => {
    const strict = await startTestServer({ providers: connectRegistry(), work: false, env: { OMNIPORT_ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const link = await createLink(strict, { linked_user_origin_id: 'cust-form-4' });
      const callsBefore = sim.apiCalls.length;
      for (const base of [sim.url, 'http://10.0.0.8', 'http://[::1]:8080', 'https://localhost']) {
        const res = await request(`${link.url}/providers/acme-crm/credentials`, { form: { base_url: base, email, api_token: apiToken } });
        expect(res.status, base).toBe(400);
        expect(res.text).toContain('not reachable from the internet');
      }
      const missing = await request(`${link.url}/providers/acme-crm/credentials`, { form: { base_url: 'https://no-such-host.invalid', email, api_token: apiToken } });
      expect(missing.status).toBe(400);
      expect(missing.text).toContain('was not found');
      expect(sim.apiCalls.length).toBe(callsBefore); // nothing was sent to those addresses
    } finally {
      await strict.close();
    }
  });
});
