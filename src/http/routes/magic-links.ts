import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../services';
import type { MagicLinkView } from '../../core/magic-links';
import type { ConnectSettings } from '../../core/connect-settings';
import { publicBase } from '../../connect/routes';
import { accessOf } from '../auth';
import { answerField } from '../audit';
import { envelope, errorResponses, idFilter, idParams, isoDate, listEnvelope, pageQuery } from '../schemas';
import { linkedUserSchema, presentLinkedUser } from './linked-users';

const statuses = ['active', 'expired', 'revoked'] as const;
const verticals = ['ticketing', 'crm'] as const;

const magicLinkSchema = z
  .object({
    id_invite_link: z.string(),
    status: z.enum(statuses).describe('active until expires_at, unless revoked.'),
    expires_at: z.string(),
    revoked_at: z.string().nullable(),
    created_at: z.string(),
    email: z.string().nullable(),
    providers: z.array(z.string()).nullable().describe('Providers the link offers (null: every provider the project enables).'),
    verticals: z.array(z.string()).nullable(),
    redirect_url: z.string().nullable().describe('Where the success page sends the user back.'),
    linked_user: linkedUserSchema,
  })
  .meta({ id: 'MagicLink' });

const createdSchema = magicLinkSchema
  .extend({ url: z.string().describe('The hosted connect page. It holds the link’s secret: shown in this response only.') })
  .meta({ id: 'MagicLinkCreated' });

const presentLink = ({ link, linkedUser, status }: MagicLinkView) => ({
  id_invite_link: link.id,
  status,
  expires_at: isoDate(link.expiresAt),
  revoked_at: link.revokedAt ? isoDate(link.revokedAt) : null,
  created_at: isoDate(link.createdAt),
  email: link.email,
  providers: link.providers,
  verticals: link.verticals,
  redirect_url: link.redirectUrl,
  linked_user: presentLinkedUser(linkedUser),
});

const settingsSchema = z
  .object({
    enabled_providers: z.array(z.string()).nullable().describe('Providers offered on the connect page; null: every provider that can be connected.'),
    allowed_redirect_urls: z
      .array(z.string())
      .describe('URLs the success page may send the user back to: exact URLs, or prefixes ending in / (an origin allows all its paths).'),
  })
  .meta({ id: 'ConnectSettings' });

const presentSettings = (s: ConnectSettings) => ({ enabled_providers: s.enabledProviders, allowed_redirect_urls: s.allowedRedirectUrls });

export const magicLinkRoutes: FastifyPluginAsyncZod<{ services: Services; publicUrl?: string }> = async (app, { services, publicUrl }) => {
  app.post(
    '/magic-link/create',
    {
      // Never the link's URL: it is the secret that opens the connect page.
      config: { audit: { action: 'magic_link.created', target: 'magic_link', targetId: answerField('id_invite_link') } },
      schema: {
        tags: ['magic links'],
        summary: 'Create a magic link for a linked user',
        description:
          'Creates or reuses the linked user (by linked_user_origin_id) and returns the URL of the hosted connect page, where they connect ' +
          'their account. The developer learns the connection token from the connection.created event and GET /connections.',
        body: z.strictObject({
          linked_user_origin_id: z.string().trim().min(1).max(255).describe('Your own id for this customer.'),
          email: z.email().optional(),
          alias: z.string().max(255).optional(),
          id_project: z.string().min(1).optional().describe('The caller’s project (default); another project’s id is answered 404.'),
          providers: z.array(z.string().min(1)).min(1).max(100).optional().describe('Offer only these providers.'),
          verticals: z.array(z.enum(verticals)).min(1).optional().describe('Offer only providers of these verticals.'),
          redirect_url: z.string().max(2000).optional().describe('Where to send the user after success; must be allowed in PATCH /connect-settings.'),
          expires_in_hours: z.number().positive().max(24 * 365).optional().describe('Lifetime of the link (default 168 = 7 days, or OMNIPORT_MAGIC_LINK_TTL_HOURS).'),
        }),
        response: { 201: createdSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const created = await services.magicLinks.create(accessOf(request), request.body, publicBase(request, publicUrl));
      return reply.status(201).send({ ...presentLink(created), url: created.url });
    },
  );

  app.get(
    '/magic-link',
    {
      schema: {
        tags: ['magic links'],
        summary: 'List the project’s magic links (their URLs are never shown again)',
        querystring: pageQuery.extend({ id_linked_user: idFilter().optional(), status: z.enum(statuses).optional() }),
        response: { 200: listEnvelope(magicLinkSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { id_linked_user, status, ...page } = request.query;
      const result = await services.magicLinks.list(accessOf(request), page, { linkedUserId: id_linked_user, status });
      return { message: 'Magic links', statusCode: 200, data: result.items.map(presentLink), next_cursor: result.nextCursor, prev_cursor: result.prevCursor };
    },
  );

  const getLink = async (request: FastifyRequest, id: string) => {
    const view = await services.magicLinks.get(accessOf(request), id);
    return { message: 'Magic link', statusCode: 200, data: presentLink(view) };
  };
  app.get(
    '/magic-link/:id',
    {
      schema: { tags: ['magic links'], summary: 'Get a magic link', params: idParams, response: { 200: envelope(magicLinkSchema), ...errorResponses } },
    },
    async (request) => getLink(request, request.params.id),
  );
  // The Panora client's form: `single` is a path of its own, not an id.
  app.get(
    '/magic-link/single',
    {
      schema: {
        tags: ['magic links'],
        summary: 'Get a magic link by ?id= (the Panora client’s path; deprecated, use GET /magic-link/{id})',
        deprecated: true,
        querystring: z.object({ id: z.string().min(1).describe('The magic link’s id_invite_link.') }),
        response: { 200: envelope(magicLinkSchema), ...errorResponses },
      },
    },
    async (request) => getLink(request, request.query.id),
  );

  app.delete(
    '/magic-link/:id',
    {
      config: { audit: { action: 'magic_link.revoked', target: 'magic_link' } },
      schema: {
        tags: ['magic links'],
        summary: 'Revoke a magic link (idempotent): its page then says so',
        params: idParams,
        response: { 200: envelope(magicLinkSchema), ...errorResponses },
      },
    },
    async (request) => {
      const view = await services.magicLinks.revoke(accessOf(request), request.params.id);
      return { message: 'Magic link revoked', statusCode: 200, data: presentLink(view) };
    },
  );

  app.get(
    '/connect-settings',
    {
      schema: {
        tags: ['magic links'],
        summary: 'Settings of the hosted connect page: enabled providers, allowed redirect URLs',
        response: { 200: envelope(settingsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const settings = await services.connectSettings.get(accessOf(request).projectId);
      return { message: 'Connect settings', statusCode: 200, data: presentSettings(settings) };
    },
  );

  app.patch(
    '/connect-settings',
    {
      config: {
        audit: { action: 'connect_settings.updated', target: 'project', targetId: (request) => request.access?.projectId, details: (request) => ({ fields: Object.keys(request.body as object) }) },
      },
      schema: {
        tags: ['magic links'],
        summary: 'Change the settings of the hosted connect page (fields left out are kept)',
        body: z.strictObject({
          enabled_providers: z.array(z.string().min(1)).max(200).nullable().optional(),
          allowed_redirect_urls: z.array(z.string().min(1).max(2000)).max(100).optional(),
        }),
        response: { 200: envelope(settingsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const settings = await services.connectSettings.update(accessOf(request), request.body);
      return { message: 'Connect settings updated', statusCode: 200, data: presentSettings(settings) };
    },
  );
};
