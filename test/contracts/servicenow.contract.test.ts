import { createServiceNowAdapter } from '../../src/providers/servicenow';
import { startServiceNowSimulator } from '../simulators/servicenow';
import { runContractTest } from './contract';
import { contract } from './servicenow.contract';

runContractTest(contract, async () => {
  const sim = await startServiceNowSimulator();
  return { url: sim.url, headers: createServiceNowAdapter().http.authHeaders(sim.credentials), samples: { sys_id: '0'.repeat(32) }, close: () => sim.close() };
});
