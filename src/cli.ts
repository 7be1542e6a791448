import fs from 'node:fs';
import { Command, Option } from 'commander';
import { ConfigError, loadConfig } from './config';
import { AppError } from './core/errors';
import type { Services } from './services';

// Everything heavier than the command line itself (database drivers, Fastify, providers) is imported by the
// command that needs it, so `--help`, `--version` and quick commands start fast.
const app = () => import('./app');
const isoDate = (d: Date) => d.toISOString();

/** package.json's version; one level above both src/cli.ts and the bundle in dist/. */
function version(): string {
  return (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

const program = new Command()
  .name('omniport')
  .description('Omniport: one REST interface over ticketing and CRM products.')
  .version(version(), '-v, --version')
  .showHelpAfterError();

/** The exit code of the command being run (a command that finishes but reports a failure sets 1). */
let exitCode = 0;

function print(json: boolean, value: Record<string, unknown>, text: string) {
  console.log(json ? JSON.stringify(value, null, 2) : text);
}

/** Runs a command against the database without the HTTP server. */
async function withServices<T>(fn: (s: Services) => Promise<T>): Promise<T> {
  const { database, services } = await (await app()).openServices(loadConfig());
  try {
    return await fn(services);
  } finally {
    await database.close();
  }
}

/** An audit entry for a CLI change (the operator at the machine: no key, no address). */
function auditCli(s: Services, projectId: string, action: string, target: { type: string; id: string }, details?: Record<string, unknown>) {
  return s.audit.record({ projectId, actor: { type: 'cli' }, action, target, details });
}

program
  .command('start')
  .description('Run the API server (migrating the database and bootstrapping it when empty)')
  .option('-p, --port <port>', 'port to listen on (default: PORT, or 3000)')
  .option('-H, --host <host>', 'address to listen on (default: HOST, or 127.0.0.1)')
  .action(async (opts: { port?: string; host?: string }) => {
    const started = performance.now();
    const config = loadConfig({ ...process.env, ...(opts.port !== undefined && { PORT: opts.port }), ...(opts.host !== undefined && { HOST: opts.host }) });
    const { startTracing, stopTracing } = await import('./observability/tracing');
    const { installProcessGuards } = await import('./process-guards');
    await startTracing();
    const omniport = await (await app()).createOmniport(config);
    installProcessGuards(omniport.server.log);
    const boot = await omniport.services.projects.bootstrapIfEmpty(config.bootstrapApiKey);
    if (boot) {
      const lines = [
        'Omniport bootstrapped an empty database:',
        `  project  default  ${boot.project.id}`,
        `  user     admin    ${boot.user.id}`,
        boot.preset
          ? '  API key  the value of OMNIPORT_BOOTSTRAP_API_KEY'
          : `  API key  ${boot.key.apiKey}\n  This key is shown once. Keep it: send it as x-api-key or Authorization: Bearer.`,
      ];
      console.log(`\n${lines.join('\n')}\n`);
    }
    const address = await omniport.server.listen({ port: config.port, host: config.host });
    const storage = omniport.database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
    const readyMs = Math.round(performance.now() - started);
    // Below info (warn, error, silent) the log does not say it: one plain line does, for the operator and for
    // scripts that start on PORT=0 and read the address from it.
    if (['warn', 'error', 'fatal', 'silent'].includes(config.logLevel)) console.log(`Omniport listening on ${address} (${storage}); docs at ${address}/docs — ready in ${readyMs} ms`);
    omniport.server.log.info({ address, storage: omniport.database.kind, readyMs }, `Omniport listening on ${address} (${storage}); docs at ${address}/docs`);
    const stop = async (signal: string) => {
      omniport.server.log.info({ signal }, 'shutting down');
      await omniport.close();
      await stopTracing();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });

program
  .command('worker')
  .description('Run only background jobs (sync, webhook delivery), no HTTP: scale workers out on one PostgreSQL')
  .action(async () => {
    const config = loadConfig();
    const { startTracing, stopTracing } = await import('./observability/tracing');
    const { installProcessGuards } = await import('./process-guards');
    const { createLogger } = await import('./observability/logger');
    const { JobRunner } = await import('./jobs/runner');
    const { startHousekeeping } = await import('./jobs/housekeeping');
    const { openServices, createDispatcher } = await app();
    await startTracing();
    const { database, services, box } = await openServices(config);
    const jobs = new JobRunner(database, config.databaseUrl, services.sync, services.controlPlane, { work: true, ...config.jobs });
    const logger = createLogger(config);
    jobs.logger = logger;
    installProcessGuards(logger);
    await jobs.start();
    const webhooks = createDispatcher(config, services, box);
    webhooks.logger = logger;
    services.dashboard.calls.logger = logger;
    await webhooks.start({ releaseLeases: database.kind === 'pglite', database });
    const stopHousekeeping = startHousekeeping(services, logger);
    logger.info({ storage: database.kind }, 'Omniport worker running');
    const stop = async (signal: string) => {
      logger.info({ signal }, 'shutting down');
      stopHousekeeping();
      await webhooks.stop();
      await jobs.stop();
      await services.dashboard.calls.flush();
      await database.close();
      await stopTracing();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });

program
  .command('migrate')
  .description('Apply pending database migrations and exit')
  .action(async () => {
    await withServices(async () => {});
    console.log('migrations applied');
  });

const projectCmd = program.command('project').description('Manage projects');
projectCmd
  .command('create <name>')
  .description('Create a project')
  .option('--json', 'print JSON')
  .action(async (name: string, opts: { json?: boolean }) => {
    const project = await withServices(async (s) => {
      const created = await s.projects.createProject(name);
      await auditCli(s, created.id, 'project.created', { type: 'project', id: created.id });
      return created;
    });
    print(Boolean(opts.json), { id_project: project.id, name: project.name, created_at: isoDate(project.createdAt) }, `project ${project.name} ${project.id}`);
  });

const userCmd = program.command('user').description('Manage users of a project');
userCmd
  .command('create <name>')
  .description('Create a user in a project')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--email <email>', 'email address')
  .option('--json', 'print JSON')
  .action(async (name: string, opts: { project: string; email?: string; json?: boolean }) => {
    const user = await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      const created = await s.projects.createUser(project.id, name, opts.email);
      await auditCli(s, project.id, 'user.created', { type: 'user', id: created.id });
      return created;
    });
    print(Boolean(opts.json), { id_user: user.id, id_project: user.projectId, name: user.name, email: user.email }, `user ${user.name} ${user.id}`);
  });

const keyCmd = program.command('key').description('Manage API keys');
keyCmd
  .command('create')
  .description('Create an API key for a user (printed once)')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .requiredOption('--user <id-or-name>', 'user id or name')
  .addOption(new Option('--name <name>', 'key name').default('cli'))
  .option('--mcp-read-only', 'AI agents (MCP) holding this key see read tools only')
  .option('--mcp-tools <names>', 'the only MCP tools this key may call (comma-separated)')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; user: string; name: string; mcpReadOnly?: boolean; mcpTools?: string; json?: boolean }) => {
    const { row, apiKey } = await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      const user = await s.projects.resolveUser(project.id, opts.user);
      const mcp = { readOnly: Boolean(opts.mcpReadOnly), tools: opts.mcpTools ? list(opts.mcpTools) : null };
      const issued = await s.apiKeys.issue(project.id, user.id, opts.name, undefined, mcp);
      await auditCli(s, project.id, 'api_key.created', { type: 'api_key', id: issued.row.id }, { key_name: issued.row.name, id_user: user.id });
      return issued;
    });
    print(
      Boolean(opts.json),
      { api_key: apiKey, id_api_key: row.id, key_name: row.name, id_project: row.projectId, id_user: row.userId, created_at: isoDate(row.createdAt), mcp_read_only: row.mcpReadOnly, mcp_tools: row.mcpTools ?? null },
      apiKey,
    );
  });

