/**
 * `npm run new-provider`: the scaffold is written into a temporary tree that links to the repository's own
 * files (every folder the scaffold writes into is a real folder there, so nothing lands in the repository),
 * then its TypeScript files are type-checked with the project's compiler options and linted with its ESLint
 * configuration, as `npm run typecheck && npm run lint` would, and the regenerated registry lists it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namesOf, scaffoldProvider } from '../../scripts/new-provider';

const repo = path.resolve(__dirname, '../..');
/** Folders the scaffold writes into: real folders in the temporary tree, their entries linked. */
const WRITTEN = ['src', 'src/providers', 'test', 'test/simulators', 'test/conformance', 'test/conformance/drivers', 'docs', 'docs/providers'];

let root: string;
let files: string[];

function mirror(rel: string) {
  fs.mkdirSync(path.join(root, rel), { recursive: true });
  for (const e of fs.readdirSync(path.join(repo, rel))) {
    const child = rel ? `${rel}/${e}` : e;
    if (WRITTEN.includes(child)) mirror(child);
    else if (child !== 'src/providers/registry.generated.ts' && !child.startsWith('.git')) fs.symlinkSync(path.join(repo, child), path.join(root, child));
  }
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-scaffold-'));
  mirror('');
  files = scaffoldProvider('acme-desk', root);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('npm run new-provider', () => {
  it('writes the provider, its simulator, conformance driver and docs page, and registers it', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'src/providers/acme-desk/manifest.ts',
        'src/providers/acme-desk/mappers.ts',
        'src/providers/acme-desk/sync.ts',
        'src/providers/acme-desk/index.ts',
        'test/simulators/acme-desk/index.ts',
        'test/conformance/drivers/acme-desk.ts',
        'test/conformance/acme-desk.conformance.test.ts',
        'docs/providers/acme-desk.md',
      ]),
    );
    expect(fs.lstatSync(path.join(root, 'src/providers/acme-desk')).isSymbolicLink()).toBe(false);
    expect(fs.existsSync(path.join(repo, 'src/providers/acme-desk'))).toBe(false);
    const registry = fs.readFileSync(path.join(root, 'src/providers/registry.generated.ts'), 'utf8');
    expect(registry).toContain("import { acmeDeskAdapter } from './acme-desk';");
    expect(fs.readFileSync(path.join(root, 'src/providers/acme-desk/sync.ts'), 'utf8')).toContain("from '../kit'");
  });

  it('refuses a name that is taken or not a folder name, writing nothing', () => {
    expect(() => scaffoldProvider('zendesk', root)).toThrow(/exists already/);
    expect(() => scaffoldProvider('kit', root)).toThrow(/exists already/);
    expect(() => namesOf('Acme Desk')).toThrow(/lower-case/);
    expect(namesOf('acme-desk')).toEqual({ name: 'acme-desk', camel: 'acmeDesk', pascal: 'AcmeDesk', display: 'Acme Desk' });
  });

  it('type-checks with the project options', () => {
    const config = ts.readConfigFile(path.join(repo, 'tsconfig.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repo);
    const roots = files.filter((f) => f.endsWith('.ts')).map((f) => path.join(root, f));
    const program = ts.createProgram(roots, { ...options, noEmit: true });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
    expect(problems).toEqual([]);
  }, 240_000);

  it('lints clean with the project configuration (the provider kit rule included)', async () => {
    const eslint = new ESLint({ cwd: repo });
    const problems: string[] = [];
    for (const f of files.filter((x) => x.endsWith('.ts'))) {
      for (const r of await eslint.lintText(fs.readFileSync(path.join(root, f), 'utf8'), { filePath: path.join(repo, f) })) {
        for (const m of r.messages) problems.push(`${f}:${m.line} ${m.ruleId ?? ''} ${m.message}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
