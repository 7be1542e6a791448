/**
 * Zendesk webhooks in (docs/providers/zendesk.md, "Real-time updates"): one webhook per connection created
 * with the Webhooks API and subscribed to Zendesk's ticket, user and organization events (event
 * subscriptions, not a trigger: triggers never fire on deletions). Requests are signed with
 * base64(HMAC-SHA256(secret, timestamp + body)) in X-Zendesk-Webhook-Signature, the timestamp in
 * X-Zendesk-Webhook-Signature-Timestamp; the secret is read from /api/v2/webhooks/{id}/signing_secret.
 */
import type { ProviderWebhooks, UnifiedRecord } from '../types';
import { TICKET_SIDELOADS, unifyTickets } from './sync';
import type { ZdTicket } from './types';
import { deleteIfPresent } from '../webhook-registration';
import { header, hmac, safeEqual, signedTime } from '../webhook-signatures';

/** The events the webhook subscribes to (Zendesk's "Webhook event types"). */
export const ZENDESK_WEBHOOK_EVENTS = [
  'zen:event-type:ticket.created',
  'zen:event-type:ticket.status_changed',
  'zen:event-type:ticket.priority_changed',
  'zen:event-type:ticket.subject_changed',
  'zen:event-type:ticket.tags_changed',
  'zen:event-type:ticket.agent_assignment_changed',
  'zen:event-type:ticket.group_assignment_changed',
  'zen:event-type:ticket.comment_added',
  'zen:event-type:ticket.soft_deleted',
  'zen:event-type:ticket.permanently_deleted',
  'zen:event-type:user.created',
  'zen:event-type:user.deleted',
  'zen:event-type:organization.created',
  'zen:event-type:organization.deleted',
];

/** Which sync streams an event type touches. */
function streamsOf(type: string): string[] {
  const m = /^zen:event-type:(ticket|user|organization)\.([a-z_]+)$/.exec(type);
  if (!m) return [];
  if (m[1] === 'user') return ['ticketing.user'];
  if (m[1] === 'organization') return ['ticketing.account'];
  return m[2] === 'comment_added' ? ['ticketing.ticket', 'ticketing.comment'] : ['ticketing.ticket'];
}

export const zendeskWebhooks: ProviderWebhooks = {
  // Zendesk publishes no window; five minutes covers its retries' clock skew without keeping replays open long.
  replayWindowSeconds: 300,
  verify(req, secret) {
    const timestamp = header(req.headers, 'x-zendesk-webhook-signature-timestamp');
    const signature = header(req.headers, 'x-zendesk-webhook-signature');
    if (!timestamp || !signature) return null;
    const expected = hmac('sha256', secret, Buffer.concat([Buffer.from(timestamp), req.rawBody]), 'base64');
    if (!safeEqual(signature, expected)) return null;
    return { signedAt: signedTime(timestamp) };
  },
  parse(_req, body) {
    const event = body as { id?: unknown; type?: unknown; detail?: { id?: unknown } } | null;
    if (!event || typeof event.id !== 'string' || typeof event.type !== 'string') return null;
    // A ticket created or changed is read by id; deletions are seen by the export (show_many leaves deleted tickets out).
    const ticketId = /^zen:event-type:ticket\.(?!soft_deleted|permanently_deleted)/.test(event.type) && typeof event.detail?.id === 'string' ? event.detail.id : undefined;
    return { deliveryId: event.id, streams: streamsOf(event.type), ...(ticketId ? { changed: [{ objectType: 'ticketing.ticket', remoteId: ticketId }] } : {}) };
  },
  fetchChanged: {
    objectTypes: ['ticketing.ticket'],
    // The Tickets API's show_many (100 ids a call) counts in the account's budget, not the export's 10 a minute.
    async fetch(ctx, _objectType, remoteIds) {
      const records: UnifiedRecord[] = [];
      for (let i = 0; i < remoteIds.length; i += 100) {
        const ids = remoteIds.slice(i, i + 100).join(',');
        const res = await ctx.http.get<{ tickets?: ZdTicket[] } & Record<string, unknown>>('/api/v2/tickets/show_many', { query: { ids, include: TICKET_SIDELOADS } });
        records.push(...unifyTickets(ctx, res.data.tickets ?? [], res.data));
      }
      return records;
    },
  },
  async register(ctx, url) {
    const created = await ctx.http.post<{ webhook: { id: string } }>('/api/v2/webhooks', {
      json: {
        webhook: { name: 'Omniport real-time updates', endpoint: url, http_method: 'POST', request_format: 'json', status: 'active', subscriptions: ZENDESK_WEBHOOK_EVENTS },
      },
    });
    const id = created.data.webhook.id;
    const secret = await ctx.http.get<{ signing_secret: { secret: string } }>(`/api/v2/webhooks/${encodeURIComponent(id)}/signing_secret`);
    return { remoteIds: { webhook: id }, secret: secret.data.signing_secret.secret };
  },
  async unregister(ctx, remoteIds) {
    if (!remoteIds.webhook) return;
    await deleteIfPresent(ctx, `/api/v2/webhooks/${encodeURIComponent(remoteIds.webhook)}`);
  },
};
