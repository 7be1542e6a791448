import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = resolve(__dirname, '../..');
const depcruise = join(repo, 'node_modules/.bin/depcruise');
const config = join(repo, '.dependency-cruiser.cjs');

/** The layer check as CI runs it (`npm run layers`), on a tree of files; its exit code and what it printed. */
async function checkLayers(cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(depcruise, ['src', '--config', config, '--output-type', 'err'], { cwd });
    return { code: 0, out: stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, out: err.stdout };
  }
}

describe('layer check (.dependency-cruiser.cjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'omniport-layers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
  write('src/core/errors.ts', 'export class AppError extends Error {}\n');
  write('src/core/sync.ts', "import { AppError } from './errors';\nexport const fail = () => new AppError('x');\n");
  write('src/http/server.ts', "import { fail } from '../core/sync';\nexport const route = () => fail();\n");

  it('passes a tree whose imports point down', async () => {
    expect(await checkLayers(dir)).toMatchObject({ code: 0 });
  });

  it('fails on an upward import (the store reaching into core, core into the web layer) and on a cycle', async () => {
    write('src/store/repo.ts', "import { fail } from '../core/sync';\nexport const q = () => fail();\n");
    write('src/core/oauth.ts', "import { route } from '../http/server';\nexport const start = () => route();\n");
    write('src/core/a.ts', "import { b } from './b';\nexport const a = (): number => b() + 1;\n");
    write('src/core/b.ts', "import { a } from './a';\nexport const b = (): number => (Math.random() > 2 ? a() : 0);\n");
    const { code, out } = await checkLayers(dir);
    expect(code).not.toBe(0);
    expect(out).toContain('store-below-core: src/store/repo.ts → src/core/sync.ts');
    expect(out).toContain('core-below-background-and-web: src/core/oauth.ts → src/http/server.ts');
    expect(out).toMatch(/no-cycles: src\/core\/(a|b)\.ts/);
  });

  it('passes on the project itself', async () => {
    expect(await checkLayers(repo)).toMatchObject({ code: 0 });
  }, 60_000);
});
