/**
 * App webhooks of the Intercom simulator: what an app admin sets in the Developer Hub (the endpoint URL,
 * checked with a HEAD request when saved, and the topics), and the notifications Intercom then sends for the
 * workspace: `{ type: 'notification_event', id: 'notif_…', topic, app_id, created_at, data: { item } }`,
 * signed with the app's client secret (`X-Hub-Signature: sha1=<hex HMAC-SHA1 of the body>`).
 */
import { randomUUID } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';
import { intercomSignature } from '../../../src/providers/intercom/webhooks';

export interface IntercomAppSettings {
  url: string;
  clientSecret: string;
  topics: string[];
}

export class IntercomAppWebhooks {
  readonly sender = new WebhookSender();
  settings: IntercomAppSettings | undefined;

  constructor(private readonly appId: string) {}

  /** As an app admin saving the Webhooks page: Intercom refuses an endpoint that does not answer a HEAD request with 2xx. */
  async configure(settings: IntercomAppSettings | undefined): Promise<void> {
    if (settings) {
      if (!/^https?:\/\//.test(settings.url)) throw new Error('Endpoint URL must be a full URL');
      const res = await fetch(settings.url, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`Intercom could not validate the endpoint URL (HEAD answered ${res.status})`);
    }
    this.settings = settings;
  }

  /** One event of the workspace: a notification for each subscribed topic. */
  notify(topic: string, item: Record<string, unknown>): void {
    const settings = this.settings;
    if (!settings?.topics.includes(topic)) return;
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      type: 'notification_event',
      app_id: this.appId,
      data: { type: 'notification_event_data', item },
      links: {},
      id: `notif_${randomUUID()}`,
      topic,
      delivery_status: 'pending',
      delivery_attempts: 1,
      delivered_at: 0,
      first_sent_at: now,
      created_at: now,
      self: null,
    });
    this.sender.send([{ url: settings.url, headers: (raw) => intercomHookHeaders(settings.clientSecret, raw) }], body);
  }
}

/** Intercom's headers for one notification signed with an app's client secret. */
export function intercomHookHeaders(clientSecret: string, body: string): Record<string, string> {
  return { 'user-agent': 'intercom-parrot-service-client/1.0', accept: 'application/json', 'x-hub-signature': intercomSignature(clientSecret, body) };
}
