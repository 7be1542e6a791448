import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Database;
  /** Raw parameterised SQL, for libraries that bring their own queries (pg-boss). */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** The connection pool on PostgreSQL, for libraries that take one (rate-limiter-flexible's store). */
  pgPool?: pg.Pool;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-instance'; instance: PGlite }
  | { kind: 'postgres'; url: string; poolSize?: number };

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `The embedded database in ${dataDir} is already used by another Omniport process. ` +
        'Only one process may own a PGlite directory: stop the other process, point OMNIPORT_DATA_DIR at another directory, ' +
        'or use PostgreSQL (DATABASE_URL) to run several processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Opens the database, holding the PGlite directory lock for the lifetime of the handle. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') return openPostgres(target.url, target.poolSize ?? 10);
  if (target.kind === 'pglite-instance') return wrapPglite(target.instance, async () => {});

  fs.mkdirSync(target.dataDir, { recursive: true, mode: 0o700 });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(target.dataDir, {
      lockfilePath: path.join(target.dataDir, 'omniport.lock'),
      // A crashed owner's lock goes stale after 10 s; the retries let a quick restart wait for it.
      stale: 10_000,
      update: 2_000,
      retries: { retries: 6, minTimeout: 500, maxTimeout: 2_000 },
      onCompromised: (err) => {
        console.error(`omniport: lost the lock on ${target.dataDir}: ${err.message}; stopping to protect the data`);
        process.exit(70);
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(target.dataDir);
    throw err;
  }
  try {
    const instance = await PGlite.create(path.join(target.dataDir, 'pgdata'));
    return wrapPglite(instance, release);
  } catch (err) {
    await release();
    throw err;
  }
}

function wrapPglite(instance: PGlite, release: () => Promise<void>): DatabaseHandle {
  const db = drizzlePglite(instance, { schema }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const result = await instance.query<Record<string, unknown>>(text, values as unknown[]);
        return { rows: result.rows };
      }
      // Without parameters the text may hold several statements (pg-boss migrations): only exec runs those.
      const results = await instance.exec(text);
      return { rows: (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[] };
    },
    async ping() {
      await instance.query('select 1');
    },
    async close() {
      if (!instance.closed) await instance.close();
      await release();
    },
  };
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A server refusing connections (or not answering at all) fails a request in seconds instead of leaving it waiting.
    connectionTimeoutMillis: 5_000,
    // A connection whose server vanished without closing it (a partition, a lost machine) is found out by TCP.
    keepAlive: true,
  });
  // A client losing its server emits `error`, and an `error` event nobody listens to crashes the process. The pool
  // listens on idle clients only; a client checked out by a transaction, idle between two of its queries, has no
  // listener but this one. The fault is reported where it matters: the transaction's next query rejects.
  pool.on('error', ignoreConnectionError);
  pool.on('connect', (client) => client.on('error', ignoreConnectionError));
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    kind: 'postgres',
    db,
    pgPool: pool,
    async executeSql(text, values) {
      const result = await pool.query(text, values as unknown[] | undefined);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/** Applies pending migrations. On PostgreSQL an advisory lock keeps concurrent starts from racing. */
export async function migrateDatabase(target: DatabaseTarget, handle: DatabaseHandle): Promise<void> {
  if (target.kind !== 'postgres') {
    await migratePglite(handle.db as never, { migrationsFolder });
    return;
  }
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 10_000 });
  // A dropped connection fails the migration's next query (and the start); it must not also crash as an event.
  client.on('error', ignoreConnectionError);
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('omniport:migrate'))");
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock(hashtext('omniport:migrate'))").catch(() => {});
    await client.end();
  }
}

export function targetFromConfig(config: { databaseUrl?: string; dataDir: string }): DatabaseTarget {
  return config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir };
}

/** For pg's `error` events: the query that needed the connection reports the fault, the event itself adds nothing. */
function ignoreConnectionError(): void {}

/** SQLSTATE classes and codes meaning "the database cannot be reached right now", not "the query is wrong". */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300|53400)$/;
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|terminating connection|the database system is (starting up|shutting down)|not currently accepting connections/i;

/**
 * Whether an error (or one of its causes, however drizzle or pg wrapped it) means the database is out of
 * reach — a dropped connection, a server refusing or shutting down — rather than a fault of the query.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_CODES.has(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * An error as a log line may show it: drizzle puts the query's parameters (customers' names, emails …)
 * in its message; they are cut, and so are the parameters kept on the error.
 */
export function loggableError(err: unknown): Record<string, unknown> {
  const e = err as { message?: unknown; code?: unknown; name?: unknown; stack?: unknown; cause?: unknown };
  const clean = (m: unknown) => (typeof m === 'string' ? m.replace(/\nparams:[\s\S]*$/, '\nparams: [redacted]') : undefined);
  const cause = e?.cause as { message?: unknown; code?: unknown } | undefined;
  return {
    name: typeof e?.name === 'string' ? e.name : undefined,
    message: clean(e?.message),
    code: typeof e?.code === 'string' ? e.code : undefined,
    ...(cause ? { cause: { message: clean(cause.message), code: typeof cause.code === 'string' ? cause.code : undefined } } : {}),
    stack: typeof e?.stack === 'string' ? clean(e.stack.split('\n    at ').slice(0, 6).join('\n    at ')) : undefined,
  };
}

/**
 * The SQLSTATE of an error that is the data's fault, not the query's or the server's: a value the database
 * cannot hold (class 22, data exception) or a limit it cannot exceed (class 54, e.g. an index entry too large).
 */
export function recordFault(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(22|54)[0-9A-Z]{3}$/.test(code)) return code;
  }
  return undefined;
}
