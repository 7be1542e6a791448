import { expect } from 'vitest';
import { createCloseAdapter } from '../../../src/providers/close';
import { startCloseSimulator, type CloseSimulator } from '../../simulators/close';
import { formatViolation } from '../../support/openapi-validator';
import type { CrmDriver } from '../crm-suite';
import { faultControls } from './faults';

const KEY = 'close-conformance-key';

/** The simulator saw only requests and answered only responses that match Close's description. */
export function expectNoCloseSpecViolations(sim: CloseSimulator): void {
  if (!sim.specAvailable) {
    console.warn('Close OpenAPI description not found (../shared/provider-specs/close): spec validation skipped');
    return;
  }
  expect(sim.specViolations.map(formatViolation)).toEqual([]);
  expect(sim.specUndocumented).toEqual([]);
}

export const closeDriver: CrmDriver = {
  provider: 'close',
  async start() {
    const sim = await startCloseSimulator({ apiKeys: [KEY] });
    const tier = sim.addCustomField('contact', { name: 'Loyalty tier', type: 'text' });
    const user = sim.users[0]!;
    const stage = sim.pipelines[0]!.statuses[0]!;
    return {
      adapter: createCloseAdapter(),
      connection: { credentials: { api_key: KEY }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        contact: async (id) => sim.get('contact', id),
        deal: async (id) => sim.get('opportunity', id),
        // Close keeps whole cents.
        dealAmount: async (id) => {
          const cents = sim.get('opportunity', id)?.value;
          return typeof cents === 'number' ? (cents / 100).toFixed(2) : undefined;
        },
        renameContact: async (id, firstName) => {
          const name = String(sim.get('contact', id)!.name ?? '');
          sim.update('contact', id, { name: [firstName, ...name.split(' ').slice(1)].join(' ') });
        },
        deleteContact: async (id) => sim.remove('contact', id),
        contactCustomField: (id, field) => sim.get('contact', id)?.[`custom.${field}`],
        setContactCustomField: async (id, field, value) => void sim.update('contact', id, { [`custom.${field}`]: value }),
      },
      fixtures: { userRemoteId: user.id, stageRemoteId: stage.id },
      supports: {
        deletionsInIncremental: true,
        multipleEmails: true,
        contactAddresses: false,
        owners: false,
        customField: { id: tier.id, dataType: 'string', value: 'gold', changedValue: 'platinum' },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      async close() {
        expectNoCloseSpecViolations(sim);
        await sim.close();
      },
    };
  },
};
