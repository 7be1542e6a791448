/**
 * Budgets beyond even spacing, declared in the manifests: daily budgets (HubSpot's calls, Pipedrive's tokens
 * charged by endpoint) counted per UTC day and spent as calls come, and Linear's complexity budget charged
 * what each answer's `x-complexity` says. On both databases: counted in PostgreSQL (rate-limiter-flexible's
 * store, shared by processes) or in memory on the embedded database.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderBudgets, costOf, spacingMs, type BudgetStore } from '../../src/providers/budgets';
import type { RequestBudget } from '../../src/providers/manifest';
import { ProviderRegistry } from '../../src/providers/registry';
import { hubspotAdapter } from '../../src/providers/hubspot';
import { pipedriveAdapter } from '../../src/providers/pipedrive';
import { startTestServer, type TestServer } from '../support/harness';
import { limitedAccounts } from '../support/limited-accounts';

let server: TestServer;
let store: BudgetStore;
beforeAll(async () => {
  // HubSpot's daily budget cut to 6 calls (an operator's override, as for a customer's plan).
  server = await startTestServer({
    providers: new ProviderRegistry([hubspotAdapter]),
    env: { OMNIPORT_PACE_PROVIDER_BUDGETS: 'true', OMNIPORT_PROVIDER_BUDGETS: 'hubspot.daily=6/86400' },
    work: false,
    httpTuning: { retryBaseMs: 20, maxRetries: 3, timeoutMs: 10_000, maxRetryAfterMs: 5_000 },
  });
  const pool = server.omniport.database.pgPool;
  store = pool ? { kind: 'postgres', pool } : { kind: 'memory' };
});
afterAll(async () => {
  await server?.close();
});

const secondsToNextUtcDay = () => {
  const now = new Date();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
};

describe('even spacing', () => {
  it('holds the next call for a window of a fraction of a millisecond too (the store keeps whole milliseconds)', async () => {
    const budgets = new ProviderBudgets(store);
    // 7 calls a minute: 8,778.57 ms apart.
    const budget: RequestBudget = { name: 'account', requests: 7, perSeconds: 60, scope: 'connection' };
    const call = { provider: 'zendesk', connectionId: `c-${Date.now()}`, baseUrl: 'https://acme.zendesk.com', method: 'GET', path: '/api/v2/tickets' };
    await budgets.spend(call, [budget], 0);
    await expect(budgets.spend(call, [budget], 0)).rejects.toMatchObject({ code: 'provider_rate_limited' });
  });

  it('spaces concurrent callers one slot apart', async () => {
    // The job queue starting beside it (seconds of statements on a new PGlite, now interleaved with the event loop)
    // would delay these timers: what is measured is the schedule, so it starts once the server is settled.
    await server.omniport.jobs.start();
    const budgets = new ProviderBudgets(store);
    const budget: RequestBudget = { name: 'account', requests: 20, perSeconds: 1, scope: 'connection' };
    const spacing = spacingMs(budget);
    const call = { provider: 'zendesk', connectionId: `c-${Date.now()}`, baseUrl: 'https://acme.zendesk.com', method: 'GET', path: '/api/v2/tickets' };
    const sent: number[] = [];
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 5; i++) {
          await budgets.spend(call, [budget], 10_000);
          sent.push(performance.now());
        }
      }),
    );
    lag.disable();
    sent.sort((a, b) => a - b);
    // Slots are a spacing apart; a call leaves when its timer fires, late by a varying lag, which the spacing's
    // margin absorbs at the provider. Allowed: 100 ms, or the event loop's worst delay during the run on a machine
    // loaded more than that (a timer cannot fire while the loop is held).
    const slack = Math.max(100, lag.max / 1e6 + 10);
    for (let i = 0; i < sent.length; i++) {
      for (let j = i + 1; j < sent.length; j++) expect(sent[j]! - sent[i]!).toBeGreaterThan((j - i) * spacing - slack);
    }
  });
});

describe('housekeeping', () => {
  it('forgets schedules and counters past their end, and keeps those still running', async () => {
    const budgets = new ProviderBudgets(store);
    const provider = `purge-${Date.now()}`;
    const call = { provider, connectionId: 'c-purge', baseUrl: 'https://acme.example', method: 'GET', path: '/tickets' };
    // 100 calls a second (a schedule over 11 ms later), 1 a minute (61 s later), and a daily counter (midnight UTC).
    const fast: RequestBudget = { name: 'fast', requests: 100, perSeconds: 1, scope: 'connection' };
    const slow: RequestBudget = { name: 'slow', requests: 1, perSeconds: 60, scope: 'connection' };
    const daily: RequestBudget = { name: 'daily', requests: 1_000, perSeconds: 86_400, scope: 'connection', pacing: 'daily' };
    await budgets.spend(call, [fast, slow, daily], 0);
    const stored = async () =>
      store.kind === 'postgres'
        ? (await server.sql('select key from provider_budgets where key like $1 order by key', [`%${provider}:%`])).map((r) => String(r.key).split(':').slice(0, 3).join(':'))
        : [...(budgets as unknown as { schedule: Map<string, number> }).schedule.keys()].map((k) => k.split(':').slice(0, 3).join(':'));
    const before = await stored();
    expect(before).toEqual(expect.arrayContaining([`slot:${provider}:fast`, `slot:${provider}:slow`]));
    await new Promise((r) => setTimeout(r, 50));

    await budgets.purgeExpired(0);
    const after = await stored();
    expect(after).not.toContain(`slot:${provider}:fast`);
    expect(after).toContain(`slot:${provider}:slow`);
    if (store.kind === 'postgres') expect(after).toContain(`day:${provider}:daily`);
    // The schedule still running still holds the next call.
    await expect(budgets.spend(call, [slow], 0)).rejects.toMatchObject({ code: 'provider_rate_limited' });
  });
});

describe('daily budgets', () => {
  it('charges each call its endpoint cost, and refuses past the day’s budget until the next UTC day', async () => {
    const budgets = new ProviderBudgets(store);
    const daily = pipedriveAdapter.manifest.budgets!.find((b) => b.name === 'daily')!;
    expect(costOf(daily, { method: 'GET', path: '/api/v2/persons/search' })).toBe(40);
    expect(costOf(daily, { method: 'GET', path: '/api/v2/persons' })).toBe(20);
    expect(costOf(daily, { method: 'GET', path: '/api/v2/persons/17' })).toBe(2);
    expect(costOf(daily, { method: 'POST', path: '/api/v2/persons' })).toBe(10);

    const small: RequestBudget = { ...daily, requests: 44 };
    const call = { provider: 'pipedrive', connectionId: `c-${Date.now()}`, baseUrl: 'https://api.pipedrive.com', method: 'GET', path: '/api/v2/persons' };
    await budgets.spend(call, [small], 0); // 20
    await budgets.spend(call, [small], 0); // 40
    await budgets.spend({ ...call, path: '/api/v2/persons/1' }, [small], 0); // 42
    const err = (await budgets.spend(call, [small], 60_000).catch((e: unknown) => e)) as { code: string; headers: Record<string, string> };
    expect(err).toMatchObject({ code: 'provider_rate_limited' });
    expect(Math.abs(Number(err.headers['retry-after']) - secondsToNextUtcDay())).toBeLessThan(5);
    // Counted per connection: another one has its own budget.
    await budgets.spend({ ...call, connectionId: `${call.connectionId}-other` }, [small], 0);
  });

  it('a sync that reaches the daily budget waits for the next day: waiting_for_rate_limit, never failed', async () => {
    const account = await limitedAccounts.hubspot!.start(400, hubspotAdapter.manifest.budgets!);
    try {
      const res = await server.call('POST', '/connections', { body: { provider: 'hubspot', linked_user_origin_id: 'daily', credentials: account.credentials, base_url: account.url } });
      expect(res.status).toBe(201);
      const connectionId = res.body.data.id_connection as string;
      const before = account.requests.length;
      const runs = [];
      for (const stream of server.omniport.services.sync.streamsOf((await server.omniport.services.controlPlane.findConnectionById(connectionId))!)) {
        runs.push(await server.omniport.services.sync.run(connectionId, stream));
      }
      const waiting = runs.filter((r) => r.outcome === 'waiting');
      expect(waiting.length).toBeGreaterThan(0);
      for (const r of waiting) expect(Math.abs((r.resumeAt!.getTime() - Date.now()) / 1000 - secondsToNextUtcDay())).toBeLessThan(5);
      // The connection check made one call before the sync; the day allows 6 in all.
      expect(account.requests.length - before).toBeLessThanOrEqual(6);
      const status = await server.call('GET', '/sync/status', { headers: { 'x-connection-token': res.body.data.connection_token } });
      const states = (status.body.data.streams as { status: string }[]).map((s) => s.status);
      expect(states).toContain('waiting_for_rate_limit');
      expect(states).not.toContain('failed');
    } finally {
      await account.close();
    }
  }, 60_000);
});

describe('complexity budget', () => {
  // Linear's shape, small: 100 points every 2 s, counted in 5 slices of 20 points; a query reserves the last cost seen.
  const complexity: RequestBudget = { name: 'complexity', requests: 100, perSeconds: 2, pacing: 'bucket', scope: 'connection', cost: { header: 'x-complexity', estimate: 10 } };
  const call = () => ({ provider: 'linear', connectionId: `c-${Math.random()}`, baseUrl: 'https://api.linear.app', method: 'POST', path: '/graphql' });

  it('charges what the answer says the query cost, and reserves that much for the next query', async () => {
    const budgets = new ProviderBudgets(store);
    const c = call();
    await budgets.spend(c, [complexity], 0); // reserves the estimate, 10
    await budgets.settle(c, [complexity], { 'x-complexity': '18' }); // charged 18
    // 18 spent in this slice of 20, and the next query is expected to cost 18 too: it waits for the next slice.
    await expect(budgets.spend(c, [complexity], 0)).rejects.toMatchObject({ code: 'provider_rate_limited' });
    await budgets.spend(c, [complexity], 5_000);
    await budgets.settle(c, [complexity], { 'x-complexity': '1' }); // 17 given back
    await budgets.spend(c, [complexity], 0); // reserves 1
  });

  it('ignores answers without the header, and other providers', async () => {
    const budgets = new ProviderBudgets(store);
    const c = call();
    await budgets.spend(c, [complexity], 0);
    await budgets.settle(c, [complexity], {});
    await budgets.spend(c, [complexity], 0); // still 10 + 10 of 20
    await expect(budgets.spend(c, [complexity], 0)).rejects.toMatchObject({ code: 'provider_rate_limited' });
  });
});
