/**
 * Webhooks of the Asana simulator: `POST /webhooks` (`resource` a project, `target` an address) makes the
 * handshake while the call waits, as Asana does: a POST to the target with `X-Hook-Secret`, which must come back
 * in a 200 or 204's headers, else the creation fails (400); the answer carries the secret too. `GET /webhooks`,
 * `GET /webhooks/{gid}`, `DELETE /webhooks/{gid}`. Each event of a watched project is sent as a batch
 * `{"events": [...]}` signed with `X-Hook-Signature` = hex HMAC-SHA256 of the body; `heartbeat()` sends an
 * empty batch; `drop()` deletes webhooks as Asana does after a day of failed deliveries.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';

type Obj = Record<string, unknown>;

export interface SimAsanaWebhook {
  gid: string;
  resource: { gid: string; name: string };
  target: string;
  secret: string;
  createdAt: number;
}

/** Asana's signature header for a body. */
export const asanaHookHeaders = (secret: string, body: string): Record<string, string> => ({ 'x-hook-signature': createHmac('sha256', secret).update(body).digest('hex') });

export class AsanaHooks {
  readonly webhooks = new Map<string, SimAsanaWebhook>();
  readonly sender = new WebhookSender();
  /** Handshakes made: the target, the secret sent and the receiver's status. */
  readonly handshakes: { target: string; secret: string; status: number }[] = [];
  /** Tests: runs before each handshake (to send other requests while a registration waits). */
  beforeHandshake: ((target: string) => Promise<void>) | undefined;

  constructor(
    private readonly gid: () => string,
    private readonly now: () => number,
  ) {}

  /** Creates a webhook after a successful handshake; answers `[status, message]` for a refused one. */
  async create(resource: { gid: string; name: string }, target: string): Promise<SimAsanaWebhook | [number, string]> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return [400, 'target: Not a valid URL'];
    }
    if (url.hostname === 'localhost') return [403, 'target: Invalid hostname'];
    const secret = randomBytes(32).toString('hex');
    await this.beforeHandshake?.(target);
    let status = 0;
    let echoed: string | null = null;
    try {
      const res = await fetch(target, { method: 'POST', headers: { 'x-hook-secret': secret }, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer().catch(() => undefined);
      status = res.status;
      echoed = res.headers.get('x-hook-secret');
    } catch {
      status = 0;
    }
    this.handshakes.push({ target, secret, status });
    if (!(status === 200 || status === 204) || echoed !== secret) return [400, 'target: The remote server did not respond with the handshake secret.'];
    const hook = { gid: this.gid(), resource, target, secret, createdAt: this.now() };
    this.webhooks.set(hook.gid, hook);
    return hook;
  }

  render(w: SimAsanaWebhook): Obj {
    return {
      gid: w.gid,
      resource_type: 'webhook',
      active: true,
      resource: { gid: w.resource.gid, resource_type: 'project', name: w.resource.name },
      target: w.target,
      created_at: new Date(w.createdAt).toISOString(),
      last_success_at: null,
      last_failure_at: null,
      last_failure_content: null,
      delivery_retry_count: 0,
      filters: [],
    };
  }

  /** One event of a project, to the webhooks watching it. */
  deliver(project: string, event: Obj): void {
    for (const w of this.webhooks.values()) if (w.resource.gid === project) this.send(w, [event]);
  }

  /** An empty batch to every webhook (Asana's heartbeat). */
  heartbeat(): void {
    for (const w of this.webhooks.values()) this.send(w, []);
  }

  /** Deletes webhooks as Asana does when their deliveries fail for a day (all by default). */
  drop(gids: string[] = [...this.webhooks.keys()]): void {
    for (const gid of gids) this.webhooks.delete(gid);
  }

  private send(w: SimAsanaWebhook, events: Obj[]): void {
    this.sender.send([{ url: w.target, headers: (b) => asanaHookHeaders(w.secret, b) }], JSON.stringify({ events }));
  }
}
