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
  /**
   * Follows NOTIFY messages of `channel`. `onListening(true)` is called once notifications flow, and
   * `onListening(false)` whenever they may have been missed (the listening connection was lost); it is
   * re-established by itself. On PGlite notifications arrive before the committing statement returns.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  /** Calls `observer` with the text of every statement sent through `db` (tests count them). */
  observeQueries(observer: (sql: string) => void): () => void;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  onNotify(payload: string): void;
  onListening(listening: boolean): void;
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

/** Drizzle's logger as a hook on the query path: every statement `db` sends is seen by the observers. */
function queryObservers() {
  const observers = new Set<(sql: string) => void>();
  return {
    logger: { logQuery: (query: string) => observers.forEach((o) => o(query)) },
    observeQueries(observer: (sql: string) => void) {
      observers.add(observer);
      return () => void observers.delete(observer);
    },
  };
}

/** A turn for timers and sockets (setImmediate runs after pending I/O callbacks). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * PGlite runs each statement synchronously on the event loop and answers through promise continuations only, so a
 * chain of statements (a sync's saves, webhook batches) would never let a socket or a timer run until it ends:
 * every request of the process waited for it (issue 32). Each statement, and each transaction, first gives the
 * event loop a turn; between two statements the server accepts and answers what needs no database.
 */
function yieldingClient<T extends { query: unknown; exec: unknown }>(client: T): T {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (prop === 'query' || prop === 'exec' || prop === 'sql') {
        return async (...args: unknown[]) => {
          await yieldToEventLoop();
          return method.apply(target, args);
        };
      }
      if (prop === 'transaction') {
        return async (fn: (tx: { query: unknown; exec: unknown }) => unknown) => {
          await yieldToEventLoop();
          return method.call(target, (tx: { query: unknown; exec: unknown }) => fn(yieldingClient(tx)));
        };
      }
      return method.bind(target);
    },
  });
}

function wrapPglite(instance: PGlite, release: () => Promise<void>): DatabaseHandle {
  const { logger, observeQueries } = queryObservers();
  const db = drizzlePglite(yieldingClient(instance), { schema, logger }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    observeQueries,
    async listen(channel, handlers) {
      const unlisten = await instance.listen(channel, handlers.onNotify);
      handlers.onListening(true);
      return async () => {
        if (!instance.closed) await unlisten();
      };
    },
    async executeSql(text, values) {
      await yieldToEventLoop();
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
  const { logger, observeQueries } = queryObservers();
  const listeners = new Set<() => Promise<void>>();
  const db = drizzlePg(pool, { schema, logger }) as unknown as Database;
  return {
    kind: 'postgres',
    db,
    observeQueries,
    async listen(channel, handlers) {
      const stop = await listenPostgres(url, channel, handlers);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    pgPool: pool,
    async executeSql(text, values) {
      const result = await pool.query(text, values as unknown[] | undefined);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}

/**
 * A dedicated connection that LISTENs on `channel` (a pooled one could not keep the subscription). A lost
 * connection is reported (`onListening(false)`: notifications may have been missed) and made again, with
 * a growing pause up to 5 s.
 */
async function listenPostgres(url: string, channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let client: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let pauseMs = 100;
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    handlers.onListening(false);
    c.end().catch(ignoreConnectionError);
    schedule();
  };
  const schedule = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, pauseMs);
    retryTimer.unref();
    pauseMs = Math.min(pauseMs * 2, 5_000);
  };
  const connect = async () => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch {
      c.end().catch(ignoreConnectionError);
      schedule();
      return;
    }
    if (stopped) {
      await c.end().catch(ignoreConnectionError);
      return;
    }
    client = c;
    pauseMs = 100;
    handlers.onListening(true);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const c = client;
    client = undefined;
    await c?.end().catch(ignoreConnectionError);
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

/** Whether an error (or one of its causes) is a deadlock or a serialization failure: the transaction can run again. */
export function isRetryableConflict(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === '40P01' || code === '40001') return true;
  }
  return false;
}

/**
 * Runs a transaction again when PostgreSQL aborted it to break a deadlock (a connection deleted while its sync
 * writes: the cascade and the sync's inserts lock the same rows in opposite orders), a few times, then gives up.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (attempt >= attempts || !isRetryableConflict(err)) throw err;
      await new Promise((r) => setTimeout(r, 20 * attempt + Math.random() * 30));
    }
  }
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
