/**
 * Linear webhooks in (docs/providers/linear.md, "Real-time updates"): one webhook per connection created
 * with the `webhookCreate` mutation for all public teams, subscribed to issues, comments and labels, with a
 * secret Omniport generates. Requests carry `Linear-Signature: <hex HMAC-SHA256 of the body>`, a
 * `webhookTimestamp` (Unix ms) inside the signed body that must be within a minute of now, and a delivery
 * UUID in `Linear-Delivery`. A `remove` action marks the issue or comment deleted at once; an issue or comment
 * created or changed is read by id (`data.id` of the payload), in one query per page of ids, instead of an
 * incremental run of its stream.
 */
import { LinearApiError, gql, pages, type ResolvedOptions } from './graphql';
import type { AdapterContext, ProviderWebhooks, UnifiedRecord, WebhookNotice } from '../types';
import { unifyComment } from './comment.mapper';
import { COMMENTS_BY_IDS, ISSUES_BY_IDS } from './queries';
import { completeIssue } from './sync';
import { unifyIssue } from './ticket.mapper';
import type { LnComment, LnConnection, LnIssue } from './types';
import { header, hmac, safeEqual, signedTime } from '../webhook-signatures';

/** The resource types the webhook subscribes to (Linear's names, as in `Linear-Event`). */
export const LINEAR_WEBHOOK_RESOURCES = ['Issue', 'Comment', 'IssueLabel'];

const WEBHOOK_CREATE = /* GraphQL */ `
  mutation OmniportWebhookCreate($input: WebhookCreateInput!) {
    webhookCreate(input: $input) {
      success
      webhook {
        id
        enabled
      }
    }
  }
`;

const WEBHOOK_DELETE = /* GraphQL */ `
  mutation OmniportWebhookDelete($id: String!) {
    webhookDelete(id: $id) {
      success
    }
  }
`;

/** What a resource type's event touches: its stream, and the object a `remove` deletes. */
const RESOURCES: Record<string, { stream: string; objectType?: string }> = {
  Issue: { stream: 'ticketing.ticket', objectType: 'ticketing.ticket' },
  Comment: { stream: 'ticketing.comment', objectType: 'ticketing.comment' },
  // A deleted label leaves the tag stream's next run (labels are listed whole) to mark it.
  IssueLabel: { stream: 'ticketing.tag' },
};

interface Payload {
  action?: string;
  type?: string;
  data?: { id?: unknown };
  webhookTimestamp?: unknown;
}

function notice(deliveryId: string, p: Payload): WebhookNotice {
  const resource = typeof p.type === 'string' ? RESOURCES[p.type] : undefined;
  if (!resource) return { deliveryId, streams: [] };
  const id = typeof p.data?.id === 'string' ? p.data.id : undefined;
  if (p.action === 'remove' && resource.objectType && id) return { deliveryId, streams: [], deleted: [{ objectType: resource.objectType, remoteId: id }] };
  // The stream stays named: it runs if the read by id fails.
  return { deliveryId, streams: [resource.stream], ...(resource.objectType && id ? { changed: [{ objectType: resource.objectType, remoteId: id }] } : {}) };
}

/** Every node of a connection filtered to `ids`, one query per page of ids (the page size the sync uses). */
async function byIds<T>(ctx: AdapterContext, o: ResolvedOptions, query: string, ids: string[], pick: (data: never) => LnConnection<T> | null | undefined): Promise<T[]> {
  const nodes: T[] = [];
  for (let i = 0; i < ids.length; i += o.pageSize) {
    for await (const page of pages<T>(ctx, o, query, { ids: ids.slice(i, i + o.pageSize) }, pick)) nodes.push(...page.nodes);
  }
  return nodes;
}

/** Issues or comments by id, unified as their streams unify them; ids Linear does not answer are left to the sync. */
async function fetchChanged(ctx: AdapterContext, o: ResolvedOptions, objectType: string, ids: string[]): Promise<UnifiedRecord[]> {
  if (objectType === 'ticketing.ticket') {
    const issues = await byIds<LnIssue>(ctx, o, ISSUES_BY_IDS, ids, (d: { issues?: LnConnection<LnIssue> }) => d.issues);
    const complete = await Promise.all(issues.map((i) => completeIssue(ctx, o, i)));
    return complete.map((i) => unifyIssue(i, ctx.ids));
  }
  const comments = await byIds<LnComment>(ctx, o, COMMENTS_BY_IDS, ids, (d: { comments?: LnConnection<LnComment> }) => d.comments);
  // Issue comments only, as the comment stream (Linear also sends comments on project updates and documents).
  return comments.filter((c) => c.issueId).flatMap((c) => {
    const u = unifyComment(c, ctx.ids, o.uploadHosts);
    return [u.comment, ...u.attachments];
  });
}

export function linearWebhooks(o: ResolvedOptions): ProviderWebhooks {
  return {
    // Linear's docs: reject a webhookTimestamp more than a minute away from now.
    replayWindowSeconds: 60,
    verify(req, secret) {
      if (!safeEqual(header(req.headers, 'linear-signature'), hmac('sha256', secret, req.rawBody, 'hex'))) return null;
      // The time is inside the signed body.
      try {
        const body = JSON.parse(req.rawBody.toString('utf8')) as Payload;
        return { signedAt: typeof body.webhookTimestamp === 'number' ? signedTime(body.webhookTimestamp) : NaN };
      } catch {
        return { signedAt: NaN };
      }
    },
    parse(req, body) {
      const deliveryId = header(req.headers, 'linear-delivery');
      if (!deliveryId || !body || typeof body !== 'object') return null;
      return notice(deliveryId, body as Payload);
    },
    fetchChanged: {
      objectTypes: ['ticketing.ticket', 'ticketing.comment'],
      // A comment's attachments are the files its body links to: read with it, as the comment stream reads them.
      alsoReads: { 'ticketing.comment': ['ticketing.attachment'] },
      fetch: (ctx, objectType, ids) => fetchChanged(ctx, o, objectType, ids),
    },
    async register(ctx, url, secret) {
      const data = await gql<{ webhookCreate: { success: boolean; webhook: { id: string } | null } }>(
        ctx,
        o,
        WEBHOOK_CREATE,
        { input: { url, secret, label: 'Omniport real-time updates', resourceTypes: LINEAR_WEBHOOK_RESOURCES, allPublicTeams: true, enabled: true } },
        { mutation: true },
      );
      const id = data.webhookCreate.webhook?.id;
      if (!data.webhookCreate.success || !id) throw new Error('Linear did not create the webhook');
      return { remoteIds: { webhook: id }, secret };
    },
    async unregister(ctx, remoteIds) {
      if (!remoteIds.webhook) return;
      await gql(ctx, o, WEBHOOK_DELETE, { id: remoteIds.webhook }, { mutation: true }).catch((err: unknown) => {
        // Already gone: Linear answers "Entity not found".
        if (!(err instanceof LinearApiError && /entity not found/i.test(err.message))) throw err;
      });
    },
  };
}
