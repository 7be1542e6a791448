import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../../store/webhooks.repo';
import { EVENT_TYPES } from '../../events/catalog';
import { webhookIdOf } from '../../events/present';
import { accessOf } from '../auth';
import { answerField } from '../audit';
import { envelope, errorResponses, idParams, isoDate, listEnvelope, pageQuery } from '../schemas';

const tags = ['webhooks'];

const endpointSchema = z
  .object({
    id_webhook_endpoint: z.string(),
    url: z.string(),
    events: z.array(z.string()).describe('Event types sent to this endpoint, or ["*"] for all.'),
    description: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.string().nullable().describe('Why it was disabled: 410 from the receiver, three days of failures, or by the project.'),
    failing_since: z.string().nullable().describe('Since when every attempt failed (null after a success).'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

const withSecret = endpointSchema.extend({
  secret: z.string().describe('The signing secret (whsec_…) for Standard Webhooks verification. Shown only in this response.'),
});

const present = (r: WebhookEndpointRow) => ({
  id_webhook_endpoint: r.id,
  url: r.url,
  events: r.eventTypes,
  description: r.description,
  status: r.status as 'enabled' | 'disabled',
  disabled_reason: r.disabledReason,
  failing_since: r.failingSince ? isoDate(r.failingSince) : null,
  created_at: isoDate(r.createdAt),
  updated_at: isoDate(r.updatedAt),
});

const attemptSchema = z.object({
  attempted_at: z.string(),
  status_code: z.number().int().nullable().describe('The receiver’s HTTP status, or null when it could not be reached.'),
  duration_ms: z.number().int(),
  response: z.string().nullable().describe('The first 500 bytes of the receiver’s answer.'),
  error: z.string().nullable(),
});

const deliverySchema = z
  .object({
    id_webhook_delivery: z.string(),
    webhook_id: z.string().describe('The `webhook-id` header of every attempt: receivers deduplicate on it.'),
    id_event: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
    attempts: z.array(attemptSchema),
    next_attempt_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

const presentDelivery = (d: WebhookDeliveryRow, eventType: string, attempts: WebhookAttemptRow[]) => ({
  id_webhook_delivery: d.id,
  webhook_id: webhookIdOf(d.id),
  id_event: d.eventId,
  event_type: eventType,
  status: d.status as 'pending' | 'delivered' | 'failed' | 'cancelled',
  attempts: attempts.map((a) => ({
    attempted_at: isoDate(a.attemptedAt),
    status_code: a.statusCode,
    duration_ms: a.durationMs,
    response: a.responseSnippet,
    error: a.error,
  })),
  next_attempt_at: d.status === 'pending' ? isoDate(d.nextAttemptAt) : null,
  delivered_at: d.deliveredAt ? isoDate(d.deliveredAt) : null,
  created_at: isoDate(d.createdAt),
});

const eventTypes = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(EVENT_TYPES.length + 1)
  .describe('Event types (GET /events/types), or ["*"] for every type.');

export const webhookRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/webhooks',
    {
      config: { audit: { action: 'webhook_endpoint.created', target: 'webhook_endpoint', targetId: answerField('id_webhook_endpoint') } },
      schema: {
        tags,
        summary: 'Add a webhook endpoint: events are POSTed to it, signed (Standard Webhooks)',
        body: z.strictObject({
          url: z.string().min(1).max(2000).describe('https and public (OMNIPORT_ALLOW_PRIVATE_URLS lifts both, for tests and on-premise receivers).'),
          events: eventTypes,
          description: z.string().max(500).optional(),
        }),
        response: { 201: envelope(withSecret), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { row, secret } = await services.webhooks.create(accessOf(request), request.body);
      return reply.status(201).send({ message: 'Webhook endpoint created', statusCode: 201, data: { ...present(row), secret } });
    },
  );

  app.get(
    '/webhooks',
    { schema: { tags, summary: 'List the project’s webhook endpoints', querystring: pageQuery, response: { 200: listEnvelope(endpointSchema), ...errorResponses } } },
    async (request) => {
      const page = await services.webhooks.list(accessOf(request), request.query);
      return { message: 'Webhook endpoints', statusCode: 200, data: page.items.map(present), next_cursor: page.nextCursor, prev_cursor: page.prevCursor };
    },
  );

  app.get(
    '/webhooks/:id',
    { schema: { tags, summary: 'Get a webhook endpoint', params: idParams, response: { 200: envelope(endpointSchema), ...errorResponses } } },
    async (request) => ({ message: 'Webhook endpoint', statusCode: 200, data: present(await services.webhooks.get(accessOf(request), request.params.id)) }),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: { audit: { action: 'webhook_endpoint.updated', target: 'webhook_endpoint', details: (request) => ({ fields: Object.keys(request.body as object) }) } },
      schema: {
        tags,
        summary: 'Change a webhook endpoint (fields left out are kept); enabled: true turns a disabled one on again',
        params: idParams,
        body: z.strictObject({ url: z.string().min(1).max(2000).optional(), events: eventTypes.optional(), description: z.string().max(500).nullable().optional(), enabled: z.boolean().optional() }),
        response: { 200: envelope(endpointSchema), ...errorResponses },
      },
    },
    async (request) => ({
      message: 'Webhook endpoint updated',
      statusCode: 200,
      data: present(await services.webhooks.update(accessOf(request), request.params.id, request.body)),
    }),
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { audit: { action: 'webhook_endpoint.deleted', target: 'webhook_endpoint' } },
      schema: { tags, summary: 'Delete a webhook endpoint (its pending deliveries are dropped)', params: idParams, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await services.webhooks.delete(accessOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { audit: { action: 'webhook_endpoint.secret_rotated', target: 'webhook_endpoint' } },
      schema: { tags, summary: 'Replace the signing secret (shown once); the old one stops signing at once', params: idParams, response: { 200: envelope(withSecret), ...errorResponses } },
    },
    async (request) => {
      const { row, secret } = await services.webhooks.rotateSecret(accessOf(request), request.params.id);
      return { message: 'Signing secret rotated', statusCode: 200, data: { ...present(row), secret } };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'Deliveries to an endpoint, newest first, each with every attempt',
        params: idParams,
        querystring: pageQuery,
        response: { 200: listEnvelope(deliverySchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = await services.webhooks.deliveries(accessOf(request), request.params.id, request.query);
      return {
        message: 'Webhook deliveries',
        statusCode: 200,
        data: page.items.map((i) => presentDelivery(i.delivery, i.eventType, i.attempts)),
        next_cursor: page.nextCursor,
        prev_cursor: page.prevCursor,
      };
    },
  );

  app.post(
    '/webhooks/deliveries/:id/retry',
    {
      config: { audit: { action: 'webhook_delivery.retried', target: 'webhook_delivery' } },
      schema: {
        tags,
        summary: 'Send a delivery again now, with the same webhook-id',
        params: idParams,
        response: { 202: envelope(z.object({ id_webhook_delivery: z.string(), status: z.string() })), ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await services.webhooks.retry(accessOf(request), request.params.id);
      return reply.status(202).send({ message: 'Delivery queued', statusCode: 202, data: { id_webhook_delivery: row.id, status: row.status } });
    },
  );
};
