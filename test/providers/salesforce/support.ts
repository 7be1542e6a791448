import { idFactory } from '../../../src/core/unified/ids';
import { ProviderHttpClient } from '../../../src/providers/http-client';
import { salesforceManifest, salesforceHttpProfile } from '../../../src/providers/salesforce';
import type { AdapterContext } from '../../../src/providers/types';
import type { SalesforceSimulator } from '../../simulators/salesforce';

/** An adapter context on the simulator: the connection's HTTP client with quick retries. */
export function simulatorContext(sim: SalesforceSimulator, connectionId: string, token: string): AdapterContext {
  const http = new ProviderHttpClient({
    manifest: salesforceManifest,
    connectionId,
    baseUrl: sim.url,
    authHeaders: () => salesforceHttpProfile.authHeaders({ access_token: token }),
    errorMessage: salesforceHttpProfile.errorMessage,
    isRateLimited: salesforceHttpProfile.isRateLimited,
    allowPrivateAddresses: true,
    retryBaseMs: 10,
    maxRetries: 2,
  });
  return { connectionId, baseUrl: sim.url, credentials: { access_token: token }, http, ids: idFactory(connectionId) };
}
