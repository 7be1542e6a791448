/**
 * Webhooks of the Jira simulator. Admin webhooks: `POST/GET /rest/webhooks/1.0/webhook`, `DELETE …/webhook/{id}`.
 * Dynamic webhooks of the site's OAuth 2.0 app (`oauthApp`): `POST/GET/DELETE /rest/api/3/webhook` and
 * `PUT /rest/api/3/webhook/refresh`, living 30 days from registration or refresh, with a JQL filter of
 * `project = …` / `project IN (…)`. For every issue or comment change, a delivery worded as Jira words it
 * ({ timestamp, webhookEvent, issue_event_type_name, user, issue, comment? }, plus `matchedWebhookIds` for
 * dynamic ones) with `X-Atlassian-Webhook-Identifier`, and `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the
 * body>` when an admin webhook has a secret, or `Authorization: Bearer <JWT HS256 signed with the app's client
 * secret>` for dynamic ones.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';
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

/** A dynamic webhook (`POST /rest/api/3/webhook`). */
export interface SimDynamicWebhook {
  id: number;
  url: string;
  events: string[];
  jqlFilter: string;
  /** Project ids its JQL names. */
  projectIds: string[];
  expiresAt: number;
}

/** Dynamic webhooks live this long after registration or a refresh. */
export const DYNAMIC_WEBHOOK_LIFE_MS = 30 * 86_400_000;

export class JiraHooks {
  readonly webhooks = new Map<number, SimJiraWebhook>();
  readonly dynamic = new Map<number, SimDynamicWebhook>();
  readonly sender = new WebhookSender();
  /** The OAuth 2.0 app whose access tokens the site accepts: its client secret signs dynamic webhooks. */
  oauthApp: { clientId: string; clientSecret: string } | null = null;
  private seq = 1;
  private dynamicSeq = 10_000;

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

  /**
   * Registers a dynamic webhook, or says why not (Jira's per-webhook `errors`): only `project` clauses with
   * `=` or `IN` are understood here (Jira takes a few more fields; the adapter sends only these).
   */
  registerDynamic(url: string, events: string[], jqlFilter: string, now: number): { createdWebhookId: number } | { errors: string[] } {
    const m = /^\s*project\s*(?:=\s*([\w-]+)|IN\s*\(([^)]*)\))\s*$/i.exec(jqlFilter);
    if (!m) return { errors: [`The clause ${jqlFilter.trim().split(/\s+/)[0] ?? ''} is unsupported`] };
    const ids = (m[1] ?? m[2] ?? '').split(',').map((x) => x.trim().replace(/^"|"$/g, '')).filter(Boolean);
    const projectIds = ids.map((x) => this.state.project(x)?.id).filter((x): x is string => Boolean(x));
    if (projectIds.length !== ids.length) return { errors: ['The JQL names a project that does not exist'] };
    const hook: SimDynamicWebhook = { id: this.dynamicSeq++, url, events, jqlFilter, projectIds, expiresAt: now + DYNAMIC_WEBHOOK_LIFE_MS };
    this.dynamic.set(hook.id, hook);
    return { createdWebhookId: hook.id };
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
    if (!targets.length && !(this.oauthApp && this.dynamic.size)) return;
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
    this.sendDynamic(change, payload);
  }

  /** Dynamic webhooks: one request per URL, naming the webhooks it matched (live ones whose projects include the issue's). */
  private sendDynamic(change: JiraChange, payload: Obj): void {
    const app = this.oauthApp;
    if (!app) return;
    const now = Date.now();
    const live = [...this.dynamic.values()].filter((h) => h.expiresAt > now && h.events.includes(change.event) && h.projectIds.includes(change.issue.projectId));
    for (const url of new Set(live.map((h) => h.url))) {
      const body = JSON.stringify({ ...payload, matchedWebhookIds: live.filter((h) => h.url === url).map((h) => h.id) });
      this.sender.send([{ url, headers: () => jiraDynamicHookHeaders(app.clientSecret, now) }], body);
    }
  }
}

/** A JWT (HS256) signed with `secret`, issued at `atMs`, valid three minutes. */
export function jiraWebhookJwt(secret: string, atMs: number): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const iat = Math.floor(atMs / 1000);
  const unsigned = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ iss: 'jira', iat, exp: iat + 180 })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** Jira's headers for one delivery of a dynamic webhook (an OAuth 2.0 app's), signed at `atMs`. */
export function jiraDynamicHookHeaders(clientSecret: string, atMs: number, o: { identifier?: string } = {}): Record<string, string> {
  return { ...jiraHookHeaders(null, '', o), authorization: `Bearer ${jiraWebhookJwt(clientSecret, atMs)}` };
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
