import { createZendeskSellAdapter } from '../../src/providers/zendesk-sell';
import { startZendeskSellSimulator } from '../simulators/zendesk-sell';
import { runContractTest } from './contract';
import { contract } from './zendesk-sell.contract';

runContractTest(contract, async () => {
  const sim = await startZendeskSellSimulator({ tokens: ['contract-probe'] });
  return { url: sim.url, headers: createZendeskSellAdapter().http.authHeaders({ access_token: 'contract-probe' }), close: () => sim.close() };
});
