import { createHubSpotAdapter } from '../../../src/providers/hubspot';
import { startHubSpotSimulator } from '../../simulators/hubspot';
import type { CrmDriver } from '../crm-suite';
import { faultControls } from './faults';

const TOKEN = 'hs-conformance-token';

export const hubspotDriver: CrmDriver = {
  provider: 'hubspot',
  async start() {
    const sim = await startHubSpotSimulator({ accessTokens: [TOKEN] });
    sim.addProperty('contacts', { name: 'loyalty_tier', label: 'Loyalty tier', type: 'string' });
    const owner = sim.state.owners[0]!;
    const stage = sim.state.pipelines[0]!.stages[0]!;
    return {
      adapter: createHubSpotAdapter({ searchMinIntervalMs: 0 }),
      connection: { credentials: { access_token: TOKEN }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        contact: async (id) => sim.getRecord('contacts', id) as unknown as Record<string, unknown> | undefined,
        deal: async (id) => sim.getRecord('deals', id) as unknown as Record<string, unknown> | undefined,
        renameContact: async (id, firstName) => void sim.updateRecord('contacts', id, { firstname: firstName }),
        deleteContact: async (id) => void sim.archiveRecord('contacts', id),
        contactCustomField: (id, field) => sim.getRecord('contacts', id)?.properties[field],
        setContactCustomField: async (id, field, value) => void sim.updateRecord('contacts', id, { [field]: String(value) }),
      },
      fixtures: { userRemoteId: String(owner.id), stageRemoteId: String(stage.id) },
      supports: {
        deletionsInIncremental: true,
        multipleEmails: false,
        customField: { id: 'loyalty_tier', dataType: 'string', value: 'gold', changedValue: 'platinum' },
      },
      close: () => sim.close(),
    };
  },
};