/** Reads the whole standard input (a secret piped in, so it stays out of the shell history and `ps`). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

const list = (value: string) => value.split(/[\s,]+/).filter(Boolean);
const callbackHint = () => {
  const base = loadConfig().publicUrl;
  return base ? `${base.replace(/\/+$/, '')}/connect/oauth/callback` : '<OMNIPORT_PUBLIC_URL>/connect/oauth/callback';
};

const oauthAppCmd = program.command('oauth-app').description('Manage the OAuth 2.0 apps (client id and secret per provider) of a project');
oauthAppCmd
  .command('set <provider>')
  .description('Set the OAuth app of a provider (the secret is stored encrypted and never printed)')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .requiredOption('--client-id <id>', 'OAuth client id')
  .option('--client-secret <secret>', 'OAuth client secret (prefer --client-secret-stdin)')
  .option('--client-secret-stdin', 'read the client secret from standard input')
  .option('--scopes <scopes>', 'scopes to request, comma or space separated (default: the provider’s)')
  .option('--authorize-url <url>', 'override of the provider’s authorization endpoint')
  .option('--token-url <url>', 'override of the provider’s token endpoint')
  .option('--json', 'print JSON')
  .action(
    async (
      provider: string,
      opts: { project: string; clientId: string; clientSecret?: string; clientSecretStdin?: boolean; scopes?: string; authorizeUrl?: string; tokenUrl?: string; json?: boolean },
    ) => {
      const secret = opts.clientSecretStdin ? await readStdin() : opts.clientSecret;
      const view = await withServices(async (s) => {
        const project = await s.projects.resolveProject(opts.project);
        const saved = await s.oauthApps.set(project.id, provider, {
          client_id: opts.clientId,
          client_secret: secret || undefined,
          scopes: opts.scopes === undefined ? undefined : list(opts.scopes),
          authorize_url: opts.authorizeUrl,
          token_url: opts.tokenUrl,
        });
        await auditCli(s, project.id, 'oauth_app.saved', { type: 'oauth_app', id: provider });
        return saved;
      });
      const out = {
        provider: view.row.provider,
        id_project: view.row.projectId,
        client_id: view.row.clientId,
        scopes: view.row.scopes ?? view.manifest.oauth?.scopes ?? [],
        authorize_url: view.row.authorizeUrl,
        token_url: view.row.tokenUrl,
        redirect_uri: callbackHint(),
      };
      print(Boolean(opts.json), out, `OAuth app for ${out.provider} saved (client ${out.client_id}); register ${out.redirect_uri} as its redirect URI`);
    },
  );
oauthAppCmd
  .command('list')
  .description('List the OAuth apps of a project')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; json?: boolean }) => {
    const views = await withServices(async (s) => s.oauthApps.list((await s.projects.resolveProject(opts.project)).id));
    const rows = views.map((v) => ({ provider: v.row.provider, client_id: v.row.clientId, scopes: v.row.scopes ?? v.manifest.oauth?.scopes ?? [] }));
    if (opts.json) console.log(JSON.stringify(rows, null, 2));
    else console.log(rows.map((r) => `${r.provider}\t${r.client_id}\t${r.scopes.join(' ')}`).join('\n') || 'no OAuth apps');
  });
oauthAppCmd
  .command('delete <provider>')
  .description('Delete the OAuth app of a provider')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .action(async (provider: string, opts: { project: string }) => {
    await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      await s.oauthApps.delete(project.id, provider);
      await auditCli(s, project.id, 'oauth_app.deleted', { type: 'oauth_app', id: provider });
    });
    console.log(`OAuth app for ${provider} deleted`);
  });

program
  .command('connect-settings')
  .description('Show or change the hosted connect page settings of a project')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--providers <names>', 'providers offered, comma separated, or "all"')
  .option('--allow-redirect <url...>', 'URLs the connect page may send users back to (replaces the list)')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; providers?: string; allowRedirect?: string[]; json?: boolean }) => {
    const settings = await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      if (opts.providers === undefined && opts.allowRedirect === undefined) return s.connectSettings.get(project.id);
      const ctx = { projectId: project.id, userId: '', apiKeyId: '' };
      const updated = await s.connectSettings.update(ctx, {
        enabled_providers: opts.providers === undefined ? undefined : opts.providers === 'all' ? null : list(opts.providers),
        allowed_redirect_urls: opts.allowRedirect,
      });
      const fields = [opts.providers !== undefined && 'enabled_providers', opts.allowRedirect !== undefined && 'allowed_redirect_urls'].filter(Boolean);
      await auditCli(s, project.id, 'connect_settings.updated', { type: 'project', id: project.id }, { fields });
      return updated;
    });
    const out = { enabled_providers: settings.enabledProviders, allowed_redirect_urls: settings.allowedRedirectUrls };
    print(Boolean(opts.json), out, `providers: ${out.enabled_providers?.join(', ') ?? 'all'}\nredirect URLs: ${out.allowed_redirect_urls.join(' ') || 'none'}`);
  });

const webhookCmd = program.command('webhook').description('Manage the webhook endpoints of a project (events sent signed, Standard Webhooks)');
webhookCmd
  .command('add <url>')
  .description('Add an endpoint; prints its signing secret once')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--events <types>', 'event types, comma separated, or * for all', '*')
  .option('--description <text>', 'a note for you')
  .option('--json', 'print JSON')
  .action(async (url: string, opts: { project: string; events: string; description?: string; json?: boolean }) => {
    const { row, secret } = await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      const added = await s.webhooks.create({ projectId: project.id, userId: '', apiKeyId: '' }, { url, events: list(opts.events), description: opts.description });
      await auditCli(s, project.id, 'webhook_endpoint.created', { type: 'webhook_endpoint', id: added.row.id });
      return added;
    });
    print(Boolean(opts.json), { id_webhook_endpoint: row.id, url: row.url, events: row.eventTypes, secret }, `webhook endpoint ${row.id}
signing secret (shown once): ${secret}`);
  });
webhookCmd
  .command('list')
  .description('List the endpoints of a project')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; json?: boolean }) => {
    const page = await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      return s.webhooks.list({ projectId: project.id, userId: '', apiKeyId: '' }, { limit: 1000 });
    });
    const rows = page.items.map((r) => ({ id_webhook_endpoint: r.id, url: r.url, events: r.eventTypes, status: r.status, disabled_reason: r.disabledReason }));
    if (opts.json) console.log(JSON.stringify(rows, null, 2));
    else console.log(rows.map((r) => `${r.id_webhook_endpoint}\t${r.status}\t${r.url}\t${r.events.join(',')}`).join('\n') || 'no webhook endpoints');
  });
webhookCmd
  .command('delete <id>')
  .description('Delete an endpoint')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .action(async (id: string, opts: { project: string }) => {
    await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      await s.webhooks.delete({ projectId: project.id, userId: '', apiKeyId: '' }, id);
      await auditCli(s, project.id, 'webhook_endpoint.deleted', { type: 'webhook_endpoint', id });
    });
    console.log(`webhook endpoint ${id} deleted`);
  });

const keysCmd = program.command('keys').description('Manage the keys that encrypt stored secrets');
keysCmd
  .command('rotate')
  .description('Re-encrypt every stored secret under the newest key of OMNIPORT_SECRET_KEYS (safe while servers run; can be run again)')
  .addOption(new Option('--batch-size <n>', 'values read and rewritten per batch').default('500'))
  .option('--json', 'print JSON')
  .action(async (opts: { batchSize: string; json?: boolean }) => {
    const batchSize = Number(opts.batchSize);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ConfigError('--batch-size must be a positive integer');
    const { rotateKeys } = await import('./core/key-rotation');
    const { database, box } = await (await app()).openServices(loadConfig());
    const report = await rotateKeys(database.db, box, { batchSize }).finally(() => database.close());
    const lines = report.columns.map((c) => `  ${c.column}: ${c.rotated} re-encrypted, ${c.changedMeanwhile} changed meanwhile, ${c.failed} unreadable, ${c.remaining} remaining`);
    print(
      Boolean(opts.json),
      { key_id: report.keyId, rotated: report.rotated, failed: report.failed, remaining: report.remaining, columns: report.columns },
      [`key ${report.keyId}: ${report.rotated} values re-encrypted, ${report.remaining} not under it`, ...lines].join('\n'),
    );
    if (report.remaining > 0) {
      console.error(`omniport: ${report.remaining} values are not under key ${report.keyId} yet (${report.failed} unreadable): keep the older keys listed and run again`);
      exitCode = 1;
    }
  });

/** The project's access context for a service call made by the operator at the machine. */
const operator = (projectId: string) => ({ projectId, userId: '', apiKeyId: '' });

