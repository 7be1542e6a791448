import { createDynamicsAdapter } from '../../src/providers/dynamics';
import { startDynamicsSimulator } from '../simulators/dynamics';
import { runContractTest } from './contract';
import { contract } from './dynamics.contract';

runContractTest(contract, async () => {
  const sim = await startDynamicsSimulator({ accessTokens: ['contract-probe'] });
  return {
    url: sim.url,
    headers: createDynamicsAdapter().http.authHeaders({ access_token: 'contract-probe' }),
    samples: { id: '00000000-0000-0000-0000-000000000001', table: "'contact'", column: "'salesstage'" },
    close: () => sim.close(),
  };
});
