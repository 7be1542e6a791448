/**
 * The pacing alone, no provider: `callers` concurrent callers spend one budget as fast as it lets them, for
 * `seconds`; prints calls made against the calls the budget allows over that time, and the store queries.
 *
 *   [BENCH_DATABASE_URL=postgres://…/<database>] npx tsx bench/pacing.ts <requests> <perSeconds> <callers> <seconds>
 */
import pg from 'pg';
import { ProviderBudgets, BUDGETS_TABLE, type BudgetStore } from '../src/providers/budgets';

const [requests = 1666, perSeconds = 10, callers = 150, seconds = 10] = process.argv.slice(2).map(Number);
const url = process.env.BENCH_DATABASE_URL;
let queries = 0;
let store: BudgetStore = { kind: 'memory' };
let pool: pg.Pool | undefined;
if (url) {
  pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query(`create table if not exists ${BUDGETS_TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`);
  await pool.query(`delete from ${BUDGETS_TABLE}`);
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => (queries++, query(...args));
  store = { kind: 'postgres', pool };
}
const budgets = new ProviderBudgets(store);
const budget = [{ name: 'bench', requests, perSeconds, scope: 'connection' as const }];
const call = { provider: 'bench', connectionId: `c${Date.now()}`, baseUrl: 'http://bench', method: 'GET', path: '/x' };
let calls = 0;
const end = Date.now() + seconds * 1000;
const started = Date.now();
await Promise.all(
  Array.from({ length: callers }, async () => {
    while (Date.now() < end) {
      await budgets.spend(call, budget, 60_000);
      if (Date.now() < end) calls++;
    }
  }),
);
const elapsed = (Math.min(Date.now(), end) - started) / 1000;
const allowed = (requests / perSeconds) * elapsed;
console.log(
  `${url ? 'postgres' : 'memory'}: ${callers} callers, ${requests}/${perSeconds} s: ${calls} calls in ${elapsed.toFixed(1)} s = ${((100 * calls) / allowed).toFixed(1)} % of the budget` +
    (url ? `, ${queries} store queries (${(queries / Math.max(1, calls)).toFixed(1)} a call)` : ''),
);
await pool?.end();
