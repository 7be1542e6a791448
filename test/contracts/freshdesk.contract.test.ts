import { createFreshdeskAdapter } from '../../src/providers/freshdesk';
import { startFreshdeskSimulator } from '../simulators/freshdesk';
import { runContractTest } from './contract';
import { contract } from './freshdesk.contract';

runContractTest(contract, async () => {
  const sim = await startFreshdeskSimulator();
  return { url: sim.url, headers: createFreshdeskAdapter().http.authHeaders({ api_key: sim.apiKeys[0]! }), close: () => sim.close() };
});
