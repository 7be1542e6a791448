import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Tenant, type TestServer } from '../support/harness';
import { connectRegistry } from '../support/connect-flow';
import { runCli } from '../support/cli';
import { openDatabase } from '../../src/store/database';
import { SecretBox } from '../../src/core/secrets';

let server: TestServer;
let other: Tenant;
const secret = 'oauth-client-secret-9f8e7d6c5b4a';

beforeAll(async () => {
  server = await startTestServer({ providers: connectRegistry(), work: false });
  other = await server.createTenant('other');
});
afterAll(() => server.close());

describe('OAuth apps through the API', () => {
  it('stores the client secret encrypted and never shows it', async () => {
    const missing = await server.call('PUT', '/oauth-apps/acme-oauth', { body: { client_id: 'cid' } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.field).toBe('client_secret');

    const res = await server.call('PUT', '/oauth-apps/acme-oauth', { body: { client_id: 'cid', client_secret: secret } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      provider: 'acme-oauth',
      client_id: 'cid',
      client_secret_set: true,
      scopes: ['tickets:read', 'tickets:write'],
      scopes_overridden: false,
      authorize_url: null,
      token_url: null,
      pkce: true,
      redirect_uri: `${server.url}/connect/oauth/callback`,
    });
    expect(JSON.stringify(res.body)).not.toContain(secret);
    const rows = await server.sql('select * from oauth_apps');
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(server.box.decrypt(rows[0]!.client_secret_encrypted as string)).toBe(secret);

    // A later change without the secret keeps it; scopes and endpoints can be set and reset.
    const changed = await server.call('PUT', '/oauth-apps/acme-oauth', {
      body: { client_id: 'cid2', scopes: ['tickets:read'], token_url: 'https://auth.example.com/token' },
    });
    expect(changed.body.data).toMatchObject({ client_id: 'cid2', scopes: ['tickets:read'], scopes_overridden: true, token_url: 'https://auth.example.com/token' });
    const [row] = await server.sql('select client_secret_encrypted from oauth_apps');
    expect(server.box.decrypt(row!.client_secret_encrypted as string)).toBe(secret);
    const reset = await server.call('PUT', '/oauth-apps/acme-oauth', { body: { client_id: 'cid2', scopes: null, token_url: null } });
    expect(reset.body.data).toMatchObject({ scopes: ['tickets:read', 'tickets:write'], scopes_overridden: false, token_url: null });

    const listed = await server.call('GET', '/oauth-apps');
    expect(listed.body.data.map((a: { provider: string }) => a.provider)).toEqual(['acme-oauth']);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect((await server.call('GET', '/oauth-apps/acme-oauth')).body.data.client_id).toBe('cid2');
  });

  it('validates the provider and the URLs', async () => {
    const unknown = await server.call('PUT', '/oauth-apps/nope', { body: { client_id: 'c', client_secret: 's' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toMatchObject({ field: 'provider', allowed: ['acme-oauth', 'acme-crm'] });
    const tokenOnly = await server.call('PUT', '/oauth-apps/acme-crm', { body: { client_id: 'c', client_secret: 's' } });
    expect(tokenOnly.status).toBe(422);
    expect(tokenOnly.body.details).toMatchObject({ code: 'unsupported_by_provider', allowed: ['acme-oauth'] });
    const badUrl = await server.call('PUT', '/oauth-apps/acme-oauth', { body: { client_id: 'c', authorize_url: 'javascript:alert(1)' } });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.details.issues[0].path).toBe('body.authorize_url');
  });

  it('keeps each project’s apps to itself, and deletes', async () => {
    expect((await server.call('GET', '/oauth-apps', { apiKey: other.apiKey })).body.data).toEqual([]);
    expect((await server.call('GET', '/oauth-apps/acme-oauth', { apiKey: other.apiKey })).status).toBe(404);
    expect((await server.call('DELETE', '/oauth-apps/acme-oauth', { apiKey: other.apiKey })).status).toBe(404);
    expect((await server.call('DELETE', '/oauth-apps/acme-oauth')).status).toBe(204);
    expect((await server.call('GET', '/oauth-apps/acme-oauth')).status).toBe(404);
    expect((await server.call('DELETE', '/oauth-apps/acme-oauth')).status).toBe(404);
    expect((await server.call('GET', '/oauth-apps', { apiKey: null })).status).toBe(401);
  });
});

describe('the omniport oauth-app command', () => {
  const bin = path.resolve(import.meta.dirname, '../../bin/omniport.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-oauth-cli-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const keyFile = path.join(dataDir, '..', `${path.basename(dataDir)}.key`);
  afterAll(() => fs.rmSync(keyFile, { force: true }));
  const env: Record<string, string> = { ...(process.env as Record<string, string>), OMNIPORT_DATA_DIR: dataDir, OMNIPORT_SECRET_KEY_FILE: keyFile, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.OMNIPORT_SECRET_KEY;

  // Commands run in this process as the binary runs them; the one reading a secret from stdin runs the binary.
  const run = (args: string[]) => runCli(args, env);
  const spawned = (args: string[], stdin?: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('node', [bin, ...args], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(stdin ?? '');
    });

  it('sets, lists and deletes a project’s OAuth app (the default providers: Zendesk); the secret is read from stdin and stored encrypted', async () => {
    expect((await run(['project', 'create', 'acme'])).code).toBe(0);
    const set = await spawned(['oauth-app', 'set', 'zendesk', '--project', 'acme', '--client-id', 'zd-client', '--client-secret-stdin', '--scopes', 'read,write', '--json'], `${secret}\n`);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ provider: 'zendesk', client_id: 'zd-client', scopes: ['read', 'write'] });
    expect(set.stdout + set.stderr).not.toContain(secret);

    const listed = await run(['oauth-app', 'list', '--project', 'acme', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([{ provider: 'zendesk', client_id: 'zd-client', scopes: ['read', 'write'] }]);

    const unknown = await run(['oauth-app', 'set', 'nope', '--project', 'acme', '--client-id', 'x', '--client-secret', 'y']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown provider "nope"/);

    const settings = await run(['connect-settings', '--project', 'acme', '--allow-redirect', 'https://app.example.com/done', '--json']);
    expect(JSON.parse(settings.stdout)).toEqual({ enabled_providers: null, allowed_redirect_urls: ['https://app.example.com/done'] });

    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const { rows } = await database.executeSql('select client_secret_encrypted from oauth_apps');
      expect(JSON.stringify(rows)).not.toContain(secret);
      const box = SecretBox.fromString(fs.readFileSync(keyFile, 'utf8'));
      expect(box.decrypt(rows[0]!.client_secret_encrypted as string)).toBe(secret);
    } finally {
      await database.close();
    }

    const deleted = await run(['oauth-app', 'delete', 'zendesk', '--project', 'acme']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain('OAuth app for zendesk deleted');
  }, 240_000); // seven commands, each opening the embedded database
});
