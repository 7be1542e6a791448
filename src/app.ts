import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import { createServices, type Services } from './core/services';
import { loadSecretBox } from './core/secret-key';
import type { SecretBox } from './core/secrets';
import { buildServer, redactedPaths } from './http/server';
import { ProviderRegistry, defaultProviders } from './providers/registry';
import { migrateDatabase, openDatabase, targetFromConfig, type DatabaseHandle, type DatabaseTarget } from './store/database';

export interface Omniport {
  config: Config;
  database: DatabaseHandle;
  services: Services;
  server: FastifyInstance;
  close(): Promise<void>;
}

/** Opens the database (migrating it) and wires the services; used by the CLI and the tests. */
export async function openServices(
  config: Config,
  opts: { target?: DatabaseTarget; box?: SecretBox; providers?: ProviderRegistry } = {},
): Promise<{ database: DatabaseHandle; services: Services }> {
  const box = opts.box ?? loadSecretBox(config);
  const target = opts.target ?? targetFromConfig(config);
  const database = await openDatabase(target);
  try {
    await migrateDatabase(target, database);
  } catch (err) {
    await database.close();
    throw err;
  }
  const services = createServices({ config, database, box, providers: opts.providers ?? new ProviderRegistry(defaultProviders()) });
  return { database, services };
}

/** The whole service: database, services and HTTP server (not yet listening). */
export async function createOmniport(
  config: Config,
  opts: { target?: DatabaseTarget; box?: SecretBox; providers?: ProviderRegistry } = {},
): Promise<Omniport> {
  const { database, services } = await openServices(config, opts);
  const server = await buildServer({
    services,
    bodyLimitBytes: config.bodyLimitBytes,
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: { paths: redactedPaths, censor: '[redacted]' } },
    publicUrl: config.publicUrl,
  });
  return {
    config,
    database,
    services,
    server,
    async close() {
      await server.close();
      await database.close();
    },
  };
}
