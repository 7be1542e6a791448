import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import { loadSecretKeys } from './core/secret-key';
import { migrationsFolder, openDatabase, targetFromConfig } from './store/database';

export interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
}

/** `omniport doctor`: what an operator checks before (or instead of) starting a server. Changes nothing. */
export async function runDoctor(config: Config): Promise<Check[]> {
  const checks: Check[] = [];
  checks.push(secretKeyCheck(config));
  checks.push(...(await databaseChecks(config)));
  checks.push(publicUrlCheck(config));
  return checks;
}

function secretKeyCheck(config: Config): Check {
  const name = 'secret key';
  if (config.secretKeys) {
    try {
      // Parsed only (no database read): the key format; whether it reads the stored values is checked at start.
      const keys = loadSecretKeys(config, () => {});
      return { name, status: 'ok', detail: `OMNIPORT_SECRET_KEYS holds ${keys.box.keyIds?.length ?? 1} key(s)` };
    } catch (err) {
      return { name, status: 'fail', detail: (err as Error).message };
    }
  }
  if (config.databaseUrl) return { name, status: 'fail', detail: 'OMNIPORT_SECRET_KEYS is required with DATABASE_URL (openssl rand -hex 32)' };
  if (fs.existsSync(config.secretKeyFile)) {
    const mode = fs.statSync(config.secretKeyFile).mode & 0o777;
    return mode & 0o077
      ? { name, status: 'warn', detail: `${config.secretKeyFile} is readable by others (mode ${mode.toString(8)}): chmod 600 it` }
      : { name, status: 'ok', detail: `key file ${config.secretKeyFile}` };
  }
  return { name, status: 'warn', detail: `no key yet: the first start generates ${config.secretKeyFile}` };
}

async function databaseChecks(config: Config): Promise<Check[]> {
  const target = targetFromConfig(config);
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
  if (target.kind === 'pglite' && !fs.existsSync(target.dataDir)) {
    return [
      { name: 'database', status: 'warn', detail: `${where} does not exist yet: the first start creates it` },
      { name: 'migrations', status: 'warn', detail: 'none applied yet' },
    ];
  }
  let database;
  try {
    database = await openDatabase(target);
    await database.ping();
  } catch (err) {
    await database?.close().catch(() => {});
    return [
      { name: 'database', status: 'fail', detail: `${where} cannot be reached: ${(err as Error).message}` },
      { name: 'migrations', status: 'fail', detail: 'not checked (no database)' },
    ];
  }
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    const known = journal.entries.length;
    let applied = 0;
    try {
      const rows = (await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations', [])).rows;
      applied = Number(rows[0]?.n ?? 0);
    } catch {
      applied = 0; // no migrations table: none applied
    }
    const migrations: Check =
      applied === known
        ? { name: 'migrations', status: 'ok', detail: `all ${known} applied` }
        : applied < known
          ? { name: 'migrations', status: 'warn', detail: `${applied} of ${known} applied: run omniport migrate (start does it too)` }
          : { name: 'migrations', status: 'fail', detail: `${applied} applied, this version knows ${known}: the database belongs to a newer Omniport` };
    return [{ name: 'database', status: 'ok', detail: `${where} reachable` }, migrations];
  } finally {
    await database.close();
  }
}

function publicUrlCheck(config: Config): Check {
  const name = 'public URL';
  if (!config.publicUrl) return { name, status: 'warn', detail: 'OMNIPORT_PUBLIC_URL is not set: magic links and OAuth callbacks use the address requests arrive at' };
  const url = new URL(config.publicUrl);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { name, status: 'fail', detail: `${config.publicUrl}: must be http or https` };
  if (url.search || url.hash) return { name, status: 'fail', detail: `${config.publicUrl}: no query or fragment allowed` };
  if (url.protocol === 'http:' && !local) return { name, status: 'warn', detail: `${config.publicUrl}: plain http outside this machine; OAuth providers and browsers expect https` };
  if (local) return { name, status: 'warn', detail: `${config.publicUrl}: reachable from this machine only (fine for development)` };
  return { name, status: 'ok', detail: config.publicUrl };
}
