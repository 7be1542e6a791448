/**
 * App webhooks of the HubSpot simulator: what an app admin sets in the public app's settings (target URL,
 * subscriptions to contact, company and deal creation, deletion, restore and property changes; the app's
 * client secret), and the batches HubSpot then sends for every installed account: JSON arrays of events
 * ({ eventId, subscriptionId, portalId, appId, occurredAt, subscriptionType, attemptNumber, objectId,
 * changeSource, propertyName?, propertyValue? }) signed with `X-HubSpot-Signature-v3` and
 * `X-HubSpot-Request-Timestamp`. Events of one short moment go in one batch (at most 100), as HubSpot does.
 */
import { createHmac } from 'node:crypto';
import { WebhookSender, type WebhookDelivery } from '../shared/webhook-sender';
import type { HubSpotChange } from './store';

const OBJECT: Record<string, string> = { contacts: 'contact', companies: 'company', deals: 'deal' };

export interface HubSpotAppSettings {
  targetUrl: string;
  clientSecret: string;
  appId: number;
}

export class HubSpotAppWebhooks {
  readonly sender: WebhookSender;
  settings: HubSpotAppSettings | undefined;
  private queue: Record<string, unknown>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private eventSeq = 1_000;

  constructor(
    private readonly portalId: number,
    deliver?: WebhookDelivery,
  ) {
    this.sender = new WebhookSender(deliver);
  }

  /** As an app admin saving the app's webhook settings (undefined: unsubscribed). */
  configure(settings: HubSpotAppSettings | undefined): void {
    this.settings = settings;
  }

  changed(change: HubSpotChange): void {
    const object = OBJECT[change.record.type];
    if (!this.settings || !object) return;
    const base = { portalId: this.portalId, appId: this.settings.appId, occurredAt: Date.now(), attemptNumber: 0, objectId: Number(change.record.id), changeSource: 'CRM_UI' };
    const subscriptionId = { creation: 1, deletion: 2, restore: 3, propertyChange: 4 }[change.kind];
    if (change.kind === 'propertyChange') {
      for (const name of change.propertyNames) {
        this.queue.push({ eventId: this.eventSeq++, subscriptionId, ...base, subscriptionType: `${object}.propertyChange`, propertyName: name, propertyValue: change.record.properties[name] ?? '' });
      }
    } else {
      this.queue.push({ eventId: this.eventSeq++, subscriptionId, ...base, subscriptionType: `${object}.${change.kind}` });
    }
    this.timer ??= setTimeout(() => this.flush(), 20);
  }

  private flush(): void {
    this.timer = undefined;
    const settings = this.settings;
    while (settings && this.queue.length) {
      const body = JSON.stringify(this.queue.splice(0, 100));
      this.sender.send([{ url: settings.targetUrl, headers: (raw) => hubspotV3Headers(settings.clientSecret, settings.targetUrl, raw) }], body);
    }
    this.queue = [];
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.sender.enabled = false;
  }
}

/** HubSpot's v3 signature headers for a POST of `body` to `url` at `at` (ms). */
export function hubspotV3Headers(clientSecret: string, url: string, body: string, at = Date.now()): Record<string, string> {
  const timestamp = String(at);
  const uri = url.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (m) => decodeURIComponent(m));
  return {
    'user-agent': 'HubSpot Connect 2.0 (http://dev.hubspot.com/)',
    'x-hubspot-request-timestamp': timestamp,
    'x-hubspot-signature-v3': createHmac('sha256', clientSecret).update(`POST${uri}${body}${timestamp}`).digest('base64'),
    'x-hubspot-signature-version': 'v3',
  };
}
