/**
 * Real `omniport start` child processes for crash tests: killed with SIGKILL and started again on the same
 * data (a PostgreSQL database cloned from the template, or a PGlite directory).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { freshDatabase } from './harness';
import { OmniportExitedError, startOmniport, type OmniportProcess } from './omniport-process';

export type Cleanups = Array<() => Promise<void> | void>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where the child processes keep their data, on the database kind the run tests. */
export async function crashStorage(cleanups: Cleanups, dirPrefix = 'omniport-crash-'): Promise<Record<string, string>> {
  if (inject('databaseKind') === 'postgres') {
    const db = await freshDatabase();
    cleanups.push(() => db.drop());
    return { DATABASE_URL: (db.target as { url: string }).url, OMNIPORT_SECRET_KEY: randomBytes(32).toString('hex') };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { OMNIPORT_DATA_DIR: dir };
}

/** `omniport start` in a child process with `apiKey` bootstrapped; on PGlite a restart may find the dead owner's lock for a few seconds. */
export async function startCrashServer(env: Record<string, string>, apiKey: string, cleanups: Cleanups): Promise<OmniportProcess> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    OMNIPORT_ALLOW_PRIVATE_URLS: 'true',
    OMNIPORT_BOOTSTRAP_API_KEY: apiKey,
    OMNIPORT_RATE_LIMIT_PER_MINUTE: '0',
    OMNIPORT_PACE_PROVIDER_BUDGETS: 'false', // the simulators do not count them
    ...env,
  };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const deadline = Date.now() + 150_000;
  for (;;) {
    try {
      const server = await startOmniport({ env: childEnv, timeoutMs: Math.max(1, deadline - Date.now()) });
      cleanups.push(() => server.stop('SIGKILL'));
      return server;
    } catch (e) {
      if (!(e instanceof OmniportExitedError) || Date.now() >= deadline) throw e;
      await sleep(1_000); // exited (the data directory still locked): try again
    }
  }
}
