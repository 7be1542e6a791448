/**
 * Webhooks of the Linear simulator: `webhookCreate` / `webhookDelete` (workspace admins; a team's webhook or
 * one for all public teams, with the caller's secret or one Linear generates), and for every issue or comment
 * change a data change event worded as Linear words it ({ action, actor, createdAt, data, url, type,
 * organizationId, webhookTimestamp, webhookId }), with `Linear-Delivery`, `Linear-Event` and
 * `Linear-Signature` (hex HMAC-SHA256 of the body).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';
import type { LinearState, LnChange } from './state';

export interface SimWebhook {
  id: string;
  url: string;
  secret: string;
  label: string | null;
  enabled: boolean;
  resourceTypes: string[];
  teamId: string | null;
  allPublicTeams: boolean;
  creatorId: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

export class LinearHooks {
  readonly webhooks = new Map<string, SimWebhook>();
  readonly sender = new WebhookSender();

  constructor(
    private readonly state: LinearState,
    private readonly webBase: () => string,
  ) {
    state.listeners.push((change) => this.changed(change));
  }

  create(input: { url: string; secret?: string | null; label?: string | null; enabled?: boolean | null; resourceTypes: string[]; teamId?: string | null; allPublicTeams?: boolean | null; id?: string | null }, creatorId: string): SimWebhook {
    const t = this.state.stamp();
    const hook: SimWebhook = {
      id: input.id ?? randomUUID(),
      url: input.url,
      secret: input.secret ?? `lin_wh_${randomBytes(24).toString('hex')}`,
      label: input.label ?? null,
      enabled: input.enabled ?? true,
      resourceTypes: input.resourceTypes,
      teamId: input.teamId ?? null,
      allPublicTeams: input.allPublicTeams ?? false,
      creatorId,
      createdAt: t,
      updatedAt: t,
      archivedAt: null,
    };
    this.webhooks.set(hook.id, hook);
    return hook;
  }

  private data(change: LnChange): Record<string, unknown> {
    if (change.type === 'Comment') {
      const issue = this.state.issues.get(change.record.issueId);
      return { ...change.record, issue: issue ? { id: issue.id, title: issue.title } : null };
    }
    const i = change.record;
    const st = this.state.states.get(i.stateId);
    const team = this.state.teams.get(i.teamId);
    return {
      ...i,
      identifier: this.state.identifierOf(i),
      url: this.urlOf(change),
      state: st ? { id: st.id, name: st.name, color: st.color, type: st.type } : null,
      team: team ? { id: team.id, key: team.key, name: team.name } : null,
      labels: i.labelIds.map((id) => this.state.labels.get(id)).filter(Boolean).map((l) => ({ id: l!.id, name: l!.name, color: l!.color })),
    };
  }

  private urlOf(change: LnChange): string {
    if (change.type === 'Comment') {
      const issue = this.state.issues.get(change.record.issueId);
      return `${this.webBase()}/issue/${issue ? this.state.identifierOf(issue) : 'unknown'}#comment-${change.record.id.slice(0, 8)}`;
    }
    return `${this.webBase()}/issue/${this.state.identifierOf(change.record)}`;
  }

  private changed(change: LnChange): void {
    const targets = [...this.webhooks.values()].filter(
      (h) => h.enabled && !h.archivedAt && h.resourceTypes.includes(change.type) && (h.teamId ? h.teamId === change.teamId : h.allPublicTeams),
    );
    if (!targets.length) return;
    const now = this.state.nowMs();
    const actor = [...this.state.users.values()][0];
    for (const h of targets) {
      const body = JSON.stringify({
        action: change.action,
        actor: actor ? { id: actor.id, name: actor.name, email: actor.email, type: 'user' } : null,
        createdAt: new Date(now).toISOString(),
        data: this.data(change),
        url: this.urlOf(change),
        type: change.type,
        organizationId: this.state.organization.id,
        webhookTimestamp: now,
        webhookId: h.id,
      });
      this.sender.send([{ url: h.url, headers: (raw) => linearHookHeaders(h.secret, raw, { event: change.type }) }], body);
    }
  }
}

/** Linear's headers for one delivery. */
export function linearHookHeaders(secret: string, body: string, o: { event: string; delivery?: string }): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': 'Linear-Webhook',
    'linear-delivery': o.delivery ?? randomUUID(),
    'linear-event': o.event,
    'linear-signature': createHmac('sha256', secret).update(body).digest('hex'),
  };
}
