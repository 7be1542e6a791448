import { expect } from 'vitest';
import { createAttioAdapter } from '../../../src/providers/attio';
import { startAttioSimulator, type AttioSimulator } from '../../simulators/attio';
import { formatViolation } from '../../support/openapi-validator';
import type { CrmDriver } from '../crm-suite';
import { faultControls } from './faults';

const TOKEN = 'attio-conformance-token';

export function expectNoAttioSpecViolations(sim: AttioSimulator): void {
  if (!sim.spec.available) {
    console.warn('Attio OpenAPI description not found (../shared/provider-specs/attio): spec validation skipped');
    return;
  }
  expect(sim.spec.violations.map(formatViolation)).toEqual([]);
  expect(sim.spec.undocumented).toEqual([]);
}

export const attioDriver: CrmDriver = {
  provider: 'attio',
  async start() {
    const sim = await startAttioSimulator({ tokens: [TOKEN], dealCurrency: 'EUR' });
    const tier = sim.addAttribute('people', { slug: 'loyalty_tier', title: 'Loyalty tier', type: 'text' });
    const member = sim.members[0]!.id as { workspace_member_id: string };
    const stage = sim.statuses[0]!.id as { status_id: string };
    return {
      // Pages of 2 so every list is walked over several pages.
      adapter: createAttioAdapter({ pageSize: 2 }),
      connection: { credentials: { access_token: TOKEN }, base_url: sim.url },
      control: {
        // Attio's Retry-After is an HTTP date (when the limit resets, usually the next second).
        ...faultControls(sim.faults),
        rateLimit: (times) => void sim.faults.add({ status: 429, times, headers: { 'retry-after': new Date(Date.now() + 1000).toUTCString() } }),
        contact: async (id) => sim.get('people', id) as unknown as Record<string, unknown> | undefined,
        deal: async (id) => sim.get('deals', id) as unknown as Record<string, unknown> | undefined,
        dealAmount: async (id) => {
          const v = sim.get('deals', id)?.values.value?.[0]?.currency_value;
          return typeof v === 'number' ? String(v) : undefined;
        },
        renameContact: async (id, firstName) => {
          const last = String(sim.get('people', id)!.values.name?.[0]?.last_name ?? '');
          sim.update('people', id, { name: [{ first_name: firstName, last_name: last }] });
        },
        deleteContact: async (id) => sim.remove('people', id),
        contactCustomField: (id, field) => sim.get('people', id)?.values[field]?.[0]?.value,
        setContactCustomField: async (id, field, value) => void sim.update('people', id, { [field]: [value] }),
      },
      fixtures: { userRemoteId: member.workspace_member_id, stageRemoteId: stage.status_id },
      supports: {
        deletionsInIncremental: false,
        incremental: false,
        multipleEmails: true,
        owners: false,
        customField: { id: tier.slug, dataType: 'string', value: 'gold', changedValue: 'platinum' },
      },
      traffic: { available: sim.spec.available, violations: sim.spec.violations, undocumented: sim.spec.undocumented },
      async close() {
        expectNoAttioSpecViolations(sim);
        await sim.close();
      },
    };
  },
};
