import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../src/config';
import { createOmniport, type Omniport } from '../src/app';
import { SecretBox } from '../src/core/secrets';
import type { ProviderRegistry } from '../src/providers/registry';

/**
 * An Omniport for benchmarks: in-memory PGlite, or the PostgreSQL database of BENCH_DATABASE_URL.
 * Jobs are not worked in the background: benchmarks run sync streams themselves to time them.
 */
export async function startBenchServer(providers: ProviderRegistry) {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    OMNIPORT_ENV: 'bench',
    OMNIPORT_ALLOW_PRIVATE_URLS: 'true', // the simulators listen on loopback
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const omniport: Omniport = await createOmniport(config, {
    target: databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite-instance', instance: new PGlite() },
    box: new SecretBox(randomBytes(32)),
    providers,
    jobs: { work: false },
  });
  const boot = await omniport.services.projects.bootstrapIfEmpty();
  const url = await omniport.server.listen({ port: 0, host: '127.0.0.1' });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: { 'x-api-key': boot!.key.apiKey, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  return { omniport, url, call, database: databaseUrl ? 'postgres' : 'pglite' };
}

/** Samples RSS every 50 ms; returns the peak in MiB. */
export function trackPeakRss() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage().rss) / 1024 / 1024);
    },
  };
}

export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
