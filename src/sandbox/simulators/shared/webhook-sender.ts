/**
 * "Send a signed webhook to the registered URLs", shared by the simulators: each simulator keeps its
 * registrations and knows its provider's payloads and signature headers; this posts them, one request per
 * target, and remembers what happened (tests wait for `settle()`).
 */
export interface SentWebhook {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The receiver's status, or 0 when it could not be reached. */
  status: number;
  at: number;
}

export interface WebhookTarget {
  url: string;
  /** Signature and other headers for this target and body (the body is signed as sent). */
  headers: (body: string) => Record<string, string>;
}

export class WebhookSender {
  readonly sent: SentWebhook[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Off: events are dropped (a provider whose webhooks are paused). */
  enabled = true;

  send(targets: WebhookTarget[], body: string): void {
    if (!this.enabled) return;
    for (const target of targets) {
      const headers = { 'content-type': 'application/json', ...target.headers(body) };
      const p = fetch(target.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) })
        .then(async (res) => {
          await res.arrayBuffer().catch(() => undefined);
          this.sent.push({ url: target.url, body, headers, status: res.status, at: Date.now() });
        })
        .catch(() => void this.sent.push({ url: target.url, body, headers, status: 0, at: Date.now() }))
        .finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  /** Resolves once every request sent so far has been answered. */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }
}
