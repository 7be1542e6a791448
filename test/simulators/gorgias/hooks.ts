/**
 * HTTP integrations of the Gorgias simulator (`POST /api/integrations` with `type: "http"`, `GET` and
 * `DELETE /api/integrations/{id}`). When a trigger the integration subscribes to fires (`ticket-created`,
 * `ticket-updated`, `ticket-message-created`), Gorgias calls its URL with its method and headers, and the
 * body is its `form` with each `{{ticket.…}}` variable rendered from the ticket as the integration context
 * shows it (TicketHttpIntegration). Gorgias signs nothing: whatever the integration's headers carry is all.
 * Changes made in one step (a PUT that touches the ticket several times) send once per trigger and ticket.
 */
import { WebhookSender } from '../shared/webhook-delivery';
import type { Serializer } from './serialize';
import type { GorgiasState, SimTicket } from './state';

export type GorgiasTrigger = 'ticket-created' | 'ticket-updated' | 'ticket-message-created';

export interface SimHttpIntegration {
  id: number;
  name: string;
  description: string | null;
  created: number;
  updated: number;
  http: {
    url: string;
    method: string;
    headers: Record<string, string>;
    form: unknown;
    request_content_type: string;
    response_content_type: string;
    triggers: Partial<Record<string, boolean>>;
  };
}

/** Renders `{{ticket.a.b}}` variables inside strings of `form` (null renders as an empty string). */
export function renderTemplate(form: unknown, context: Record<string, unknown>): unknown {
  if (typeof form === 'string') {
    return form.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_m, path: string) => {
      const value = path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), context);
      return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    });
  }
  if (Array.isArray(form)) return form.map((x) => renderTemplate(x, context));
  if (form && typeof form === 'object') return Object.fromEntries(Object.entries(form).map(([k, v]) => [k, renderTemplate(v, context)]));
  return form;
}

export class GorgiasHooks {
  readonly integrations = new Map<number, SimHttpIntegration>();
  readonly sender = new WebhookSender();
  private nextId = 900;
  private queued = new Map<string, { trigger: GorgiasTrigger; ticket: SimTicket }>();

  constructor(
    private readonly state: GorgiasState,
    private readonly ser: Serializer,
  ) {
    state.listeners.push((trigger, ticket) => this.changed(trigger, ticket));
  }

  create(input: { name: string; description?: string | null; http: Omit<SimHttpIntegration['http'], 'headers' | 'form'> & { headers?: Record<string, string>; form?: unknown } }): SimHttpIntegration {
    const now = this.state.now();
    const integration: SimHttpIntegration = {
      id: this.nextId++,
      name: input.name,
      description: input.description ?? null,
      created: now,
      updated: now,
      http: { headers: {}, form: {}, ...input.http },
    };
    this.integrations.set(integration.id, integration);
    return integration;
  }

  private changed(trigger: GorgiasTrigger, ticket: SimTicket): void {
    if (!this.integrations.size) return;
    const key = `${trigger}:${ticket.id}`;
    if (this.queued.has(key)) return;
    const first = this.queued.size === 0;
    this.queued.set(key, { trigger, ticket });
    // After the change is complete (Gorgias runs integrations once the ticket is saved).
    if (first) queueMicrotask(() => this.flush());
  }

  private flush(): void {
    const batch = [...this.queued.values()];
    this.queued.clear();
    for (const { trigger, ticket } of batch) {
      const context = { ticket: this.ser.ticket(ticket) };
      for (const integration of this.integrations.values()) {
        if (!integration.http.triggers[trigger]) continue;
        const body = JSON.stringify(renderTemplate(integration.http.form, context));
        const headers = Object.fromEntries(Object.entries(integration.http.headers).map(([k, v]) => [k, String(renderTemplate(v, context))]));
        this.sender.send([{ url: String(renderTemplate(integration.http.url, context)), headers: () => ({ 'content-type': integration.http.request_content_type, ...headers }) }], body);
      }
    }
  }
}
