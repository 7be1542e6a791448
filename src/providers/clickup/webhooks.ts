/**
 * ClickUp webhooks in (docs/providers/clickup.md, "Real-time updates"): one webhook per connection on its
 * workspace (`POST /v2/team/{team_id}/webhook` with `endpoint` and the task, comment, list, folder and space
 * events), whose `webhook.secret` ClickUp generates and answers once. ClickUp signs each request with it:
 * `X-Signature` = hex HMAC-SHA256 of the body. It signs no time; the delivery id is the event's history item
 * ids (ClickUp's retries resend the same ones), or the body's hash for events without them (`taskDeleted`).
 * A `taskDeleted` marks the ticket deleted at once.
 */
import { createHash } from 'node:crypto';
import type { ProviderWebhooks, WebhookNotice } from '../types';
import { deleteIfPresent } from '../webhook-registration';
import { header, hmac, safeEqual } from '../webhook-signatures';
import { seg } from './util';
import { workspace, type ResolvedOptions } from './api';

/** The events subscribed, and the sync stream each touches. */
const EVENTS: Record<string, string> = {
  taskCreated: 'ticketing.ticket',
  taskUpdated: 'ticketing.ticket',
  taskPriorityUpdated: 'ticketing.ticket',
  taskStatusUpdated: 'ticketing.ticket',
  taskAssigneeUpdated: 'ticketing.ticket',
  taskDueDateUpdated: 'ticketing.ticket',
  taskTagUpdated: 'ticketing.ticket',
  taskMoved: 'ticketing.ticket',
  taskDeleted: 'ticketing.ticket',
  // A comment touches its task's `date_updated`: the comment run reads the tasks changed since its last run.
  taskCommentPosted: 'ticketing.comment',
  taskCommentUpdated: 'ticketing.comment',
  listCreated: 'ticketing.collection',
  listUpdated: 'ticketing.collection',
  listDeleted: 'ticketing.collection',
  folderCreated: 'ticketing.collection',
  folderUpdated: 'ticketing.collection',
  folderDeleted: 'ticketing.collection',
  spaceCreated: 'ticketing.collection',
  spaceUpdated: 'ticketing.collection',
  spaceDeleted: 'ticketing.collection',
};

interface Payload {
  event?: unknown;
  task_id?: unknown;
  webhook_id?: unknown;
  history_items?: Array<{ id?: unknown }>;
}

function notice(p: Payload, rawBody: Buffer): WebhookNotice | null {
  if (typeof p.event !== 'string') return null;
  const items = Array.isArray(p.history_items) ? p.history_items.map((h) => (h && (typeof h.id === 'string' || typeof h.id === 'number') ? String(h.id) : '')).filter(Boolean) : [];
  // One change can fire several events sharing a history item (taskCreated and taskStatusUpdated): the event is part of the id.
  const deliveryId = items.length ? `${String(p.webhook_id)}:${p.event}:${items.join(',')}` : createHash('sha256').update(rawBody).digest('hex');
  const stream = EVENTS[p.event];
  if (!stream) return { deliveryId, streams: [] };
  if (p.event === 'taskDeleted' && typeof p.task_id === 'string' && p.task_id) {
    return { deliveryId, streams: [], deleted: [{ objectType: 'ticketing.ticket', remoteId: p.task_id }] };
  }
  return { deliveryId, streams: [stream] };
}

export function clickupWebhooks(o: ResolvedOptions): ProviderWebhooks {
  return {
    replayWindowSeconds: 0, // no signed time: replays are refused by delivery id
    verify(req, secret) {
      return safeEqual(header(req.headers, 'x-signature'), hmac('sha256', secret, req.rawBody, 'hex')) ? { signedAt: null } : null;
    },
    parse(req, body) {
      if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
      return notice(body as Payload, req.rawBody);
    },
    async register(ctx, url) {
      const ws = await workspace(ctx, o);
      const created = await ctx.http.post<{ id?: string; webhook?: { id?: string; secret?: string } }>(`/v2/team/${seg(ws.id)}/webhook`, { json: { endpoint: url, events: Object.keys(EVENTS) } });
      const id = created.data?.webhook?.id ?? created.data?.id;
      const secret = created.data?.webhook?.secret;
      if (!id) throw new Error('ClickUp answered no webhook id');
      if (!secret) {
        await deleteIfPresent(ctx, `/v2/webhook/${seg(id)}`).catch(() => undefined);
        throw new Error('ClickUp answered no webhook secret');
      }
      return { remoteIds: { webhook: id }, secret };
    },
    async unregister(ctx, remoteIds) {
      if (remoteIds.webhook) await deleteIfPresent(ctx, `/v2/webhook/${seg(remoteIds.webhook)}`);
    },
  };
}
