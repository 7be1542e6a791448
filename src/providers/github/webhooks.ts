/**
 * GitHub webhooks in (docs/providers/github.md, "Real-time updates"): one repository webhook per
 * repository the token sees with issues (`POST /repos/{owner}/{repo}/hooks`, events issues, issue_comment
 * and label), all sending to the connection's address with one secret Omniport generates. Requests carry
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` and a delivery GUID in `X-GitHub-Delivery`;
 * GitHub signs no time, so replays are refused by their delivery id alone.
 */
import type { ProviderWebhooks, WebhookNotice } from '../types';
import { createPerTarget, deleteIfPresent, newWebhookSecret } from '../webhook-registration';
import { header, hmac, safeEqual } from '../webhook-signatures';
import { listRepos, type ResolvedOptions } from './api';
import { issueRemoteId, repoPath, parseRepo } from './util';

export const GITHUB_WEBHOOK_EVENTS = ['issues', 'issue_comment', 'label'];

interface Payload {
  action?: string;
  repository?: { full_name?: string };
  issue?: { number?: number; pull_request?: unknown };
  comment?: { id?: number };
  label?: { id?: number };
}

function notice(event: string | undefined, deliveryId: string, p: Payload): WebhookNotice | null {
  const repo = p.repository?.full_name;
  const deleted = p.action === 'deleted';
  if (event === 'issues' && repo && typeof p.issue?.number === 'number' && !p.issue.pull_request) {
    const [owner, name] = repo.split('/');
    const remoteId = issueRemoteId({ owner: owner!, repo: name!, number: p.issue.number });
    return { deliveryId, streams: deleted ? [] : ['ticketing.ticket'], deleted: deleted ? [{ objectType: 'ticketing.ticket', remoteId }] : [] };
  }
  if (event === 'issue_comment' && typeof p.comment?.id === 'number') {
    if (p.issue?.pull_request) return { deliveryId, streams: [] };
    return { deliveryId, streams: deleted ? [] : ['ticketing.comment'], deleted: deleted ? [{ objectType: 'ticketing.comment', remoteId: String(p.comment.id) }] : [] };
  }
  if (event === 'label' && typeof p.label?.id === 'number') {
    return { deliveryId, streams: deleted ? [] : ['ticketing.tag'], deleted: deleted ? [{ objectType: 'ticketing.tag', remoteId: String(p.label.id) }] : [] };
  }
  // ping (sent when a hook is created) and anything else: accepted, nothing to do.
  return { deliveryId, streams: [] };
}

export function githubWebhooks(o: ResolvedOptions): ProviderWebhooks {
  return {
    replayWindowSeconds: 0, // no signed time: replays are refused by delivery id
    verify(req, secret) {
      const signature = header(req.headers, 'x-hub-signature-256');
      if (!signature?.startsWith('sha256=')) return null;
      return safeEqual(signature, `sha256=${hmac('sha256', secret, req.rawBody, 'hex')}`) ? { signedAt: null } : null;
    },
    parse(req, body) {
      const deliveryId = header(req.headers, 'x-github-delivery');
      if (!deliveryId || !body || typeof body !== 'object') return null;
      return notice(header(req.headers, 'x-github-event'), deliveryId, body as Payload);
    },
    async register(ctx, url) {
      const secret = newWebhookSecret();
      const repos = (await listRepos(ctx, o)).filter((r) => r.has_issues !== false && r.permissions?.admin !== false);
      const remoteIds = await createPerTarget(
        repos,
        (r) => r.full_name,
        async (r) => {
          const created = await ctx.http.post<{ id: number }>(`${repoPath(parseRepo(r.full_name, 'repository'))}/hooks`, {
            json: { name: 'web', active: true, events: GITHUB_WEBHOOK_EVENTS, config: { url, content_type: 'json', secret, insecure_ssl: '0' } },
          });
          return String(created.data.id);
        },
        (made) => this.unregister(ctx, made),
      );
      if (!Object.keys(remoteIds).length) throw new Error('no repository the token administers: GitHub webhooks need admin access to a repository');
      return { remoteIds, secret };
    },
    async unregister(ctx, remoteIds) {
      for (const [repo, id] of Object.entries(remoteIds)) await deleteIfPresent(ctx, `${repoPath(parseRepo(repo, 'repository'))}/hooks/${encodeURIComponent(id)}`);
    },
  };
}
