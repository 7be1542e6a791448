import type { PdAddress, PdPerson } from '../../simulators/pipedrive/model';
import type { PipedriveSimulator } from '../../simulators/pipedrive';

/**
 * A Pipedrive company with contact sync: persons have `postal_address` (listed by personFields, stored
 * and answered, as Pipedrive's documents describe). The shared simulator models a company without
 * contact sync, so the Pipedrive tests and benchmark add it to their simulator here.
 */
export function enableContactSync(sim: PipedriveSimulator): void {
  const store = sim.state;
  const field = store.addField('person', { key: 'postal_address', name: 'Postal address', field_type: 'address' });
  field.custom = false;
  type WithAddress = PdPerson & { postal_address?: PdAddress | null };
  const personInput = store.personInput.bind(store);
  store.personInput = (b, current) => {
    const out = personInput(b, current) as Partial<WithAddress>;
    if ('postal_address' in b) out.postal_address = (b.postal_address as PdAddress | null) ?? null;
    return out;
  };
  const renderPerson = store.renderPerson.bind(store);
  store.renderPerson = (p, o) => ({ ...renderPerson(p, o), postal_address: (p as WithAddress).postal_address ?? null });
}
