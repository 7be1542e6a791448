/**
 * Key rotation under load: connections whose secrets are under an old key (tagged, and untagged as older
 * versions wrote them), re-encrypted in small batches while requests use every connection and a writer
 * replaces one connection's credentials in the middle; afterwards every connection works, every stored
 * secret is under the new key, and a server with only the new key reads everything.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testConfig, type TestServer } from '../support/harness';
import { connectZendesk } from '../support/connect-simulators';
import { startZendeskSimulator, type ZendeskSimulator } from '../simulators/zendesk';
import { createOmniport } from '../../src/app';
import { SecretBox } from '../../src/core/secrets';
import { assertKeysReadDatabase, rotateKeys, type RotationReport } from '../../src/core/key-rotation';
import { SEALED_COLUMNS, SealedValuesRepo } from '../../src/store/sealed-values.repo';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const oldBox = new SecretBox(oldKey);
const newBox = new SecretBox(newKey);
const CONNECTIONS = 12;

/** A value as versions before key ids wrote it: `v1.<iv>.<tag>.<ciphertext>`. */
function sealV1(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), ciphertext].map((p) => p.toString('base64url'))].join('.');
}

let server: TestServer;
let sim: ZendeskSimulator;
const tokens: string[] = [];

beforeAll(async () => {
  sim = await startZendeskSimulator({ validateSpec: false });
  // The deployment lists the new key first and keeps the old one while the rotation runs.
  server = await startTestServer({ work: false, box: new SecretBox([newKey, oldKey]) });
  for (let i = 0; i < CONNECTIONS; i++) tokens.push(await connectZendesk(server, sim, { origin: `customer-${i}` }));
  const app = await server.call('PUT', '/oauth-apps/zendesk', { body: { client_id: 'zd-client', client_secret: 'zd-client-secret' } });
  expect(app.status, JSON.stringify(app.body)).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await sim?.close();
});

const pass = (token: string) =>
  server.call('POST', '/passthrough', { headers: { 'x-connection-token': token }, body: { method: 'GET', path: '/api/v2/ticket_fields' } });

async function allSealedValues(): Promise<string[]> {
  const rows = await server.sql(`
    select token_encrypted as v from connections union all select credentials_encrypted from connections
    union all select client_secret_encrypted from oauth_apps union all select code_verifier_encrypted from oauth_flows where code_verifier_encrypted is not null
    union all select payload->>'connection_token_encrypted' from events where payload ? 'connection_token_encrypted'`);
  return rows.map((r) => r.v as string);
}

describe('connection tokens in the events table', () => {
  it('are never stored in clear: connection.created carries the token encrypted', async () => {
    const dump = JSON.stringify(await server.sql('select type, payload from events'));
    for (const token of tokens) expect(dump).not.toContain(token);
    const created = await server.sql("select payload from events where type = 'connection.created'");
    expect(created).toHaveLength(CONNECTIONS);
    const sealed = created.map((r) => (r.payload as Record<string, string>).connection_token_encrypted!);
    expect(sealed.map((s) => server.box.decrypt(s)).sort()).toEqual([...tokens].sort());
  });
});

