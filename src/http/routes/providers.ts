import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import { credentialFields } from '../../core/connect';
import { errorResponses, listEnvelope } from '../schemas';

const providerSchema = z
  .object({
    name: z.string(),
    display_name: z.string(),
    vertical: z.string(),
    auth_kind: z.string(),
    credential_fields: z.array(z.string()),
    default_base_url: z.string().nullable(),
    oauth: z.boolean().describe('Can be connected through the hosted connect page with OAuth 2.0.'),
    capabilities: z
      .record(z.string(), z.array(z.string()))
      .describe('Unified object type → what Omniport can do with it at this provider (create, batch_create, update, list, get, sync, incremental_sync).'),
    limitations: z.array(z.string()).describe('What the provider cannot do, in plain words; such input is refused with 422.'),
    sandbox: z.boolean().describe('A built-in sandbox product with demo data, served by Omniport itself (connect it with no credentials).'),
  })
  .meta({ id: 'Provider' });

export const providerRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/providers',
    {
      schema: {
        tags: ['providers'],
        summary: 'The providers Omniport can connect to',
        response: { 200: listEnvelope(providerSchema), ...errorResponses },
      },
    },
    async () => ({
      message: 'Providers',
      statusCode: 200,
      data: services.providers.list().map((m) => ({
        name: m.name,
        display_name: m.displayName,
        vertical: m.vertical,
        auth_kind: m.authKind,
        credential_fields: credentialFields(m).map((f) => f.name),
        default_base_url: m.defaultBaseUrl ?? null,
        oauth: Boolean(m.oauth),
        capabilities: m.capabilities,
        limitations: m.limitations ?? [],
        sandbox: Boolean(m.sandbox),
      })),
      next_cursor: null,
      prev_cursor: null,
    }),
  );
};
