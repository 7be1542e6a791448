/**
 * Every provider's sync against its simulator enforcing the limits the provider documents (its refusal
 * and its headers, as the provider answers them) finishes with no failed state, paced by the manifest's
 * budgets: at most one refusal per limit window. Windows are scaled to one second (the documented rate,
 * at least 5 calls a window) on both sides, so that a small account needs several windows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestBudget } from '../../src/providers/manifest';
import { ProviderRegistry } from '../../src/providers/registry';
import type { ProviderAdapter } from '../../src/providers/types';
import { startTestServer, type TestServer } from '../support/harness';
import { limitedAccounts } from '../support/limited-accounts';

/** The documented rate, counted over one-second windows. */
// Daily budgets stay as they are: a small account never reaches them. A cost budget keeps room for two of its
// costliest calls a second (Linear: 10,000 points a query at most), or a single query could never pass.
const perSecond = (b: RequestBudget): RequestBudget =>
  b.pacing === 'daily'
    ? b
    : { ...b, requests: Math.max(b.pacing === 'bucket' ? 2 * (b.cost?.estimate ?? 1) : 5, Math.floor(b.requests / b.perSeconds)), perSeconds: 1 };
const scaled = Object.fromEntries(
  Object.entries(limitedAccounts).map(([name, { adapter }]) => [name, { ...adapter, manifest: { ...adapter.manifest, budgets: adapter.manifest.budgets!.map(perSecond) } } as ProviderAdapter]),
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    providers: new ProviderRegistry(Object.values(scaled)),
    env: { OMNIPORT_PACE_PROVIDER_BUDGETS: 'true' },
    work: false,
    httpTuning: { retryBaseMs: 20, maxRetries: 3, timeoutMs: 10_000, maxRetryAfterMs: 10_000 },
  });
});
afterAll(async () => {
  await server?.close();
});

describe.each(Object.keys(limitedAccounts))('%s', (name) => {
  it('syncs every stream against the enforced limits: no failed state, at most one refusal per window', async () => {
    const budgets = scaled[name]!.manifest.budgets!;
    // Front reads each conversation with its inboxes, comments and messages: three calls a ticket;
    // Freshdesk lists each ticket's conversations with a call of its own, Asana and ClickUp each task's
    // stories or comments (and Asana its attachments), at 5 calls a second scaled.
    const seeded = ({ front: 150, freshdesk: 100, asana: 40, clickup: 40 } as Record<string, number>)[name] ?? 400;
    const account = await limitedAccounts[name]!.start(seeded, budgets);
    try {
      const res = await server.call('POST', '/connections', { body: { provider: name, linked_user_origin_id: `budgets-${name}`, credentials: account.credentials, base_url: account.url } });
      expect(res.status).toBe(201);
      const connectionId = res.body.data.id_connection as string;
      const { sync, controlPlane } = server.omniport.services;
      const before = account.requests.length;
      const started = Date.now();
      let records = 0;
      for (const stream of sync.streamsOf((await controlPlane.findConnectionById(connectionId))!)) {
        // A stream waiting for the provider's reset resumes where it stopped: a wait, not a failure.
        for (let run = await sync.run(connectionId, stream); ; run = await sync.run(connectionId, stream)) {
          records += run.records;
          if (run.outcome !== 'waiting') break;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      const seconds = (Date.now() - started) / 1000;
      const calls = account.requests.slice(before);
      const refused = calls.filter((r) => account.refused(r)).length;
      const status = await server.call('GET', '/sync/status', { headers: { 'x-connection-token': res.body.data.connection_token } });
      expect((status.body.data.streams as { status: string }[]).some((s) => s.status === 'failed')).toBe(false);
      expect(records).toBeGreaterThanOrEqual(seeded);
      expect(refused).toBeLessThanOrEqual(Math.ceil(seconds));
      console.log(`${name}: ${records} records, ${calls.length} calls, ${refused} refused, ${seconds.toFixed(1)} s (${budgets.map((b) => `${b.name} ${b.requests}/${b.pacing === 'daily' ? 'day' : 's'}`).join(', ')})`);
    } finally {
      await account.close();
    }
  }, 240_000);
});
