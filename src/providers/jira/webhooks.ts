/**
 * Jira webhooks in (docs/providers/jira.md, "Real-time updates"): one admin webhook per connection created with
 * `POST /rest/webhooks/1.0/webhook` (issue and comment events, with a secret Omniport generates), as a Jira
 * administrator's API token may. Requests carry `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>` and a
 * delivery id in `X-Atlassian-Webhook-Identifier` (the same on Jira's retries); Jira signs no time, so replays
 * are refused by that id. Deleted issues and comments are marked deleted at once.
 *
 * Jira's dynamic webhooks (`POST /rest/api/3/webhook`, expiring after 30 days) are open to Connect and OAuth 2.0
 * apps only: with an API token (how Omniport connects Jira) the admin webhook is the one that can be created.
 */
import { createHash } from 'node:crypto';
import type { ProviderWebhooks, WebhookNotice } from '../types';
import { deleteIfPresent, newWebhookSecret } from '../webhook-registration';
import { header, hmac, safeEqual } from '../webhook-signatures';

export const JIRA_WEBHOOKS = '/rest/webhooks/1.0/webhook';

export const JIRA_WEBHOOK_EVENTS = ['jira:issue_created', 'jira:issue_updated', 'jira:issue_deleted', 'comment_created', 'comment_updated', 'comment_deleted'];

interface Payload {
  webhookEvent?: unknown;
  issue?: { id?: unknown };
  comment?: { id?: unknown };
}

function notice(deliveryId: string, p: Payload): WebhookNotice {
  const event = typeof p.webhookEvent === 'string' ? p.webhookEvent : '';
  const issueId = p.issue?.id === undefined ? undefined : String(p.issue.id);
  const commentId = p.comment?.id === undefined ? undefined : String(p.comment.id);
  if (event === 'jira:issue_deleted' && issueId) return { deliveryId, streams: [], deleted: [{ objectType: 'ticketing.ticket', remoteId: issueId }] };
  if (event.startsWith('jira:issue_')) return { deliveryId, streams: ['ticketing.ticket'] };
  if (event === 'comment_deleted' && commentId) return { deliveryId, streams: [], deleted: [{ objectType: 'ticketing.comment', remoteId: commentId }] };
  // A comment touches its issue's `updated`: the comment run reads the issues changed since its last run.
  if (event.startsWith('comment_')) return { deliveryId, streams: ['ticketing.comment'] };
  return { deliveryId, streams: [] };
}

export const jiraWebhooks: ProviderWebhooks = {
  replayWindowSeconds: 0, // no signed time: replays are refused by delivery id
  verify(req, secret) {
    const signature = header(req.headers, 'x-hub-signature');
    if (!signature?.startsWith('sha256=')) return null;
    return safeEqual(signature, `sha256=${hmac('sha256', secret, req.rawBody, 'hex')}`) ? { signedAt: null } : null;
  },
  parse(req, body) {
    if (!body || typeof body !== 'object') return null;
    const deliveryId = header(req.headers, 'x-atlassian-webhook-identifier') ?? createHash('sha256').update(req.rawBody).digest('hex');
    return notice(deliveryId, body as Payload);
  },
  async register(ctx, url) {
    const secret = newWebhookSecret();
    const created = await ctx.http.post<{ self?: string }>(JIRA_WEBHOOKS, {
      json: { name: 'Omniport real-time updates', url, events: JIRA_WEBHOOK_EVENTS, filters: { 'issue-related-events-section': '' }, excludeBody: false, secret },
    });
    const id = /\/webhook\/(\d+)$/.exec(created.data?.self ?? '')?.[1];
    if (!id) throw new Error('Jira did not name the webhook it created');
    return { remoteIds: { webhook: id }, secret };
  },
  async unregister(ctx, remoteIds) {
    if (remoteIds.webhook) await deleteIfPresent(ctx, `${JIRA_WEBHOOKS}/${encodeURIComponent(remoteIds.webhook)}`);
  },
};
