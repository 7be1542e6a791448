/**
 * Webhooks of the Attio simulator: `POST/GET /v2/webhooks`, `GET/DELETE /v2/webhooks/{webhook_id}`, checked as
 * Attio checks them (an https target, known event types, `$and` / `$or` filters of `equals` / `not_equals`),
 * and for every record, note or task change a message worded as Attio words it ({ webhook_id, events: [{
 * event_type, id, actor }] }, one event per message, one `record.updated` per attribute written) sent to each
 * webhook whose subscriptions match, signed with `Attio-Signature` (and `X-Attio-Signature`) = hex
 * HMAC-SHA256(secret, body), with a fresh `Idempotency-Key` per message.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';

/** The event types `POST /v2/webhooks` takes (Attio's "Webhook reference"). */
export const ATTIO_EVENT_TYPES = [
  'comment.created', 'comment.resolved', 'comment.unresolved', 'comment.deleted',
  'list.created', 'list.updated', 'list.deleted',
  'list-attribute.created', 'list-attribute.updated',
  'list-entry.created', 'list-entry.updated', 'list-entry.deleted',
  'object-attribute.created', 'object-attribute.updated',
  'note.created', 'note.updated', 'note.deleted',
  'record.created', 'record.merged', 'record.updated', 'record.deleted',
  'task.created', 'task.updated', 'task.deleted',
  'workspace-member.created',
]; // prettier-ignore

type Condition = { field: string; operator: 'equals' | 'not_equals'; value: string };
type Filter = { $and: Condition[] } | { $or: Condition[] } | null;
export interface SimAttioWebhook {
  id: { workspace_id: string; webhook_id: string };
  target_url: string;
  subscriptions: { event_type: string; filter: Filter }[];
  status: 'active';
  created_at: string;
  secret: string;
}

export class AttioHookError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const bad = (message: string) => new AttioHookError(400, 'validation_type', message);

function readFilter(raw: unknown, at: string): Filter {
  if (raw === null) return null;
  const f = raw as Record<string, unknown>;
  const key = f && typeof f === 'object' ? Object.keys(f) : [];
  if (key.length !== 1 || (key[0] !== '$and' && key[0] !== '$or') || !Array.isArray(f[key[0]])) throw bad(`${at}.filter must be null, or an object with one "$and" or "$or" array.`);
  const conditions = (f[key[0]] as unknown[]).map((c, i) => {
    const x = c as Record<string, unknown>;
    if (!x || typeof x.field !== 'string' || typeof x.value !== 'string' || (x.operator !== 'equals' && x.operator !== 'not_equals')) {
      throw bad(`${at}.filter.${key[0]}[${i}] needs a field, an operator (equals or not_equals) and a string value.`);
    }
    return { field: x.field, operator: x.operator, value: x.value } as Condition;
  });
  return key[0] === '$and' ? { $and: conditions } : { $or: conditions };
}

/** A payload property by dot path (`id.object_id`), as Attio's filters read it. */
const at = (event: Record<string, unknown>, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), event);
function passes(filter: Filter, event: Record<string, unknown>): boolean {
  if (!filter) return true;
  const test = (c: Condition) => (at(event, c.field) === c.value) === (c.operator === 'equals');
  return '$and' in filter ? filter.$and.every(test) : filter.$or.some(test);
}

export class AttioHooks {
  readonly webhooks = new Map<string, SimAttioWebhook>();
  readonly sender = new WebhookSender();

  constructor(
    private readonly workspace: string,
    private readonly now: () => string,
  ) {}

  create(body: unknown): SimAttioWebhook {
    const data = (body as { data?: Record<string, unknown> } | null)?.data;
    if (!data || typeof data !== 'object') throw bad('Body payload validation error: data is required.');
    const url = typeof data.target_url === 'string' ? data.target_url : '';
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      // refused below
    }
    // Attio delivers to https only; plain http is let through for this machine's test receivers.
    const loopback = parsed && (parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost');
    if (!parsed || !(parsed.protocol === 'https:' || (loopback && parsed.protocol === 'http:'))) throw bad('data.target_url must be an https URL.');
    if (!Array.isArray(data.subscriptions)) throw bad('data.subscriptions must be an array.');
    const subscriptions = (data.subscriptions as Record<string, unknown>[]).map((s, i) => {
      if (!s || typeof s.event_type !== 'string' || !ATTIO_EVENT_TYPES.includes(s.event_type)) throw bad(`data.subscriptions[${i}].event_type is not a known event type.`);
      if (!('filter' in s)) throw bad(`data.subscriptions[${i}].filter is required (null for none).`);
      return { event_type: s.event_type, filter: readFilter(s.filter, `data.subscriptions[${i}]`) };
    });
    const hook: SimAttioWebhook = {
      id: { workspace_id: this.workspace, webhook_id: randomUUID() },
      target_url: url,
      subscriptions,
      status: 'active',
      created_at: this.now(),
      secret: randomBytes(32).toString('hex'),
    };
    this.webhooks.set(hook.id.webhook_id, hook);
    return hook;
  }

  /** As `GET` answers a webhook: without its secret, which only the creation answers. */
  render(h: SimAttioWebhook, withSecret = false) {
    const { secret, ...rest } = h;
    return withSecret ? { ...rest, secret } : rest;
  }

  get(id: string): SimAttioWebhook {
    const hook = this.webhooks.get(id);
    if (!hook) throw new AttioHookError(404, 'not_found', `Webhook with ID "${id}" not found.`);
    return hook;
  }

  /** One event: a message to each webhook with a subscription of its type whose filter it passes. */
  emit(event: { event_type: string; id: Record<string, string>; actor: { type: string; id: string } } & Record<string, unknown>): void {
    for (const h of this.webhooks.values()) {
      if (!h.subscriptions.some((s) => s.event_type === event.event_type && passes(s.filter, event))) continue;
      const body = JSON.stringify({ webhook_id: h.id.webhook_id, events: [event] });
      const idempotencyKey = randomUUID();
      this.sender.send([{ url: h.target_url, headers: (b) => attioHookHeaders(h.secret, b, idempotencyKey) }], body);
    }
  }
}

/** Attio's headers for one message. */
export function attioHookHeaders(secret: string, body: string, idempotencyKey: string): Record<string, string> {
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  return { 'attio-signature': signature, 'x-attio-signature': signature, 'idempotency-key': idempotencyKey };
}
