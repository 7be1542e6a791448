/**
 * Locates third-party provider API descriptions (OpenAPI documents etc.) kept
 * outside the repository as read-only test data. Every test finds them through this module.
 *
 * Root: `$OMNIPORT_PROVIDER_SPECS`, else `<repo root>/../shared/provider-specs`. A description that is
 * asked for and absent is noted (spec-notice.ts prints the list once, at the end of the run).
 */
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the workers of a run note the descriptions they missed (set by spec-notice.ts). */
export const SPEC_MISSES_ENV = 'OMNIPORT_SPEC_MISSES_FILE';

/** The directory holding all provider specs (may not exist). */
export function providerSpecsRoot(): string {
  const fromEnv = process.env.OMNIPORT_PROVIDER_SPECS;
  return fromEnv && fromEnv.trim() !== '' ? path.resolve(fromEnv) : path.resolve(repoRoot, '../shared/provider-specs');
}

/** Notes that the running test file goes without the description `what` (a file or folder of the root). */
export function noteMissingSpec(what: string): void {
  const file = process.env[SPEC_MISSES_ENV];
  if (!file) return;
  let testPath: string | undefined;
  try {
    testPath = expect.getState().testPath;
  } catch {
    // outside a test file
  }
  appendFileSync(file, `${JSON.stringify({ test: testPath ? path.relative(repoRoot, testPath) : '(unknown test file)', what })}\n`);
}

/**
 * Absolute path of `<root>/<provider>/<file>`, or `undefined` when that file is absent
 * (tests then skip spec validation instead of failing, and the run says so at the end).
 */
export function specPath(provider: string, file: string): string | undefined {
  const p = path.join(providerSpecsRoot(), provider, file);
  if (existsSync(p)) return p;
  noteMissingSpec(`${provider}/${file}`);
  return undefined;
}
