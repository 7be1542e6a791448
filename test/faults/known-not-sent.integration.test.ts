/**
 * A failure known to precede the request — the connection refused, the name not found — means the write
 * never left: each element of a batch is a plain failure (`provider_unavailable`), never `outcome_unknown`,
 * and an Idempotency-Key is released so the same key may be retried.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderRegistry } from '../../src/providers/registry';
import { createHubSpotAdapter } from '../../src/providers/hubspot';
import { startHubSpotSimulator } from '../simulators/hubspot';
import { startTestServer, type TestServer } from '../support/harness';
import { connectHubSpot } from '../support/connect-simulators';

let server: TestServer;
let token: string;
beforeAll(async () => {
  const sim = await startHubSpotSimulator();
  server = await startTestServer({ work: false, providers: new ProviderRegistry([createHubSpotAdapter()]) });
  token = await connectHubSpot(server, sim, 'hs-test-token');
  await sim.close(); // from now on its port refuses connections
});
afterAll(() => server?.close());

it('connection refused: every element failed with provider_unavailable, and the key is free again', async () => {
  const body = Array.from({ length: 3 }, (_, i) => ({ first_name: `Never${i}`, email_addresses: [{ email_address: `never${i}@sent.example` }] }));
  const send = () => server.call('POST', '/crm/contacts/batch', { headers: { 'x-connection-token': token, 'idempotency-key': 'refused-1' }, body });
  const res = await send();
  const elements = (Array.isArray(res.body.data) ? res.body.data : [res.body]) as { details: { code: string } }[];
  expect(JSON.stringify(res.body)).not.toContain('outcome_unknown');
  for (const e of elements) expect(e.details.code).toBe('provider_unavailable');
  const again = await send();
  expect(again.headers.get('idempotent-replayed')).toBeNull();
});
