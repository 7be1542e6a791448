/**
 * Intercom webhooks in (docs/providers/intercom.md, "Real-time updates"): Intercom's webhook subscriptions
 * belong to the app, not to a workspace, and only the Developer Hub sets them (no REST endpoint): an app admin
 * pastes the project's address once and subscribes the ticket topics, and Intercom sends every installed
 * workspace's notifications there. Each is signed with the app's client secret: `X-Hub-Signature` =
 * `sha1=` + hex HMAC-SHA1 of the body. A notification names its workspace (`app_id`, the `id_code` of
 * `GET /me`): Omniport routes it to the connections of that workspace. Its `id` (`notif_…`) is the
 * delivery id; its `created_at` (inside the signed body) bounds how old a replay may be.
 */
import type { ProviderAppWebhooks, WebhookNotice } from '../types';
import { header, hmac, safeEqual } from '../webhook-signatures';
import { me, type ResolvedOptions } from './api';

/** `X-Hub-Signature` of a body signed with an app's client secret. */
export const intercomSignature = (clientSecret: string, body: string | Buffer) => `sha1=${hmac('sha1', clientSecret, body, 'hex')}`;

/** Ticket topics whose change is a new ticket part (a reply or a note): the comment stream reads it. */
const PART_TOPICS = new Set(['ticket.note.created', 'ticket.admin.replied', 'ticket.contact.replied']);

interface Notification {
  type?: unknown;
  id?: unknown;
  topic?: unknown;
  app_id?: unknown;
  created_at?: unknown;
  data?: { item?: { type?: unknown; id?: unknown } | null } | null;
}

const notificationOf = (raw: Buffer): Notification | undefined => {
  try {
    const n = JSON.parse(raw.toString('utf8')) as Notification;
    return n && typeof n === 'object' ? n : undefined;
  } catch {
    return undefined;
  }
};

export function intercomAppWebhooks(o: ResolvedOptions): ProviderAppWebhooks {
  return {
    // Intercom signs no header time, and throttled notifications come again up to 2 hours later with the same
    // body: the signed `created_at` may be up to 12 hours old, less than the 24 hours delivery ids are kept,
    // so a captured notification is refused by its id, then by its age.
    replayWindowSeconds: 12 * 3600,
    async accountOf(ctx) {
      const app = (await me(ctx, o)).app?.id_code;
      if (!app) throw new Error('Intercom did not name the workspace (GET /me: app.id_code)');
      return app;
    },
    verify(req, secret) {
      if (!safeEqual(header(req.headers, 'x-hub-signature'), intercomSignature(secret, req.rawBody))) return null;
      const created = notificationOf(req.rawBody)?.created_at;
      // No time in the body: refused (every notification carries one).
      return { signedAt: typeof created === 'number' ? created * 1000 : NaN };
    },
    parse(_req, body) {
      const n = body as Notification | null;
      if (!n || n.type !== 'notification_event' || typeof n.id !== 'string' || typeof n.topic !== 'string') return null;
      if (typeof n.app_id !== 'string' || !n.app_id) return null;
      // Conversations are not synced (tickets only); `ping` (the Developer Hub's test request) is no change.
      if (!n.topic.startsWith('ticket.')) return [{ accountId: n.app_id, notice: { deliveryId: n.id, streams: [] } }];
      const streams = PART_TOPICS.has(n.topic) ? ['ticketing.ticket', 'ticketing.comment'] : ['ticketing.ticket'];
      const notice: WebhookNotice = { deliveryId: n.id, streams };
      return [{ accountId: n.app_id, notice }];
    },
  };
}
