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
export async function startBenchServer(providers: ProviderRegistry, env: Record<string, string> = {}, jobs = { work: false }) {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const box = new SecretBox(randomBytes(32));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    OMNIPORT_ENV: 'bench',
    OMNIPORT_ALLOW_PRIVATE_URLS: 'true', // the simulators listen on loopback
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    // OMNIPORT_PACE_PROVIDER_BUDGETS=false measures Omniport alone, without the providers' documented budgets.
    ...(process.env.OMNIPORT_PACE_PROVIDER_BUDGETS ? { OMNIPORT_PACE_PROVIDER_BUDGETS: process.env.OMNIPORT_PACE_PROVIDER_BUDGETS } : {}),
    ...env,
  });
  const omniport: Omniport = await createOmniport(config, {
    target: databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite-instance', instance: new PGlite() },
    box,
    providers,
    jobs,
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
  return { omniport, url, call, box, apiKey: boot!.key.apiKey, database: databaseUrl ? 'postgres' : 'pglite' };
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

export type Bench = Awaited<ReturnType<typeof startBenchServer>>;

/** POST /connections for the benchmark's linked user; throws unless 201. */
export async function connect(bench: Bench, body: { provider: string; credentials: Record<string, string>; base_url: string }) {
  const created = await bench.call('POST', '/connections', { linked_user_origin_id: 'bench', ...body });
  if (created.status !== 201) throw new Error(`connection: ${JSON.stringify(created.body)}`);
  return { connectionId: created.body.data.id_connection as string, token: created.body.data.connection_token as string };
}

/**
 * Runs every sync stream of the connection in order, in this process, and prints records/s, peak RSS,
 * provider calls (when `calls` counts them) and each stream's records and time. `per` adds a rate for
 * one stream (e.g. tickets/s).
 */
export async function syncAll(
  bench: Bench,
  connectionId: string,
  label: string,
  opts: { calls?: () => number; provider?: string; per?: { stream: string; unit: string } } = {},
) {
  const { sync, controlPlane } = bench.omniport.services;
  const streams = sync.streamsOf((await controlPlane.findConnectionById(connectionId))!);
  const rss = trackPeakRss();
  const callsBefore = opts.calls?.() ?? 0;
  const started = performance.now();
  const results: { stream: string; records: number; mode?: string; seconds: number }[] = [];
  for (const stream of streams) {
    const t0 = performance.now();
    const r = await sync.run(connectionId, stream);
    results.push({ stream, records: r.records, mode: r.mode, seconds: (performance.now() - t0) / 1000 });
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = rss.stop();
  const records = results.reduce((n, r) => n + r.records, 0);
  const per = opts.per && results.find((r) => r.stream === opts.per!.stream);
  const parts = [
    `${records} records${per ? ` (${per.records} ${opts.per!.unit})` : ''} in ${seconds.toFixed(1)} s`,
    `${per ? `${Math.round(per.records / seconds)} ${opts.per!.unit}/s, ` : ''}${Math.round(records / seconds)} records/s`,
    ...(opts.calls ? [`${opts.calls() - callsBefore} ${opts.provider ?? 'provider'} calls`] : []),
    `peak RSS ${peak} MiB`,
  ];
  console.log(`${label}: ${parts.join(' — ')}`);
  for (const r of results) console.log(`  ${r.stream}: ${r.records} (${r.mode}) in ${r.seconds.toFixed(2)} s`);
}

/** Posts `batches` batches to a batch endpoint and prints objects/s and time per batch. */
/** p50 and p95 of 30 consecutive list pages (following the cursor), at 50 and at 1,000 objects a page. */
export async function listLatencies(bench: Bench, token: string, path: string) {
  for (const limit of [50, 1000]) {
    const times: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      const res = await bench.call('GET', `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, undefined, { 'x-connection-token': token });
      times.push(performance.now() - started);
      cursor = res.body.next_cursor;
    }
    console.log(`list ${limit}/page: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`);
  }
}

/** Batches of 100 new contacts of one company, numbered on; `fields` gives what the provider takes beyond the name. */
export function contactBatches(companyId: string, fields: (i: number) => Record<string, unknown>): () => unknown[] {
  let serial = 0;
  return () =>
    Array.from({ length: 100 }, () => {
      const i = ++serial;
      return { first_name: `Bench${i}`, last_name: 'Contact', ...fields(i), company_id: companyId };
    });
}

export async function batchRun(bench: Bench, token: string, path: string, label: string, batches: number, makeBatch: () => unknown[]) {
  const rss = trackPeakRss();
  const started = performance.now();
  let ok = 0;
  let size = 0;
  for (let b = 0; b < batches; b++) {
    const body = makeBatch();
    size = body.length;
    const res = await bench.call('POST', path, body, { 'x-connection-token': token });
    if (res.status !== 201) throw new Error(`batch answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    ok += res.body.data.length;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${label}: ${ok} objects in ${batches} batches, ${seconds.toFixed(1)} s — ${Math.round(ok / seconds)} objects/s, ${((seconds * 1000) / batches).toFixed(0)} ms per batch of ${size}, peak RSS ${rss.stop()} MiB`,
  );
}
