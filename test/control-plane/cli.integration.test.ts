/**
 * The omniport command against a real database (the embedded one in a directory, or PostgreSQL when
 * DATABASE_URL is set): lists and revocations, unique project names, sync with progress, doctor. The commands
 * run in this process through `run` (what the binary calls, minus the exit), each opening and closing the
 * database as the binary does; the binary itself is spawned for --version, one database command and
 * start --port --host.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServices } from '../../src/app';
import { loadConfig } from '../../src/config';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { freshDatabase } from '../support/harness';
import { runCli } from '../support/cli';
import { freePort } from '../support/free-port';
import { startOmniport } from '../support/omniport-process';

const bin = path.resolve(import.meta.dirname, '../../bin/omniport.js');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-cli-'));
let env: Record<string, string>;
let drop: () => Promise<void> = async () => {};
let sim: ZendeskSimulator;

beforeAll(async () => {
  env = { ...(process.env as Record<string, string>), LOG_LEVEL: 'warn', XDG_CONFIG_HOME: path.join(root, 'config'), OMNIPORT_ALLOW_PRIVATE_URLS: 'true' };
  delete env.OMNIPORT_SECRET_KEY;
  delete env.OMNIPORT_PUBLIC_URL;
  if (process.env.DATABASE_URL) {
    const db = await freshDatabase();
    drop = db.drop;
    env.DATABASE_URL = (db.target as { url: string }).url;
    env.OMNIPORT_SECRET_KEYS = randomBytes(32).toString('hex');
  } else {
    delete env.DATABASE_URL;
    env.OMNIPORT_DATA_DIR = path.join(root, 'data');
  }
  sim = await startZendeskSimulator({ validateSpec: false });
  sim.seedTickets(4, { commentsPerTicket: 1 });
});
afterAll(async () => {
  await sim?.close();
  await drop();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The binary, in a child process. */
