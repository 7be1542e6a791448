import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import { errorSchema } from '../schemas';

export const healthRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { tags: ['health'], summary: 'Liveness: the process answers', response: { 200: z.object({ status: z.literal('ok') }), '5xx': errorSchema } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers',
        response: { 200: z.object({ status: z.literal('ready'), database: z.string() }), 503: errorSchema, '5xx': errorSchema },
      },
    },
    async (request, reply) => {
      try {
        await services.database.ping();
        return { status: 'ready' as const, database: services.database.kind };
      } catch {
        return reply.status(503).send({
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'the database does not answer',
          details: { code: 'database_unavailable', request_id: String(request.id) },
        });
      }
    },
  );
};
