import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts', 'test/support/global-setup.ts', 'test/support/config-home.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Integration tests mostly wait (provider retries, sync polling), so more files than cores run at once.
    maxWorkers: Number(process.env.OMNIPORT_TEST_WORKERS ?? 6),
  },
});
