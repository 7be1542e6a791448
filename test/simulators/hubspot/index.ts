/** The HubSpot simulator lives in src/sandbox/simulators/hubspot, shared by the tests and the sandbox. */
import { startHubSpotSimulator as startSimulator, type HubSpotSimulator, type HubSpotSimulatorOptions } from '../../../src/sandbox/simulators/hubspot';
import { deliverAnywhere } from '../shared/webhook-delivery';

export * from '../../../src/sandbox/simulators/hubspot';

/** Started for tests: its app webhooks go to whatever target URL a test sets. */
export function startHubSpotSimulator(opts: HubSpotSimulatorOptions = {}): Promise<HubSpotSimulator> {
  return startSimulator({ deliverWebhook: deliverAnywhere, ...opts });
}
