/**
 * Help Scout webhooks in (docs/providers/helpscout.md, "Real-time updates"): one webhook per connection created
 * with `POST /v2/webhooks` (conversation, customer and tag events, payload V2, every mailbox), with a secret
 * Omniport generates (Help Scout takes at most 40 characters); deleted with `DELETE /v2/webhooks/{id}`.
 * Each request is signed: `X-HelpScout-Signature` = base64 HMAC-SHA1 of the body with that secret, and
 * `X-HelpScout-Event` names the event. Help Scout sends no delivery id and signs no time: a retry carries the
 * same event and body, so their hash is the delivery id (replays are refused by it). `convo.deleted` and
 * `customer.deleted` (bodies `{id}`) mark the object deleted at once; other events queue their object's stream.
 */
import { createHash } from 'node:crypto';
import type { ProviderWebhooks, WebhookNotice } from '../types';
import { deleteIfPresent, newWebhookSecret } from '../webhook-registration';
import { header, hmac, safeEqual } from '../webhook-signatures';
import { resourceId } from './api';

/** The events Omniport subscribes to, as Create Webhook lists them. */
export const HELPSCOUT_WEBHOOK_EVENTS = [
  'convo.created',
  'convo.assigned',
  'convo.status',
  'convo.tags',
  'convo.custom-fields',
  'convo.moved',
  'convo.merged',
  'convo.customer.reply.created',
  'convo.agent.reply.created',
  'convo.note.created',
  'convo.deleted',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'tag.created',
  'tag.updated',
  'tag.deleted',
] as const;

/** `X-HelpScout-Signature` of a body signed with a webhook's secret. */
export const helpscoutSignature = (secret: string, body: string | Buffer) => hmac('sha1', secret, body, 'base64');

/**
 * An event's object → its sync stream and the unified type its deletion marks (none for tags: a unified tag is
 * keyed by its name, and `tag.deleted` names only the id; the tag stream, a full list, finds it gone).
 */
const OBJECTS: Record<string, { stream: string; objectType?: string }> = {
  convo: { stream: 'ticketing.ticket', objectType: 'ticketing.ticket' },
  customer: { stream: 'ticketing.contact', objectType: 'ticketing.contact' },
  tag: { stream: 'ticketing.tag' },
};

export const helpscoutWebhooks: ProviderWebhooks = {
  replayWindowSeconds: 0, // no signed time: replays are refused by delivery id
  verify(req, secret) {
    return safeEqual(header(req.headers, 'x-helpscout-signature'), helpscoutSignature(secret, req.rawBody)) ? { signedAt: null } : null;
  },
  parse(req, body): WebhookNotice | null {
    const event = header(req.headers, 'x-helpscout-event');
    if (!event || !body || typeof body !== 'object') return null;
    const deliveryId = createHash('sha256').update(event).update('\n').update(req.rawBody).digest('hex');
    const object = OBJECTS[event.split('.')[0]!];
    if (!object) return { deliveryId, streams: [] };
    const id = (body as { id?: unknown }).id;
    if (event.endsWith('.deleted') && object.objectType && (typeof id === 'number' || typeof id === 'string')) {
      return { deliveryId, streams: [], deleted: [{ objectType: object.objectType, remoteId: String(id) }] };
    }
    return { deliveryId, streams: [object.stream] };
  },
  async register(ctx, url) {
    // 160 random bits: Help Scout refuses secrets longer than 40 characters.
    const secret = newWebhookSecret().slice(0, 40);
    const res = await ctx.http.post('/v2/webhooks', { json: { url, events: HELPSCOUT_WEBHOOK_EVENTS, secret, payloadVersion: 'V2', label: 'Omniport real-time updates' } });
    return { remoteIds: { webhook: String(resourceId(res.headers, 'webhook')) }, secret };
  },
  async unregister(ctx, remoteIds) {
    if (remoteIds.webhook) await deleteIfPresent(ctx, `/v2/webhooks/${encodeURIComponent(remoteIds.webhook)}`);
  },
};
