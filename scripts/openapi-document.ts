/**
 * Omniport's OpenAPI document as GET /openapi.json serves it, built from the routes on an in-memory
 * database (nothing listens, nothing is written to disk). `npx tsx scripts/openapi-document.ts` prints it.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { createOmniport } from '../src/app';
import { loadConfig } from '../src/config';
import { SecretBox } from '../src/core/secrets';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({ LOG_LEVEL: 'silent', OMNIPORT_ENV: 'live' });
  const omniport = await createOmniport(config, {
    target: { kind: 'pglite-instance', instance: await PGlite.create() },
    box: new SecretBox(randomBytes(32)),
    jobs: { work: false },
  });
  try {
    await omniport.server.ready();
    return omniport.server.swagger() as unknown as Record<string, unknown>;
  } finally {
    await omniport.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(JSON.stringify(await openApiDocument(), null, 2) + '\n');
}
