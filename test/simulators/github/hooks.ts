/**
 * Repository webhooks of the GitHub simulator: `POST/GET /repos/{owner}/{repo}/hooks`, `DELETE …/hooks/{id}`
 * (repository admins), a `ping` when a hook is created, and for every issue or comment change an `issues`
 * or `issue_comment` delivery as GitHub words it ({ action, issue, comment?, repository, sender }), with
 * X-GitHub-Event, X-GitHub-Delivery, X-GitHub-Hook-ID and X-Hub-Signature-256 (sha256=<hex HMAC of the body>).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';
import type { Serializer } from './serialize';
import type { GithubState, SimChange, SimRepo, SimUser } from './state';

export interface SimHook {
  id: number;
  repoId: number;
  url: string;
  secret: string;
  events: string[];
  active: boolean;
  created_at: string;
}

export class GithubHooks {
  readonly hooks = new Map<number, SimHook>();
  readonly sender = new WebhookSender();
  private seq = 400_000_001;

  constructor(
    private readonly state: GithubState,
    private readonly ser: Serializer,
  ) {
    state.listeners.push((change) => this.changed(change));
  }

  create(repo: SimRepo, input: { url: string; secret: string; events: string[]; active: boolean }, sender: SimUser): SimHook {
    const hook: SimHook = { id: this.seq++, repoId: repo.id, ...input, created_at: new Date().toISOString() };
    this.hooks.set(hook.id, hook);
    this.deliver([hook], 'ping', { zen: 'Design for failure.', hook_id: hook.id, hook: this.render(hook, repo), repository: this.ser.repository(repo, undefined), sender: this.ser.simpleUser(sender) });
    return hook;
  }

  ofRepo(repo: SimRepo): SimHook[] {
    return [...this.hooks.values()].filter((h) => h.repoId === repo.id);
  }

  render(h: SimHook, repo: SimRepo) {
    return {
      type: 'Repository',
      id: h.id,
      name: 'web',
      active: h.active,
      events: h.events,
      config: { content_type: 'json', insecure_ssl: '0', url: h.url, secret: '********' },
      updated_at: h.created_at,
      created_at: h.created_at,
      url: `https://api.github.com/repos/${this.state.fullName(repo)}/hooks/${h.id}`,
    };
  }

  private changed(change: SimChange): void {
    const repo = this.state.repos.get(change.issue.repoId);
    if (!repo) return;
    const hooks = this.ofRepo(repo).filter((h) => h.active && (h.events.includes(change.event) || h.events.includes('*')));
    if (!hooks.length) return;
    const sender = this.state.user(change.comment?.user ?? change.issue.user)!;
    this.deliver(hooks, change.event, {
      action: change.action,
      issue: this.ser.issue(change.issue),
      ...(change.comment ? { comment: this.ser.comment(change.comment) } : {}),
      repository: this.ser.repository(repo, undefined),
      sender: this.ser.simpleUser(sender),
    });
  }

  private deliver(hooks: SimHook[], event: string, payload: Record<string, unknown>): void {
    const body = JSON.stringify(payload);
    for (const h of hooks) {
      this.sender.send([{ url: h.url, headers: (raw) => signedHeaders(h.secret, raw, { event, hookId: h.id }) }], body);
    }
  }
}

/** GitHub's headers for one delivery. */
export function signedHeaders(secret: string, body: string, o: { event: string; hookId?: number; delivery?: string }): Record<string, string> {
  return {
    'user-agent': 'GitHub-Hookshot/044aadd',
    'x-github-event': o.event,
    'x-github-delivery': o.delivery ?? randomUUID(),
    'x-github-hook-id': String(o.hookId ?? 1),
    'x-github-hook-installation-target-type': 'repository',
    'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  };
}
