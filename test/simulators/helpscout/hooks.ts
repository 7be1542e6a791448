/**
 * Webhooks of the Help Scout simulator: `POST /v2/webhooks` (201, `Resource-ID`), `GET /v2/webhooks`,
 * `GET/PUT/DELETE /v2/webhooks/{id}`, and for each subscribed event a POST of the V2 payload (the conversation,
 * the customer, the tag; `{id}` for a deletion) with `X-HelpScout-Event` and `X-HelpScout-Signature` (base64
 * HMAC-SHA1 of the body with the webhook's secret). Help Scout sends no delivery id and no time.
 */
import { WebhookSender } from '../shared/webhook-delivery';
import { helpscoutSignature } from '../../../src/providers/helpscout/webhooks';

export interface SimHsWebhook {
  id: number;
  url: string;
  events: string[];
  secret: string;
  notification: boolean;
  label: string | null;
  payloadVersion: 'V2';
  mailboxIds: number[];
}

export class HelpScoutHooks {
  readonly webhooks = new Map<number, SimHsWebhook>();
  readonly sender = new WebhookSender();

  /** As the API renders a webhook (the secret is never shown again). */
  render(h: SimHsWebhook, origin: string) {
    return { id: h.id, url: h.url, state: 'enabled', events: h.events, notification: h.notification, payloadVersion: h.payloadVersion, label: h.label, mailboxIds: h.mailboxIds, _links: { self: { href: `${origin}/v2/webhooks/${h.id}` } } };
  }

  /** One event: its payload sent to every webhook subscribed to it (and to the conversation's mailbox, where the webhook names mailboxes). */
  fire(event: string, payload: Record<string, unknown>, mailboxId?: number): void {
    const body = JSON.stringify(payload);
    const targets = [...this.webhooks.values()].filter((h) => h.events.includes(event) && (mailboxId === undefined || !h.mailboxIds.length || h.mailboxIds.includes(mailboxId)));
    for (const h of targets) this.sender.send([{ url: h.url, headers: (raw) => helpscoutHookHeaders(h.secret, event, raw) }], body);
  }
}

/** Help Scout's headers for one event's request signed with a webhook's secret. */
export function helpscoutHookHeaders(secret: string, event: string, body: string): Record<string, string> {
  return { 'x-helpscout-event': event, 'x-helpscout-signature': helpscoutSignature(secret, body) };
}
