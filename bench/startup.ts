/**
 * Start-up time and memory of `omniport start`: the production build (dist/, esbuild) against the sources
 * through tsx (OMNIPORT_FROM_SOURCE=true), alternating, on one embedded database created beforehand (so
 * the figures are the start of a process, not the creation of a database). Also `omniport --version`.
 *
 *   npx tsx bench/startup.ts            (BENCH_RUNS=5 for more runs)
 *
 * Time: from spawn to the first 200 from /health. RSS: the process's resident memory (VmRSS) then.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin/omniport.js');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'omniport-startup-'));
const baseEnv: Record<string, string> = {
  ...(process.env as Record<string, string>),
  OMNIPORT_DATA_DIR: path.join(work, 'data'),
  XDG_CONFIG_HOME: path.join(work, 'config'),
  LOG_LEVEL: 'warn',
};
delete baseEnv.DATABASE_URL;
delete baseEnv.OMNIPORT_SECRET_KEY;
delete baseEnv.OMNIPORT_SECRET_KEYS;
const variants = { 'bundled (dist/)': {}, 'tsx (sources)': { OMNIPORT_FROM_SOURCE: 'true' } } as const;
type Variant = keyof typeof variants;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function startOnce(variant: Variant, port: number): Promise<{ ms: number; rss: number }> {
  const started = performance.now();
  const child = spawn('node', [bin, 'start'], { env: { ...baseEnv, ...variants[variant], PORT: String(port) }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant}: exited with ${child.exitCode}`);
      if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) break;
      await sleep(20);
    }
    return { ms: performance.now() - started, rss: rssMb(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

function versionMs(variant: Variant): number {
  const started = performance.now();
  execFileSync('node', [bin, '--version'], { env: { ...baseEnv, ...variants[variant] } });
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The build is made (if stale) and the database created before anything is timed.
execFileSync('node', [path.join(root, 'scripts/build.mjs'), '--if-stale']);
await startOnce('bundled (dist/)', 30000 + Math.floor(Math.random() * 20000));
const results = new Map<Variant, { start: number[]; rss: number[]; version: number[] }>();
for (let i = 0; i < runs; i++) {
  for (const variant of Object.keys(variants) as Variant[]) {
    const r = results.get(variant) ?? { start: [], rss: [], version: [] };
    const { ms, rss } = await startOnce(variant, 30000 + Math.floor(Math.random() * 20000));
    r.start.push(ms);
    r.rss.push(rss);
    r.version.push(versionMs(variant));
    results.set(variant, r);
  }
}
fs.rmSync(work, { recursive: true, force: true });

console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at the end, ${runs} runs each (median, min–max)`);
console.log('| variant | start to /health 200 | RSS then | `omniport --version` |');
console.log('|---|---|---|---|');
for (const [variant, r] of results) {
  const fmt = (xs: number[], unit: string, digits = 0) => `${median(xs).toFixed(digits)} ${unit} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
  console.log(`| ${variant} | ${fmt(r.start, 'ms')} | ${fmt(r.rss, 'MB')} | ${fmt(r.version, 'ms')} |`);
}
