import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import type { ConnectionView } from '../../core/connections';
import { accessOf } from '../auth';
import { answerField } from '../audit';
import { envelope, errorResponses, idFilter, idParams, isoDate, listEnvelope, pageQuery } from '../schemas';

const connectionSchema = z
  .object({
    id_connection: z.string(),
    connection_token: z.string().describe('Send it as x-connection-token on unified calls.'),
    provider: z.string(),
    vertical: z.string(),
    status: z.string().describe('valid, or needs_reauth when the provider no longer accepts the credentials.'),
    id_linked_user: z.string(),
    base_url: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Connection' });

const presentConnection = ({ row, connectionToken }: ConnectionView) => ({
  id_connection: row.id,
  connection_token: connectionToken,
  provider: row.provider,
  vertical: row.vertical,
  status: row.status,
  id_linked_user: row.linkedUserId,
  base_url: row.baseUrl,
  created_at: isoDate(row.createdAt),
});

export const connectionRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/connections',
    {
      config: {
        audit: {
          action: 'connection.created',
          target: 'connection',
          targetId: answerField('id_connection'),
          details: (_request, answer) => ({ provider: answer.data?.provider, id_linked_user: answer.data?.id_linked_user }),
        },
      },
      schema: {
        tags: ['connections'],
        summary: 'Connect a linked user to a token-based provider',
        description: 'Credential field names per provider are listed by GET /providers. The credentials are stored encrypted and never returned.',
        body: z.strictObject({
          provider: z.string().min(1),
          linked_user_origin_id: z.string().trim().min(1).max(255),
          credentials: z.record(z.string(), z.unknown()).default({}).describe('The provider\'s credential fields (none for a sandbox provider).'),
          base_url: z.url({ protocol: /^https?$/ }).optional(),
        }),
        response: { 201: envelope(connectionSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const view = await services.connections.create(accessOf(request), request.body);
      return reply.status(201).send({ message: 'Connection created', statusCode: 201, data: presentConnection(view) });
    },
  );

  app.get(
    '/connections',
    {
      schema: {
        tags: ['connections'],
        summary: 'List connections of the project',
        querystring: pageQuery.extend({
          id_linked_user: idFilter().optional(),
          provider: z.string().min(1).optional(),
        }),
        response: { 200: listEnvelope(connectionSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { id_linked_user, provider, ...page } = request.query;
      const result = await services.connections.list(accessOf(request), page, { linkedUserId: id_linked_user, provider });
      return {
        message: 'Connections',
        statusCode: 200,
        data: result.items.map(presentConnection),
        next_cursor: result.nextCursor,
        prev_cursor: result.prevCursor,
      };
    },
  );

  app.get(
    '/connections/:id',
    {
      schema: {
        tags: ['connections'],
        summary: 'Get a connection',
        params: idParams,
        response: {
          200: envelope(
            connectionSchema.extend({
              real_time_setup: z
                .object({
                  url: z.string(),
                  signed_with: z.string().describe('Which secret signs the requests (never the secret itself): one the provider already uses (HubSpot: the OAuth app’s client secret) or one given in the connection’s credentials (Front: app_secret).'),
                })
                .nullable()
                .describe(
                  'For providers whose webhooks an admin sets up in the provider’s settings: the project’s address for a provider app’s webhooks (HubSpot), or the connection’s own address where the provider’s API cannot create webhooks (Front), and which secret signs the requests. Null otherwise, and while OMNIPORT_PUBLIC_URL is unset. See docs/webhooks-in.md.',
                ),
            }),
          ),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const view = await services.connections.get(accessOf(request), request.params.id);
      const setup = await services.providerWebhooks.appSetupOf(view.row);
      return { message: 'Connection', statusCode: 200, data: { ...presentConnection(view), real_time_setup: setup ?? null } };
    },
  );

  app.delete(
    '/connections/:id',
    {
      config: { audit: { action: 'connection.deleted', target: 'connection' } },
      schema: {
        tags: ['connections'],
        summary: 'Delete a connection and the data synced through it',
        params: idParams,
        response: { 204: z.null().describe('Deleted'), ...errorResponses },
      },
    },
    async (request, reply) => {
      await services.connections.delete(accessOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
