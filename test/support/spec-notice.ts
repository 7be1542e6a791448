/**
 * Global setup: when provider descriptions were asked for and absent, the run says so once, loudly, at the
 * end — one block naming the folder and the test files that ran without checking their traffic against the
 * official descriptions — instead of passing silently (each such check skips).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { providerSpecsRoot, SPEC_MISSES_ENV } from './provider-specs';

export default function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-spec-misses-'));
  const file = path.join(dir, 'misses.jsonl');
  fs.writeFileSync(file, '');
  // Workers inherit the environment (as config-home.ts relies on too).
  process.env[SPEC_MISSES_ENV] = file;
  return () => {
    const misses = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { test: string; what: string });
    fs.rmSync(dir, { recursive: true, force: true });
    if (misses.length === 0) return;
    const byTest = new Map<string, Set<string>>();
    for (const m of misses) byTest.set(m.test, (byTest.get(m.test) ?? new Set()).add(m.what));
    const root = providerSpecsRoot();
    const lines = [...byTest].sort(([a], [b]) => a.localeCompare(b)).map(([t, w]) => `  ${t}  (${[...w].sort().join(', ')})`);
    const bar = '!'.repeat(100);
    console.warn(
      [
        '',
        bar,
        `PROVIDER SPEC CHECKS SKIPPED: ${fs.existsSync(root) ? 'descriptions missing from' : 'no folder at'} ${root}`,
        'Set OMNIPORT_PROVIDER_SPECS to the folder of official API descriptions (default ../shared/provider-specs).',
        `${byTest.size} test file(s) ran without validating their traffic against the official descriptions:`,
        ...lines,
        bar,
        '',
      ].join('\n'),
    );
  };
}
