/**
 * The PostgreSQL handle through dropped and refused connections, without the HTTP server: a client held by
 * a transaction loses its server between two queries (pg then emits `error` on that client, which crashes
 * a process that does not listen), queries fail fast and classified while the database refuses
 * connections, and the same pool serves again once it accepts them.
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, expect, inject, it } from 'vitest';
import { freshDatabase } from '../support/harness';
import { isDatabaseUnavailable, openDatabase, type DatabaseHandle } from '../../src/store/database';

const onPostgres = inject('databaseKind') === 'postgres';
if (!onPostgres) console.warn('store database-outage: PostgreSQL only (the embedded database has no connections to drop); skipped on PGlite');

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function outageFixture() {
  const fresh = await freshDatabase();
  cleanups.push(() => fresh.drop());
  const handle: DatabaseHandle = await openDatabase(fresh.target);
  cleanups.push(() => handle.close());
  const dbName = new URL((fresh.target as { url: string }).url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  cleanups.push(async () => {
    await admin.query(`alter database ${dbName} allow_connections true`);
    await admin.end();
  });
  const terminateAll = () => admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
  return { handle, admin, dbName, terminateAll };
}

it.skipIf(!onPostgres)('a transaction whose connection is dropped between two queries fails classified, and nothing escapes as an error event', async () => {
  const { handle, terminateAll } = await outageFixture();
  let release!: () => void;
  const holding = new Promise<void>((resolve) => (release = resolve));
  let inTransaction!: () => void;
  const started = new Promise<void>((resolve) => (inTransaction = resolve));
  const transaction = handle.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    inTransaction();
    // The client is checked out and idle here: no query of its own to fail, so pg reports on the client.
    await holding;
    await tx.execute(sql`select 2`);
  });
  const outcome = transaction.then(
    () => undefined,
    (err: unknown) => err,
  );
  await started;
  await terminateAll();
  // Let the termination reach the held client's socket before the next query is sent.
  for (let i = 0; i < 50 && !(await handle.ping().then(() => true, () => false)); i++);
  release();
  const err = await outcome;
  expect(err).toBeDefined();
  expect(isDatabaseUnavailable(err), String((err as Error).message)).toBe(true);
  // The pool replaced its dropped clients.
  await handle.ping();
});

it.skipIf(!onPostgres)('while the database refuses connections queries fail classified, and the same pool serves again afterwards', async () => {
  const { handle, admin, dbName, terminateAll } = await outageFixture();
  await handle.ping();
  await admin.query(`alter database ${dbName} allow_connections false`);
  await terminateAll();
  const failures: unknown[] = [];
  for (let i = 0; i < 5; i++) failures.push(await handle.ping().then(() => undefined, (err: unknown) => err));
  expect(failures.every((err) => err !== undefined && isDatabaseUnavailable(err)), failures.map((e) => String((e as Error)?.message)).join('; ')).toBe(true);
  await admin.query(`alter database ${dbName} allow_connections true`);
  await handle.ping();
  const rows = await handle.executeSql('select 1 as one');
  expect(rows.rows).toEqual([{ one: 1 }]);
});
