import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import {
  accountSchema,
  attachmentInput,
  attachmentSchema,
  collectionSchema,
  commentInput,
  commentSchema,
  contactSchema,
  tagSchema,
  teamSchema,
  ticketInput,
  ticketPatch,
  ticketSchema,
  userSchema,
} from '../../core/unified/ticketing';
import { accessOf } from '../auth';
import { connectionOf, connectionTokenHeaders, optionalConnectionOf, optionalConnectionTokenHeaders, remoteDataQuery } from '../connection-token';
import { envelope, errorResponses, idParams } from '../schemas';
import { batchItemSchema, batchItems, readRoutes } from '../unified-routes';

const batchItem = batchItemSchema(ticketSchema);
/** Views are checked against the response schema when serialised. */
type Ticket = z.infer<typeof ticketSchema>;

export const ticketingRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/ticketing/tickets',
    {
      schema: {
        tags: ['ticketing'],
        summary: 'Create a ticket in the connection’s ticketing product',
        headers: connectionTokenHeaders,
        querystring: remoteDataQuery,
        body: ticketInput,
        response: { 201: envelope(ticketSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const connection = await connectionOf(services, request);
      const data = await services.ticketing.createTicket(connection, request.body, { remoteData: request.query.remote_data });
      return reply.status(201).send({ message: 'Ticket created', statusCode: 201, data: data as Ticket });
    },
  );

  app.post(
    '/ticketing/tickets/batch',
    {
      schema: {
        tags: ['ticketing'],
        summary: 'Create up to 100 tickets: one result per element, in order',
        description: 'Status 201 when every element was created, 207 when some failed; a failed element is an error object.',
        headers: connectionTokenHeaders,
        querystring: remoteDataQuery,
        body: z.array(z.unknown()).min(1).max(100).describe('Ticket objects, as for POST /ticketing/tickets.'),
        response: { 201: envelope(z.array(batchItem)), 207: envelope(z.array(batchItem)), ...errorResponses },
      },
    },
    async (request, reply) => {
      const connection = await connectionOf(services, request);
      const results = await services.ticketing.createTickets(connection, request.body, { remoteData: request.query.remote_data });
      const failed = results.filter((r) => !r.ok).length;
      const status = failed === 0 ? 201 : 207;
      const data = batchItems(results) as Ticket[];
      return reply.status(status).send({
        message: failed === 0 ? `${results.length} tickets created` : `${results.length - failed} of ${results.length} tickets created`,
        statusCode: status,
        data,
      });
    },
  );

  const patchSchema = {
    tags: ['ticketing'],
    headers: optionalConnectionTokenHeaders,
    body: ticketPatch,
    response: { 200: ticketSchema, ...errorResponses },
  };
  app.patch(
    '/ticketing/tickets',
    {
      schema: {
        ...patchSchema,
        summary: 'Update a ticket: ?id=<ticket id>; answers the bare ticket',
        querystring: z.object({ id: z.string().min(1).describe('The ticket’s Omniport id.') }),
      },
    },
    async (request) => {
      const token = await optionalConnectionOf(services, request);
      return (await services.ticketing.updateTicket(accessOf(request), request.query.id, request.body, token)) as Ticket;
    },
  );
  app.patch(
    '/ticketing/tickets/:id',
    { schema: { ...patchSchema, summary: 'Update a ticket (alias of PATCH /ticketing/tickets?id=)', params: idParams } },
    async (request) => {
      const token = await optionalConnectionOf(services, request);
      return (await services.ticketing.updateTicket(accessOf(request), request.params.id, request.body, token)) as Ticket;
    },
  );

  app.post(
    '/ticketing/comments',
    {
      schema: {
        tags: ['ticketing'],
        summary: 'Add a comment to a ticket, with attachments',
        headers: connectionTokenHeaders,
        querystring: remoteDataQuery,
        body: commentInput,
        response: { 201: envelope(commentSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const connection = await connectionOf(services, request);
      const data = await services.ticketing.createComment(connection, request.body, { remoteData: request.query.remote_data });
      return reply.status(201).send({ message: 'Comment created', statusCode: 201, data: data as z.infer<typeof commentSchema> });
    },
  );

  app.post(
    '/ticketing/attachments',
    {
      schema: {
        tags: ['ticketing'],
        summary: 'Hold a file for a later comment: its id goes into a comment’s attachments',
        headers: connectionTokenHeaders,
        querystring: remoteDataQuery.describe('Accepted as the Panora client sends it; a held file has no provider data yet.'),
        body: attachmentInput,
        response: {
          201: envelope(
            z
              .object({ id: z.string(), file_name: z.string(), file_url: z.string().nullable(), uploader: z.string().nullable(), status: z.literal('pending') })
              .meta({ id: 'HeldAttachment' }),
          ),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const connection = await connectionOf(services, request);
      const row = await services.ticketing.createUpload(connection, request.body);
      return reply.status(201).send({
        message: 'Attachment held until it is attached to a comment',
        statusCode: 201,
        data: { id: row.id, file_name: row.fileName, file_url: row.fileUrl, uploader: request.body.uploader ?? null, status: 'pending' as const },
      });
    },
  );

  readRoutes(app, services, 'ticketing', { path: '/ticketing/tickets', objectType: 'ticketing.ticket', schema: ticketSchema, label: 'ticket' });
  readRoutes(app, services, 'ticketing', {
    path: '/ticketing/comments',
    objectType: 'ticketing.comment',
    schema: commentSchema,
    label: 'comment',
    extraQuery: z.object({ ticket_id: z.string().min(1).optional().describe('Only the comments of this ticket.') }),
    parentFilter: 'ticket_id',
  });
  readRoutes(app, services, 'ticketing', { path: '/ticketing/users', objectType: 'ticketing.user', schema: userSchema, label: 'user' });
  readRoutes(app, services, 'ticketing', { path: '/ticketing/contacts', objectType: 'ticketing.contact', schema: contactSchema, label: 'contact' });
  readRoutes(app, services, 'ticketing', { path: '/ticketing/accounts', objectType: 'ticketing.account', schema: accountSchema, label: 'account' });
  readRoutes(app, services, 'ticketing', { path: '/ticketing/tags', objectType: 'ticketing.tag', schema: tagSchema, label: 'tag' });
  readRoutes(app, services, 'ticketing', { path: '/ticketing/teams', objectType: 'ticketing.team', schema: teamSchema, label: 'team' });
  readRoutes(app, services, 'ticketing', { path: '/ticketing/collections', objectType: 'ticketing.collection', schema: collectionSchema, label: 'collection' });
  readRoutes(app, services, 'ticketing', { path: '/ticketing/attachments', objectType: 'ticketing.attachment', schema: attachmentSchema, label: 'attachment' });
};
