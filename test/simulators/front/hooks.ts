/**
 * Application webhooks of the Front simulator. Front's API cannot create them: an admin adds a webhook feature
 * to a Front app on the Developers page (`install`, which tests call as that admin would). Saving it sends a
 * signed validation request (`{ type: "sync", authorization: { id } }` with `X-Front-Challenge`) that must be
 * answered 200 with the challenge; afterwards every event of the company is sent as
 * `{ type, authorization: { id: <company> }, payload: <the event as GET /events/{id} renders it> }` with
 * `X-Front-Request-Timestamp` (Unix ms) and `X-Front-Signature` = base64(HMAC-SHA256(app secret, timestamp + ":" + body))
 * (https://dev.frontapp.com/docs/application-webhooks).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';
import type { Serializer } from './serialize';
import type { FrontState, SimEvent } from './state';

export interface FrontAppWebhook {
  url: string;
  /** The app's App secret, which signs. */
  secret: string;
}

/** The webhook's event names as the app's settings offer them, by the event's `type` (Omniport reads `payload.type`). */
const APP_EVENT: Partial<Record<string, string>> = {
  inbound: 'inbound_received',
  outbound: 'outbound_sent',
  out_reply: 'outbound_sent',
  comment: 'new_comment_added',
  tag: 'tag_added',
  untag: 'tag_removed',
  assign: 'assignee_changed',
  unassign: 'assignee_changed',
  move: 'conversation_moved',
  archive: 'conversation_archived',
  reopen: 'conversation_reopened',
  trash: 'conversation_deleted',
  restore: 'conversation_restored',
};

export class FrontHooks {
  /** App webhooks installed in the company (one per app). */
  readonly webhooks: FrontAppWebhook[] = [];
  readonly sender = new WebhookSender();

  constructor(
    private readonly state: FrontState,
    private readonly ser: Serializer,
  ) {
    state.listeners.push((e) => this.changed(e));
  }

  /** A new App secret, as Front shows it on the app's page. */
  static newAppSecret(): string {
    return randomBytes(16).toString('hex');
  }

  /**
   * The admin saves the app's webhook: Front checks the address with a signed challenge and keeps the webhook
   * only when the answer echoes it. Answers whether it was kept.
   */
  async install(hook: FrontAppWebhook): Promise<boolean> {
    const challenge = randomBytes(12).toString('hex');
    const body = JSON.stringify({ type: 'sync', authorization: { id: this.state.companyId } });
    const res = await fetch(hook.url, { method: 'POST', headers: { ...frontHookHeaders(hook.secret, body, Date.now()), 'x-front-challenge': challenge }, body });
    const answer = (await res.json().catch(() => null)) as { challenge?: unknown } | null;
    if (res.status !== 200 || answer?.challenge !== challenge) return false;
    this.webhooks.push(hook);
    return true;
  }

  /** The admin removes the webhook feature (or the app). */
  uninstall(url: string): void {
    const i = this.webhooks.findIndex((h) => h.url === url);
    if (i >= 0) this.webhooks.splice(i, 1);
  }

  private changed(e: SimEvent): void {
    if (!this.webhooks.length) return;
    const body = JSON.stringify({ type: APP_EVENT[e.type] ?? e.type, authorization: { id: this.state.companyId }, payload: this.ser.event(e) });
    this.sender.send(
      this.webhooks.map((h) => ({ url: h.url, headers: (raw: string) => frontHookHeaders(h.secret, raw, Date.now()) })),
      body,
    );
  }
}

/** Front's headers for one application webhook request signed at `atMs`. */
export function frontHookHeaders(secret: string, body: string, atMs: number): Record<string, string> {
  const timestamp = String(atMs);
  return {
    'content-type': 'application/json',
    'x-front-request-timestamp': timestamp,
    'x-front-signature': createHmac('sha256', secret).update(`${timestamp}:${body}`).digest('base64'),
  };
}
