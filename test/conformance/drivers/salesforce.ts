import { expect } from 'vitest';
import { createSalesforceAdapter } from '../../../src/providers/salesforce';
import { startSalesforceSimulator, type SalesforceSimulator } from '../../simulators/salesforce';
import { formatViolation } from '../../support/openapi-validator';
import type { CrmDriver } from '../crm-suite';
import { faultControls } from './faults';

const TOKEN = 'sf-conformance-token';

/** The simulator saw only requests and answered only responses that match Salesforce's descriptions. */
export function expectNoSalesforceSpecViolations(sim: SalesforceSimulator): void {
  if (!sim.specAvailable) {
    console.warn('Salesforce descriptions not found (../shared/provider-specs/salesforce): spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
  expect(sim.specUndocumented).toEqual([]);
}

export const salesforceDriver: CrmDriver = {
  provider: 'salesforce',
  async start() {
    // A multi-currency org (the suite's deal is in EUR), answering query batches of 5 so the longer lists page.
    const sim = await startSalesforceSimulator({ accessTokens: [TOKEN], multiCurrency: true, maxBatchSize: 5 });
    const tier = sim.addCustomField('Contact', { name: 'Loyalty_Tier__c', label: 'Loyalty tier', type: 'string' });
    return {
      adapter: createSalesforceAdapter(),
      connection: { credentials: { access_token: TOKEN }, base_url: sim.url },
      control: {
        // Salesforce answers a spent request limit with 403 REQUEST_LIMIT_EXCEEDED, without Retry-After.
        ...faultControls(sim.faults),
        rateLimit: (times) => void sim.faults.add({ status: 403, times }),
        contact: async (id) => sim.get('Contact', id),
        deal: async (id) => sim.get('Opportunity', id),
        renameContact: async (id, firstName) => void sim.update('Contact', id, { FirstName: firstName }),
        deleteContact: async (id) => sim.remove('Contact', id),
        contactCustomField: (id, field) => sim.get('Contact', id)?.[field],
        setContactCustomField: async (id, field, value) => void sim.update('Contact', id, { [field]: value }),
      },
      fixtures: { userRemoteId: sim.users[0]!.Id, stageRemoteId: String(sim.stages[0]!.ApiName) },
      supports: {
        deletionsInIncremental: true,
        multipleEmails: false,
        customField: { id: tier.name, dataType: 'string', value: 'gold', changedValue: 'platinum' },
        requiredOnCreate: { contact: { last_name: 'Conformance' }, deal: { close_date: '2026-12-31' } },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      async close() {
        expectNoSalesforceSpecViolations(sim);
        await sim.close();
      },
    };
  },
};
