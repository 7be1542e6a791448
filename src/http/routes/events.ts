import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import { EVENT_TYPES } from '../../events/catalog';
import { accessOf } from '../auth';
import { errorResponses, idFilter, listEnvelope, pageQuery } from '../schemas';

const eventSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    timestamp: z.string(),
    sequence: z.number().int().describe('Increasing in the order events happened (per connection too).'),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });

export const eventRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary: 'The project’s events, oldest first: what webhooks deliver, for those who poll',
        description: `Keep next_cursor and ask again later for what happened since. Kept ${services.events.retentionDays} days (OMNIPORT_EVENTS_RETENTION_DAYS).`,
        querystring: pageQuery.extend({
          type: z
            .string()
            .regex(/^[a-z_]+(\.[a-z_]+)*\.?$/, 'an event type (ticketing.ticket.updated) or a prefix ending with a dot (ticketing.)')
            .optional()
            .describe('One event type, or every type under a prefix ending with a dot (`ticketing.`, `connection.`).'),
          id_connection: idFilter().optional(),
        }),
        response: { 200: listEnvelope(eventSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { type, id_connection, ...page } = request.query;
      const result = await services.events.list(accessOf(request), { type, connectionId: id_connection }, page);
      return { message: 'Events', statusCode: 200, data: result.items, next_cursor: result.nextCursor, prev_cursor: result.prevCursor };
    },
  );

  app.get(
    '/events/types',
    { schema: { tags: ['events'], summary: 'Every event type', response: { 200: z.object({ message: z.string(), statusCode: z.number(), data: z.array(z.string()) }), ...errorResponses } } },
    async () => ({ message: 'Event types', statusCode: 200, data: [...EVENT_TYPES] }),
  );
};
