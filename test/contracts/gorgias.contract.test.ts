import { createGorgiasAdapter } from '../../src/providers/gorgias';
import { startGorgiasSimulator } from '../simulators/gorgias';
import { runContractTest } from './contract';
import { contract } from './gorgias.contract';

runContractTest(contract, async () => {
  const sim = await startGorgiasSimulator();
  const cred = sim.credentials[0]!;
  return { url: sim.url, headers: createGorgiasAdapter().http.authHeaders({ email: cred.email, api_token: cred.apiKey }), close: () => sim.close() };
});
