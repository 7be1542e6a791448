/**
 * Pipedrive webhooks in (docs/providers/pipedrive.md, "Real-time updates"): one webhook per connection created
 * with `POST /v1/webhooks` (version 2.0, every action on every object the token's user may see), protected by
 * HTTP basic auth credentials Omniport generates (`http_auth_user` / `http_auth_password`): Pipedrive signs
 * nothing, it sends those credentials in `Authorization`, compared in constant time. The delivery id is the
 * event's `meta.id`; a `delete` marks the object deleted at once.
 */
import { createHash } from 'node:crypto';
import type { ProviderWebhooks, WebhookNotice } from '../types';
import { deleteIfPresent } from '../webhook-registration';
import { header, safeEqual } from '../webhook-signatures';
import { v1, dataOf } from './api';
import type { PdEnvelope } from './types';

/** The basic auth user name Omniport gives its webhooks (the password is the connection's secret). */
export const PIPEDRIVE_WEBHOOK_USER = 'omniport';

/** The `Authorization` header Pipedrive sends for a webhook with these credentials. */
export const pipedriveBasicAuth = (password: string, user = PIPEDRIVE_WEBHOOK_USER) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A v2.0 event's entity → the sync stream it touches and the unified types its deletion marks. */
const ENTITIES: Record<string, { stream: string; objectTypes: string[] }> = {
  person: { stream: 'crm.contact', objectTypes: ['crm.contact'] },
  organization: { stream: 'crm.company', objectTypes: ['crm.company'] },
  deal: { stream: 'crm.deal', objectTypes: ['crm.deal'] },
  // Activities are tasks or engagements by their type; one stream reads both.
  activity: { stream: 'crm.task', objectTypes: ['crm.task', 'crm.engagement'] },
  note: { stream: 'crm.note', objectTypes: ['crm.note'] },
  user: { stream: 'crm.user', objectTypes: [] },
};

interface Meta {
  id?: unknown;
  action?: unknown;
  entity?: unknown;
  entity_id?: unknown;
  webhook_id?: unknown;
  timestamp?: unknown;
}

function notice(meta: Meta, rawBody: Buffer): WebhookNotice | null {
  const entity = typeof meta.entity === 'string' ? ENTITIES[meta.entity] : undefined;
  // The event's id; failing that, what tells one event from another (a retry carries the same).
  const deliveryId =
    typeof meta.id === 'string' && meta.id
      ? meta.id
      : createHash('sha256').update(JSON.stringify([meta.webhook_id, meta.entity, meta.entity_id, meta.action, meta.timestamp]) || rawBody).digest('hex');
  if (!entity) return { deliveryId, streams: [] };
  const remoteId = meta.entity_id === undefined || meta.entity_id === null ? '' : String(meta.entity_id);
  if (meta.action === 'delete' && remoteId && entity.objectTypes.length) {
    return { deliveryId, streams: [], deleted: entity.objectTypes.map((objectType) => ({ objectType, remoteId })) };
  }
  return { deliveryId, streams: [entity.stream] };
}

export const pipedriveWebhooks: ProviderWebhooks = {
  replayWindowSeconds: 0, // no signed time: replays are refused by delivery id
  verify(req, secret) {
    return safeEqual(header(req.headers, 'authorization'), pipedriveBasicAuth(secret)) ? { signedAt: null } : null;
  },
  parse(req, body) {
    const meta = (body as { meta?: Meta } | null)?.meta;
    if (!meta || typeof meta !== 'object') return null;
    return notice(meta, req.rawBody);
  },
  async register(ctx, url, secret) {
    const created = await ctx.http.post<PdEnvelope<{ id: number }>>(`${v1(ctx)}/webhooks`, {
      json: { subscription_url: url, event_action: '*', event_object: '*', http_auth_user: PIPEDRIVE_WEBHOOK_USER, http_auth_password: secret, version: '2.0', name: 'Omniport real-time updates' },
    });
    return { remoteIds: { webhook: String(dataOf(created, 'webhook').id) }, secret };
  },
  async unregister(ctx, remoteIds) {
    if (remoteIds.webhook) await deleteIfPresent(ctx, `${v1(ctx)}/webhooks/${encodeURIComponent(remoteIds.webhook)}`);
  },
};
