/**
 * Close webhooks in (docs/providers/close.md, "Real-time updates"): one webhook subscription per connection
 * created with `POST /api/v1/webhook/`, subscribed to the created, updated and deleted events of every synced
 * event log object type (leads, contacts, opportunities, lead tasks, notes, calls, meetings); Close answers its
 * `signature_key` (hex). Requests carry `close-sig-hash`: hex HMAC-SHA256 of `close-sig-timestamp` (Unix
 * seconds) followed by the body, keyed with the hex-decoded signature key. The event log event's `id` is the
 * delivery id. A deletion is marked at once; a created or updated object is read by id, but calls and meetings
 * (two lists sharing `acti_` ids) go through the engagement stream's incremental run (the event log).
 */
import type { ProviderWebhooks, UnifiedRecord, WebhookNotice } from '../types';
import { deleteIfPresent } from '../webhook-registration';
import { header, hmac, safeEqual, signedTime } from '../webhook-signatures';
import { API, bodyOf, isNotFound } from './api';
import { CLOSE_STREAMS, type StreamSpec } from './sync';

const ACTIONS = ['created', 'updated', 'deleted'] as const;

/** Event log object type (`activity.note`) → its stream and where one object is read by id. */
const BY_EVENT_TYPE = new Map(CLOSE_STREAMS.flatMap((spec) => spec.events.map((ev) => [ev.objectType, { spec, path: ev.path }] as const)));
/** Unified types read by id: those of a stream fed by one object type (one path per id). */
const READ_BY_ID = new Map(CLOSE_STREAMS.filter((s) => s.events.length === 1).map((s) => [s.objectType, s] as [string, StreamSpec<{ id: string }>]));

interface CloseWebhookEvent {
  id?: unknown;
  object_type?: unknown;
  object_id?: unknown;
  action?: unknown;
}

export const closeWebhooks: ProviderWebhooks = {
  // Close publishes no window; five minutes covers clock skew without keeping replays open long. A retry
  // refused for its age is not lost: the next incremental run reads it from the event log.
  replayWindowSeconds: 300,
  verify(req, secret) {
    const timestamp = header(req.headers, 'close-sig-timestamp');
    const signature = header(req.headers, 'close-sig-hash');
    if (!timestamp || !signature || !/^(?:[0-9a-f]{2})+$/i.test(secret)) return null;
    const expected = hmac('sha256', Buffer.from(secret, 'hex'), Buffer.concat([Buffer.from(timestamp), req.rawBody]), 'hex');
    return safeEqual(signature.toLowerCase(), expected) ? { signedAt: signedTime(timestamp) } : null;
  },
  parse(_req, body): WebhookNotice | null {
    const event = (body as { event?: CloseWebhookEvent } | null)?.event;
    if (!event || typeof event.id !== 'string' || !event.id) return null;
    const target = typeof event.object_type === 'string' ? BY_EVENT_TYPE.get(event.object_type) : undefined;
    const remoteId = typeof event.object_id === 'string' ? event.object_id : '';
    if (!target || !remoteId) return { deliveryId: event.id, streams: [] };
    const { objectType, key } = target.spec;
    if (event.action === 'deleted') return { deliveryId: event.id, streams: [], deleted: [{ objectType, remoteId }] };
    return { deliveryId: event.id, streams: [key], changed: [{ objectType, remoteId }] };
  },
  fetchChanged: {
    objectTypes: [...READ_BY_ID.keys()],
    // Close has no read of many objects by id: one GET each (a burst's repeats are gathered first).
    async fetch(ctx, objectType, remoteIds) {
      const spec = READ_BY_ID.get(objectType)!;
      const out: UnifiedRecord[] = [];
      for (const id of remoteIds) {
        try {
          const item = (await ctx.http.get<{ id?: string }>(spec.events[0]!.path(encodeURIComponent(id)))).data;
          if (item && typeof item.id === 'string') out.push(spec.unify(item as { id: string }, ctx));
        } catch (err) {
          // Deleted since: its `deleted` event marks it.
          if (!isNotFound(err)) throw err;
        }
      }
      return out;
    },
  },
  async register(ctx, url) {
    const events = [...BY_EVENT_TYPE.keys()].flatMap((object_type) => ACTIONS.map((action) => ({ object_type, action })));
    const created = bodyOf(await ctx.http.post<{ id?: string; signature_key?: string }>(`${API}/webhook/`, { json: { url, events, verify_ssl: true } }), 'webhook subscription');
    if (!created.id || !created.signature_key) throw new Error('Close answered the webhook subscription without its id or signature_key');
    return { remoteIds: { webhook: created.id }, secret: created.signature_key };
  },
  async unregister(ctx, remoteIds) {
    if (remoteIds.webhook) await deleteIfPresent(ctx, `${API}/webhook/${encodeURIComponent(remoteIds.webhook)}/`);
  },
};
