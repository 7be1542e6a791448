import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts', 'test/support/global-setup.ts', 'test/support/config-home.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Integration tests mostly wait (provider retries, sync polling), so twice as many files as cores run at
    // once; more only lengthens each test's waits on a small machine (6 files on 2 cores timed some out).
    maxWorkers: Number(process.env.OMNIPORT_TEST_WORKERS ?? Math.max(2, availableParallelism() * 2)),
  },
});
