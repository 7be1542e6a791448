/**
 * GitLab webhooks in (docs/providers/gitlab.md, "Real-time updates"): one project webhook per project the
 * token's user maintains with issues enabled (`POST /projects/:id/hooks`, issue, confidential issue, note
 * and confidential note events, push events off), all sending to the connection's address with one secret
 * token Omniport generates. GitLab does not sign requests: it sends the token itself in `X-Gitlab-Token`,
 * compared in constant time. Its delivery id is `Idempotency-Key` (GitLab 17.4+, the same on every retry of
 * one event); older instances send only `X-Gitlab-Event-UUID`, which recursive events share, so there the
 * body's hash is added to it. GitLab sends no event for a deleted issue or note: deletions arrive with the
 * scheduled sync's deletion check.
 */
import { createHash } from 'node:crypto';
import type { ProviderWebhooks, WebhookNotice } from '../types';
import { createPerTarget, deleteIfPresent } from '../webhook-registration';
import { header, safeEqual } from '../webhook-signatures';
import { apiRoot, memberProjects, type ResolvedOptions } from './api';

/** GitLab's Maintainer role: the least that may manage a project's webhooks. */
const MAINTAINER = 40;

/** Which sync streams a GitLab event touches (`object_kind` of the payload). */
function streamsOf(p: { object_kind?: unknown; object_attributes?: { noteable_type?: unknown; system?: unknown } }): string[] {
  if (p.object_kind === 'issue') return ['ticketing.ticket'];
  // A note touches its issue's updated_at: the comment run reads the issues changed since its last run.
  if (p.object_kind === 'note' && p.object_attributes?.noteable_type === 'Issue') return ['ticketing.comment'];
  return [];
}

export function gitlabWebhooks(o: ResolvedOptions): ProviderWebhooks {
  return {
    replayWindowSeconds: 0, // no signed time: replays are refused by delivery id
    verify(req, secret) {
      return safeEqual(header(req.headers, 'x-gitlab-token'), secret) ? { signedAt: null } : null;
    },
    parse(req, body): WebhookNotice | null {
      if (!body || typeof body !== 'object') return null;
      const idempotencyKey = header(req.headers, 'idempotency-key');
      const eventUuid = header(req.headers, 'x-gitlab-event-uuid');
      const deliveryId = idempotencyKey ?? (eventUuid && `${eventUuid}:${createHash('sha256').update(req.rawBody).digest('hex')}`);
      if (!deliveryId) return null;
      return { deliveryId, streams: streamsOf(body as Parameters<typeof streamsOf>[0]) };
    },
    async register(ctx, url, secret) {
      const projects: number[] = [];
      for await (const page of memberProjects(ctx, o, undefined, MAINTAINER)) projects.push(...page.filter((p) => !p.archived).map((p) => p.id));
      const remoteIds = await createPerTarget(
        projects,
        String,
        async (id) => {
          const created = await ctx.http.post<{ id: number }>(`${apiRoot(ctx)}/projects/${id}/hooks`, {
            json: {
              url,
              token: secret,
              name: 'Omniport real-time updates',
              push_events: false,
              issues_events: true,
              confidential_issues_events: true,
              note_events: true,
              confidential_note_events: true,
              enable_ssl_verification: true,
            },
          });
          return String(created.data.id);
        },
        (made) => this.unregister(ctx, made),
      );
      if (!Object.keys(remoteIds).length) throw new Error('no project the token’s user maintains: GitLab project webhooks need the Maintainer role');
      return { remoteIds, secret };
    },
    async unregister(ctx, remoteIds) {
      for (const [project, id] of Object.entries(remoteIds)) await deleteIfPresent(ctx, `${apiRoot(ctx)}/projects/${encodeURIComponent(project)}/hooks/${encodeURIComponent(id)}`);
    },
  };
}
