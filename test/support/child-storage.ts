/**
 * Child `omniport` processes that restart on the same data (crash and restart tests): where they keep it, and
 * a start that waits out the previous owner's lock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { freshDatabase } from './harness';
import { OmniportExitedError, startOmniport, type OmniportProcess } from './omniport-process';

export type Cleanups = Array<() => Promise<void> | void>;

/** A PostgreSQL database cloned from the template (with a key), or a PGlite directory; removed by `cleanups`. */
export async function childStorage(cleanups: Cleanups, prefix = 'omniport-child-'): Promise<Record<string, string>> {
  if (inject('databaseKind') === 'postgres') {
    const db = await freshDatabase();
    cleanups.push(() => db.drop());
    return { DATABASE_URL: (db.target as { url: string }).url, OMNIPORT_SECRET_KEY: randomBytes(32).toString('hex') };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { OMNIPORT_DATA_DIR: dir };
}

/**
 * `omniport start` with `env` (on the embedded database when `storage` has no DATABASE_URL); on PGlite a restart
 * may find the previous owner's lock for a few seconds, so an early exit is tried again. Killed by `cleanups`.
 */
export async function startOnStorage(env: NodeJS.ProcessEnv, storage: Record<string, string>, cleanups: Cleanups): Promise<OmniportProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...env, ...storage };
  if (!storage.DATABASE_URL) delete childEnv.DATABASE_URL;
  const deadline = Date.now() + 150_000;
  for (;;) {
    try {
      const server = await startOmniport({ env: childEnv, timeoutMs: Math.max(1, deadline - Date.now()) });
      cleanups.push(() => server.stop('SIGKILL'));
      return server;
    } catch (e) {
      if (!(e instanceof OmniportExitedError) || Date.now() >= deadline) throw e;
      await new Promise((r) => setTimeout(r, 1_000)); // exited (the data directory still locked): try again
    }
  }
}
