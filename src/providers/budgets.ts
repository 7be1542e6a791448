import { AppError } from '../core/errors';
import type { RequestBudget } from './manifest';

/**
 * When the calls of each budget and account were sent (the last `requests` of them), in this process.
 * A sliding window: at most `requests` calls in any `perSeconds` span, so whatever the phase of the
 * provider's own window, it never counts more than its budget from us.
 */
const sent = new Map<string, number[]>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The span a budget is counted over here: a little longer than the provider's, because a call arrives
 * later than it is sent (by a latency that varies), and the provider counts arrivals.
 */
const spanOf = (budget: RequestBudget) => budget.perSeconds * 1000 * 1.02 + 250;

/** Reserves a call in the budget: the time to wait before sending it (0: now). */
function reserve(key: string, budget: RequestBudget, now: number): number {
  const windowMs = spanOf(budget);
  const times = (sent.get(key) ?? []).filter((t) => t > now - windowMs);
  const at = times.length < budget.requests ? now : times[times.length - budget.requests]! + windowMs;
  times.push(at);
  sent.set(key, times.slice(-budget.requests));
  return at - now;
}

/**
 * Paces calls to the budgets the provider documents (its manifest's `budgets`): a call that would exceed
 * one waits until the budget has room, when that wait fits in what the caller may wait; otherwise it is
 * answered 503 `provider_rate_limited` with Retry-After at once, without spending a provider call on a
 * 429. Budgets are counted per provider account (its base URL), as the providers count them.
 */
export async function spendBudgets(provider: string, account: string, budgets: RequestBudget[] | undefined, path: string, maxWaitMs: number): Promise<void> {
  for (const budget of budgets ?? []) {
    if (budget.path && !budget.path.test(path)) continue;
    const key = `${provider}:${account}:${budget.name}`;
    const now = Date.now();
    const windowMs = spanOf(budget);
    const pending = (sent.get(key) ?? []).filter((t) => t > now - windowMs);
    const wait = pending.length < budget.requests ? 0 : pending[pending.length - budget.requests]! + windowMs - now;
    if (wait > maxWaitMs) {
      throw new AppError(
        'provider_rate_limited',
        `${provider} allows ${budget.requests} ${budget.name} requests every ${budget.perSeconds} s; retry later`,
        { provider, budget: budget.name },
        { 'retry-after': String(Math.max(1, Math.ceil(wait / 1000))) },
      );
    }
    const delay = reserve(key, budget, now);
    if (delay > 0) await sleep(delay);
  }
}
