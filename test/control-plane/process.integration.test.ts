import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, openDatabase } from '../../src/store/database';
import { loadConfig } from '../../src/config';
import { runCli } from '../support/cli';
import { startOmniport } from '../support/omniport-process';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '../../bin/omniport.js');
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-proc-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** The environment of a child process on the embedded database (DATABASE_URL removed). */
function embeddedEnv(dataDir: string, extra: Record<string, string> = {}) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), OMNIPORT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  delete env.OMNIPORT_SECRET_KEY;
  return env;
}

describe('the embedded database directory', { timeout: 180_000 }, () => {
  it('belongs to one process at a time; a second one fails with a clear message', async () => {
    const dataDir = tempDir();
    const first = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
      const child = await run('node', [bin, 'migrate'], { env: embeddedEnv(dataDir) }).catch((e: { code: number; stderr: string }) => e);
      expect((child as { code: number }).code).toBe(78);
      expect((child as { stderr: string }).stderr).toMatch(/already used by another Omniport process/);
    } finally {
      await first.close();
    }
    // Released: the next owner opens it.
    const second = await openDatabase({ kind: 'pglite', dataDir });
    await second.close();
  });
});

// Each command is a new Node process on a new embedded database: slow on a busy machine.
describe('the omniport command', { timeout: 240_000 }, () => {
  it('`start` bootstraps an empty database, prints the key once and serves /health', async () => {
    const dataDir = tempDir();
    const server = await startOmniport({ env: embeddedEnv(dataDir) });
    try {
      expect((await fetch(`${server.url}/health`)).ok, server.output()).toBe(true);
      const output = server.output();
      const key = output.match(/sk_live_[A-Za-z0-9]{43}/)?.[0];
      expect(key).toBeDefined();
      const res = await fetch(`${server.url}/auth/api-keys`, { headers: { 'x-api-key': key! } });
      expect(res.status).toBe(200);
      // The key file encrypting credentials is private to the owner, and outside the data directory
      // (under $XDG_CONFIG_HOME, a temporary directory in tests): a backup of the data holds no key.
      const keyDir = path.join(process.env.XDG_CONFIG_HOME!, 'omniport', 'keys');
      const keyFile = loadConfig({ OMNIPORT_DATA_DIR: dataDir, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME }).secretKeyFile;
      expect(path.dirname(keyFile)).toBe(keyDir);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    } finally {
      await server.stop();
    }
    expect(server.output().match(/sk_live_[A-Za-z0-9]{43}/g)).toHaveLength(1);
  });

  it('creates projects, users and keys from the command line, and installs a preset bootstrap key', async () => {
    const dataDir = tempDir();
    const env = embeddedEnv(dataDir);
    // The commands run in this process as the binary runs them (test/support/cli.ts); the servers are real processes.
    const json = async (...args: string[]) => JSON.parse((await runCli([...args, '--json'], env)).stdout);
    const project = await json('project', 'create', 'acme');
    expect(project).toMatchObject({ name: 'acme', id_project: expect.any(String) });
    const user = await json('user', 'create', 'ops', '--project', 'acme');
    expect(user.id_project).toBe(project.id_project);
    const key = await json('key', 'create', '--project', project.id_project, '--user', 'ops');
    expect(key.api_key).toMatch(/^sk_live_/);

    // The CLI's changes are in the project's audit log, the CLI as their actor.
    await withServer(embeddedEnv(dataDir), key.api_key, async (call, output) => {
      const log = await call('/audit-log');
      expect(log.status).toBe(200);
      const entries = ((await log.json()) as { data: { action: string; actor: { type: string }; target: { id: string } }[] }).data;
      expect(entries.map((e) => [e.action, e.actor.type, e.target.id]).reverse()).toEqual([
        ['project.created', 'cli', project.id_project],
        ['user.created', 'cli', user.id_user],
        ['api_key.created', 'cli', key.id_api_key],
      ]);
      expect(output()).not.toContain(key.api_key);
    });

    const preset = `sk_live_${'a1'.repeat(32)}`;
    await withServer(embeddedEnv(tempDir(), { OMNIPORT_BOOTSTRAP_API_KEY: preset }), preset, async (call, output) => {
      expect((await call('/auth/api-keys')).status).toBe(200);
      expect(output()).not.toContain(preset);
    });
  });

  /** Starts `omniport start` with `env`, checks that `apiKey` is accepted, runs `fn`, stops the server. */
  async function withServer(env: NodeJS.ProcessEnv, apiKey: string, fn: (call: (path: string) => Promise<Response>, output: () => string) => Promise<void>) {
    const server = await startOmniport({ env });
    const call = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    try {
      expect((await call('/auth/api-keys')).status).toBe(200);
      await fn(call, server.output);
    } finally {
      await server.stop();
    }
  }
});
