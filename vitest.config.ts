import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that mostly wait on the clock (paced budgets, stale-worker takeovers, child processes) start first,
 * so that the rest of the suite runs beside them. Vitest orders by the last run's durations, and in CI the
 * PostgreSQL run follows the embedded one, where the PostgreSQL-only files were skipped: without this, the
 * shared-budget file (about 95 s) started last and ran alone at the end.
 */
const WAITS_ON_THE_CLOCK = /budget|\/faults\/|\/control-plane\/(cli|keys-cli|process|fuzz)\./;

class ClockBoundFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => WAITS_ON_THE_CLOCK.test(f.moduleId);
    return [...sorted.filter(first), ...sorted.filter((f) => !first(f))];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts', 'test/support/global-setup.ts', 'test/support/config-home.ts', 'test/support/spec-notice.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker keeps the modules it loaded from one test file to the next: loading the server's modules again for
    // each of 200 files took more time than the tests themselves (embedded run 465 s with isolation, 322 s
    // without). What modules keep between files is keyed by connection (provider caches, budgets, HTTP limits) or
    // set by each server as it starts, and every file starts its own servers, databases and simulators.
    isolate: false,
    sequence: { sequencer: ClockBoundFirst },
    // Integration tests mostly wait (provider retries, sync polling), so twice as many files as cores run at
    // once; more only lengthens each test's waits on a small machine (6 files on 2 cores timed some out).
    maxWorkers: Number(process.env.OMNIPORT_TEST_WORKERS ?? Math.max(2, availableParallelism() * 2)),
  },
});
