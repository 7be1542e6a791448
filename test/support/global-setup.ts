import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../../src/store/database';
import PgBoss from 'pg-boss';

/** pg-boss creates its schema on first start: do it once in the template. */
async function installJobSchema(handle: DatabaseHandle, url?: string) {
  const boss = url
    ? new PgBoss({ connectionString: url, max: 1, schedule: false, supervise: false })
    : new PgBoss({ db: { executeSql: (t: string, v?: unknown[]) => handle.executeSql(t, v) }, schedule: false, supervise: false });
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseKind: 'pglite' | 'postgres';
    /** PGlite: a data-dir dump of a migrated database, loaded by every test file. */
    pgliteTemplatePath: string;
    /** PostgreSQL: a migrated database every test file clones (CREATE DATABASE … TEMPLATE). */
    postgresTemplate: string;
  }
}

/**
 * Migrates once per run, then test files clone: PGlite by loading a dumped data dir,
 * PostgreSQL (when DATABASE_URL is set) with CREATE DATABASE … TEMPLATE.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const instance = new PGlite();
    const handle = await openDatabase({ kind: 'pglite-instance', instance });
    await migrateDatabase({ kind: 'pglite-instance', instance }, handle);
    await installJobSchema(handle);
    const dump = await instance.dumpDataDir('none');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-test-')), 'template.tar');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await handle.close();
    project.provide('databaseKind', 'pglite');
    project.provide('pgliteTemplatePath', file);
    project.provide('postgresTemplate', '');
    return async () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }

  const template = `omniport_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const url = withDatabase(serverUrl, template);
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  await migrateDatabase({ kind: 'postgres', url }, handle);
  await installJobSchema(handle, url);
  await handle.close();
  project.provide('databaseKind', 'postgres');
  project.provide('pgliteTemplatePath', '');
  project.provide('postgresTemplate', template);
  return async () => {
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
  };
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
