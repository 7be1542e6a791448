/**
 * Front webhooks in (docs/providers/front.md, "Real-time updates"): Front's Core API cannot create webhooks
 * (application webhooks are a feature of a Front app, set up on the Developers page; rule webhooks are made
 * with a rule), so they are `manual`: the company's admin creates a Front app, gives its App secret as the
 * connection's `app_secret`, and pastes the connection's address (`real_time_setup.url`) as the app's webhook.
 *
 * Requests carry `X-Front-Signature` = base64(HMAC-SHA256(app secret, `X-Front-Request-Timestamp` + ":" + body)),
 * the timestamp in Unix milliseconds (refused beyond 5 minutes, as Front recommends). The body is
 * `{ type, authorization: { id: <company> }, payload: <the event, as GET /events/{id} answers it> }`; the
 * event's id is the delivery id. Saving the webhook sends a signed `{ type: "sync" }` with `X-Front-Challenge`,
 * answered `{ challenge }`. Every conversation event (messages, comments, tags, assignment, status, archive,
 * trash, restore, move) names its conversation, which is read by id (not the ticket stream, whose incremental
 * run re-reads every conversation active in the overlap window at Front's 50 calls a minute). Events are
 * previews (type and ids), so a read is needed, but only of what the event touched (`partsOf`): a stored
 * conversation whose status, assignee or tags changed costs one call; a new one is read in full. A trashed one
 * comes back with status `deleted` and is reported deleted.
 */
import type { ProviderWebhooks } from '../types';
import { header, hmac, safeEqual, signedTime } from '../webhook-signatures';
import type { ResolvedOptions } from './api';
import { loadConversations, type ConversationPart } from './conversations';

interface Envelope {
  type?: unknown;
  authorization?: { id?: unknown };
  payload?: { id?: unknown; type?: unknown; conversation?: { id?: unknown } | null; target?: { _meta?: { type?: unknown }; data?: { id?: unknown } | null } | null };
}

/** Events that change the conversation's own fields only (status, assignee, tags, links, custom fields, ticket status). */
const CONVERSATION_ONLY = new Set(['assign', 'unassign', 'archive', 'reopen', 'trash', 'restore', 'reminder', 'tag', 'untag', 'link_added', 'link_removed', 'custom_field_updated', 'ticket_status_update']);
/** Events about one message of the conversation (the event's target). */
const MESSAGE_EVENTS = new Set(['inbound', 'outbound', 'out_reply', 'forward', 'sending_error', 'message_bounce_error']);

/**
 * What an event touched beyond the conversation (https://dev.frontapp.com/reference/events, target types): `[]`
 * for the conversation alone, its comment or message (the target's id), or its inboxes for a move. Undefined
 * (read in full) for the rest: merges, and types added later.
 */
function partsOf(p: NonNullable<Envelope['payload']>): ConversationPart[] | undefined {
  const type = typeof p.type === 'string' ? p.type : '';
  const target = p.target?._meta?.type;
  const targetId = typeof p.target?.data?.id === 'string' ? p.target.data.id : undefined;
  if (CONVERSATION_ONLY.has(type)) return [];
  if (type === 'comment' || type === 'mention') return target === 'comment' && targetId ? [`comment:${targetId}`] : ['comments'];
  if (MESSAGE_EVENTS.has(type)) return target === 'message' && targetId ? [`message:${targetId}`] : ['messages'];
  if (type === 'move') return ['inboxes'];
  return undefined;
}

export const frontWebhooks = (o: ResolvedOptions): ProviderWebhooks => ({
  // https://dev.frontapp.com/docs/security-1: "We recommend 5 minutes as the maximum time before rejecting a message."
  replayWindowSeconds: 300,
  signedWith: 'the App secret of the Front app whose webhook calls this address, given as credentials.app_secret',
  verify(req, secret) {
    const at = header(req.headers, 'x-front-request-timestamp');
    if (!at) return null;
    const base = Buffer.concat([Buffer.from(`${at}:`, 'utf8'), req.rawBody]);
    if (!safeEqual(header(req.headers, 'x-front-signature'), hmac('sha256', secret, base, 'base64'))) return null;
    return { signedAt: signedTime(at) };
  },
  challenge(req) {
    const challenge = header(req.headers, 'x-front-challenge');
    return challenge ? { challenge } : undefined;
  },
  parse(_req, body) {
    const p = (body as Envelope | null)?.payload;
    if (!p || typeof p.id !== 'string') return null;
    const conversation = p.conversation && typeof p.conversation.id === 'string' ? (p.conversation.id as string) : undefined;
    if (!conversation) return { deliveryId: p.id, streams: [] };
    const parts = partsOf(p);
    // The stream stays named: it runs if the read by id fails.
    return { deliveryId: p.id, streams: ['ticketing.ticket'], changed: [{ objectType: 'ticketing.ticket', remoteId: conversation, ...(parts ? { parts } : {}) }] };
  },
  fetchChanged: {
    objectTypes: ['ticketing.ticket'],
    // The conversation is read with the messages and comments (and their attachments) the events touched, or all
    // of them as the stream reads it.
    alsoReads: { 'ticketing.ticket': ['ticketing.comment', 'ticketing.attachment'] },
    fetch: (ctx, _objectType, remoteIds, parts) => loadConversations(ctx, remoteIds, o, parts),
  },
  async register(ctx) {
    const secret = ctx.credentials.app_secret;
    if (!secret) throw new Error('no app_secret in the credentials: Front signs application webhooks with the App secret of the Front app');
    const me = (await ctx.http.get<{ id?: string }>('/me')).data;
    return { remoteIds: { company: me?.id ?? '' }, secret, manual: true };
  },
  // Front's API cannot delete an app's webhook: the admin removes the feature (or the app); requests to the
  // address are refused from now on.
  async unregister() {},
});
