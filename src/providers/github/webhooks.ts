/**
 * GitHub webhooks in (docs/providers/github.md, "Real-time updates"): one repository webhook per
 * repository the token sees with issues (`POST /repos/{owner}/{repo}/hooks`, events issues, issue_comment
 * and label), all sending to the connection's address with one secret Omniport generates. Requests carry
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` and a delivery GUID in `X-GitHub-Delivery`;
 * GitHub signs no time, so replays are refused by their delivery id alone.
 */
import type { AdapterContext, ProviderWebhooks, UnifiedRecord, WebhookNotice } from '../types';
import { createPerTarget, deleteIfPresent } from '../webhook-registration';
import { header, hmac, safeEqual } from '../webhook-signatures';
import { isStatus, listRepos, pages, type ResolvedOptions } from './api';
import { isPullRequest, unifyIssue } from './ticket.mapper';
import type { GhIssue } from './types';
import { issuePath, issueRemoteId, parseIssue, repoPath, parseRepo, type IssueRef } from './util';

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
    if (deleted) return { deliveryId, streams: [], deleted: [{ objectType: 'ticketing.ticket', remoteId }] };
    return { deliveryId, streams: ['ticketing.ticket'], changed: [{ objectType: 'ticketing.ticket', remoteId }] };
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

/** Up to this many changed issues are read one by one; more are found in their repositories' lists by update time. */
const READ_ONE_BY_ONE = 5;

/**
 * Issues a webhook names: each read by number (`GET /repos/{owner}/{repo}/issues/{number}`), or, for a burst
 * naming more (a bulk label change), each repository's issues newest update first, down to the last one wanted —
 * a page of 100 per call instead of a call per issue, within GitHub's 5,000 calls an hour. An issue gone (404,
 * 410) or transferred (301) is left to the sync's deletion check.
 */
async function changedIssues(ctx: AdapterContext, o: ResolvedOptions, remoteIds: string[]): Promise<UnifiedRecord[]> {
  const refs = remoteIds.map((id) => parseIssue(id, 'remote_id'));
  const unify = (issues: GhIssue[], ref: IssueRef) => issues.filter((i) => i && typeof i.number === 'number' && !isPullRequest(i)).map((i) => unifyIssue(i, ctx.ids, ref));
  if (refs.length <= READ_ONE_BY_ONE) {
    const read = await Promise.all(
      refs.map(async (ref) => {
        try {
          return unify([(await ctx.http.get<GhIssue>(issuePath(ref))).data], ref);
        } catch (err) {
          if (isStatus(err, 301, 404, 410)) return [];
          throw err;
        }
      }),
    );
    return read.flat();
  }
  const records: UnifiedRecord[] = [];
  const byRepo = new Map<string, IssueRef[]>();
  for (const r of refs) byRepo.set(`${r.owner}/${r.repo}`, [...(byRepo.get(`${r.owner}/${r.repo}`) ?? []), r]);
  for (const [repo, numbers] of byRepo) {
    const wanted = new Set(numbers.map((r) => r.number));
    const ref = numbers[0]!;
    for await (const page of pages<GhIssue>(ctx, o, `${repoPath(parseRepo(repo, 'repository'))}/issues`, { query: { state: 'all', sort: 'updated', direction: 'desc' } })) {
      const found = page.items.filter((i) => wanted.delete(i.number));
      records.push(...unify(found, ref));
      if (wanted.size === 0) break;
    }
  }
  return records;
}

export function githubWebhooks(o: ResolvedOptions): ProviderWebhooks {
  return {
    fetchChanged: { objectTypes: ['ticketing.ticket'], fetch: (ctx, _objectType, remoteIds) => changedIssues(ctx, o, remoteIds) },
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
    async register(ctx, url, secret) {
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