describe('omniport keys rotate, under load', () => {
  it('re-encrypts every stored secret under the newest key, and loses no credential', async () => {
    // Everything as a deployment that only had the old key stored it: half tagged with its id, half untagged.
    const rows = await server.sql('select id, token_encrypted, credentials_encrypted from connections order by id');
    for (const [i, row] of rows.entries()) {
      const reseal = (value: string) => (i % 2 ? oldBox.encrypt(server.box.decrypt(value)) : sealV1(oldKey, server.box.decrypt(value)));
      await server.sql('update connections set token_encrypted = $2, credentials_encrypted = $3 where id = $1', [
        row.id,
        reseal(row.token_encrypted as string),
        reseal(row.credentials_encrypted as string),
      ]);
    }
    await server.sql('update oauth_apps set client_secret_encrypted = $1', [sealV1(oldKey, 'zd-client-secret')]);
    // Events of a version that stored the token in clear, and events sealed with the old key.
    const events = await server.sql("select id, payload from events where type = 'connection.created' order by id");
    for (const [i, event] of events.entries()) {
      const { connection_token_encrypted: sealed, ...rest } = event.payload as Record<string, string>;
      const token = server.box.decrypt(sealed!);
      const payload = i < 3 ? { ...rest, connection_token: token } : { ...rest, connection_token_encrypted: oldBox.encrypt(token) };
      await server.sql('update events set payload = $2 where id = $1', [event.id, JSON.stringify(payload)]);
    }
    const repo = new SealedValuesRepo(server.omniport.database.db);
    let before = 0;
    for (const col of SEALED_COLUMNS) before += await repo.countNotCurrent(col, newBox.currentKeyId);
    expect(before).toBe(2 * CONNECTIONS + 1 + CONNECTIONS);

    // Load: every connection called through passthrough, and the connection list (tokens decrypted), in a loop.
    let rotating = true;
    let requests = 0;
    const failures: string[] = [];
    const load = async (worker: number) => {
      for (let i = worker; rotating; i++) {
        const res = i % 4 === 0 ? await server.call('GET', '/connections?limit=100') : await pass(tokens[i % CONNECTIONS]!);
        requests++;
        const ok = res.status === 200 && (res.body.data?.status === undefined || res.body.data.status === 200);
        if (!ok) failures.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        if (res.body.data?.length !== undefined && res.body.data.length !== CONNECTIONS) failures.push(`listed ${res.body.data.length}`);
      }
    };
    // A process still on the old key list rewrites connection 1's credentials right after the rotation read them
    // (a token refresh): its value must win, then be rotated in a later pass.
    const raced = rows[1]!.id as string;
    const refreshed = { ...(server.box.decryptJson<Record<string, string>>(rows[1]!.credentials_encrypted as string)), refreshed_at: 'during-rotation' };
    let raceDone = false;
    let batches = 0;
    const onBatch = async (column: string, ids: string[]) => {
      if (column === 'connections.credentials_encrypted' && !raceDone && ids.includes(raced)) {
        raceDone = true;
        await server.sql('update connections set credentials_encrypted = $2 where id = $1', [raced, oldBox.encryptJson(refreshed)]);
      }
      // Requests interleave with the batches: each batch waits for two more of them (on a slow machine the
      // rotation would otherwise finish between two requests).
      batches++;
      const until = Date.now() + 5_000;
      while (requests < 2 * batches && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    };
    // And connection 2 re-authorised again and again through the service (new credentials in a transaction).
    const reauthorized = rows[2]!.id as string;
    let reauthorizations = 0;
    const reauthorize = async () => {
      const [row] = await server.sql('select linked_user_id, base_url from connections where id = $1', [reauthorized]);
      const linkedUser = (await server.omniport.services.controlPlane.findLinkedUser(server.tenant.projectId, row!.linked_user_id as string))!;
      const cred = sim.credentials[0]!;
      while (rotating) {
        const view = await server.omniport.services.connections.connectAuthorized({
          projectId: server.tenant.projectId,
          linkedUser,
          provider: 'zendesk',
          credentials: { email: cred.email, api_token: cred.apiToken },
          baseUrl: row!.base_url as string,
          via: 'connect_form',
        });
        if (view.row.id !== reauthorized || !view.reauthorized) failures.push('reauthorisation made another connection');
        reauthorizations++;
      }
    };
    const loaders = [load(0), load(1), load(2), reauthorize()];
    let report: RotationReport;
    try {
      report = await rotateKeys(server.omniport.database.db, server.box, { batchSize: 3, onBatch });
    } finally {
      rotating = false;
      await Promise.all(loaders);
    }
    console.log(
      `key rotation: ${report.rotated} values re-encrypted, ${requests} requests and ${reauthorizations} re-authorisations during it, ${failures.length} failed`,
    );

    expect(raceDone).toBe(true);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(CONNECTIONS);
    expect(reauthorizations).toBeGreaterThan(0);
    expect(report).toMatchObject({ keyId: newBox.currentKeyId, failed: 0, remaining: 0 });
    // Connection 2's credentials may have been replaced (under the new key) before the rotation reached them.
    expect(report.rotated).toBeGreaterThanOrEqual(before - 1);
    expect(report.rotated).toBeLessThanOrEqual(before);
    expect(report.columns.find((c) => c.column === 'connections.credentials_encrypted')!.changedMeanwhile).toBe(1);

    // Every stored secret is under the new key; the raced connection kept the concurrent writer's credentials.
    const sealed = await allSealedValues();
    expect(sealed).toHaveLength(2 * CONNECTIONS + 1 + CONNECTIONS + reauthorizations);
    for (const value of sealed) expect(value.startsWith(`v2.${newBox.currentKeyId}.`)).toBe(true);
    const [racedRow] = await server.sql('select credentials_encrypted from connections where id = $1', [raced]);
    expect(newBox.decryptJson(racedRow!.credentials_encrypted as string)).toEqual(refreshed);
    expect(JSON.stringify(await server.sql('select payload from events'))).not.toMatch(/ct_[A-Za-z0-9]{20}/);

    // Run again: nothing left to do.
    expect(await rotateKeys(server.omniport.database.db, server.box, { batchSize: 3 })).toMatchObject({ rotated: 0, failed: 0, remaining: 0 });
    for (const token of tokens) expect((await pass(token)).body.data.status).toBe(200);
  });

  it('leaves a database that a server with only the new key reads entirely, and that the old key alone cannot start on', async () => {
    await expect(assertKeysReadDatabase(server.omniport.database.db, oldBox)).rejects.toThrow(/encrypted with key [0-9a-f]{12} that OMNIPORT_SECRET_KEYS does not hold/);
    await assertKeysReadDatabase(server.omniport.database.db, newBox);

    const second = await createOmniport(testConfig(), { target: server.target!, box: newBox, jobs: { work: false } });
    try {
      const address = await second.server.listen({ port: 0, host: '127.0.0.1' });
      const headers = { 'x-api-key': server.tenant.apiKey, 'content-type': 'application/json' };
      const listed = (await fetch(`${address}/connections?limit=100`, { headers }).then((r) => r.json())) as { data: { connection_token: string }[] };
      expect(listed.data.map((c) => c.connection_token).sort()).toEqual([...tokens].sort());
      for (const token of tokens) {
        const res = await fetch(`${address}/passthrough`, {
          method: 'POST',
          headers: { ...headers, 'x-connection-token': token },
          body: JSON.stringify({ method: 'GET', path: '/api/v2/ticket_fields' }),
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { data: { status: number } }).data.status).toBe(200);
      }
      const [app] = await server.sql('select * from oauth_apps');
      expect(second.services.oauthApps.secretOf({ clientSecretEncrypted: app!.client_secret_encrypted } as never)).toBe('zd-client-secret');
    } finally {
      // On the embedded database both servers share one PGlite instance: the first one closes it.
      if (second.database.kind === 'postgres') await second.close();
      else {
        await second.server.close();
        await second.jobs.stop();
      }
    }
  });
});
