/** A test server with the HubSpot adapter and a connection to a HubSpot simulator. */
import { expect } from 'vitest';
import { ProviderRegistry } from '../../../src/providers/registry';
import { createHubSpotAdapter, type HubSpotAdapterOptions } from '../../../src/providers/hubspot';
import { startHubSpotSimulator, type HubSpotSimulator, type HubSpotSimulatorOptions } from '../../simulators/hubspot';
import { startTestServer, type TestServer, type TestServerOptions } from '../../support/harness';

export const TOKEN = 'hs-test-token';

export interface HubSpotSetup {
  sim: HubSpotSimulator;
  server: TestServer;
  token: string;
  connectionId: string;
  headers: () => Record<string, string>;
  /** Runs every sync stream in order, in this process (the job queue is not used). */
  syncAll(opts?: { full?: boolean }): Promise<Record<string, { mode?: string; records: number; markedDeleted: number }>>;
  close(): Promise<void>;
}

export async function hubspotSetup(
  o: { sim?: HubSpotSimulatorOptions; adapter?: HubSpotAdapterOptions; server?: TestServerOptions; seed?: (sim: HubSpotSimulator) => void } = {},
): Promise<HubSpotSetup> {
  const sim = await startHubSpotSimulator(o.sim);
  o.seed?.(sim);
  const adapter = createHubSpotAdapter({ searchMinIntervalMs: 0, ...o.adapter });
  const server = await startTestServer({ work: false, ...o.server, providers: new ProviderRegistry([adapter]) });
  const res = await server.call('POST', '/connections', {
    body: { provider: 'hubspot', linked_user_origin_id: 'acme', credentials: { access_token: TOKEN }, base_url: sim.url },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = res.body.data.connection_token as string;
  const connectionId = res.body.data.id_connection as string;
  const { sync } = server.omniport.services;
  return {
    sim,
    server,
    token,
    connectionId,
    headers: () => ({ 'x-connection-token': token }),
    async syncAll(opts = {}) {
      const out: Record<string, { mode?: string; records: number; markedDeleted: number }> = {};
      for (const s of adapter.syncers) {
        const r = await sync.run(connectionId, s.key, { full: opts.full });
        expect(r.outcome, s.key).toBe('done');
        out[s.key] = { mode: r.mode, records: r.records, markedDeleted: r.markedDeleted };
      }
      return out;
    },
    async close() {
      await server.close();
      await sim.close();
    },
  };
}
