/**
 * Stopping the job queue while a sync job outlasts the graceful stop: the job reports to pg-boss after the
 * database closed. pg-boss's worker does not await its completion or failure of a job, so an answer it cannot
 * read would be an unhandled rejection that ends the process (bench/webhooks-in.ts between its two parts).
 */
import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { expect, it } from 'vitest';
import { startTestServer } from '../support/harness';

it('a job that reports after the queue stopped and the database closed is dropped quietly', async () => {
  const server = await startTestServer();
  await server.omniport.jobs.start();
  // What the worker of a job still running at the stop calls when its handler returns or throws.
  const boss = (server.omniport.jobs as unknown as { boss: PgBoss }).boss;
  await server.close();
  await expect(boss.fail('sync', randomUUID(), { message: 'the database closed under the job' })).resolves.toBeDefined();
  await expect(boss.complete('sync', randomUUID())).resolves.toBeDefined();
});