/** Prints rows as JSON or as tab-separated lines. */
function printRows(json: boolean, rows: Record<string, unknown>[], line: (r: Record<string, unknown>) => string, none: string) {
  console.log(json ? JSON.stringify(rows, null, 2) : rows.map(line).join('\n') || none);
}

projectCmd
  .command('list')
  .description('List the projects')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const rows = (await withServices((s) => s.controlPlane.listProjects())).map((p) => ({ id_project: p.id, name: p.name, created_at: isoDate(p.createdAt) }));
    printRows(Boolean(opts.json), rows, (r) => `${r.id_project}\t${r.name}`, 'no projects');
  });

projectCmd
  .command('revoke <id-or-name>')
  .description('Delete a project and everything in it: keys, linked users, connections and their data, webhooks')
  .requiredOption('--confirm <name>', "the project's name, typed again")
  .action(async (idOrName: string, opts: { confirm: string }) => {
    const name = await withServices(async (s) => {
      const project = await s.projects.resolveProject(idOrName);
      if (opts.confirm !== project.name) throw new AppError('validation_failed', `--confirm must be the project's name (${project.name})`);
      await s.projects.deleteProject(project.id);
      return project.name;
    });
    console.log(`project ${name} deleted`);
  });

userCmd
  .command('list')
  .description('List the users of a project')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; json?: boolean }) => {
    const users = await withServices(async (s) => s.controlPlane.listUsers((await s.projects.resolveProject(opts.project)).id));
    const rows = users.map((u) => ({ id_user: u.id, name: u.name, email: u.email, created_at: isoDate(u.createdAt) }));
    printRows(Boolean(opts.json), rows, (r) => `${r.id_user}\t${r.name}\t${r.email ?? ''}`, 'no users');
  });

