import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import { connectionOf, connectionTokenHeaders } from '../connection-token';
import { envelope, errorResponses } from '../schemas';

const passthroughBody = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string().min(1).max(2048).describe('Relative to the provider’s API base URL, e.g. `/api/v2/tickets/1/audits` (Zendesk).'),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  headers: z
    .record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'a header name'), z.string().max(8192))
    .optional()
    .describe('Extra headers; credentials, host and transport headers are Omniport’s and refused.'),
  body: z.unknown().optional().describe('Sent as JSON.'),
});

const passthroughAnswer = z
  .object({
    status: z.number().int().describe('The provider’s HTTP status.'),
    headers: z.record(z.string(), z.string()).describe('The provider’s headers, without hop-by-hop and credential headers.'),
    body: z.unknown().describe('The provider’s answer: parsed JSON, or text.'),
  })
  .meta({ id: 'PassthroughAnswer' });

export const passthroughRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/passthrough',
    {
      // The method and path only (a path has no query string): the query or the body may carry the customer's data.
      config: {
        audit: {
          action: 'passthrough.called',
          target: 'connection',
          details: (request, answer) => {
            const { method, path } = request.body as { method: string; path: string };
            return { method, path, provider_status: answer.data?.status };
          },
        },
      },
      schema: {
        tags: ['passthrough'],
        summary: 'Call the connection’s provider directly, for what the unified model lacks',
        description:
          'Sends one request to the provider of the connection, with the connection’s credentials, through Omniport’s client (rate limits, retries of reads, ' +
          'writes never sent twice). The answer is the provider’s status, headers and body, whatever the status; Omniport’s own errors (provider unreachable, ' +
          'rate-limited, outcome unknown) use the usual error format.',
        headers: connectionTokenHeaders,
        body: passthroughBody,
        response: { 200: envelope(passthroughAnswer), ...errorResponses },
      },
    },
    async (request) => {
      const connection = await connectionOf(services, request);
      const answer = await services.passthrough.send(connection, request.body);
      return { message: 'Provider answered', statusCode: 200, data: answer };
    },
  );
};
