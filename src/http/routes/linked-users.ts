import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LinkedUserRow } from '../../store/control-plane.repo';
import { accessOf } from '../auth';
import { answerField } from '../audit';
import { envelope, errorResponses, idParams, isoDate, listEnvelope, pageQuery } from '../schemas';

export const linkedUserSchema = z
  .object({
    id_linked_user: z.string(),
    linked_user_origin_id: z.string(),
    alias: z.string().nullable(),
    email: z.string().nullable(),
    id_project: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'LinkedUser' });

export const presentLinkedUser = (r: LinkedUserRow) => ({
  id_linked_user: r.id,
  linked_user_origin_id: r.originId,
  alias: r.alias,
  email: r.email,
  id_project: r.projectId,
  created_at: isoDate(r.createdAt),
});

export const linkedUserRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const createBody = z.strictObject({
    linked_user_origin_id: z.string().trim().min(1).max(255).describe('Your own id for this customer.'),
    alias: z.string().max(255).optional(),
    email: z.email().optional(),
  });
  const create = async (request: FastifyRequest<{ Body: z.infer<typeof createBody> & { id_project?: string } }>, reply: FastifyReply) => {
    const row = await services.linkedUsers.create(accessOf(request), request.body);
    return reply.status(201).send({ message: 'Linked user created', statusCode: 201, data: presentLinkedUser(row) });
  };
  const createConfig = { audit: { action: 'linked_user.created', target: 'linked_user', targetId: answerField('id_linked_user') } } as const;
  app.post(
    '/linked-users',
    {
      config: createConfig,
      schema: {
        tags: ['linked users'],
        summary: 'Create a linked user (one end customer of the developer)',
        body: createBody,
        response: { 201: envelope(linkedUserSchema), ...errorResponses },
      },
    },
    create,
  );
  // The Panora client's form.
  app.post(
    '/linked-users/create',
    {
      config: createConfig,
      schema: {
        tags: ['linked users'],
        summary: 'Create a linked user (the Panora client’s path; deprecated, use POST /linked-users)',
        description: 'Same as POST /linked-users; id_project, if sent, must be the caller’s project (another is answered 404).',
        deprecated: true,
        body: createBody.extend({ id_project: z.string().min(1).optional().describe('The caller’s project (default).') }),
        response: { 201: envelope(linkedUserSchema), ...errorResponses },
      },
    },
    create,
  );

  app.get(
    '/linked-users/single',
    {
      schema: {
        tags: ['linked users'],
        summary: 'Get a linked user by your origin id (the Panora client’s path; deprecated, use GET /linked-users?linked_user_origin_id=)',
        deprecated: true,
        querystring: z.object({ originId: z.string().min(1).describe('Your own id for this customer (linked_user_origin_id).') }),
        response: { 200: envelope(linkedUserSchema), ...errorResponses },
      },
    },
    async (request) => {
      const row = await services.linkedUsers.getByOrigin(accessOf(request), request.query.originId);
      return { message: 'Linked user', statusCode: 200, data: presentLinkedUser(row) };
    },
  );

  app.get(
    '/linked-users',
    {
      schema: {
        tags: ['linked users'],
        summary: 'List linked users, or look one up by linked_user_origin_id',
        querystring: pageQuery.extend({ linked_user_origin_id: z.string().min(1).optional() }),
        response: { 200: listEnvelope(linkedUserSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { linked_user_origin_id, ...page } = request.query;
      const result = await services.linkedUsers.list(accessOf(request), page, { originId: linked_user_origin_id });
      return {
        message: 'Linked users',
        statusCode: 200,
        data: result.items.map(presentLinkedUser),
        next_cursor: result.nextCursor,
        prev_cursor: result.prevCursor,
      };
    },
  );

  app.get(
    '/linked-users/:id',
    {
      schema: {
        tags: ['linked users'],
        summary: 'Get a linked user',
        params: idParams,
        response: { 200: envelope(linkedUserSchema), ...errorResponses },
      },
    },
    async (request) => {
      const row = await services.linkedUsers.get(accessOf(request), request.params.id);
      return { message: 'Linked user', statusCode: 200, data: presentLinkedUser(row) };
    },
  );
};
