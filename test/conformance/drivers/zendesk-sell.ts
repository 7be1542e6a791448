import { expect } from 'vitest';
import { createZendeskSellAdapter } from '../../../src/providers/zendesk-sell';
import { startZendeskSellSimulator } from '../../simulators/zendesk-sell';
import type { CrmDriver } from '../crm-suite';
import { faultControls } from './faults';

const TOKEN = 'sell-conformance-token';

export const zendeskSellDriver: CrmDriver = {
  provider: 'zendesk-sell',
  async start() {
    const sim = await startZendeskSellSimulator({ tokens: [TOKEN] });
    const tier = sim.addCustomField('contact', { name: 'Loyalty tier', type: 'string', for_organization: false });
    return {
      // Pages of 5, so every stream walks several pages.
      adapter: createZendeskSellAdapter({ pageSize: 5 }),
      connection: { credentials: { access_token: TOKEN }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        contact: async (id) => sim.get('contacts', id),
        deal: async (id) => sim.get('deals', id),
        renameContact: async (id, firstName) => void sim.update('contacts', id, { first_name: firstName }),
        deleteContact: async (id) => sim.remove('contacts', id),
        contactCustomField: (id, field) => (sim.get('contacts', id)?.custom_fields as Record<string, unknown> | undefined)?.[field],
        setContactCustomField: async (id, field, value) => void sim.update('contacts', id, { custom_fields: { [field]: value } }),
      },
      fixtures: { userRemoteId: String(sim.users[0]!.id), stageRemoteId: String(sim.stages[0]!.id) },
      supports: {
        // The Core API lists no deletions: a full run finds them.
        deletionsInIncremental: false,
        multipleEmails: false,
        customField: { id: String(tier.name), dataType: 'string', value: 'gold', changedValue: 'platinum' },
        requiredOnCreate: { contact: { last_name: 'Conformance' } },
      },
      traffic: { available: false, violations: [], get requests() { return sim.requests; } },
      async close() {
        // Every request the adapter sent matched the contract transcribed from Sell's reference.
        expect(sim.contractViolations).toEqual([]);
        await sim.close();
      },
    };
  },
};
