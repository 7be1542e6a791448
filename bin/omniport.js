#!/usr/bin/env node
// Runs the production build, dist/cli.js (bundled by scripts/build.mjs, with source maps). In a checkout
// it is rebuilt first when missing or older than its sources, so `npm install && npm start` works on a fresh
// clone. OMNIPORT_FROM_SOURCE=true runs the TypeScript sources through tsx instead (development), and so
// does a checkout where the build cannot run.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const fromSource = /^(1|true|yes)$/i.test(process.env.OMNIPORT_FROM_SOURCE ?? '');
const hasSources = fs.existsSync(here('../src/cli.ts'));

async function loadBuilt() {
  if (hasSources) {
    const { isStale, build } = await import('../scripts/build.mjs');
    if (isStale()) {
      try {
        const ms = await build();
        process.stderr.write(`omniport: built dist/cli.js in ${ms} ms\n`);
      } catch (err) {
        // Another process swapped its build in meanwhile, or esbuild is missing: use what exists.
        if (isStale()) {
          process.stderr.write(`omniport: the build failed (${err.message}); running the sources through tsx\n`);
          return undefined;
        }
      }
    }
  }
  process.setSourceMapsEnabled(true);
  return import('../dist/cli.js');
}

let cli = fromSource && hasSources ? undefined : await loadBuilt();
if (!cli) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli.ts');
}
await cli.main(process.argv);
