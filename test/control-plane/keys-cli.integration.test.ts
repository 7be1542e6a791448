/**
 * `omniport keys rotate` (run in-process, as the binary runs it) on an embedded database whose key file an older version left in
 * the data directory: the key moves out of it, the rotation re-encrypts under the newest key of
 * OMNIPORT_SECRET_KEYS, runs again as a no-op, and afterwards the old key can go.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCipheriv, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database';
import { loadConfig } from '../../src/config';
import { SecretBox, keyIdOf } from '../../src/core/secrets';
import { runCli } from '../support/cli';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-keys-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const dataDir = path.join(root, 'data');
const configHome = path.join(root, 'config');

function run(args: string[], extra: Record<string, string> = {}) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), OMNIPORT_DATA_DIR: dataDir, XDG_CONFIG_HOME: configHome, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  if (!extra.OMNIPORT_SECRET_KEY) delete env.OMNIPORT_SECRET_KEY;
  if (!extra.OMNIPORT_SECRET_KEYS) delete env.OMNIPORT_SECRET_KEYS;
  delete env.OMNIPORT_SECRET_KEY_FILE;
  return runCli(args, env);
}

async function sql<T>(fn: (q: (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    return await fn(async (text, values) => (await database.executeSql(text, values)).rows);
  } finally {
    await database.close();
  }
}

/** A value as versions before key ids wrote it. */
function sealV1(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), ciphertext].map((p) => p.toString('base64url'))].join('.');
}

describe('omniport keys rotate', () => {
  it('moves the key out of the data directory, re-encrypts everything under the new key, and lets the old key go', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dataDir, 'secret.key'), `${oldKey.toString('hex')}\n`, { mode: 0o600 });

    // The first command moves the key file next to the user's configuration, once.
    const project = await run(['project', 'create', 'acme', '--json']);
    expect(project.code, project.stderr).toBe(0);
    expect(project.stderr).toMatch(/moved the encryption key from .*secret\.key to /);
    const keyFile = loadConfig({ OMNIPORT_DATA_DIR: dataDir, XDG_CONFIG_HOME: configHome }).secretKeyFile;
    expect(keyFile.startsWith(path.join(configHome, 'omniport', 'keys'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(oldKey.toString('hex'));
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);

    const set = await run(['oauth-app', 'set', 'zendesk', '--project', 'acme', '--client-id', 'zd', '--client-secret', 'old-secret']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).not.toMatch(/moved/);
    // Add what older versions stored: an untagged value, and an event with the connection token in clear.
    const projectId = JSON.parse(project.stdout).id_project as string;
    await sql(async (q) => {
      const [app] = await q('select client_secret_encrypted from oauth_apps');
      expect(app!.client_secret_encrypted).toMatch(new RegExp(`^v2\\.${keyIdOf(oldKey)}\\.`));
      await q("insert into oauth_apps (project_id, provider, client_id, client_secret_encrypted) values ($1, 'hubspot', 'hs', $2)", [projectId, sealV1(oldKey, 'legacy-secret')]);
      await q("insert into events (project_id, type, payload) values ($1, 'connection.created', $2)", [projectId, JSON.stringify({ id_connection: 'x', connection_token: 'ct_clearTokenOfAnOlderVersion' })]);
    });

    const both = { OMNIPORT_SECRET_KEYS: `${newKey.toString('hex')},${oldKey.toString('hex')}` };
    const rotated = await run(['keys', 'rotate', '--json', '--batch-size', '1'], both);
    expect(rotated.code, rotated.stderr).toBe(0);
    const report = JSON.parse(rotated.stdout);
    expect(report).toMatchObject({ key_id: keyIdOf(newKey), rotated: 3, failed: 0, remaining: 0 });
    expect(report.columns).toContainEqual({ column: 'events.payload.connection_token', rotated: 1, changedMeanwhile: 0, failed: 0, remaining: 0 });

    // Idempotent: a second run finds nothing to do.
    const again = await run(['keys', 'rotate', '--json'], both);
    expect(JSON.parse(again.stdout)).toMatchObject({ rotated: 0, failed: 0, remaining: 0 });

    // The old key can go: a process with only the new one starts and reads everything.
    const onlyNew = await run(['keys', 'rotate'], { OMNIPORT_SECRET_KEYS: newKey.toString('hex') });
    expect(onlyNew.code, onlyNew.stderr).toBe(0);
    expect(onlyNew.stdout).toContain(`key ${keyIdOf(newKey)}: 0 values re-encrypted, 0 not under it`);
    const box = new SecretBox(newKey);
    await sql(async (q) => {
      const apps = await q('select provider, client_secret_encrypted from oauth_apps order by provider');
      expect(apps.map((a) => box.decrypt(a.client_secret_encrypted as string))).toEqual(['legacy-secret', 'old-secret']);
      const [event] = await q('select payload from events');
      expect(JSON.stringify(event)).not.toContain('ct_clearTokenOfAnOlderVersion');
      expect(box.decrypt((event!.payload as Record<string, string>).connection_token_encrypted!)).toBe('ct_clearTokenOfAnOlderVersion');
    });

    // The old key alone (the key file) no longer reads this database: refused at start, with the reason.
    const stale = await run(['migrate']);
    expect(stale.code).toBe(78);
    expect(stale.stderr).toMatch(new RegExp(`encrypted with key ${keyIdOf(newKey)} that the key file .* does not hold`));
  }, 240_000); // seven processes, each opening the embedded database
});