userCmd
  .command('revoke <id-or-name>')
  .description('Delete a user of a project with its API keys (requests and dashboard sessions with them stop at once)')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .action(async (idOrName: string, opts: { project: string }) => {
    await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      const user = await s.projects.resolveUser(project.id, idOrName);
      await s.projects.deleteUser(project.id, user.id);
      await auditCli(s, project.id, 'user.deleted', { type: 'user', id: user.id }, { name: user.name });
    });
    console.log(`user ${idOrName} deleted`);
  });

keyCmd
  .command('list')
  .description('List the API keys of a project (never their secret)')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; json?: boolean }) => {
    const page = await withServices(async (s) => s.apiKeys.list(operator((await s.projects.resolveProject(opts.project)).id), { limit: 1000 }));
    const rows = page.items.map((k) => ({
      id_api_key: k.id,
      key_name: k.name,
      id_user: k.userId,
      created_at: isoDate(k.createdAt),
      last_used_at: k.lastUsedAt ? isoDate(k.lastUsedAt) : null,
      revoked_at: k.revokedAt ? isoDate(k.revokedAt) : null,
    }));
    printRows(Boolean(opts.json), rows, (r) => `${r.id_api_key}\t${r.key_name}\t${r.revoked_at ? `revoked ${r.revoked_at}` : 'active'}`, 'no API keys');
  });
