import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config';
import { createOmniport, type Omniport } from '../../src/app';
import { SecretBox } from '../../src/core/secrets';
import type { ProviderRegistry } from '../../src/providers/registry';
import type { HttpTuning } from '../../src/core/provider-context';
import type { DatabaseTarget } from '../../src/store/database';
import { withDatabase } from './global-setup';

export interface Tenant {
  apiKey: string;
  projectId: string;
  userId: string;
}

export interface TestServer {
  url: string;
  omniport: Omniport;
  /** The server's database, for a second instance on it. */
  target?: DatabaseTarget;
  box: SecretBox;
  /** The bootstrap project, its admin and key. */
  tenant: Tenant;
  /** Another project, for cross-tenant tests. */
  createTenant(name: string): Promise<Tenant>;
  /** A request through the real HTTP server, with the tenant's key unless `apiKey: null`. */
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  /** Raw SQL on the server's database. */
  sql(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is (a string body is not JSON-encoded). */
  rawBody?: string;
  apiKey?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON
}

/** A fresh database for one test file: a clone of the migrated template. */
export async function freshDatabase(): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (inject('databaseKind') === 'pglite') {
    const dump = new Blob([fs.readFileSync(inject('pgliteTemplatePath'))]);
    const instance = await PGlite.create({ loadDataDir: dump });
    return { target: { kind: 'pglite-instance', instance }, drop: async () => {} };
  }
  const serverUrl = process.env.DATABASE_URL!;
  const name = `omniport_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
  await admin.end();
  return {
    target: { kind: 'postgres', url: withDatabase(serverUrl, name), poolSize: 5 },
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  // No request budget unless a test sets one (suites poll and page quickly); provider simulators
  // listen on loopback, so private addresses are allowed unless a test checks their refusal.
  return loadConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    OMNIPORT_ENV: 'test',
    OMNIPORT_RATE_LIMIT_PER_MINUTE: '0',
    OMNIPORT_ALLOW_PRIVATE_URLS: 'true',
    // The simulators do not enforce the providers' budgets unless a test asks; the budget tests turn pacing on.
    OMNIPORT_PACE_PROVIDER_BUDGETS: 'false',
    // No built-in sandbox unless a test asks (it would add providers to every listing).
    OMNIPORT_SANDBOX: 'false',
    ...overrides,
  });
}

export interface TestServerOptions {
  providers?: ProviderRegistry;
  env?: Record<string, string>;
  /** Run sync jobs in the server process (default true). */
  work?: boolean;
  /** Faster retries and shorter timeouts than production, so fault tests stay quick. */
  httpTuning?: HttpTuning;
  /** The encryption keys (default: one random key). */
  box?: SecretBox;
  /** How often idle job workers poll (default 0.5 s; production's is 2 s). */
  pollingIntervalSeconds?: number;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const database = await freshDatabase();
  const box = opts.box ?? new SecretBox(randomBytes(32));
  const config = testConfig(opts.env);
  const target = database.target;
  const omniport = await createOmniport(config, {
    target,
    box,
    providers: opts.providers,
    httpTuning: opts.httpTuning ?? { retryBaseMs: 20, maxRetries: 3, timeoutMs: 5_000, maxRetryAfterMs: 5_000 },
    jobs: { work: opts.work ?? true, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 },
  });
  const boot = await omniport.services.projects.bootstrapIfEmpty();
  if (!boot) throw new Error('the test database was not empty');
  const address = await omniport.server.listen({ port: 0, host: '127.0.0.1' });

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.apiKey === undefined ? boot.key.apiKey : o.apiKey;
    if (key !== null && !headers['x-api-key'] && !headers.authorization) headers['x-api-key'] = key;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(address + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };

  return {
    url: address,
    omniport,
    target,
    box,
    tenant: { apiKey: boot.key.apiKey, projectId: boot.project.id, userId: boot.user.id },
    async createTenant(name) {
      const { projects, apiKeys } = omniport.services;
      const project = await projects.createProject(name);
      const user = await projects.createUser(project.id, 'admin');
      const { apiKey } = await apiKeys.issue(project.id, user.id, 'test');
      return { apiKey, projectId: project.id, userId: user.id };
    },
    call,
    sql: async (text, values) => (await omniport.database.executeSql(text, values)).rows,
    async close() {
      await omniport.close();
      await database.drop();
    },
  };
}
