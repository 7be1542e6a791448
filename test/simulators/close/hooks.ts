/**
 * Webhook subscriptions of the Close simulator: `POST/GET /api/v1/webhook/`, `GET/PUT/DELETE
 * /api/v1/webhook/{id}/`, checked as Close checks them (a URL, a non-empty list of event log object types and
 * actions), and for every event added to the event log a delivery worded as Close words it ({ subscription_id,
 * event }) to each active subscription with that object type and action, signed with `close-sig-hash` = hex
 * HMAC-SHA256(hex-decoded signature_key, `close-sig-timestamp` + body).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';

/** Event log object types and actions a subscription may name (Close's "List of event types", those simulated and a few more). */
const OBJECT_TYPES = new Set([
  'lead', 'contact', 'opportunity', 'task.lead', 'task.incoming_email', 'task.missed_call', 'activity.note', 'activity.call',
  'activity.meeting', 'activity.email', 'activity.sms', 'activity.lead_status_change', 'activity.opportunity_status_change',
  'custom_field.lead', 'custom_field.contact', 'custom_field.opportunity', 'user', 'membership',
]); // prettier-ignore
const ACTIONS = new Set(['created', 'updated', 'deleted', 'merged', 'completed', 'sent', 'answered']);

export interface SimCloseSubscription {
  id: string;
  url: string;
  events: { object_type: string; action: string; extra_filter: Record<string, unknown> | null }[];
  verify_ssl: boolean;
  status: 'active' | 'paused';
  signature_key: string;
  date_created: string;
  date_updated: string;
}

export class CloseHookError extends Error {
  constructor(readonly body: unknown) {
    super('close webhook 400');
  }
}

const fieldError = (field: string, message: string) => new CloseHookError({ errors: [], 'field-errors': { [field]: message } });

export class CloseHooks {
  readonly subscriptions = new Map<string, SimCloseSubscription>();
  readonly sender = new WebhookSender();

  constructor(
    private readonly newId: (prefix: string) => string,
    private readonly stamp: () => string,
    private readonly nowSeconds: () => number,
  ) {}

  private fields(body: Record<string, unknown>, current?: SimCloseSubscription): Pick<SimCloseSubscription, 'url' | 'events' | 'verify_ssl'> {
    const url = body.url ?? current?.url;
    if (typeof url !== 'string' || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw fieldError('url', 'Enter a valid URL.');
    const rawEvents = body.events ?? current?.events;
    if (!Array.isArray(rawEvents) || rawEvents.length === 0) throw fieldError('events', 'This field is required.');
    const events = rawEvents.map((e: Record<string, unknown>) => {
      if (!e || typeof e.object_type !== 'string' || !OBJECT_TYPES.has(e.object_type)) throw fieldError('events', `Unknown object_type ${JSON.stringify(e?.object_type)}.`);
      if (typeof e.action !== 'string' || !ACTIONS.has(e.action)) throw fieldError('events', `Unknown action ${JSON.stringify(e.action)}.`);
      return { object_type: e.object_type, action: e.action, extra_filter: (e.extra_filter as Record<string, unknown> | null | undefined) ?? null };
    });
    const verify = body.verify_ssl ?? current?.verify_ssl ?? true;
    if (typeof verify !== 'boolean') throw fieldError('verify_ssl', 'Must be a valid boolean.');
    return { url, events, verify_ssl: verify };
  }

  create(body: Record<string, unknown>): SimCloseSubscription {
    const at = this.stamp();
    const sub: SimCloseSubscription = { id: this.newId('whsub'), ...this.fields(body), status: 'active', signature_key: randomBytes(32).toString('hex'), date_created: at, date_updated: at };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  update(sub: SimCloseSubscription, body: Record<string, unknown>): SimCloseSubscription {
    if (body.status !== undefined && body.status !== 'active' && body.status !== 'paused') throw fieldError('status', 'Must be active or paused.');
    Object.assign(sub, this.fields(body, sub), body.status ? { status: body.status } : {}, { date_updated: this.stamp() });
    return sub;
  }

  /** As the API renders a subscription: the signature key only in the answer that creates it. */
  render(sub: SimCloseSubscription, withKey = false) {
    const { signature_key, ...rest } = sub;
    return withKey ? { ...rest, signature_key } : rest;
  }

  /** One event log event, as the event log answers it: delivered to each active subscription naming its type and action. */
  deliver(event: Record<string, unknown> & { object_type: string; action: string }): void {
    for (const sub of this.subscriptions.values()) {
      if (sub.status !== 'active' || !sub.events.some((e) => e.object_type === event.object_type && e.action === event.action)) continue;
      const body = JSON.stringify({ subscription_id: sub.id, event });
      this.sender.send([{ url: sub.url, headers: (b) => closeHookHeaders(sub.signature_key, b, this.nowSeconds()) }], body);
    }
  }
}

/** Close's signature headers for one delivery. */
export function closeHookHeaders(signatureKey: string, body: string, unixSeconds: number): Record<string, string> {
  const timestamp = String(unixSeconds);
  return { 'close-sig-hash': createHmac('sha256', Buffer.from(signatureKey, 'hex')).update(timestamp + body).digest('hex'), 'close-sig-timestamp': timestamp };
}
