import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOmniport } from '../support/omniport-process';

/**
 * The README's quick start, to the letter, as a newcomer runs it: `npm start` on a fresh embedded
 * database, the key it prints, then the sandbox through HTTP only.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-quickstart-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the README quick start with the sandbox', { timeout: 300_000 }, () => {
  it('npm start, connect the sandbox, wait for the sync, read and write tickets, read contacts and deals', async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), OMNIPORT_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' };
    for (const name of ['DATABASE_URL', 'OMNIPORT_SECRET_KEY', 'OMNIPORT_SECRET_KEYS', 'OMNIPORT_SANDBOX']) delete env[name];
    const server = await startOmniport({ env, command: ['npm', 'start'], cwd: root, detached: true, timeoutMs: 120_000 });
    const O = server.url;
    try {
      const output = server.output();
      const KEY = output.match(/sk_live_[A-Za-z0-9]{43}/)?.[0];
      expect(KEY, output).toBeDefined();
      const call = async (method: string, url: string, o: { ct?: string; body?: unknown } = {}) => {
        const headers: Record<string, string> = { 'x-api-key': KEY! };
        if (o.ct) headers['x-connection-token'] = o.ct;
        if (o.body !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(O + url, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
        return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      const waitForSync = async (ct: string) => {
        const until = Date.now() + 120_000;
        for (;;) {
          const s = await call('GET', '/sync/status', { ct });
          const streams = s.body.data.streams as { status: string; last_success_at: string | null }[];
          if (streams.length && streams.every((x) => x.status === 'idle' && x.last_success_at)) return;
          if (Date.now() > until) throw new Error(`sync did not finish: ${JSON.stringify(s.body)}`);
          await sleep(300);
        }
      };

      const zendesk = await call('POST', '/connections', { body: { provider: 'sandbox_zendesk', linked_user_origin_id: 'customer-42' } });
      expect(zendesk.status).toBe(201);
      const CT = zendesk.body.data.connection_token as string;
      await waitForSync(CT);
      const tickets = await call('GET', '/ticketing/tickets?limit=5', { ct: CT });
      expect(tickets.status).toBe(200);
      expect(tickets.body.data.length).toBe(5);
      const ticket = await call('POST', '/ticketing/tickets', { ct: CT, body: { name: 'Printer on fire', description: 'It started smoking.', priority: 'HIGH' } });
      expect(ticket.status).toBe(201);
      const comment = await call('POST', '/ticketing/comments', { ct: CT, body: { ticket_id: ticket.body.data.id, body: 'On our way' } });
      expect(comment.status).toBe(201);
      const patched = await call('PATCH', `/ticketing/tickets?id=${ticket.body.data.id}`, { body: { status: 'CLOSED' } });
      expect(patched.status).toBe(200);
      expect(patched.body.status).toBe('CLOSED');

      const hubspot = await call('POST', '/connections', { body: { provider: 'sandbox_hubspot', linked_user_origin_id: 'customer-42' } });
      expect(hubspot.status).toBe(201);
      const CRM = hubspot.body.data.connection_token as string;
      await waitForSync(CRM);
      const contacts = await call('GET', '/crm/contacts?limit=10', { ct: CRM });
      const deals = await call('GET', '/crm/deals?limit=10', { ct: CRM });
      expect(contacts.body.data.length).toBe(10);
      expect(deals.body.data.length).toBe(10);
    } finally {
      await server.stop();
    }
  });
});
