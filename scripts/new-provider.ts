/**
 * `npm run new-provider <name> [-- --root <dir>]`: scaffolds a ticketing provider modelled on the small ones
 * (Freshdesk, Help Scout): manifest, HTTP profile, mappers, sync streams, writes and index under
 * src/providers/<name>/, a simulator under test/simulators/<name>/, a conformance driver and suite file, and
 * docs/providers/<name>.md; then regenerates the provider registry (scripts/providers-generate.ts), so the
 * provider is registered at once. The files compile and lint as generated; every `TODO(new-provider)` marks
 * what the product's own documentation must replace (CONTRIBUTING.md has the checklist).
 * test/unit/new-provider.unit.test.ts scaffolds one into a temporary tree, then type-checks and lints it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { providerFolders, registrySource } from './providers-generate';
import { templates, type Names } from './new-provider/templates';

const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Names derived from the folder name: `zendesk-sell` → `zendeskSell`, `ZendeskSell`, `Zendesk Sell`. */
export function namesOf(name: string): Names {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
    throw new Error(`provider name ${JSON.stringify(name)}: use lower-case letters, digits and single dashes, starting with a letter (e.g. acme or acme-desk)`);
  }
  const words = name.split('-');
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return { name, camel: words[0] + words.slice(1).map(cap).join(''), pascal: words.map(cap).join(''), display: words.map(cap).join(' ') };
}

/** Writes the scaffold under `root` (the repository by default); answers the files written, relative to it. */
export function scaffoldProvider(name: string, root = repoRoot): string[] {
  const names = namesOf(name);
  const providersDir = path.join(root, 'src', 'providers');
  if (name === 'kit' || fs.existsSync(path.join(providersDir, name))) throw new Error(`src/providers/${name} exists already: choose another name`);
  const files = templates(names);
  for (const rel of Object.keys(files)) {
    if (fs.existsSync(path.join(root, rel))) throw new Error(`${rel} exists already: nothing was written`);
  }
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  fs.writeFileSync(path.join(providersDir, 'registry.generated.ts'), registrySource(providerFolders(providersDir)));
  return [...Object.keys(files), 'src/providers/registry.generated.ts'];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? path.resolve(args[at + 1] ?? '.') : repoRoot;
  const name = args.filter((_, i) => at < 0 || (i !== at && i !== at + 1))[0];
  if (!name) {
    console.error('usage: npm run new-provider <name>   (e.g. npm run new-provider acme)');
    process.exit(2);
  }
  try {
    for (const f of scaffoldProvider(name, root)) console.log(`wrote ${f}`);
    console.log(`\nNext: replace every TODO(new-provider) from ${namesOf(name).display}'s documentation (CONTRIBUTING.md, "Adding a provider"), then\n  npm run typecheck && npm run lint && OMNIPORT_TEST_WORKERS=2 npx vitest run test/conformance/${name}.conformance.test.ts`);
  } catch (err) {
    console.error(`new-provider: ${(err as Error).message}`);
    process.exit(1);
  }
}
