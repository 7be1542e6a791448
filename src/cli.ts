import { Command, Option } from 'commander';
import { ConfigError, loadConfig } from './config';
import { createOmniport, openServices } from './app';
import { AppError } from './core/errors';
import { DataDirLockedError } from './store/database';
import { isoDate } from './http/schemas';
import { JobRunner } from './jobs/runner';

const program = new Command()
  .name('omniport')
  .description('Omniport: one REST interface over ticketing and CRM products.')
  .showHelpAfterError();

function print(json: boolean, value: Record<string, unknown>, text: string) {
  console.log(json ? JSON.stringify(value, null, 2) : text);
}

/** Runs a command against the database without the HTTP server. */
async function withServices<T>(fn: (s: Awaited<ReturnType<typeof openServices>>['services']) => Promise<T>): Promise<T> {
  const { database, services } = await openServices(loadConfig());
  try {
    return await fn(services);
  } finally {
    await database.close();
  }
}

program
  .command('start')
  .description('Run the API server (migrating the database and bootstrapping it when empty)')
  .action(async () => {
    const started = performance.now();
    const config = loadConfig();
    const omniport = await createOmniport(config);
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
    console.log(`Omniport listening on ${address} (${storage}); docs at ${address}/docs — ready in ${Math.round(performance.now() - started)} ms`);
    const stop = async (signal: string) => {
      console.log(`${signal}: shutting down`);
      await omniport.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });

program
  .command('worker')
  .description('Run only background jobs (sync), no HTTP: scale workers out on one PostgreSQL')
  .action(async () => {
    const config = loadConfig();
    const { database, services } = await openServices(config);
    const jobs = new JobRunner(database, config.databaseUrl, services.sync, services.controlPlane, { work: true });
    jobs.logger = { info: (o, m) => console.log(m, JSON.stringify(o)), error: (o, m) => console.error(m, JSON.stringify(o)) };
    await jobs.start();
    console.log(`Omniport worker running (${database.kind})`);
    const stop = async () => {
      await jobs.stop();
      await database.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
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
    const project = await withServices((s) => s.projects.createProject(name));
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
      return s.projects.createUser(project.id, name, opts.email);
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
  .option('--json', 'print JSON')
  .action(async (opts: { project: string; user: string; name: string; json?: boolean }) => {
    const { row, apiKey } = await withServices(async (s) => {
      const project = await s.projects.resolveProject(opts.project);
      const user = await s.projects.resolveUser(project.id, opts.user);
      return s.apiKeys.issue(project.id, user.id, opts.name);
    });
    print(
      Boolean(opts.json),
      { api_key: apiKey, id_api_key: row.id, key_name: row.name, id_project: row.projectId, id_user: row.userId, created_at: isoDate(row.createdAt) },
      apiKey,
    );
  });

export async function main(argv: string[]) {
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof AppError) {
      console.error(`omniport: ${err.message}`);
      process.exit(err instanceof AppError ? 1 : 78);
    }
    throw err;
  }
}
