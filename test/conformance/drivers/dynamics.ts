import { expect } from 'vitest';
import { createDynamicsAdapter } from '../../../src/providers/dynamics';
import { startDynamicsSimulator } from '../../simulators/dynamics';
import type { CrmDriver } from '../crm-suite';
import { faultControls } from './faults';

const TOKEN = 'dv-conformance-token';

export const dynamicsDriver: CrmDriver = {
  provider: 'dynamics',
  async start() {
    // Pages of 2 (odata.maxpagesize) so every list is walked over several pages, delta links included.
    const sim = await startDynamicsSimulator({ accessTokens: [TOKEN] });
    const tier = sim.addColumn('contact', { LogicalName: 'new_loyaltytier', AttributeType: 'String', DisplayName: 'Loyalty tier' });
    return {
      adapter: createDynamicsAdapter({ pageSize: 2 }),
      connection: { credentials: { access_token: TOKEN }, base_url: sim.url },
      control: {
        // Dataverse's service protection answers 429 with Retry-After (seconds).
        ...faultControls(sim.faults),
        contact: async (id) => sim.get('contact', id),
        deal: async (id) => sim.get('opportunity', id),
        renameContact: async (id, firstName) => void sim.update('contact', id, { firstname: firstName }),
        deleteContact: async (id) => sim.remove('contact', id),
        contactCustomField: (id, field) => sim.get('contact', id)?.[field],
        setContactCustomField: async (id, field, value) => void sim.update('contact', id, { [field]: value }),
      },
      fixtures: { userRemoteId: String(sim.users[0]!.systemuserid), stageRemoteId: String(sim.salesStages[1]!.value) },
      supports: {
        deletionsInIncremental: true,
        multipleEmails: true,
        customField: { id: tier.LogicalName, dataType: 'string', value: 'gold', changedValue: 'platinum' },
      },
      traffic: { available: false, violations: [], get requests() { return [...sim.requests, ...sim.batchParts]; } },
      async close() {
        // Incremental runs followed delta links (change tracking), which answered the deleted contact.
        expect(sim.requests.some((r) => r.path.endsWith('/contacts') && typeof r.query.$deltatoken === 'string' && r.status === 200)).toBe(true);
        expect(sim.requests.some((r) => typeof r.query.$skiptoken === 'string')).toBe(true);
        // The batch of contacts went in one $batch.
        expect(sim.requests.some((r) => r.path === '/api/data/v9.2/$batch' && r.status === 200)).toBe(true);
        await sim.close();
      },
    };
  },
};
