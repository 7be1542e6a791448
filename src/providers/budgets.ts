import { createHash } from 'node:crypto';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../core/errors';
import type { RequestBudget } from './manifest';

/**
 * Where budgets are counted: in this process (the embedded database has one process), or in PostgreSQL,
 * where every API and worker process on the database draws from the same budget.
 */
export type BudgetStore = { kind: 'memory' } | { kind: 'postgres'; pool: pg.Pool };

/** The table of the budgets' schedules and counters (created by our migrations, src/store/schema.ts). */
export const BUDGETS_TABLE = 'provider_budgets';

/**
 * Calls are spaced evenly, `perSeconds / requests` apart, stretched by a margin: a call arrives later than
 * it is sent, by a latency that varies, and the provider counts arrivals. Even spacing stays under every way
 * a provider counts (fixed or sliding windows, leaky or token buckets): `requests + 1` calls span the window
 * plus 2 % plus up to 250 ms of latency jitter (5 % of short windows). Over a long sync it uses 93–98 % of
 * the budget.
 */
export function spacingMs(budget: Pick<RequestBudget, 'requests' | 'perSeconds'>): number {
  const windowMs = budget.perSeconds * 1000;
  return (windowMs * 1.02 + Math.min(250, windowMs * 0.05)) / budget.requests;
}

export interface BudgetCall {
  provider: string;
  connectionId: string;
  baseUrl: string;
  method: string;
  path: string;
}

/**
 * Paces provider calls to the budgets their manifests declare, and holds every call of a connection while
 * the provider says its budget is spent (a rate-limit header at 0, a 429's Retry-After). A call that would
 * wait longer than its caller may is answered 503 `provider_rate_limited` with Retry-After at once, without
 * spending a provider call on a refusal. Schedules and counters live in the `BudgetStore`, so on PostgreSQL the
 * processes sharing a database share the budgets: evenly paced ones as a schedule of slots (`reserveSlot`),
 * daily and cost budgets and holds as rate-limiter-flexible's RateLimiterPostgres counters on the app's pool.
 */
