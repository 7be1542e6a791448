/**
 * Locates third-party provider API descriptions (OpenAPI documents etc.) kept
 * outside the repository as read-only test data.
 *
 * Root: `$OMNIPORT_PROVIDER_SPECS`, else `<repo root>/../shared/provider-specs`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The directory holding all provider specs (may not exist). */
export function providerSpecsRoot(): string {
  const fromEnv = process.env.OMNIPORT_PROVIDER_SPECS;
  return fromEnv && fromEnv.trim() !== '' ? path.resolve(fromEnv) : path.resolve(repoRoot, '../shared/provider-specs');
}

/**
 * Absolute path of `<root>/<provider>/<file>`, or `undefined` when that file is absent
 * (tests then skip spec validation instead of failing).
 */
export function specPath(provider: string, file: string): string | undefined {
  const p = path.join(providerSpecsRoot(), provider, file);
  return existsSync(p) ? p : undefined;
}
