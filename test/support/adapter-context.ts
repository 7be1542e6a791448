/**
 * An adapter driven directly against its simulator (no server, no database): the context a sync or a write
 * gets, with quick retries, and the helpers the adapter tests share.
 */
import { expect } from 'vitest';
import { idFactory } from '../../src/core/unified/ids';
import { ProviderHttpClient } from '../../src/providers/http-client';
import type { AdapterContext, ObjectSyncer, ProviderAdapter, SyncBatch, SyncOptions } from '../../src/providers/types';

const ids = idFactory('conn-1');

/** The context of a connection `connectionId` to the simulator at `baseUrl` with these credentials. */
export function simulatorContext(adapter: ProviderAdapter, o: { connectionId: string; baseUrl: string; credentials: Record<string, string> }): AdapterContext {
  const http = new ProviderHttpClient({
    allowPrivateAddresses: true,
    manifest: adapter.manifest,
    connectionId: o.connectionId,
    baseUrl: o.baseUrl,
    authHeaders: () => adapter.http.authHeaders(o.credentials),
    errorMessage: adapter.http.errorMessage,
    retryBaseMs: 5,
    maxRetries: 2,
  });
  return { connectionId: o.connectionId, baseUrl: o.baseUrl, credentials: o.credentials, http, ids };
}

export const syncerOf = (adapter: { syncers: ObjectSyncer[] }, key: string) => adapter.syncers.find((s) => s.key === key)!;

/** Every batch of one run. */
export async function collect(s: ObjectSyncer, ctx: AdapterContext, opts: SyncOptions = {}): Promise<SyncBatch[]> {
  const out: SyncBatch[] = [];
  for await (const b of s.run(ctx, opts)) out.push(b);
  return out;
}

/** Closes a simulator that checks traffic against the provider's description, then fails on what it found outside it. */
export async function closeCheckingTraffic(
  sim: { specViolations: { method?: string; path?: string; message: string }[]; specUndocumented: { method: string; path: string }[]; close(): Promise<void> },
  description: string,
): Promise<void> {
  const found = [...sim.specViolations.map((v) => (v.method ? `${v.method} ${v.path}: ${v.message}` : v.message)), ...sim.specUndocumented.map((u) => `${u.method} ${u.path}`)];
  await sim.close();
  expect(found, `traffic outside ${description}`).toEqual([]);
}
