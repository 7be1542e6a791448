import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { ProviderBudgets, countsIn, spacingMs } from '../../src/providers/budgets';
import { attioManifest } from '../../src/providers/attio/manifest';

describe('provider budgets', () => {
  it('spaces calls just under the budget, with room for latency jitter', () => {
    // 10 a minute: (60 s × 1.02 + 250 ms) / 10
    expect(spacingMs({ requests: 10, perSeconds: 60 })).toBeCloseTo(6_145, 0);
    // A 1-second window keeps 5 % of it for jitter: (1,020 + 50) / 10
    expect(spacingMs({ requests: 10, perSeconds: 1 })).toBeCloseTo(107, 0);
  });

  it("counts Attio's record queries (POSTs that read) as reads, and every other POST, PATCH, PUT or DELETE as a write", () => {
    const budgetsOf = (method: string, path: string) => attioManifest.budgets!.filter((b) => countsIn(b, { method, path })).map((b) => b.name);
    expect(budgetsOf('GET', '/v2/objects/people/records/abc')).toEqual(['reads']);
    expect(budgetsOf('POST', '/v2/objects/people/records/query')).toEqual(['reads']);
    expect(budgetsOf('POST', '/v2/lists/pipeline/entries/query')).toEqual(['reads']);
    expect(budgetsOf('POST', '/v2/objects/people/records')).toEqual(['writes']);
    expect(budgetsOf('PATCH', '/v2/objects/deals/records/abc')).toEqual(['writes']);
    expect(budgetsOf('POST', '/v2/notes')).toEqual(['writes']);
  });

  it('answers 503 with Retry-After at once when the wait is longer than the caller may wait', async () => {
    const budgets = new ProviderBudgets();
    const call = { provider: 'zendesk', connectionId: 'c1', baseUrl: 'https://acme.zendesk.com', method: 'GET', path: '/api/v2/incremental/tickets' };
    const budget = [{ name: 'incremental export', requests: 1, perSeconds: 60, scope: 'account' as const }];
    await budgets.spend(call, budget, 1_000);
    // Another connection to the same account shares the budget.
    const err = await budgets.spend({ ...call, connectionId: 'c2', baseUrl: 'https://ACME.zendesk.com/' }, budget, 1_000).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'provider_rate_limited', headers: { 'retry-after': '62' } });
  });

  it("waits for an endpoint's slot before taking the account's: the account slot does not go by unused meanwhile", async () => {
    const budgets = new ProviderBudgets();
    const list = { provider: 'freshdesk', connectionId: 'c1', baseUrl: 'https://acme.freshdesk.com', method: 'GET', path: '/api/v2/tickets' };
    const other = { ...list, path: '/api/v2/tickets/7/conversations' };
    const declared = [
      { name: 'account', requests: 10, perSeconds: 1, scope: 'account' as const }, // 107 ms apart
      { name: 'tickets list', requests: 1, perSeconds: 1, path: /^\/api\/v2\/tickets$/, scope: 'account' as const }, // 1,070 ms apart
    ];
    await budgets.spend(list, declared, 5_000);
    const secondList = budgets.spend(list, declared, 5_000); // waits about a second for the list slot
    await new Promise((r) => setTimeout(r, 150));
    // The account's next slot (107 ms after the first call) is free: the waiting list call has not taken it.
    await budgets.spend(other, declared, 0);
    await secondList;
  });

  it('holds a connection until the reset its provider named', async () => {
    const budgets = new ProviderBudgets();
    const call = { provider: 'linear', connectionId: 'c1', baseUrl: 'https://api.linear.app', method: 'POST', path: '/graphql' };
    await budgets.hold(call, 30_000);
    await expect(budgets.spend(call, [], 1_000)).rejects.toMatchObject({ code: 'provider_rate_limited' });
    await budgets.spend({ ...call, connectionId: 'c2' }, [], 1_000);
  });

  it('a call that took its slot before the provider said its budget is spent waits out the hold instead of leaving', async () => {
    const budgets = new ProviderBudgets();
    const call = { provider: 'front', connectionId: 'c1', baseUrl: 'https://api2.frontapp.com', method: 'GET', path: '/conversations' };
    // 10 a second: slots 107 ms apart.
    const budget = [{ name: 'company', requests: 10, perSeconds: 1, scope: 'connection' as const }];
    const started = performance.now();
    const left: number[] = [];
    const calls = Array.from({ length: 3 }, () => budgets.spend(call, budget, 5_000).then(() => left.push(performance.now() - started)));
    // The first call leaves at once and is answered "nothing left until the reset", 400 ms on.
    await new Promise((r) => setTimeout(r, 20));
    expect(left).toHaveLength(1);
    await budgets.hold(call, 400);
    await Promise.all(calls);
    // The two calls scheduled at 107 and 214 ms waited for the reset, then went a slot apart: not together. The
    // earlier one may wake late on a busy machine, which shortens the gap it is measured by (99.5 ms seen in CI).
    expect(left[1]).toBeGreaterThanOrEqual(400);
    expect(left[2]! - left[1]!).toBeGreaterThanOrEqual(107 / 2);
  });

  it('calls held by the provider keep their place: a call that comes during the hold leaves after them', async () => {
    const budgets = new ProviderBudgets();
    const call = { provider: 'clickup', connectionId: 'c1', baseUrl: 'https://api.clickup.com/api', method: 'GET', path: '/v2/task/1' };
    const budget = [{ name: 'token', requests: 10, perSeconds: 1, scope: 'connection' as const }]; // 107 ms apart
    const started = performance.now();
    const left: Array<{ call: number; at: number }> = [];
    const spend = (n: number) => budgets.spend(call, budget, 5_000).then(() => left.push({ call: n, at: performance.now() - started }));
    const first = [0, 1, 2, 3].map(spend); // slots at 0, 107, 214 and 321 ms
    await new Promise((r) => setTimeout(r, 20));
    await budgets.hold(call, 300, budget); // the first call's answer: nothing left for 300 ms
    await new Promise((r) => setTimeout(r, 30));
    const late = spend(4);
    await Promise.all([...first, late]);
    // Before, the three held calls gave their slots up and took new ones after the late call, over and over
    // under repeated holds, until one's wait passed its limit.
    expect(left.map((l) => l.call)).toEqual([0, 1, 2, 3, 4]);
    // None left during the hold, and the schedule kept its spacing: the late call's slot is 300 ms after the
    // fifth one (428 ms), at 728 ms. (Lower bounds only: a busy machine wakes timers late, never early.)
    expect(left[1]!.at).toBeGreaterThanOrEqual(300);
    expect(left[4]!.at).toBeGreaterThanOrEqual(720);
  });

  it('reads the plan overrides of OMNIPORT_PROVIDER_BUDGETS and refuses malformed ones', () => {
    expect(loadConfig({ OMNIPORT_PROVIDER_BUDGETS: 'zendesk.account=700/60, hubspot.burst=190/10' }).providerBudgetOverrides).toEqual({
      'zendesk.account': { requests: 700, perSeconds: 60 },
      'hubspot.burst': { requests: 190, perSeconds: 10 },
    });
    expect(() => loadConfig({ OMNIPORT_PROVIDER_BUDGETS: 'zendesk.account=700' })).toThrow();
  });
});
