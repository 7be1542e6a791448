/**
 * How the tests' simulators deliver their webhooks: a plain POST to whatever address was registered (a test's
 * Omniport on loopback, or a listener of the test), as the real providers do. Test code only: the sandbox's
 * simulators deliver to Omniport's own receiver alone (src/sandbox/deliver.ts).
 */
import { WebhookSender as Sender, type WebhookDelivery } from '../../../src/sandbox/simulators/shared/webhook-sender';

export const deliverAnywhere: WebhookDelivery = async (url, { headers, body }) => {
  const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
};

/** The sender of a test simulator: delivers anywhere. */
export class WebhookSender extends Sender {
  constructor() {
    super(deliverAnywhere);
  }
}
