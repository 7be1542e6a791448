import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../services';
import {
  crmCompanySchema,
  crmContactSchema,
  crmDealSchema,
  crmEngagementSchema,
  crmNoteSchema,
  crmStageSchema,
  crmTaskSchema,
  crmUserSchema,
  crmWritables,
  type CrmWritable,
} from '../../core/unified/crm';
import { AppError } from '../../core/errors';
import { accessOf } from '../auth';
import { connectionOf, connectionTokenHeaders, optionalConnectionOf, optionalConnectionTokenHeaders, remoteDataQuery } from '../connection-token';
import { envelope, errorResponses, idParams } from '../schemas';
import { batchItemSchema, batchItems, readRoutes } from '../unified-routes';

/** Endpoint 7 answers with remote_data (the interface shows it without a query option); `false` leaves it out. */
const remoteDataByDefault = z.object({
  remote_data: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v !== 'false')
    .describe('Included unless false.'),
});

const writable: { path: string; objectType: CrmWritable; schema: z.ZodType; label: string }[] = [
  { path: '/crm/contacts', objectType: 'crm.contact', schema: crmContactSchema, label: 'contact' },
  { path: '/crm/companies', objectType: 'crm.company', schema: crmCompanySchema, label: 'company' },
  { path: '/crm/deals', objectType: 'crm.deal', schema: crmDealSchema, label: 'deal' },
  { path: '/crm/notes', objectType: 'crm.note', schema: crmNoteSchema, label: 'note' },
  { path: '/crm/tasks', objectType: 'crm.task', schema: crmTaskSchema, label: 'task' },
  { path: '/crm/engagements', objectType: 'crm.engagement', schema: crmEngagementSchema, label: 'engagement' },
];

/** Views are checked against the response schema when serialised. */
type Json = Record<string, never>;

export const crmRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  for (const spec of writable) {
    const { input, patch } = crmWritables[spec.objectType];
    app.post(
      spec.path,
      {
        schema: {
          tags: ['crm'],
          summary: `Create a ${spec.label} in the connection’s CRM`,
          headers: connectionTokenHeaders,
          querystring: remoteDataQuery,
          body: input,
          response: { 201: envelope(spec.schema), ...errorResponses },
        },
      },
      async (request, reply) => {
        const connection = await connectionOf(services, request);
        const data = await services.crm.create(connection, spec.objectType, request.body as Record<string, unknown>, {
          remoteData: request.query.remote_data,
        });
        return reply.status(201).send({ message: `${spec.label} created`, statusCode: 201, data: data as Json });
      },
    );

    app.post(
      `${spec.path}/batch`,
      {
        schema: {
          tags: ['crm'],
          summary: `Create up to 100 ${spec.label} objects: one result per element, in order`,
          description: 'Status 201 when every element was created, 207 when some failed; a failed element is an error object. Uses the provider’s batch API where it has one.',
          headers: connectionTokenHeaders,
          querystring: remoteDataQuery,
          body: z.array(z.unknown()).min(1).max(100).describe(`${spec.label} objects, as for POST ${spec.path}.`),
          response: { 201: envelope(z.array(batchItemSchema(spec.schema))), 207: envelope(z.array(batchItemSchema(spec.schema))), ...errorResponses },
        },
      },
      async (request, reply) => {
        const connection = await connectionOf(services, request);
        const results = await services.crm.createMany(connection, spec.objectType, request.body, { remoteData: request.query.remote_data });
        const failed = results.filter((r) => !r.ok).length;
        const status = failed === 0 ? 201 : 207;
        return reply.status(status).send({
          message: failed === 0 ? `${results.length} created` : `${results.length - failed} of ${results.length} created`,
          statusCode: status,
          data: batchItems(results) as Json[],
        });
      },
    );

    const updateSchema = {
      tags: ['crm'],
      headers: optionalConnectionTokenHeaders,
      body: patch.extend({ id: z.string().optional().describe('If sent, must be the addressed id.') }),
      response: { 200: envelope(spec.schema), ...errorResponses },
    };
    const update = async (request: FastifyRequest, id: string, remoteData: boolean) => {
      const { id: bodyId, ...fields } = request.body as Record<string, unknown> & { id?: string };
      if (bodyId !== undefined && bodyId !== id) throw new AppError('validation_failed', 'body id does not match the addressed id', { field: 'id' });
      const token = await optionalConnectionOf(services, request);
      const data = await services.crm.update(accessOf(request), spec.objectType, id, fields, token, { remoteData });
      return { message: `${spec.label} updated`, statusCode: 200, data: data as Json };
    };
    const remoteDataOption = spec.objectType === 'crm.deal' ? remoteDataByDefault : remoteDataQuery;

    app.patch(
      `${spec.path}/:id`,
      {
        schema: {
          ...updateSchema,
          summary: `Update a ${spec.label}; the API key is enough`,
          description:
            spec.objectType === 'crm.deal'
              ? 'As the interface shows endpoint 7, the answer carries remote_data unless remote_data=false. An empty body changes nothing and answers the stored deal without calling the provider.'
              : 'An empty body changes nothing and answers the stored object without calling the provider.',
          params: idParams,
          querystring: remoteDataOption,
        },
      },
      async (request) => update(request, request.params.id, request.query.remote_data),
    );
    // The Panora client's form (`PATCH /crm/contacts?id=…`), kept for clients migrating from it.
    app.patch(
      spec.path,
      {
        schema: {
          ...updateSchema,
          summary: `Update a ${spec.label} by ?id= (the Panora client's form; deprecated, use PATCH ${spec.path}/{id})`,
          deprecated: true,
          querystring: remoteDataOption.extend({ id: z.string().min(1).describe(`The ${spec.label}'s Omniport id.`) }),
        },
      },
      async (request) => update(request, request.query.id, request.query.remote_data),
    );

    readRoutes(app, services, 'crm', spec);
  }
  readRoutes(app, services, 'crm', { path: '/crm/stages', objectType: 'crm.stage', schema: crmStageSchema, label: 'stage' });
  readRoutes(app, services, 'crm', { path: '/crm/users', objectType: 'crm.user', schema: crmUserSchema, label: 'user' });
};