export class ProviderBudgets {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly store: BudgetStore = { kind: 'memory' }) {}

  /** Waits until every budget the call falls under has room (and any hold is over), or throws 503. */
  async spend(call: BudgetCall, budgets: RequestBudget[] | undefined, maxWaitMs: number): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    await this.waitOutHold(call, deadline);
    const held = holdKey(call);
    const shifted = () => this.heldHere.get(held)?.moved ?? 0;
    let shiftedAtSlot = shifted();
    // The longest wait first: a call under an endpoint's budget and the account's takes its endpoint slot,
    // then the account slot just before it leaves. The other way round, the account slot would go by unused
    // while the call waited for its endpoint's (Freshdesk's ticket list at 20 a minute, under 200 a minute).
    for (const budget of applicable(budgets, call).sort((a, b) => slotLength(b) - slotLength(a))) {
      if (counted(budget)) {
        await this.spendCounted(call, budget, deadline);
        continue;
      }
      shiftedAtSlot = shifted();
      const slot = await this.reserveSlot(slotKey(call, budget), spacingMs(budget), Math.max(0, deadline - Date.now()));
      if (slot.refusedFor !== undefined) {
        throw rateLimited(`${call.provider} allows ${budget.requests} ${budget.name} requests every ${budget.perSeconds} s; retry later`, call.provider, budget.name, slot.refusedFor);
      }
      if (slot.waitMs > 0) await sleep(slot.waitMs);
    }
    // The provider said its budget is spent while this call waited for its slot (a rate-limit header at 0, a
    // 429): the hold moved the connection's schedule on by its length (`hold`), and the call moves with it. So
    // the calls scheduled ahead leave after the reset in the order and spacing they had: none is refused for
    // leaving during the hold, and none loses its place to calls that came later. Holds placed by this process
    // are seen here without a query; another process's are seen before the slot is taken.
    for (let now = shifted(); now > shiftedAtSlot; now = shifted()) {
      const moved = now - shiftedAtSlot;
      shiftedAtSlot = now;
      if (Date.now() + moved > deadline) throw heldByProvider(call, moved);
      await sleep(moved);
    }
  }

  /**
   * Paced budgets keep a schedule: the time from which the next call may go. A call takes the next slot
   * (moving the schedule one spacing on) in one statement and sleeps until it, so calls leave exactly a
   * spacing apart however many wait, late wake-ups do not add up, and no waiter polls. A slot further away
   * than the caller may wait is not taken: `refusedFor` says when the schedule is free. On PostgreSQL the
   * schedule is a row of the budgets table (`expire` in epoch microseconds) read with the database's clock,
   * so processes on different machines share it.
   */
  private async reserveSlot(key: string, spacing: number, maxWaitMs: number): Promise<{ waitMs: number; refusedFor?: number }> {
    if (this.store.kind === 'memory') {
      const now = Date.now();
      const slot = Math.max(this.schedule.get(key) ?? 0, now);
      if (slot - now > maxWaitMs) return { waitMs: 0, refusedFor: slot - now };
      this.schedule.set(key, slot + spacing);
      return { waitMs: slot - now };
    }
    const us = Math.ceil(spacing * 1000);
    try {
      const taken = await this.store.pool.query<{ wait_us: string }>(
        `with clock as (select floor(extract(epoch from clock_timestamp()) * 1000000)::bigint as now)
         insert into ${BUDGETS_TABLE} as b (key, points, expire) select $1, 0, now + $2 from clock
         on conflict (key) do update set expire = greatest(b.expire, (select now from clock)) + $2
           where greatest(b.expire, (select now from clock)) - (select now from clock) <= $3
         returning b.expire - $2 - (select now from clock) as wait_us`,
        [key, us, Math.floor(maxWaitMs * 1000)],
      );
      if (taken.rows[0]) return { waitMs: Math.max(0, Number(taken.rows[0].wait_us) / 1000) };
      const busy = await this.store.pool.query<{ wait_us: string }>(
        `select expire - floor(extract(epoch from clock_timestamp()) * 1000000)::bigint as wait_us from ${BUDGETS_TABLE} where key = $1`,
        [key],
      );
      return { waitMs: 0, refusedFor: Math.max(1, Number(busy.rows[0]?.wait_us ?? 0) / 1000) };
    } catch {
      // The store is unreachable: the provider's own headers and 429s still make the calls wait.
      return { waitMs: 0 };
    }
  }

  /**
   * Forgets schedules and counters an hour past their end (housekeeping): a schedule whose last slot has gone
   * by starts from now anyway, and a counter past its window counts from zero, so deleting them changes no
   * wait. Without it the table keeps a row per connection and budget, and a daily counter per day, for ever.
   * A row a call renews meanwhile ends in the future, and PostgreSQL rechecks it before deleting: it stays.
   */
  async purgeExpired(graceMs = 3_600_000): Promise<number> {
    if (this.store.kind === 'memory') {
      const before = Date.now() - graceMs;
      let purged = 0;
      for (const [key, next] of this.schedule) if (next < before && this.schedule.delete(key)) purged++;
      return purged;
    }
    // Schedules (`slot:` keys) end in epoch microseconds, rate-limiter-flexible's counters in milliseconds.
    const res = await this.store.pool.query(
      `delete from ${BUDGETS_TABLE} b
        using (select floor(extract(epoch from clock_timestamp()) * 1000)::bigint - $1 as before_ms) c
        where b.expire < case when b.key like 'slot:%' then c.before_ms * 1000 else c.before_ms end`,
      [Math.floor(graceMs)],
    );
    return res.rowCount ?? 0;
  }

  /**
   * Holds this process placed (`holdKey` →): the last one's end (epoch ms), and how far in all (ms) they have
   * moved the connection's schedules on.
   */
  private readonly heldHere = new Map<string, { until: number; moved: number }>();

  /** Paced budgets' schedules when counted in this process: the time (ms) from which the next call may go. */
  private readonly schedule = new Map<string, number>();

  /**
   * After the answer: budgets whose cost the answer tells (Linear's `x-complexity`) are charged the actual
   * cost instead of the amount reserved before the call.
   */
  async settle(call: BudgetCall, budgets: RequestBudget[] | undefined, headers: Record<string, string>): Promise<void> {
    for (const budget of applicable(budgets, call)) {
      const header = budget.cost?.header;
      if (!header || !counted(budget)) continue;
      const actual = Math.ceil(Number(headers[header]));
      if (!Number.isFinite(actual) || actual < 0) continue;
      const { limiter, key } = this.counter(call, budget);
      const reserved = this.reserved(key, budget);
      this.lastCost.set(key, actual);
      try {
        if (actual > reserved) await limiter.penalty(key, actual - reserved);
        else if (actual < reserved) await limiter.reward(key, reserved - actual);
      } catch {
        // The store is unreachable: the provider's own headers still hold the calls when the budget is spent.
      }
    }
  }

  /** Budgets counted in calls or cost over fixed windows: a UTC day, or a tenth of a leaky bucket's period. */
  private async spendCounted(call: BudgetCall, budget: RequestBudget, deadline: number): Promise<void> {
    const { limiter, key, points } = this.counter(call, budget);
    const cost = Math.min(points, budget.cost?.header ? this.reserved(key, budget) : costOf(budget, call));
    for (;;) {
      const refused = await consume(limiter, key, cost);
      if (!refused) return;
      const wait = (budget.pacing === 'daily' ? msToNextUtcDay() : refused.msBeforeNext) + Math.random() * 10;
      if (Date.now() + wait > deadline) {
        const per = budget.pacing === 'daily' ? 'a day' : `every ${budget.perSeconds} s`;
        throw rateLimited(`${call.provider} allows ${budget.requests} ${budget.name} ${per}; retry later`, call.provider, budget.name, wait);
      }
      await sleep(wait);
    }
  }

  private counter(call: BudgetCall, budget: RequestBudget) {
    const base = `${call.provider}:${budget.name}:${budget.requests}/${budget.perSeconds}:${scopeKey(budget.scope, call)}`;
    if (budget.pacing === 'daily') {
      // The day is in the key: the count starts afresh at 00:00 UTC, when the providers reset theirs.
      return { limiter: this.limiter('day', 86_400, budget.requests), key: `${base}:${new Date().toISOString().slice(0, 10)}`, points: budget.requests };
    }
    // Each slice holds at least two of the costliest calls, or the bucket is counted as one window.
    const slices = Math.max(1, Math.min(BUCKET_SLICES, Math.floor(budget.requests / (2 * (budget.cost?.estimate ?? 1)))));
    const points = Math.floor(budget.requests / slices);
    return { limiter: this.limiter('bucket', budget.perSeconds / slices, points), key: base, points };
  }

  /** What a call whose cost only its answer tells reserves: the last cost seen on this key, or the estimate. */
  private reserved(key: string, budget: RequestBudget): number {
    return this.lastCost.get(key) ?? budget.cost?.estimate ?? budget.cost?.default ?? 1;
  }

  private readonly lastCost = new Map<string, number>();

  /**
   * The provider said to wait `ms` (its budget is spent until a reset, or a 429 asked for it): every process
   * holds the connection's calls until then, and the connection's schedules move on by as much as the hold
   * extends the previous one, so that the calls already scheduled keep their order after the reset.
   */
  async hold(call: BudgetCall, ms: number, budgets?: RequestBudget[]): Promise<void> {
    if (!(ms > 0)) return;
    const key = holdKey(call);
    const now = Date.now();
    const until = now + ms;
    const last = this.heldHere.get(key);
    const previous = Math.max(last?.until ?? 0, now);
    if (until <= previous) return;
    this.heldHere.set(key, { until, moved: (last?.moved ?? 0) + (until - previous) });
    for (const budget of budgets ?? []) {
      if (!counted(budget)) await this.moveSchedule(slotKey(call, budget), until - previous);
    }
    try {
      await this.limiter('hold', 1).block(key, ms / 1000);
    } catch {
      // The store is unreachable: the provider's own answers still make the calls wait.
    }
  }

  /** Moves a schedule's next slot on by `ms` (from now, if it is free already). */
  private async moveSchedule(key: string, ms: number): Promise<void> {
    if (this.store.kind === 'memory') {
      this.schedule.set(key, Math.max(this.schedule.get(key) ?? 0, Date.now()) + ms);
      return;
    }
    try {
      await this.store.pool.query(
        `update ${BUDGETS_TABLE} set expire = greatest(expire, floor(extract(epoch from clock_timestamp()) * 1000000)::bigint) + $2 where key = $1`,
        [key, Math.ceil(ms * 1000)],
      );
    } catch {
      // The store is unreachable: the hold itself still makes the calls wait.
    }
  }

  private async waitOutHold(call: BudgetCall, deadline: number): Promise<void> {
    let held: RateLimiterRes | null;
    try {
      held = await this.limiter('hold', 1).get(holdKey(call));
    } catch {
      return;
    }
    if (!held || held.consumedPoints <= 1 || held.msBeforeNext <= 0) return;
    if (Date.now() + held.msBeforeNext > deadline) {
      throw heldByProvider(call, held.msBeforeNext);
    }
    await sleep(held.msBeforeNext);
  }

  private limiter(kind: 'hold' | 'day' | 'bucket', durationSeconds: number, points = 1): RateLimiterAbstract {
    const id = `${kind}:${durationSeconds}:${points}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const opts = { points, duration: durationSeconds, keyPrefix: kind };
      limiter =
        this.store.kind === 'postgres'
          ? new RateLimiterPostgresWholeMs({ ...opts, storeClient: this.store.pool, tableName: BUDGETS_TABLE, tableCreated: true, clearExpiredByTimeout: false })
          : new RateLimiterMemory(opts);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

/** A `bucket` budget is counted in (at most) this many windows of its period, each allowed as many parts of it. */
const BUCKET_SLICES = 10;

type CallMatch = { path?: RegExp; methods?: string[] };
const matches = (m: CallMatch, call: Pick<BudgetCall, 'method' | 'path'>) => (!m.path || m.path.test(call.path)) && (!m.methods || m.methods.includes(call.method));

/** Whether a call counts in a budget: its path and methods, and not its exception. */
export function countsIn(budget: RequestBudget, call: Pick<BudgetCall, 'method' | 'path'>): boolean {
  return matches(budget, call) && !(budget.except && matches(budget.except, call));
}

/** How far apart a budget lets calls go; counted budgets (daily, bucket) come first, as the longest. */
const slotLength = (b: RequestBudget) => (counted(b) ? Number.MAX_VALUE : spacingMs(b));

/** Budgets counted over fixed windows (a day, a leaky bucket's slices) rather than paced by a schedule of slots. */
const counted = (b: RequestBudget) => b.pacing === 'daily' || b.pacing === 'bucket';

function applicable(budgets: RequestBudget[] | undefined, call: BudgetCall): RequestBudget[] {
  return (budgets ?? []).filter((b) => countsIn(b, call));
}

/** A call's cost by the budget's endpoint table (first match), else its default, else 1. */
export function costOf(budget: Pick<RequestBudget, 'cost'>, call: Pick<BudgetCall, 'method' | 'path'>): number {
  const rule = budget.cost?.byEndpoint?.find((r) => matches(r, call));
  return rule?.cost ?? budget.cost?.default ?? 1;
}

function msToNextUtcDay(now = Date.now()): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now;
}

/**
 * rate-limiter-flexible keeps a window's end in a bigint column (epoch milliseconds): a bucket's slice or a
 * hold can be a fraction of a millisecond long (a period divided in ten), and such a query fails, which the
 * limiter answers by letting the call through. The end is rounded up to a whole millisecond here.
 */
class RateLimiterPostgresWholeMs extends RateLimiterPostgres {
  _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<unknown> {
    const upsert = (RateLimiterPostgres.prototype as unknown as { _upsert: (...args: unknown[]) => Promise<unknown> })._upsert;
    return upsert.call(this, key, Math.ceil(points), Math.ceil(msDuration), forceExpire);
  }
}

/** Clients built without the services (a credentials check) count in this process. */
export const processBudgets = new ProviderBudgets();

/** The refusal, or undefined when the call may go; a store that cannot be reached does not stop calls. */
async function consume(limiter: RateLimiterAbstract, key: string, points = 1): Promise<RateLimiterRes | undefined> {
  try {
    await limiter.consume(key, points);
    return undefined;
  } catch (err) {
    if (err instanceof RateLimiterRes) return err;
    return undefined;
  }
}

/** Keys stay short (the store's key column is 255 characters) and never carry a URL in clear. */
function scopeKey(scope: RequestBudget['scope'], call: BudgetCall): string {
  const id = scope === 'account' ? call.baseUrl.replace(/\/+$/, '').toLowerCase() : call.connectionId;
  return createHash('sha256').update(id).digest('hex').slice(0, 24);
}

const holdKey = (call: Pick<BudgetCall, 'provider' | 'connectionId'>) => `${call.provider}:${call.connectionId}`;

const slotKey = (call: BudgetCall, budget: RequestBudget) => `slot:${call.provider}:${budget.name}:${budget.requests}/${budget.perSeconds}:${scopeKey(budget.scope, call)}`;

function rateLimited(message: string, provider: string, budget: string, waitMs: number): AppError {
  return new AppError('provider_rate_limited', message, { provider, budget }, { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
}

const heldByProvider = (call: BudgetCall, waitMs: number) => rateLimited(`${call.provider} asked to wait before the next call; retry later`, call.provider, 'provider reset', waitMs);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
