import { randomBytes } from 'node:crypto';
import { AppError, notFound } from '../core/errors';
import { isUuid, type AccessContext } from '../core/access';
import { assertReachableFromInternet } from '../core/network';
import type { SecretBox } from '../core/secrets';
import type { PageRequest } from '../store/pagination';
import type { WebhookEndpointRow, WebhooksRepo } from '../store/webhooks.repo';
import { EVENT_TYPES } from './catalog';

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string | null;
}

/** A new signing secret in Standard Webhooks' form: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Webhook endpoints of a project: where events are sent and which. URLs must be https and public (checked
 * here, and again on the address actually dialled at each delivery) unless OMNIPORT_ALLOW_PRIVATE_URLS.
 */
export class WebhookService {
  constructor(
    private readonly repo: WebhooksRepo,
    private readonly box: SecretBox,
    private readonly allowPrivateUrls: boolean,
  ) {}

  async create(ctx: AccessContext, input: EndpointInput): Promise<{ row: WebhookEndpointRow; secret: string }> {
    await this.checkUrl(input.url);
    const secret = newSecret();
    const row = await this.repo.insertEndpoint({
      projectId: ctx.projectId,
      url: input.url,
      description: input.description ?? null,
      eventTypes: checkTypes(input.events),
      secretEncrypted: this.box.encrypt(secret),
    });
    return { row, secret };
  }

  list(ctx: AccessContext, page: PageRequest) {
    return this.repo.listEndpoints(ctx.projectId, page);
  }

  async get(ctx: AccessContext, id: string): Promise<WebhookEndpointRow> {
    const row = isUuid(id) ? await this.repo.findEndpoint(ctx.projectId, id) : undefined;
    if (!row) throw notFound('webhook endpoint');
    return row;
  }

  /** Fields left out are kept; `enabled: true` turns a disabled endpoint on again (its failure streak forgotten). */
  async update(ctx: AccessContext, id: string, input: Partial<EndpointInput> & { enabled?: boolean }): Promise<WebhookEndpointRow> {
    await this.get(ctx, id);
    if (input.url !== undefined) await this.checkUrl(input.url);
    const row = await this.repo.updateEndpoint(ctx.projectId, id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { eventTypes: checkTypes(input.events) } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled === true ? { status: 'enabled', disabledReason: null, failingSince: null } : {}),
      ...(input.enabled === false ? { status: 'disabled', disabledReason: 'disabled by the project' } : {}),
    });
    return row!;
  }

  async delete(ctx: AccessContext, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.repo.deleteEndpoint(ctx.projectId, id))) throw notFound('webhook endpoint');
  }

  /** A new signing secret, shown once; the old one stops signing at once. */
  async rotateSecret(ctx: AccessContext, id: string): Promise<{ row: WebhookEndpointRow; secret: string }> {
    await this.get(ctx, id);
    const secret = newSecret();
    const row = await this.repo.updateEndpoint(ctx.projectId, id, { secretEncrypted: this.box.encrypt(secret) });
    return { row: row!, secret };
  }

  async deliveries(ctx: AccessContext, id: string, page: PageRequest) {
    await this.get(ctx, id);
    return this.repo.listDeliveries(id, page);
  }

  /** Sends a delivery again now, with the same webhook-id (whatever its state). */
  async retry(ctx: AccessContext, deliveryId: string) {
    const delivery = isUuid(deliveryId) ? await this.repo.findDelivery(ctx.projectId, deliveryId) : undefined;
    if (!delivery) throw notFound('webhook delivery');
    const endpoint = await this.get(ctx, delivery.endpointId);
    if (endpoint.status !== 'enabled') throw new AppError('unprocessable', 'the webhook endpoint is disabled; enable it first (PATCH with enabled: true)');
    return (await this.repo.requeueDelivery(delivery.id))!;
  }

  private async checkUrl(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AppError('validation_failed', 'url: not a URL', { field: 'url' });
    }
    if (parsed.username || parsed.password) throw new AppError('validation_failed', 'url: credentials in the URL are refused', { field: 'url' });
    if (this.allowPrivateUrls) {
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new AppError('validation_failed', 'url: must be http(s)', { field: 'url' });
      return;
    }
    if (parsed.protocol !== 'https:') throw new AppError('validation_failed', 'url: must be https; http and private addresses (a local receiver) are accepted with OMNIPORT_ALLOW_PRIVATE_URLS=true', { field: 'url' });
    await assertReachableFromInternet(url, 'url');
  }
}

function checkTypes(types: string[]): string[] {
  if (types.length === 0) throw new AppError('validation_failed', 'events: at least one event type, or ["*"]', { field: 'events' });
  if (types.includes('*')) return ['*'];
  const unknown = types.filter((t) => !EVENT_TYPES.includes(t));
  if (unknown.length) throw new AppError('validation_failed', `events: unknown event type ${unknown.join(', ')} (GET /events/types lists them)`, { field: 'events' });
  return [...new Set(types)];
}
