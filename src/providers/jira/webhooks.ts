/**
 * Jira webhooks in (docs/providers/jira.md, "Real-time updates"), of two kinds by how the connection is made:
 *
 * - API token (a Jira administrator's): one admin webhook created with `POST /rest/webhooks/1.0/webhook` (issue
 *   and comment events, with a secret Omniport generates). Requests carry `X-Hub-Signature: sha256=<hex
 *   HMAC-SHA256 of the body>`; Jira signs no time, so replays are refused by delivery id.
 * - OAuth 2.0 (3LO): a dynamic webhook registered with `POST /rest/api/3/webhook` (the same events, a JQL filter
 *   naming every project the token sees), which expires after 30 days: renewed with `PUT
 *   /rest/api/3/webhook/refresh`, deleted with `DELETE /rest/api/3/webhook`. Requests carry `Authorization:
 *   Bearer <JWT>` signed (HS256) with the client secret of the project's Jira OAuth app; its `exp` must not have
 *   passed and its `iat` must be within 5 minutes of now.
 *
 * Both: the delivery id is `X-Atlassian-Webhook-Identifier` (the same on Jira's retries); deleted issues and
 * comments are marked deleted at once.
 */
import { createHash } from 'node:crypto';
import type { AdapterContext, ProviderWebhooks, WebhookNotice } from '../types';
import { deleteIfPresent } from '../webhook-registration';
import { header, hmac, safeEqual, verifiedHs256Jwt } from '../webhook-signatures';
import { API, pageBean } from './api';

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

/** Dynamic webhooks: `POST /rest/api/3/webhook` answers one result per webhook asked for. */
interface Registered {
  webhookRegistrationResult?: { createdWebhookId?: number; errors?: string[] }[];
}

/** Jira answers the new expiry in Unix ms (its description) or as a date (its example): either is read. */
function expiryOf(value: unknown): Date {
  const at = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : NaN;
  if (!Number.isFinite(at)) throw new Error('Jira did not say when the webhook expires');
  return new Date(at);
}

/**
 * The JQL of a dynamic webhook: every project the token sees (dynamic webhooks take only `project`,
 * `issuetype`, `status`, … with `=`, `!=`, `IN`, `NOT IN`: there is no "every issue").
 */
async function everyProject(ctx: AdapterContext): Promise<string> {
  const ids: string[] = [];
  for await (const page of pageBean<{ id?: string }>(ctx, `${API}/project/search`, { pageSize: 50 })) ids.push(...page.items.flatMap((p) => (p?.id ? [String(p.id)] : [])));
  if (!ids.length) throw new Error('the token sees no Jira project');
  return `project IN (${ids.join(', ')})`;
}

/** OAuth 2.0 connections (bearer token): dynamic webhooks. */
const isOAuth = (ctx: AdapterContext) => Boolean(ctx.credentials.access_token);

export const jiraWebhooks: ProviderWebhooks = {
  // Dynamic webhooks' JWT `iat`; admin webhooks sign no time (signedAt null: no window applies).
  replayWindowSeconds: 300,
  verify(req, secret) {
    const authorization = header(req.headers, 'authorization');
    if (authorization) {
      const claims = verifiedHs256Jwt(/^Bearer\s+(\S+)$/i.exec(authorization)?.[1], secret);
      if (!claims) return null;
      return { signedAt: typeof claims.iat === 'number' ? claims.iat * 1000 : null };
    }
    const signature = header(req.headers, 'x-hub-signature');
    if (!signature?.startsWith('sha256=')) return null;
    return safeEqual(signature, `sha256=${hmac('sha256', secret, req.rawBody, 'hex')}`) ? { signedAt: null } : null;
  },
  parse(req, body) {
    if (!body || typeof body !== 'object') return null;
    const deliveryId = header(req.headers, 'x-atlassian-webhook-identifier') ?? createHash('sha256').update(req.rawBody).digest('hex');
    return notice(deliveryId, body as Payload);
  },
  async register(ctx, url, secret) {
    if (isOAuth(ctx)) {
      const jqlFilter = await everyProject(ctx);
      const res = await ctx.http.post<Registered>(`${API}/webhook`, { json: { url, webhooks: [{ events: JIRA_WEBHOOK_EVENTS, jqlFilter }] } });
      const result = res.data?.webhookRegistrationResult?.[0];
      if (!result?.createdWebhookId) throw new Error(`Jira did not register the webhook${result?.errors?.length ? `: ${result.errors.join('; ')}` : ''}`);
      const remoteIds = { dynamic: String(result.createdWebhookId) };
      // Registered webhooks live 30 days; the refresh answers the exact expiry.
      const expiresAt = await jiraWebhooks.renew!(ctx, remoteIds);
      return { remoteIds, secret: '', expiresAt, signedByOAuthApp: true };
    }
    const created = await ctx.http.post<{ self?: string }>(JIRA_WEBHOOKS, {
      json: { name: 'Omniport real-time updates', url, events: JIRA_WEBHOOK_EVENTS, filters: { 'issue-related-events-section': '' }, excludeBody: false, secret },
    });
    const id = /\/webhook\/(\d+)$/.exec(created.data?.self ?? '')?.[1];
    if (!id) throw new Error('Jira did not name the webhook it created');
    return { remoteIds: { webhook: id }, secret };
  },
  async renew(ctx, remoteIds) {
    const res = await ctx.http.put<{ expirationDate?: unknown }>(`${API}/webhook/refresh`, { json: { webhookIds: [Number(remoteIds.dynamic)] } });
    return expiryOf(res.data?.expirationDate);
  },
  async unregister(ctx, remoteIds) {
    // Unknown ids are ignored by Jira (202 either way).
    if (remoteIds.dynamic) await ctx.http.delete(`${API}/webhook`, { json: { webhookIds: [Number(remoteIds.dynamic)] } });
    if (remoteIds.webhook) await deleteIfPresent(ctx, `${JIRA_WEBHOOKS}/${encodeURIComponent(remoteIds.webhook)}`);
  },
};
