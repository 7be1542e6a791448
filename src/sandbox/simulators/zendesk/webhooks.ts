/**
 * Zendesk webhooks in the simulator: the Webhooks API (create, show, signing secret, delete) and, for
 * webhooks subscribed to Zendesk events, one signed request per ticket event as Zendesk words it
 * (`zen:event-type:ticket.*`, with `detail`, `event`, `subject`, `time`, `type`), signed with
 * base64(HMAC-SHA256(secret, timestamp + body)). Changes are compared with the ticket as last sent, so
 * one write that changes status and adds a comment sends both events.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { WebhookSender, type WebhookDelivery } from '../shared/webhook-sender';
import { HttpError } from './pagination';
import { notFound, route, type Route } from './routes';
import type { TicketRecord, ZendeskState } from './state';

export interface SimZendeskWebhook {
  id: string;
  name: string;
  endpoint: string;
  http_method: string;
  request_format: string;
  status: string;
  subscriptions: string[];
  secret: string;
  created_at: string;
}

interface Snapshot {
  status: string;
  subject: string;
  priority: string | null;
  tags: string;
  assignee: number | null;
  group: number | null;
  comments: number;
  deleted: boolean;
}

const snapshot = (t: TicketRecord): Snapshot => ({
  status: t.status,
  subject: t.subject,
  priority: t.priority,
  tags: [...t.tags].sort().join(' '),
  assignee: t.assignee_id,
  group: t.group_id,
  comments: t.comments.length,
  deleted: t.deleted,
});

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const str = (v: number | null | undefined) => (v === null || v === undefined ? null : String(v));

export class ZendeskWebhooks {
  readonly hooks = new Map<string, SimZendeskWebhook>();
  readonly sender: WebhookSender;
  private readonly seen = new Map<number, Snapshot>();
  private readonly pending = new Set<number>();
  private readonly accountId = 10_000 + Math.floor(Math.random() * 1000);

  constructor(
    private readonly state: ZendeskState,
    deliver?: WebhookDelivery,
  ) {
    this.sender = new WebhookSender(deliver);
    state.ticketListeners.push((t) => this.touched(t));
  }

  private touched(t: TicketRecord): void {
    if (this.pending.size === 0) setImmediate(() => this.flush());
    this.pending.add(t.id);
  }

  /** Events of every ticket written since the last flush, against the ticket as last sent. */
  private flush(): void {
    const ids = [...this.pending];
    this.pending.clear();
    for (const id of ids) {
      const t = this.state.tickets.get(id);
      if (!t) continue;
      const before = this.seen.get(id);
      const now = snapshot(t);
      this.seen.set(id, now);
      const events: { type: string; event: Record<string, unknown> }[] = [];
      const changed = (type: string, previous: unknown, current: unknown) => events.push({ type, event: { previous, current } });
      if (!before) events.push({ type: 'ticket.created', event: { meta: { sequence: { position: 1 } } } });
      else {
        if (now.deleted && !before.deleted) events.push({ type: 'ticket.soft_deleted', event: {} });
        if (now.status !== before.status) changed('ticket.status_changed', before.status.toUpperCase(), now.status.toUpperCase());
        if (now.subject !== before.subject) changed('ticket.subject_changed', before.subject, now.subject);
        if (now.priority !== before.priority) changed('ticket.priority_changed', before.priority?.toUpperCase() ?? null, now.priority?.toUpperCase() ?? null);
        if (now.tags !== before.tags) changed('ticket.tags_changed', before.tags.split(' ').filter(Boolean), now.tags.split(' ').filter(Boolean));
        if (now.assignee !== before.assignee) changed('ticket.agent_assignment_changed', str(before.assignee), str(now.assignee));
        if (now.group !== before.group) changed('ticket.group_assignment_changed', str(before.group), str(now.group));
        for (const c of t.comments.slice(before.comments)) {
          events.push({ type: 'ticket.comment_added', event: { comment: { id: String(c.id), body: c.body, is_public: c.public, author: { id: String(c.author_id) } } } });
        }
        if (!events.length) events.push({ type: 'ticket.custom_field_changed', event: {} });
      }
      for (const e of events) this.emit(t, `zen:event-type:${e.type}`, e.event);
    }
  }

  private emit(t: TicketRecord, type: string, event: Record<string, unknown>): void {
    const targets = [...this.hooks.values()].filter((h) => h.status === 'active' && h.subscriptions.includes(type));
    if (!targets.length) return;
    const body = JSON.stringify({
      account_id: this.accountId,
      detail: {
        actor_id: str(t.submitter_id),
        assignee_id: str(t.assignee_id),
        brand_id: '1',
        created_at: iso(t.created_at),
        custom_status: null,
        description: t.description,
        external_id: t.external_id,
        form_id: null,
        group_id: str(t.group_id),
        id: String(t.id),
        is_public: true,
        organization_id: str(t.organization_id),
        priority: t.priority?.toUpperCase() ?? null,
        requester_id: str(t.requester_id),
        status: t.deleted ? 'DELETED' : t.status.toUpperCase(),
        subject: t.subject,
        submitter_id: str(t.submitter_id),
        tags: t.tags,
        type: t.type?.toUpperCase() ?? null,
        updated_at: iso(t.updated_at),
        via: { channel: t.channel },
      },
      event,
      id: randomUUID(),
      subject: `zen:ticket:${t.id}`,
      time: new Date().toISOString(),
      type,
      zendesk_event_version: '2022-11-06',
    });
    this.sender.send(
      targets.map((h) => ({ url: h.endpoint, headers: (raw: string) => signedHeaders(h, raw) })),
      body,
    );
  }

  routes(): Route[] {
    const show = (h: SimZendeskWebhook) => ({
      id: h.id,
      name: h.name,
      endpoint: h.endpoint,
      http_method: h.http_method,
      request_format: h.request_format,
      status: h.status,
      subscriptions: h.subscriptions,
      created_at: h.created_at,
      created_by: '-1',
    });
    const find = (id: string | undefined) => {
      const h = id ? this.hooks.get(id) : undefined;
      if (!h) throw notFound();
      return h;
    };
    return [
      route(
        'POST',
        '/api/v2/webhooks',
        (ctx) => {
          const w = (ctx.body as { webhook?: Record<string, unknown> } | undefined)?.webhook;
          const invalid = (description: string) => new HttpError(400, { errors: [{ code: 'InvalidValue', title: 'Invalid value', detail: description }] });
          if (!w || typeof w !== 'object') throw invalid('webhook is required');
          if (typeof w.name !== 'string' || !w.name) throw invalid('name is required');
          if (typeof w.endpoint !== 'string' || !/^https?:\/\//.test(w.endpoint)) throw invalid('endpoint must be an http(s) URL');
          const subscriptions = Array.isArray(w.subscriptions) ? w.subscriptions.map(String) : [];
          if (subscriptions.some((s) => s.startsWith('zen:event-type:')) && (w.http_method !== 'POST' || w.request_format !== 'json')) {
            throw invalid('webhooks subscribed to Zendesk events must use POST and json');
          }
          // Zendesk's ids are ULIDs: 26 characters of Crockford base32.
          const id = '01' + randomBytes(15).toString('hex').toUpperCase().slice(0, 24);
          const hook: SimZendeskWebhook = {
            id,
            name: w.name,
            endpoint: w.endpoint,
            http_method: String(w.http_method ?? 'POST'),
            request_format: String(w.request_format ?? 'json'),
            status: String(w.status ?? 'active'),
            subscriptions,
            secret: randomBytes(30).toString('base64url'),
            created_at: new Date().toISOString(),
          };
          // Tickets as they are now: events describe changes from here on.
          for (const t of this.state.tickets.values()) if (!this.seen.has(t.id)) this.seen.set(t.id, snapshot(t));
          this.hooks.set(id, hook);
          return { status: 201, body: { webhook: show(hook) }, headers: { Location: `/api/v2/webhooks/${id}` } };
        },
        { adminOnly: true },
      ),
      route('GET', '/api/v2/webhooks', () => ({ status: 200, body: { webhooks: [...this.hooks.values()].map(show), meta: { has_more: false }, links: {} } })),
      route('GET', '/api/v2/webhooks/:id', (ctx) => ({ status: 200, body: { webhook: show(find(ctx.params.id)) } })),
      route('GET', '/api/v2/webhooks/:id/signing_secret', (ctx) => ({ status: 200, body: { signing_secret: { algorithm: 'SHA256', secret: find(ctx.params.id).secret } } })),
      route(
        'DELETE',
        '/api/v2/webhooks/:id',
        (ctx) => {
          this.hooks.delete(find(ctx.params.id).id);
          return { status: 204 };
        },
        { adminOnly: true },
      ),
    ];
  }
}

/** Zendesk's headers for one request: the webhook's id, an invocation id, the timestamp and the signature. */
export function signedHeaders(hook: Pick<SimZendeskWebhook, 'id' | 'secret'>, body: string, at = new Date()): Record<string, string> {
  const timestamp = iso(at.getTime());
  return {
    'x-zendesk-webhook-id': hook.id,
    'x-zendesk-webhook-invocation-id': String(Math.floor(Math.random() * 1e12)),
    'x-zendesk-webhook-signature-timestamp': timestamp,
    'x-zendesk-webhook-signature': createHmac('sha256', hook.secret).update(timestamp + body).digest('base64'),
  };
}
