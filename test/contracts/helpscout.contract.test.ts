import { createHelpScoutAdapter } from '../../src/providers/helpscout';
import { startHelpScoutSimulator } from '../simulators/helpscout';
import { runContractTest } from './contract';
import { contract } from './helpscout.contract';

runContractTest(contract, async () => {
  const sim = await startHelpScoutSimulator();
  return { url: sim.url, headers: createHelpScoutAdapter().http.authHeaders({ access_token: sim.token }), close: () => sim.close() };
});
