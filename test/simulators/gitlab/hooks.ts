/**
 * Project webhooks of the GitLab simulator: `POST/GET /projects/:id/hooks`, `DELETE …/hooks/:hook_id`
 * (Maintainers and Owners), and for every issue change or user note an `Issue Hook` / `Note Hook` (their
 * `Confidential …` forms for confidential issues and internal notes) worded as GitLab words them
 * ({ object_kind, event_type, user, project, object_attributes: { …, action }, … }), with X-Gitlab-Token,
 * X-Gitlab-Event, X-Gitlab-Event-UUID, X-Gitlab-Webhook-UUID, X-Gitlab-Instance and Idempotency-Key.
 */
import { randomUUID } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';
import type { Serializer } from './serialize';
import type { GitlabState, GlChange, ProjectRecord } from './state';

export interface SimProjectHook {
  id: number;
  projectId: number;
  url: string;
  /** The secret token (GitLab never shows it again). */
  token: string;
  name: string;
  push_events: boolean;
  issues_events: boolean;
  confidential_issues_events: boolean;
  note_events: boolean;
  confidential_note_events: boolean;
  enable_ssl_verification: boolean;
  created_at: number;
}

/** GitLab's webhook timestamps: `2013-12-03 17:15:43 UTC`. */
const hookTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

export class GitlabHooks {
  readonly hooks = new Map<number, SimProjectHook>();
  readonly sender = new WebhookSender();
  private seq = 7_000_001;

  constructor(
    private readonly state: GitlabState,
    private readonly ser: Serializer,
    private readonly baseUrl: () => string,
  ) {
    state.listeners.push((change) => this.changed(change));
  }

  create(projectId: number, input: Omit<SimProjectHook, 'id' | 'projectId' | 'created_at'>): SimProjectHook {
    const hook: SimProjectHook = { id: this.seq++, projectId, ...input, created_at: this.state.now() };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  ofProject(projectId: number): SimProjectHook[] {
    return [...this.hooks.values()].filter((h) => h.projectId === projectId);
  }

  /** As `GET /projects/:id/hooks` renders a hook (the token is never shown). */
  render(h: SimProjectHook) {
    return {
      id: h.id,
      url: h.url,
      name: h.name,
      description: null,
      project_id: h.projectId,
      push_events: h.push_events,
      push_events_branch_filter: null,
      issues_events: h.issues_events,
      confidential_issues_events: h.confidential_issues_events,
      merge_requests_events: false,
      tag_push_events: false,
      note_events: h.note_events,
      confidential_note_events: h.confidential_note_events,
      job_events: false,
      pipeline_events: false,
      wiki_page_events: false,
      deployment_events: false,
      releases_events: false,
      repository_update_events: false,
      enable_ssl_verification: h.enable_ssl_verification,
      alert_status: 'executable',
      disabled_until: null,
      url_variables: [],
      custom_headers: [],
      custom_webhook_template: null,
      created_at: new Date(h.created_at).toISOString(),
    };
  }

  private project(p: ProjectRecord) {
    const path = this.state.projectFullPath(p);
    const web = `${this.baseUrl()}/${path}`;
    return {
      id: p.id,
      name: p.name,
      description: p.description ?? null,
      web_url: web,
      avatar_url: null,
      namespace: path.split('/').slice(0, -1).join('/'),
      visibility_level: 0,
      path_with_namespace: path,
      default_branch: 'main',
      homepage: web,
      url: `${web}.git`,
      http_url: `${web}.git`,
    };
  }

  private user(id: number) {
    const u = this.state.users.get(id);
    return u ? { id: u.id, name: u.name, username: u.username, avatar_url: null, email: '[REDACTED]' } : null;
  }

  private changed(change: GlChange): void {
    const p = this.state.projects.get(change.issue.project_id);
    if (!p) return;
    const issue = this.ser.issue(change.issue);
    const common = { user: this.user(change.actorId), project: this.project(p), repository: { name: p.name, url: `${this.baseUrl()}/${this.state.projectFullPath(p)}.git`, description: p.description ?? null } };
    if (change.kind === 'issue') {
      const confidential = change.issue.confidential;
      const hooks = this.ofProject(p.id).filter((h) => (confidential ? h.confidential_issues_events : h.issues_events));
      this.deliver(hooks, confidential ? 'Confidential Issue Hook' : 'Issue Hook', {
        object_kind: 'issue',
        event_type: confidential ? 'confidential_issue' : 'issue',
        ...common,
        object_attributes: {
          id: change.issue.id,
          iid: change.issue.iid,
          project_id: p.id,
          title: change.issue.title,
          description: change.issue.description,
          state: change.issue.state,
          confidential,
          author_id: change.issue.author_id,
          assignee_ids: change.issue.assignee_ids,
          created_at: hookTime(change.issue.created_at),
          updated_at: hookTime(change.issue.updated_at),
          closed_at: change.issue.closed_at === null ? null : hookTime(change.issue.closed_at),
          type: 'Issue',
          url: issue.web_url,
          labels: issue.labels,
          action: change.action,
        },
        labels: issue.labels,
        assignees: issue.assignees,
        changes: {},
      });
      return;
    }
    const internal = change.note.internal;
    const hooks = this.ofProject(p.id).filter((h) => (internal ? h.confidential_note_events : h.note_events));
    this.deliver(hooks, internal ? 'Confidential Note Hook' : 'Note Hook', {
      object_kind: 'note',
      event_type: internal ? 'confidential_note' : 'note',
      ...common,
      project_id: p.id,
      object_attributes: {
        id: change.note.id,
        note: change.note.body,
        noteable_type: 'Issue',
        noteable_id: change.issue.id,
        author_id: change.note.author_id,
        project_id: p.id,
        created_at: hookTime(change.note.created_at),
        updated_at: hookTime(change.note.updated_at),
        system: false,
        internal,
        confidential: internal,
        type: null,
        url: `${issue.web_url as string}#note_${change.note.id}`,
        action: change.action,
      },
      issue: { id: change.issue.id, iid: change.issue.iid, project_id: p.id, title: change.issue.title, state: change.issue.state, updated_at: hookTime(change.issue.updated_at) },
    });
  }

  private deliver(hooks: SimProjectHook[], event: string, payload: Record<string, unknown>): void {
    if (!hooks.length) return;
    const body = JSON.stringify(payload);
    // One event: the same X-Gitlab-Event-UUID and Idempotency-Key for every hook it goes to.
    const eventUuid = randomUUID();
    for (const h of hooks) {
      this.sender.send([{ url: h.url, headers: () => gitlabHookHeaders(h.token, { event, eventUuid, instance: this.baseUrl() }) }], body);
    }
  }
}

/** GitLab's headers for one delivery (`idempotencyKey` stays the same on GitLab's retries of it). */
export function gitlabHookHeaders(token: string, o: { event: string; eventUuid?: string; idempotencyKey?: string; instance?: string }): Record<string, string> {
  return {
    'user-agent': 'GitLab/17.6.0',
    'x-gitlab-event': o.event,
    'x-gitlab-token': token,
    'x-gitlab-instance': o.instance ?? 'https://gitlab.example.com',
    'x-gitlab-webhook-uuid': randomUUID(),
    'x-gitlab-event-uuid': o.eventUuid ?? randomUUID(),
    'idempotency-key': o.idempotencyKey ?? randomUUID(),
  };
}
