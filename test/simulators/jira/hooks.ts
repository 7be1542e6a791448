/**
 * Admin webhooks of the Jira simulator: `POST/GET /rest/webhooks/1.0/webhook`, `DELETE …/webhook/{id}`, and
 * for every issue or comment change a delivery worded as Jira words it ({ timestamp, webhookEvent,
 * issue_event_type_name, user, issue, comment? }) with `X-Atlassian-Webhook-Identifier`, and
 * `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>` when the webhook has a secret.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { WebhookSender } from '../../../src/sandbox/simulators/shared/webhook-sender';
import type { JiraChange, JiraState } from './state';

type Obj = Record<string, unknown>;

export interface SimJiraWebhook {
  id: number;
  name: string;
  url: string;
  events: string[];
  secret: string | null;
  excludeBody: boolean;
  jqlFilter: string;
  createdAt: number;
}

export class JiraHooks {
  readonly webhooks = new Map<number, SimJiraWebhook>();
  readonly sender = new WebhookSender();
  private seq = 1;

  constructor(
    private readonly state: JiraState,
    private readonly baseUrl: () => string,
  ) {
    state.listeners.push((change) => this.changed(change));
  }

  create(input: Omit<SimJiraWebhook, 'id' | 'createdAt'>): SimJiraWebhook {
    const hook: SimJiraWebhook = { id: this.seq++, createdAt: Date.now(), ...input };
    this.webhooks.set(hook.id, hook);
    return hook;
  }

  /** As `GET /rest/webhooks/1.0/webhook` renders a webhook (never its secret). */
  render(h: SimJiraWebhook): Obj {
    return {
      self: `${this.baseUrl()}/rest/webhooks/1.0/webhook/${h.id}`,
      name: h.name,
      url: h.url,
      events: h.events,
      filters: { 'issue-related-events-section': h.jqlFilter },
      excludeBody: h.excludeBody,
      enabled: true,
      lastUpdated: h.createdAt,
      lastUpdatedUser: 'admin',
      lastUpdatedDisplayName: 'Admin',
    };
  }

  private changed(change: JiraChange): void {
    const targets = [...this.webhooks.values()].filter((h) => h.events.includes(change.event));
    if (!targets.length) return;
    const actor = change.actingId ? this.state.users.get(change.actingId) : undefined;
    const issue = change.event === 'jira:issue_deleted' ? { id: change.issue.id, key: change.issue.key, self: `${this.baseUrl()}/rest/api/3/issue/${change.issue.id}` } : this.state.renderIssue(change.issue, undefined, '*all');
    const payload: Obj = {
      timestamp: Date.now(),
      webhookEvent: change.event,
      ...(change.event.startsWith('jira:') ? { issue_event_type_name: change.event === 'jira:issue_created' ? 'issue_created' : change.event === 'jira:issue_deleted' ? 'issue_deleted' : 'issue_generic' } : {}),
      ...(actor ? { user: this.state.renderUser(actor) } : {}),
      issue,
      ...(change.comment ? { comment: this.state.renderComment(change.comment) } : {}),
    };
    for (const h of targets) {
      const body = JSON.stringify(h.excludeBody ? { timestamp: payload.timestamp, webhookEvent: change.event } : payload);
      this.sender.send([{ url: h.url, headers: (raw) => jiraHookHeaders(h.secret, raw, { id: h.id }) }], body);
    }
  }
}

/** Jira's headers for one delivery (`identifier` stays the same on Jira's retries of it). */
export function jiraHookHeaders(secret: string | null, body: string, o: { id?: number; identifier?: string } = {}): Record<string, string> {
  return {
    'user-agent': 'Atlassian Webhook HTTP Client',
    'x-atlassian-webhook-identifier': o.identifier ?? randomUUID(),
    'x-atlassian-webhook-retry': '0',
    'x-atlassian-webhook-flow': 'Primary',
    ...(secret ? { 'x-hub-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` } : {}),
  };
}
