import { expect } from 'vitest';
import { createZohoAdapter } from '../../../src/providers/zoho';
import { startZohoSimulator, type ZohoSimulator } from '../../simulators/zoho';
import { formatViolation } from '../../support/openapi-validator';
import type { CrmDriver } from '../crm-suite';
import { faultControls } from './faults';

const TOKEN = 'zoho-conformance-token';

/** The simulator saw only requests and answered only responses that match Zoho's OpenAPI documents. */
export function expectNoZohoSpecViolations(sim: ZohoSimulator): void {
  if (!sim.specAvailable) {
    console.warn('Zoho CRM descriptions not found (../shared/provider-specs/zoho-crm): spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
  expect(sim.specUndocumented).toEqual([]);
}

export const zohoDriver: CrmDriver = {
  provider: 'zoho',
  async start() {
    // A multi-currency organization (the suite's deal is in EUR), answering pages of 5 so the lists page.
    const sim = await startZohoSimulator({ accessTokens: [TOKEN], multiCurrency: true, maxPageSize: 5 });
    const tier = sim.addCustomField('Contacts', { api_name: 'Loyalty_Tier', field_label: 'Loyalty tier', data_type: 'text' });
    return {
      adapter: createZohoAdapter({ pageSize: 5 }),
      connection: { credentials: { access_token: TOKEN }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        contact: async (id) => sim.get('Contacts', id),
        deal: async (id) => sim.get('Deals', id),
        renameContact: async (id, firstName) => void sim.update('Contacts', id, { First_Name: firstName }),
        deleteContact: async (id) => sim.remove('Contacts', id),
        contactCustomField: (id, field) => sim.get('Contacts', id)?.[field],
        setContactCustomField: async (id, field, value) => void sim.update('Contacts', id, { [field]: value }),
      },
      fixtures: { userRemoteId: sim.users[0]!.id, stageRemoteId: sim.stages[0]! },
      supports: {
        deletionsInIncremental: true,
        multipleEmails: true,
        customField: { id: tier.api_name, dataType: 'string', value: 'gold', changedValue: 'platinum' },
        requiredOnCreate: { contact: { last_name: 'Conformance' }, deal: { close_date: '2026-12-31' } },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      async close() {
        expectNoZohoSpecViolations(sim);
        await sim.close();
      },
    };
  },
};
