#!/usr/bin/env node
// Production build: src/cli.ts bundled by esbuild into dist/cli.js and its chunks (ES modules, source maps), npm packages
// left external (resolved from node_modules at run time), migrations copied beside it.
// `--if-stale` builds only when dist/ is missing or older than one of the sources it was built from.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const inputsFile = path.join(dist, 'inputs.json');

/** True when dist/cli.js is missing or a file it was bundled from (or the migrations) changed since. */
export function isStale() {
  let built;
  let inputs;
  try {
    built = fs.statSync(path.join(dist, 'cli.js')).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(inputsFile, 'utf8'));
  } catch {
    return true;
  }
  const migrations = path.join(root, 'src/store/migrations');
  const assets = path.join(root, 'src/dashboard/assets');
  const watched = [
    ...inputs.map((f) => path.join(root, f)),
    path.join(root, 'package.json'),
    migrations,
    path.join(migrations, 'meta'),
    assets,
    ...fs.readdirSync(assets).map((f) => path.join(assets, f)),
  ];
  for (const file of watched) {
    try {
      if (fs.statSync(file).mtimeMs > built) return true;
    } catch {
      return true; // a source was removed or renamed
    }
  }
  return false;
}

export async function build() {
  const { build: esbuild } = await import('esbuild');
  const started = performance.now();
  const tmp = path.join(root, `dist.tmp-${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: ['src/cli.ts'],
    outdir: tmp,
    // Commands import what they need when they run: split into chunks, so `--help` loads little.
    splitting: true,
    // Beside cli.js: modules find the migrations relative to their own file (dist/migrations).
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  fs.cpSync(path.join(root, 'src/store/migrations'), path.join(tmp, 'migrations'), { recursive: true });
  // The dashboard reads its stylesheet and script beside its module (dist/assets once bundled).
  fs.cpSync(path.join(root, 'src/dashboard/assets'), path.join(tmp, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'inputs.json'), JSON.stringify(Object.keys(result.metafile.inputs)));
  // Swapped in whole, so a process starting meanwhile never sees half a build.
  fs.rmSync(dist, { recursive: true, force: true });
  fs.renameSync(tmp, dist);
  return Math.round(performance.now() - started);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);
  const ms = await build();
  console.error(`omniport: built dist/cli.js in ${ms} ms`);
}
