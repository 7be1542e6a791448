import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { OmniportProcess } from '../support/omniport-process';
import { childStorage, startOnStorage, type Cleanups } from '../support/child-storage';
import { runCli } from '../support/cli';

/**
 * A sandbox restart (issue 30, row 4): `omniport start` again on the same data. The accounts are seeded anew,
 * but what is made after the restart never takes an id of what was made before, so no stored record is
 * overwritten; a record of the earlier start stays as it was (then marked deleted by the full sync that follows
 * the start), and a write to it answers a clear 404, never a 502 or a write to another object.
 */
const KEY = `sk_live_${randomBytes(32).toString('hex')}`;
const cleanups: Cleanups = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const storage = () => childStorage(cleanups, 'omniport-sandbox-restart-');
const startServer = (env: Record<string, string>): Promise<OmniportProcess> =>
  startOnStorage({ ...process.env, LOG_LEVEL: 'warn', OMNIPORT_BOOTSTRAP_API_KEY: KEY, OMNIPORT_RATE_LIMIT_PER_MINUTE: '0', OMNIPORT_SANDBOX: 'true' }, env, cleanups);

describe('a sandbox restart', { timeout: 420_000 }, () => {
  it('never reuses an id: the earlier record stays intact, writes to it answer 404, new ones get new ids', async () => {
    const env = await storage();
    let server = await startServer(env);
    const call = async (method: string, url: string, o: { ct?: string; body?: unknown } = {}) => {
      const headers: Record<string, string> = { 'x-api-key': KEY };
      if (o.ct) headers['x-connection-token'] = o.ct;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(server.url + url, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
      return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    /** Every stream idle and last succeeded after `since` (ms). */
    const waitForSync = async (ct: string, since: number) => {
      const until = Date.now() + 150_000;
      for (;;) {
        const s = await call('GET', '/sync/status', { ct });
        const streams = (s.body.data?.streams ?? []) as { status: string; mode: string; last_success_at: string | null }[];
        if (streams.length && streams.every((x) => x.status === 'idle' && x.last_success_at && Date.parse(x.last_success_at) >= since)) return streams;
        if (Date.now() > until) throw new Error(`sync did not finish: ${JSON.stringify(s.body)}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    };

    const connected = await call('POST', '/connections', { body: { provider: 'sandbox_zendesk', linked_user_origin_id: 'customer-42' } });
    expect(connected.status).toBe(201);
    const ct = connected.body.data.connection_token as string;
    await waitForSync(ct, 0);
    const first = await call('POST', '/ticketing/tickets', { ct, body: { name: 'Printer on fire', description: 'It started smoking.' } });
    expect(first.status).toBe(201);
    const seeded = (await call('GET', '/ticketing/tickets?limit=1', { ct })).body.data[0] as { id: string; remote_id: string; name: string };

    await server.stop();
    const restartedAt = Date.now();
    server = await startServer(env);
    const second = await call('POST', '/ticketing/tickets', { ct, body: { name: 'Webhook test', description: 'Made after the restart.' } });
    expect(second.status).toBe(201);
    expect(second.body.data.remote_id).not.toBe(first.body.data.remote_id);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    // The start's full sync.
    await waitForSync(ct, restartedAt);

    const before = await call('GET', `/ticketing/tickets/${first.body.data.id}`);
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ name: 'Printer on fire', remote_id: first.body.data.remote_id });
    // Gone with the earlier start's memory: the full sync says so.
    expect(before.body.data.remote_was_deleted).toBe(true);

    const write = await call('PATCH', `/ticketing/tickets/${first.body.data.id}`, { body: { name: 'Overwritten?' } });
    expect(write.status, JSON.stringify(write.body)).toBe(404);
    expect(JSON.stringify(write.body)).not.toMatch(/internal/i);
    const after = await call('GET', `/ticketing/tickets/${first.body.data.id}`);
    expect(after.body.data.name).toBe('Printer on fire');

    // A seeded ticket is the same object at every start, and writes to it work.
    const patched = await call('PATCH', `/ticketing/tickets/${seeded.id}`, { body: { status: 'CLOSED' } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ remote_id: seeded.remote_id, name: seeded.name, status: 'CLOSED' });

    // Nothing announced the earlier ticket as changed into another.
    const events = await call('GET', '/events?limit=1000&type=ticketing.ticket.updated');
    const renamed = (events.body.data as { data?: { id?: string; name?: string } }[]).filter((e) => e.data?.id === first.body.data.id && e.data?.name !== 'Printer on fire');
    expect(renamed).toEqual([]);

    // `omniport sync` is a process of its own: it says why it cannot read the server's sandbox, once.
    await server.stop();
    const cliEnv: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: 'silent', OMNIPORT_SANDBOX: 'true', ...env };
    if (!env.DATABASE_URL) delete cliEnv.DATABASE_URL;
    const sync = await runCli(['sync', connected.body.data.id_connection], cliEnv);
    expect(sync.code).not.toBe(0);
    expect(sync.stderr).toContain('sandbox_zendesk is a built-in sandbox: its accounts live in the memory of the `omniport start` process that serves them');
    expect(sync.stderr).not.toContain('OMNIPORT_SANDBOX');
  });
});
