/**
 * The SDK installs from the repository as it is: `npm install <clone>/sdk` in another project (offline: nothing
 * to build, nothing to download), then importing `@omniport/sdk` works — at run time against the real server,
 * and for TypeScript (the consumer's file type-checks against the SDK's types).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';

const run = promisify(execFile);
const sdkDir = path.resolve('sdk');
let server: TestServer;
let app: string;

beforeAll(async () => {
  server = await startTestServer({ work: false });
  app = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-sdk-install-'));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }));
});
afterAll(async () => {
  await server?.close();
  if (app) fs.rmSync(app, { recursive: true, force: true });
});

it('npm install <clone>/sdk, then import it: no build, no download; the client calls the server', async () => {
  await run('npm', ['install', sdkDir, '--offline', '--no-audit', '--no-fund'], { cwd: app, timeout: 120_000 });
  fs.writeFileSync(
    path.join(app, 'main.mjs'),
    `import { createOmniportClient } from '@omniport/sdk';
const client = createOmniportClient({ baseUrl: process.argv[2], apiKey: process.argv[3] });
const { data, error } = await client.POST('/linked-users', { body: { linked_user_origin_id: 'installed-sdk' } });
console.log(JSON.stringify({ id: data?.data?.id_linked_user, error }));`,
  );
  const { stdout } = await run(process.execPath, ['main.mjs', server.url, server.tenant.apiKey], { cwd: app, timeout: 30_000 });
  const out = JSON.parse(stdout) as { id?: string; error?: unknown };
  expect(out.error).toBeUndefined();
  expect(out.id).toMatch(/^[0-9a-f-]{36}$/);
  expect((await server.call('GET', '/linked-users?linked_user_origin_id=installed-sdk')).body.data[0].id_linked_user).toBe(out.id);
}, 150_000);

it('a TypeScript consumer type-checks against the installed SDK, and a wrong body does not', async () => {
  const tsc = path.resolve('node_modules/typescript/bin/tsc');
  const check = (body: string) => {
    fs.writeFileSync(
      path.join(app, 'main.ts'),
      `import { createOmniportClient, type OmniportErrorCode } from '@omniport/sdk';
const client = createOmniportClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'sk_live_x' });
export async function go(): Promise<OmniportErrorCode | string | undefined> {
  const { data, error } = await client.POST('/linked-users', { body: ${body} });
  return error ? error.details?.code : data.data.id_linked_user;
}`,
    );
    return run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', 'main.ts'], { cwd: app, timeout: 60_000 });
  };
  await check(`{ linked_user_origin_id: 'typed' }`);
  await expect(check(`{ linked_user_origin: 'typo' }`)).rejects.toMatchObject({ stdout: expect.stringContaining('linked_user_origin') });
}, 150_000);
