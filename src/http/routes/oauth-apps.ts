import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import type { OAuthAppView } from '../../core/oauth-apps';
import { callbackPath, publicBase } from '../../connect/routes';
import { accessOf } from '../auth';
import { pathParam } from '../audit';
import { envelope, errorResponses, isoDate, listEnvelope } from '../schemas';

const oauthAppSchema = z
  .object({
    provider: z.string(),
    client_id: z.string(),
    client_secret_set: z.literal(true).describe('The secret is stored encrypted and never shown.'),
    scopes: z.array(z.string()).describe('Scopes requested (the app’s own, else the provider’s defaults).'),
    scopes_overridden: z.boolean(),
    authorize_url: z.string().nullable().describe('Override of the provider’s authorization endpoint.'),
    token_url: z.string().nullable().describe('Override of the provider’s token endpoint.'),
    pkce: z.boolean().describe('The flow uses PKCE (S256) for this provider.'),
    redirect_uri: z.string().describe('Register this callback URL with the provider.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'OAuthApp' });

const providerParams = z.object({ provider: z.string().min(1) });

export const oauthAppRoutes: FastifyPluginAsyncZod<{ services: Services; publicUrl?: string }> = async (app, { services, publicUrl }) => {
  const present = (view: OAuthAppView, redirectUri: string) => ({
    provider: view.row.provider,
    client_id: view.row.clientId,
    client_secret_set: true as const,
    scopes: view.row.scopes ?? view.manifest.oauth?.scopes ?? [],
    scopes_overridden: view.row.scopes !== null,
    authorize_url: view.row.authorizeUrl,
    token_url: view.row.tokenUrl,
    pkce: view.manifest.oauth?.pkce ?? false,
    redirect_uri: redirectUri,
    created_at: isoDate(view.row.createdAt),
    updated_at: isoDate(view.row.updatedAt),
  });

  app.put(
    '/oauth-apps/:provider',
    {
      config: { audit: { action: 'oauth_app.saved', target: 'oauth_app', targetId: pathParam('provider') } },
      schema: {
        tags: ['oauth apps'],
        summary: 'Set the project’s OAuth 2.0 client for a provider (used by the hosted connect page)',
        description: 'client_secret is required the first time; leave it out later to keep the stored one. Fields set to null go back to the provider’s defaults.',
        params: providerParams,
        body: z.strictObject({
          client_id: z.string().trim().min(1).max(500),
          client_secret: z.string().min(1).max(2000).optional(),
          scopes: z.array(z.string().min(1).max(200)).max(100).nullable().optional(),
          authorize_url: z.url({ protocol: /^https?$/ }).nullable().optional(),
          token_url: z.url({ protocol: /^https?$/ }).nullable().optional(),
        }),
        response: { 200: envelope(oauthAppSchema), ...errorResponses },
      },
    },
    async (request) => {
      const view = await services.oauthApps.set(accessOf(request).projectId, request.params.provider, request.body);
      return { message: 'OAuth app saved', statusCode: 200, data: present(view, publicBase(request, publicUrl) + callbackPath) };
    },
  );

  app.get(
    '/oauth-apps',
    {
      schema: { tags: ['oauth apps'], summary: 'List the project’s OAuth apps (secrets are never shown)', response: { 200: listEnvelope(oauthAppSchema), ...errorResponses } },
    },
    async (request) => {
      const views = await services.oauthApps.list(accessOf(request).projectId);
      const redirectUri = publicBase(request, publicUrl) + callbackPath;
      return { message: 'OAuth apps', statusCode: 200, data: views.map((v) => present(v, redirectUri)), next_cursor: null, prev_cursor: null };
    },
  );

  app.get(
    '/oauth-apps/:provider',
    {
      schema: { tags: ['oauth apps'], summary: 'Get the project’s OAuth app for a provider', params: providerParams, response: { 200: envelope(oauthAppSchema), ...errorResponses } },
    },
    async (request) => {
      const view = await services.oauthApps.get(accessOf(request).projectId, request.params.provider);
      return { message: 'OAuth app', statusCode: 200, data: present(view, publicBase(request, publicUrl) + callbackPath) };
    },
  );

  app.delete(
    '/oauth-apps/:provider',
    {
      config: { audit: { action: 'oauth_app.deleted', target: 'oauth_app', targetId: pathParam('provider') } },
      schema: {
        tags: ['oauth apps'],
        summary: 'Delete the project’s OAuth app for a provider (its connections can no longer refresh tokens)',
        params: providerParams,
        response: { 204: z.null().describe('Deleted'), ...errorResponses },
      },
    },
    async (request, reply) => {
      await services.oauthApps.delete(accessOf(request).projectId, request.params.provider);
      return reply.status(204).send(null);
    },
  );
};
