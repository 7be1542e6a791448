/**
 * Webhooks of the Pipedrive simulator: `POST/GET /v1/webhooks`, `DELETE /v1/webhooks/:id`, and for every
 * create, change or delete of a person, organization, deal, activity or note a version 2.0 event worded as
 * Pipedrive words it ({ data, previous, meta: { action, entity, entity_id, id, … } }) sent with the basic auth
 * credentials the webhook was created with (Pipedrive signs nothing).
 */
import { randomUUID } from 'node:crypto';
import { WebhookSender } from '../shared/webhook-delivery';
import type { EntityKind } from './store';

export interface SimPdWebhook {
  id: number;
  name: string;
  subscription_url: string;
  event_action: 'create' | 'change' | 'delete' | '*';
  event_object: string;
  user_id: number;
  http_auth_user: string | null;
  http_auth_password: string | null;
  version: '1.0' | '2.0';
  add_time: string;
}

/** Entity kinds of the store → Pipedrive's event object names. */
const OBJECT: Record<EntityKind, string> = { persons: 'person', organizations: 'organization', deals: 'deal', activities: 'activity', notes: 'note' };

export class PipedriveHooks {
  readonly webhooks = new Map<number, SimPdWebhook>();
  readonly sender = new WebhookSender();
  private seq = 501;

  constructor(private readonly host: () => string) {}

  create(input: Omit<SimPdWebhook, 'id' | 'add_time'>): SimPdWebhook {
    const hook: SimPdWebhook = { id: this.seq++, add_time: new Date().toISOString(), ...input };
    this.webhooks.set(hook.id, hook);
    return hook;
  }

  /** As the API renders a webhook (the password included, as Pipedrive's document shows). */
  render(h: SimPdWebhook) {
    return {
      id: h.id,
      company_id: 1,
      owner_id: h.user_id,
      user_id: h.user_id,
      event_action: h.event_action,
      event_object: h.event_object,
      subscription_url: h.subscription_url,
      version: h.version,
      is_active: 1,
      add_time: h.add_time,
      remove_time: null,
      type: 'general',
      http_auth_user: h.http_auth_user,
      http_auth_password: h.http_auth_password,
      remove_reason: null,
      last_delivery_time: null,
      last_http_status: null,
      admin_id: h.user_id,
      name: h.name,
    };
  }

  /** One change of an entity: sent to each v2.0 webhook subscribed to its action and object. */
  changed(kind: EntityKind, action: 'create' | 'change' | 'delete', id: number, data: Record<string, unknown> | null, previous: Record<string, unknown> | null, userId: number): void {
    const entity = OBJECT[kind];
    const targets = [...this.webhooks.values()].filter((h) => h.version === '2.0' && (h.event_action === '*' || h.event_action === action) && (h.event_object === '*' || h.event_object === entity));
    for (const h of targets) {
      const body = JSON.stringify({
        data,
        previous,
        meta: {
          action,
          entity,
          entity_id: String(id),
          id: randomUUID(),
          company_id: '1',
          correlation_id: randomUUID(),
          is_bulk_edit: false,
          timestamp: new Date().toISOString(),
          type: 'general',
          user_id: String(userId),
          version: '2.0',
          webhook_id: String(h.id),
          webhook_owner_id: String(h.user_id),
          change_source: 'app',
          permitted_user_ids: [String(h.user_id)],
          attempt: 1,
          host: this.host(),
        },
      });
      this.sender.send([{ url: h.subscription_url, headers: () => pipedriveHookHeaders(h) }], body);
    }
  }
}

/** Pipedrive's headers for one delivery: basic auth when the webhook has credentials. */
export function pipedriveHookHeaders(h: Pick<SimPdWebhook, 'http_auth_user' | 'http_auth_password'>): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': 'Pipedrive Webhooks' };
  if (h.http_auth_user !== null || h.http_auth_password !== null) {
    headers.authorization = `Basic ${Buffer.from(`${h.http_auth_user ?? ''}:${h.http_auth_password ?? ''}`).toString('base64')}`;
  }
  return headers;
}
