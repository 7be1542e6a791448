import { describe, expect, it } from 'vitest';
import { specPath } from '../support/provider-specs';
import { runTicketingConformance } from './ticketing-suite';
import { linearDriver, linearRunRecord } from './drivers/linear';

runTicketingConformance(linearDriver);

// Runs after the scenario above (and its afterAll, which closes the simulator).
describe('linear conformance: what the simulator recorded', () => {
  const hasSpec = Boolean(specPath('linear', 'schema.graphql'));

  it('modelled every call the adapter made', () => {
    expect(linearRunRecord.closed).toBe(true);
    expect(linearRunRecord.simulatorGaps).toEqual([]);
    expect(linearRunRecord.operations.length).toBeGreaterThan(10);
  });

  it.skipIf(!hasSpec)('every query and mutation was valid against Linear’s published schema, every answer followed it', () => {
    expect(linearRunRecord.specAvailable).toBe(true);
    expect(linearRunRecord.specViolations).toEqual([]);
  });
  if (!hasSpec) it.skip('spec validation skipped: shared/provider-specs/linear/schema.graphql is absent', () => {});
});
