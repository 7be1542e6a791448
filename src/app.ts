import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import { createServices, type Services } from './services';
import fs from 'node:fs';
import { loadSecretKeys } from './core/secret-key';
import { assertKeysReadDatabase } from './core/key-rotation';
import type { HttpTuning } from './core/provider-context';
import type { SecretBox } from './core/secrets';
import { buildServer } from './http/server';
import { loggerOptions } from './observability/logger';
import { JobRunner } from './jobs/runner';
import { startHousekeeping } from './jobs/housekeeping';
import { WebhookDispatcher } from './events/dispatcher';
import { ProviderRegistry, defaultProviders } from './providers/registry';
import { Sandbox } from './sandbox';
import type { ConnectionRow } from './store/control-plane.repo';
import { listeningOrigins } from './sandbox/deliver';
import { migrateDatabase, openDatabase, targetFromConfig, type DatabaseHandle, type DatabaseTarget } from './store/database';

export interface Omniport {
  config: Config;
  database: DatabaseHandle;
  services: Services;
  jobs: JobRunner;
  /** Sends webhook deliveries (in processes that run jobs). */
  webhooks: WebhookDispatcher;
  server: FastifyInstance;
  /** The built-in sandbox products, when OMNIPORT_SANDBOX is on. */
  sandbox: Sandbox | undefined;
  close(): Promise<void>;
}

export interface OpenOptions {
  target?: DatabaseTarget;
  box?: SecretBox;
  providers?: ProviderRegistry;
  httpTuning?: HttpTuning;
}

/** Opens the database (migrating it) and wires the services; used by the CLI and the tests. */
export async function openServices(
  config: Config,
  opts: OpenOptions = {},
): Promise<{ database: DatabaseHandle; services: Services; box: SecretBox; sandbox: Sandbox | undefined }> {
  const keys = opts.box ? { box: opts.box, generated: false, keyFile: undefined } : loadSecretKeys(config);
  const box = keys.box;
  const target = opts.target ?? targetFromConfig(config);
  const database = await openDatabase(target);
  try {
    await migrateDatabase(target, database);
    await assertKeysReadDatabase(database.db, box, keys.keyFile);
  } catch (err) {
    await database.close();
    // A key generated for a database it cannot read is no key of its own: leave the place to the real one.
    if (keys.generated && keys.keyFile) fs.rmSync(keys.keyFile, { force: true });
    throw err;
  }
  // The sandbox's providers are known to every process (its connections can be listed, deleted); only
  // createOmniport starts the sandbox itself.
  const sandbox = config.sandbox && !opts.providers ? new Sandbox({ changeEveryMs: config.sandboxChangeSeconds * 1000 }) : undefined;
  const services = createServices({
    config,
    database,
    box,
    providers: opts.providers ?? new ProviderRegistry([...defaultProviders(), ...(sandbox?.adapters() ?? [])]),
    httpTuning: opts.httpTuning,
  });
  return { database, services, box, sandbox };
}

/** The webhook sender of a process that runs jobs. */
export function createDispatcher(config: Config, services: Services, box: SecretBox): WebhookDispatcher {
  return new WebhookDispatcher(services.webhooksRepo, box, {
    allowPrivateUrls: config.allowPrivateUrls,
    retrySchedule: config.webhooks.retryScheduleMs,
    timeoutMs: config.webhooks.timeoutMs,
    pollMs: config.webhooks.pollMs,
    // Bounded so that a backlog of thousands drains beside reads (bench/RESULTS.md, responsiveness).
    concurrency: 8,
    batchSize: 16,
    // Longer than any attempt can take: a lease that ends belonged to a worker that died.
    leaseMs: Math.max(60_000, 4 * config.webhooks.timeoutMs),
    disableAfterMs: 3 * 86_400_000,
  });
}

export interface JobOptions {
  /** Run sync jobs in this process. */
  work: boolean;
  pollingIntervalSeconds?: number;
}

/**
 * After a start, for each sandbox connection: its webhook in the new account, and a full sync, which marks what
 * the earlier start made deleted (src/sandbox/ids.ts).
 */
async function renewSandboxConnections(services: Services, jobs: JobRunner, rows: ConnectionRow[]): Promise<void> {
  for (const row of rows) {
    if (row.status !== 'valid') continue;
    await services.providerWebhooks.unregisterFor(row);
    await services.providerWebhooks.registerFor(row);
    await jobs.enqueueAll(row.id, { full: true });
  }
}

