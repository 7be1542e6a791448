/**
 * "Send a signed webhook to the registered URLs", shared by the simulators: each simulator keeps its
 * registrations and knows its provider's payloads and signature headers; this hands them, one request per
 * target, to the delivery its owner chose, and remembers what happened (tests wait for `settle()`).
 *
 * The delivery is never a plain network call from here: the sandbox's simulators deliver only to this
 * Omniport's own receiver (src/sandbox/deliver.ts); the tests' simulators bring their own (test/simulators/shared).
 */
export interface SentWebhook {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The receiver's status, or 0 when it could not be reached or the delivery refused the address. */
  status: number;
  at: number;
}

export interface WebhookTarget {
  url: string;
  /** Signature and other headers for this target and body (the body is signed as sent). */
  headers: (body: string) => Record<string, string>;
}

/** Sends one signed POST; resolves with the receiver's status, or 0 when the address is refused or unreachable. */
export type WebhookDelivery = (url: string, request: { headers: Record<string, string>; body: string }) => Promise<number>;

/** A simulator started without a delivery sends nothing anywhere. */
export const refuseEveryAddress: WebhookDelivery = async () => 0;

export class WebhookSender {
  readonly sent: SentWebhook[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Off: events are dropped (a provider whose webhooks are paused). */
  enabled = true;

  constructor(private readonly deliver: WebhookDelivery = refuseEveryAddress) {}

  send(targets: WebhookTarget[], body: string): void {
    if (!this.enabled) return;
    for (const target of targets) {
      const headers = { 'content-type': 'application/json', ...target.headers(body) };
      const p = this.deliver(target.url, { headers, body })
        .catch(() => 0)
        .then((status) => void this.sent.push({ url: target.url, body, headers, status, at: Date.now() }))
        .finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  /** Resolves once every request sent so far has been answered. */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }
}