function spawned(...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('node', [bin, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** One command line, run in this process. */
const omniport = (...args: string[]) => runCli(args, env);
async function json(...args: string[]) {
  const res = await omniport(...args, '--json');
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

describe('the omniport command', { timeout: 600_000 }, () => {
  it('the binary prints its version and runs a database command', async () => {
    const res = await spawned('--version');
    expect(res.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')).version);
    const created = await spawned('project', 'create', 'spawned', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'spawned' });
  });

  it('creates, lists and revokes; project names are unique; syncs a connection with progress; doctor checks the setup', async () => {
    const project = await json('project', 'create', 'acme');
    const duplicate = await omniport('project', 'create', 'acme');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/a project named acme exists already/);
    expect((await json('project', 'list')).map((p: { name: string }) => p.name)).toContain('acme');

    await json('user', 'create', 'ops', '--project', 'acme');
    expect((await json('user', 'list', '--project', 'acme')).map((u: { name: string }) => u.name)).toEqual(['ops']);
    const key = await json('key', 'create', '--project', 'acme', '--user', 'ops');
    expect((await json('key', 'list', '--project', 'acme'))[0]).toMatchObject({ id_api_key: key.id_api_key, revoked_at: null });
    expect((await omniport('key', 'revoke', key.id_api_key, '--project', 'acme')).code).toBe(0);
    expect((await json('key', 'list', '--project', 'acme'))[0].revoked_at).not.toBeNull();
    // A key for an AI agent: read tools only, two tools at most (docs/mcp.md).
    const agentKey = await json('key', 'create', '--project', 'acme', '--user', 'ops', '--name', 'agent', '--mcp-read-only', '--mcp-tools', 'ticketing_list_tickets,ticketing_get_ticket');
    expect(agentKey).toMatchObject({ mcp_read_only: true, mcp_tools: ['ticketing_list_tickets', 'ticketing_get_ticket'] });
    const { services: check, database: checkDb } = await openServices(loadConfig(env));
    expect((await check.apiKeys.authenticate(agentKey.api_key))?.mcp).toEqual({ readOnly: true, tools: ['ticketing_list_tickets', 'ticketing_get_ticket'] });
    await checkDb.close();

    // A connection made the way the API makes it (no command creates one: credentials belong to the API).
    const { database, services } = await openServices(loadConfig(env));
    const cred = sim.credentials[0]!;
    const made = await services.connections
      .create({ projectId: project.id_project, userId: '', apiKeyId: '' }, {
        provider: 'zendesk',
        linked_user_origin_id: 'customer-1',
        credentials: { email: cred.email, api_token: cred.apiToken },
        base_url: sim.url,
      })
      .finally(() => database.close());
    const connectionId = made.row.id;

    expect(await json('linked-user', 'list', '--project', 'acme')).toMatchObject([{ linked_user_origin_id: 'customer-1' }]);
    expect(await json('connection', 'list', '--project', project.id_project)).toMatchObject([{ id_connection: connectionId, provider: 'zendesk', status: 'valid' }]);

    const sync = await omniport('sync', connectionId);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).toMatch(/\[\d+\/\d+\] ticketing\.ticket: done, 4 records/);
    expect(sync.stdout).toMatch(/^sync finished: \d+ records in \d+ streams/m);
    const again = await json('sync', connectionId);
    expect(again.failed).toEqual([]);
    expect(again.streams.every((s: { status: string }) => s.status === 'done')).toBe(true);

    const doctor = await json('doctor');
    expect(doctor).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'database', status: 'ok' }),
        expect.objectContaining({ name: 'migrations', status: 'ok' }),
        expect.objectContaining({ name: 'secret key', status: 'ok' }),
        expect.objectContaining({ name: 'public URL', status: 'warn' }),
      ]),
    );

    expect((await omniport('connection', 'revoke', connectionId, '--project', 'acme')).code).toBe(0);
    expect(await json('connection', 'list', '--project', 'acme')).toEqual([]);
    expect((await omniport('connection', 'revoke', connectionId, '--project', 'acme')).stderr).toMatch(/not found/);
  });

  it('revokes a user with its keys, a linked user with its connections, and a whole project', async () => {
    const project = await json('project', 'create', 'beta');
    await json('user', 'create', 'temp', '--project', 'beta');
    await json('key', 'create', '--project', 'beta', '--user', 'temp');
    expect(await json('key', 'list', '--project', 'beta')).toHaveLength(1);
    expect((await omniport('user', 'revoke', 'temp', '--project', 'beta')).code).toBe(0);
    expect(await json('user', 'list', '--project', 'beta')).toEqual([]);
    expect(await json('key', 'list', '--project', 'beta')).toEqual([]);

    const { database, services } = await openServices(loadConfig(env));
    const cred = sim.credentials[0]!;
    const access = { projectId: project.id_project, userId: '', apiKeyId: '' };
    const connect = (origin: string) =>
      services.connections.create(access, { provider: 'zendesk', linked_user_origin_id: origin, credentials: { email: cred.email, api_token: cred.apiToken }, base_url: sim.url });
    const kept = await connect('customer-kept');
    const gone = await connect('customer-gone').finally(() => database.close());
    const revoked = await omniport('linked-user', 'revoke', gone.row.linkedUserId, '--project', 'beta');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/with 1 connection\b/);
    expect((await json('linked-user', 'list', '--project', 'beta')).map((u: { linked_user_origin_id: string }) => u.linked_user_origin_id)).toEqual(['customer-kept']);
    expect((await json('connection', 'list', '--project', 'beta')).map((c: { id_connection: string }) => c.id_connection)).toEqual([kept.row.id]);

    const unconfirmed = await omniport('project', 'revoke', 'beta', '--confirm', 'acme');
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/--confirm must be the project's name/);
    expect((await omniport('project', 'revoke', 'beta', '--confirm', 'beta')).code).toBe(0);
    expect((await json('project', 'list')).map((p: { name: string }) => p.name)).not.toContain('beta');
    expect((await omniport('connection', 'list', '--project', project.id_project)).stderr).toMatch(/not found/);
  });

  it('start listens on --port and --host', async () => {
    const port = await freePort();
    const server = await startOmniport({ env, command: ['node', bin, 'start', '--port', String(port), '--host', '127.0.0.1'], timeoutMs: 120_000 });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`${server.url}/health`)).ok, server.output()).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
