/**
 * The Zendesk simulator (src/sandbox/simulators/zendesk, shared with the sandbox), started for tests with
 * its traffic checked against Zendesk's official OpenAPI document when ../shared/provider-specs has it.
 */
import { filterKnownDeviations, loadOpenApiValidator } from '../../support/openapi-validator';
import { specPath } from '../../support/provider-specs';
import { startZendeskSimulator as startSimulator, type ZendeskSimulator, type ZendeskSimulatorOptions } from '../../../src/sandbox/simulators/zendesk';
import { KNOWN_DEVIATIONS } from './spec-deviations';
import { deliverAnywhere } from '../shared/webhook-delivery';

export * from '../../../src/sandbox/simulators/zendesk';
export { KNOWN_DEVIATIONS } from './spec-deviations';

export interface TestZendeskSimulatorOptions extends Omit<ZendeskSimulatorOptions, 'spec'> {
  /** OpenAPI document; default `specPath('zendesk', 'oas.yaml')`; `null` disables validation. */
  specFile?: string | null;
  /** Set false to skip spec validation even when the document exists (benchmarks). Default true. */
  validateSpec?: boolean;
}

export async function startZendeskSimulator(opts: TestZendeskSimulatorOptions = {}): Promise<ZendeskSimulator> {
  const { specFile: file, validateSpec, ...given } = opts;
  // Its webhooks go to whatever endpoint a test registers.
  const rest = { deliverWebhook: deliverAnywhere, ...given };
  const specFile = file === null ? undefined : (file ?? specPath('zendesk', 'oas.yaml'));
  if (!specFile || validateSpec === false) return startSimulator(rest);
  const validator = await loadOpenApiValidator(specFile, { relaxNullable: 'scalars' });
  return startSimulator({ ...rest, spec: { validator, filter: (v) => filterKnownDeviations(v, KNOWN_DEVIATIONS) } });
}
