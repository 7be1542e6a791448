import { createPipedriveAdapter } from '../../../src/providers/pipedrive';
import { startPipedriveSimulator } from '../../simulators/pipedrive';
import { enableContactSync } from '../../providers/pipedrive/contact-sync';
import { expectNoSpecViolations } from '../../providers/pipedrive/support';
import type { CrmDriver } from '../crm-suite';
import { faultControls } from './faults';

const TOKEN = 'pd-conformance-token';

export const pipedriveDriver: CrmDriver = {
  provider: 'pipedrive',
  async start() {
    const sim = await startPipedriveSimulator({ apiTokens: [TOKEN] });
    enableContactSync(sim);
    const tier = sim.addCustomField('person', { name: 'Loyalty tier', field_type: 'varchar' });
    const user = sim.state.users[0]!;
    const stage = sim.state.stages[0]!;
    return {
      adapter: createPipedriveAdapter(),
      connection: { credentials: { api_token: TOKEN }, base_url: sim.url },
      control: {
        ...faultControls(sim.faults),
        contact: async (id) => sim.getEntity('persons', Number(id)) as unknown as Record<string, unknown> | undefined,
        deal: async (id) => sim.getEntity('deals', Number(id)) as unknown as Record<string, unknown> | undefined,
        renameContact: async (id, firstName) => {
          const person = sim.getEntity('persons', Number(id))!;
          sim.updateEntity('persons', person.id, { first_name: firstName, name: [firstName, person.last_name].filter(Boolean).join(' ') });
        },
        deleteContact: async (id) => sim.deleteEntity('persons', Number(id)),
        contactCustomField: (id, field) => sim.getEntity('persons', Number(id))?.custom[field],
        setContactCustomField: async (id, field, value) => {
          const person = sim.getEntity('persons', Number(id))!;
          sim.updateEntity('persons', person.id, { custom: { ...person.custom, [field]: value } });
        },
      },
      fixtures: { userRemoteId: String(user.id), stageRemoteId: String(stage.id) },
      supports: {
        deletionsInIncremental: false,
        multipleEmails: true,
        customField: { id: tier.key, dataType: 'string', value: 'gold', changedValue: 'platinum' },
      },
      traffic: { available: sim.specAvailable, violations: sim.specViolations, undocumented: sim.specUndocumented },
      async close() {
        expectNoSpecViolations(sim);
        await sim.close();
      },
    };
  },
};
