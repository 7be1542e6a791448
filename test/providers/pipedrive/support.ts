/**
 * Shared set-up of the Pipedrive integration tests: a simulator, an Omniport test server with the
 * Pipedrive adapter, and a connection to the simulator.
 */
import { expect } from 'vitest';
import { ProviderRegistry } from '../../../src/providers/registry';
import { createPipedriveAdapter, type PipedriveAdapterOptions } from '../../../src/providers/pipedrive';
import { startPipedriveSimulator, type PipedriveSimulator, type PipedriveSimulatorOptions } from '../../simulators/pipedrive';
import { formatViolation } from '../../support/openapi-validator';
import { startTestServer, type TestServer } from '../../support/harness';
import { waitForSync } from '../../support/sync-wait';
import { enableContactSync } from './contact-sync';

export { enableContactSync };

export const TOKEN = 'pd-test-token';

/** The simulator saw only requests and answered only responses that match Pipedrive's documents. */
export function expectNoSpecViolations(sim: PipedriveSimulator): void {
  if (!sim.specAvailable) {
    console.warn('Pipedrive OpenAPI documents not found (../shared/provider-specs/pipedrive): spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
  // every operation the adapter uses is one the documents describe
  expect(sim.specUndocumented).toEqual([]);
}

export interface PipedriveSetup {
  sim: PipedriveSimulator;
  server: TestServer;
  token: string;
  connectionId: string;
  headers: () => Record<string, string>;
  close(): Promise<void>;
}

/** Simulator (seeded by `seed`), server, and a connection whose first sync has finished. */
export async function setUp(
  opts: { sim?: PipedriveSimulatorOptions; adapter?: PipedriveAdapterOptions; seed?: (sim: PipedriveSimulator) => void; syncTimeoutMs?: number; contactSync?: boolean } = {},
): Promise<PipedriveSetup> {
  const sim = await startPipedriveSimulator({ recordBodies: true, ...opts.sim });
  if (opts.contactSync !== false) enableContactSync(sim);
  opts.seed?.(sim);
  const server = await startTestServer({ providers: new ProviderRegistry([createPipedriveAdapter(opts.adapter)]) });
  const startedAt = Date.now();
  const res = await server.call('POST', '/connections', {
    body: { provider: 'pipedrive', linked_user_origin_id: 'acme', credentials: { api_token: TOKEN }, base_url: sim.url },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = res.body.data.connection_token as string;
  await waitForSync(server, token, startedAt, opts.syncTimeoutMs ?? 120_000);
  return {
    sim,
    server,
    token,
    connectionId: res.body.data.id_connection as string,
    headers: () => ({ 'x-connection-token': token }),
    async close() {
      await server.close();
      await sim.close();
    },
  };
}

/** Every page of a list endpoint. */
export async function listAll(s: PipedriveSetup, path: string, limit = 1000): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const res = await s.server.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { headers: s.headers() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}