keyCmd
  .command('revoke <id>')
  .description('Revoke an API key (at once, in every process)')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .action(async (id: string, opts: { project: string }) => {
    await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      await s.apiKeys.revoke(operator(project.id), id);
      await auditCli(s, project.id, 'api_key.revoked', { type: 'api_key', id });
    });
    console.log(`API key ${id} revoked`);
  });

const linkedUserCmd = program.command('linked-user').description('Manage the linked users (end customers) of a project');
linkedUserCmd
  .command('list')
  .description('List the linked users of a project')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; json?: boolean }) => {
    const page = await withServices(async (s) => s.linkedUsers.list(operator((await s.projects.resolveProject(opts.project)).id), { limit: 1000 }, {}));
    const rows = page.items.map((u) => ({ id_linked_user: u.id, linked_user_origin_id: u.originId, alias: u.alias, created_at: isoDate(u.createdAt) }));
    printRows(Boolean(opts.json), rows, (r) => `${r.id_linked_user}\t${r.linked_user_origin_id}\t${r.alias ?? ''}`, 'no linked users');
  });

linkedUserCmd
  .command('revoke <id>')
  .description('Delete a linked user with its connections (their credentials and synced data)')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .action(async (id: string, opts: { project: string }) => {
    const connections = await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      const deleted = await s.connections.deleteLinkedUser(operator(project.id), id);
      await auditCli(s, project.id, 'linked_user.deleted', { type: 'linked_user', id }, { connections_deleted: deleted });
      return deleted;
    });
    console.log(`linked user ${id} deleted, with ${connections} connection${connections === 1 ? '' : 's'}`);
  });