/** The incremental sync of a project's connections to these sandbox products (a demo project has a few: the first 100). */
async function syncSandboxConnections(services: Services, jobs: JobRunner, projectId: string, providers: string[]): Promise<void> {
  for (const provider of providers) {
    const page = await services.controlPlane.listConnections(projectId, { limit: 100 }, { provider });
    for (const row of page.items) if (row.status === 'valid') await jobs.enqueueAll(row.id);
  }
}

/** The whole service: database, services, job queue and HTTP server (not yet listening). */
export async function createOmniport(config: Config, opts: OpenOptions & { jobs?: JobOptions } = {}): Promise<Omniport> {
  const { database, services, box, sandbox } = await openServices(config, opts);
  // The accounts of the projects that have sandbox connections are there before any request or sync needs them.
  const sandboxConnections = sandbox ? await services.controlPlane.connectionsToProviders(sandbox.adapters().map((a) => a.manifest.name)) : [];
  await sandbox?.start(sandboxConnections.map((c) => c.projectId));
  // Requests read their API key, connection and mappings from memory, forgotten at once when they change.
  await services.lookupCache.start(database);
  const logger = config.logLevel === 'silent' ? false : loggerOptions(config);
  const jobs = new JobRunner(database, config.databaseUrl, services.sync, services.controlPlane, {
    work: opts.jobs?.work ?? config.runWorker,
    pollingIntervalSeconds: opts.jobs?.pollingIntervalSeconds ?? config.jobs.pollingIntervalSeconds,
    concurrency: config.jobs.concurrency,
  });
  // The first sync of a new connection runs in the background, never inside the request.
  services.connections.afterCreate.push(async (row) => void (await jobs.enqueueAll(row.id)));
  // Real-time updates: the provider's webhook is created with the connection; its requests queue syncs.
  services.connections.afterCreate.push(async (row) => void (await services.providerWebhooks.registerFor(row)));
  services.providerWebhooks.enqueue = (connectionId, streams) => jobs.enqueue(connectionId, streams);
  const server = await buildServer({ services, jobs, bodyLimitBytes: config.bodyLimitBytes, rateLimitPerMinute: config.rateLimitPerMinute, authFailuresPerMinute: config.authFailuresPerMinute, trustProxy: config.trustProxy, logger, publicUrl: config.publicUrl, metricsToken: config.metricsToken });
  jobs.logger = server.log;
  if (sandbox) {
    // The sandbox's simulators send their webhooks to this server, in process, and nowhere else.
    sandbox.receiver = { origins: () => listeningOrigins(server.server.address(), config.publicUrl), inject: (request) => server.inject(request) };
    // A product whose changes send no webhook (HubSpot: its app webhooks need an OAuth app) is synced after each of them.
    sandbox.onChanged = (projectId, providers) => void syncSandboxConnections(services, jobs, projectId, providers).catch((err: Error) => server.log.warn({ err: { message: err.message } }, 'queueing the sync of a sandbox change failed'));
    // The accounts are new at every start: their connections' webhooks are created again once the server
    // listens (its address is where they go), and a full sync brings them in line.
    server.addHook('onListen', async () => {
      void renewSandboxConnections(services, jobs, sandboxConnections).catch((err: Error) => server.log.warn({ err: { message: err.message } }, 'renewing the sandbox connections failed'));
    });
  }
  services.providerWebhooks.logger = server.log;
  // Not awaited: the API answers while the queue starts (seconds on a new PGlite); enqueueing waits for it.
  jobs.start().catch((err: Error) => server.log.error({ err: { message: err.message } }, 'the job queue failed to start'));
  const webhooks = createDispatcher(config, services, box);
  webhooks.logger = server.log;
  services.dashboard.calls.logger = server.log;
  if (opts.jobs?.work ?? config.runWorker) {
    webhooks.start({ releaseLeases: database.kind === 'pglite', database }).catch((err: Error) => server.log.error({ err: { message: err.message } }, 'webhook delivery failed to start'));
  }
  const stopHousekeeping = startHousekeeping(services, server.log);
  return {
    config,
    database,
    services,
    jobs,
    webhooks,
    server,
    sandbox,
    async close() {
      stopHousekeeping();
      services.providerWebhooks.stop();
      await server.close();
      await webhooks.stop();
      await jobs.stop();
      await sandbox?.close();
      await services.dashboard.calls.flush();
      await services.lookupCache.stop();
      await database.close();
    },
  };
}