const connectionCmd = program.command('connection').description('Manage the connections of a project');
connectionCmd
  .command('list')
  .description('List the connections of a project')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .option('--provider <name>', 'only this provider')
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; provider?: string; json?: boolean }) => {
    const page = await withServices(async (s) => s.connections.list(operator((await s.projects.resolveProject(opts.project)).id), { limit: 1000 }, { provider: opts.provider }));
    const rows = page.items.map(({ row: c, linkedUser }) => ({
      id_connection: c.id,
      provider: c.provider,
      status: c.status,
      id_linked_user: c.linkedUserId,
      linked_user_origin_id: linkedUser?.originId ?? null,
      created_at: isoDate(c.createdAt),
    }));
    printRows(Boolean(opts.json), rows, (r) => `${r.id_connection}\t${r.provider}\t${r.status}\t${r.id_linked_user}`, 'no connections');
  });
connectionCmd
  .command('revoke <id>')
  .description('Delete a connection: its credentials and synced data are removed')
  .requiredOption('--project <id-or-name>', 'project id or name')
  .action(async (id: string, opts: { project: string }) => {
    await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      await s.connections.delete(operator(project.id), id);
      await auditCli(s, project.id, 'connection.deleted', { type: 'connection', id });
    });
    console.log(`connection ${id} deleted`);
  });

program
  .command('sync <connection>')
  .description('Sync every stream of a connection in this process, showing progress until it finishes')
  .option('--full', 'read everything again instead of the changes since the last sync')
  .option('--json', 'print the result as JSON')
  .action(async (connectionId: string, opts: { full?: boolean; json?: boolean }) => {
    const { syncWithProgress } = await import('./cli-sync');
    const result = await withServices((s) => syncWithProgress(s, connectionId, { full: opts.full, json: Boolean(opts.json) }));
    if (opts.json) console.log(JSON.stringify(result, null, 2));
    if (result.failed.length > 0) exitCode = 1;
  });

program
  .command('mcp')
  .description('MCP over stdio for a local AI agent (Claude Desktop, IDEs), relayed to the running server; the API key in OMNIPORT_API_KEY')
  .option('--connection <id-or-token>', 'the connection the agent acts on (its id or its connection token); without it every tool takes a connection argument')
  .option('--url <url>', 'the running Omniport (default: OMNIPORT_URL, or http://127.0.0.1:PORT)')
  .option('--read-only', 'read tools only')
  .option('--tools <names>', 'only these tools (comma-separated names)')
  .option('--passthrough', 'also the passthrough tool (off by default)')
  .action(async (opts: { connection?: string; url?: string; readOnly?: boolean; tools?: string; passthrough?: boolean }) => {
    // Never a flag: a key on the command line is visible to every user of the machine (ps).
    const apiKey = process.env.OMNIPORT_API_KEY;
    if (!apiKey) throw new AppError('unauthorized', 'set OMNIPORT_API_KEY to the API key the agent acts with');
    const url = opts.url ?? process.env.OMNIPORT_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
    const { runStdioBridge } = await import('./mcp/stdio');
    await runStdioBridge({ url, apiKey, connection: opts.connection, readOnly: opts.readOnly, tools: opts.tools, passthrough: opts.passthrough });
  });

program
  .command('doctor')
  .description('Check the database, its migrations, the secret key and the public URL')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const { runDoctor } = await import('./cli-doctor');
    const checks = await runDoctor(loadConfig());
    if (opts.json) console.log(JSON.stringify(checks, null, 2));
    else for (const c of checks) console.log(`${c.status === 'ok' ? 'ok  ' : c.status === 'warn' ? 'warn' : 'FAIL'}  ${c.name}: ${c.detail}`);
    if (checks.some((c) => c.status === 'fail')) exitCode = 1;
  });

/** Runs one command line and returns its exit code; `main` is this plus the process exit. Tests call it in-process. */
export async function run(argv: string[]): Promise<number> {
  exitCode = 0;
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (err) {
    const { DataDirLockedError } = await import('./store/database');
    if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof AppError) {
      console.error(`omniport: ${err.message}`);
      return err instanceof AppError ? 1 : 78;
    }
    throw err;
  }
}

export async function main(argv: string[]) {
  const code = await run(argv);
  if (code !== 0) process.exit(code);
}
