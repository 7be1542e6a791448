import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../services';
import { DATA_TYPES, OBJECT_TYPE_OWNERS } from '../../core/field-mapping';
import { AppError } from '../../core/errors';
import type { AttributeRow, MappingRow } from '../../store/field-mapping.repo';
import { accessOf } from '../auth';
import { answerField } from '../audit';
import { connectionOf, connectionTokenHeaders } from '../connection-token';
import { envelope, errorResponses, idFilter, idParams, isoDate, listEnvelope, pageQuery } from '../schemas';

const attributeSchema = z
  .object({
    id_attribute: z.string(),
    object_type_owner: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    data_type: z.string(),
    status: z.literal('defined'),
    created_at: z.string(),
  })
  .meta({ id: 'FieldAttribute' });

const mappingSchema = z
  .object({
    id_mapping: z.string(),
    attributeId: z.string(),
    source_custom_field_id: z.string(),
    source_provider: z.string(),
    linked_user_id: z.string(),
    status: z.literal('mapped'),
    created_at: z.string(),
  })
  .meta({ id: 'FieldMapping' });

const remoteFieldSchema = z.object({ id: z.string(), label: z.string(), type: z.string(), object_type: z.string() }).meta({ id: 'RemoteField' });

const presentAttribute = (a: AttributeRow) => ({
  id_attribute: a.id,
  object_type_owner: a.objectTypeOwner,
  name: a.name,
  description: a.description,
  data_type: a.dataType,
  status: 'defined' as const,
  created_at: isoDate(a.createdAt),
});

const presentMapping = (m: MappingRow) => ({
  id_mapping: m.id,
  attributeId: m.attributeId,
  source_custom_field_id: m.sourceCustomFieldId,
  source_provider: m.provider,
  linked_user_id: m.linkedUserId,
  status: 'mapped' as const,
  created_at: isoDate(m.createdAt),
});

const dataType = z.enum(DATA_TYPES, { error: () => `must be one of ${DATA_TYPES.join(', ')}` });

export const fieldMappingRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const tags = ['field mapping'];

  app.post(
    '/field-mapping/define',
    {
      config: { audit: { action: 'attribute.defined', target: 'attribute', targetId: answerField('id_attribute') } },
      schema: {
        tags,
        summary: 'Define a custom attribute of the project',
        body: z.strictObject({
          object_type_owner: z.enum(OBJECT_TYPE_OWNERS, { error: () => `must be one of ${OBJECT_TYPE_OWNERS.join(', ')}` }),
          name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'letters, digits and _ (a JSON-friendly key)'),
          description: z.string().max(1000).optional(),
          data_type: dataType,
        }),
        response: { 201: envelope(attributeSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await services.fieldMapping.define(accessOf(request), request.body);
      return reply.status(201).send({ message: 'Attribute defined', statusCode: 201, data: presentAttribute(row) });
    },
  );

  app.post(
    '/field-mapping/map',
    {
      config: { audit: { action: 'mapping.created', target: 'mapping', targetId: answerField('id_mapping') } },
      schema: {
        tags,
        summary: 'Map an attribute to a provider custom field for one linked user',
        description: 'linked_user_id accepts the Omniport id or the linked_user_origin_id.',
        body: z.strictObject({
          attributeId: z.string().min(1),
          source_custom_field_id: z.string().min(1),
          source_provider: z.string().min(1),
          linked_user_id: z.string().min(1),
        }),
        response: { 201: envelope(mappingSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { mapping } = await services.fieldMapping.map(accessOf(request), request.body);
      return reply.status(201).send({ message: 'Attribute mapped', statusCode: 201, data: presentMapping(mapping) });
    },
  );

  const listAttributes = {
    tags,
    querystring: pageQuery.extend({ object_type_owner: z.string().optional() }),
    response: { 200: listEnvelope(attributeSchema), ...errorResponses },
  };
  const attributes = async (request: FastifyRequest<{ Querystring: z.infer<typeof listAttributes.querystring> }>) => {
    const { object_type_owner, ...page } = request.query;
    const result = await services.fieldMapping.listAttributes(accessOf(request), page, { objectTypeOwner: object_type_owner });
    return { message: 'Attributes', statusCode: 200, data: result.items.map(presentAttribute), next_cursor: result.nextCursor, prev_cursor: result.prevCursor };
  };
  app.get('/field-mapping/attributes', { schema: { ...listAttributes, summary: 'List the project’s attributes' } }, attributes);
  // The Panora client's path (its getFieldMappings).
  app.get(
    '/field-mapping/attribute',
    { schema: { ...listAttributes, summary: 'List the project’s attributes (the Panora client’s path; deprecated, use GET /field-mapping/attributes)', deprecated: true } },
    attributes,
  );

  app.get(
    '/field-mapping/mappings',
    {
      schema: {
        tags,
        summary: 'List the project’s mappings',
        querystring: pageQuery.extend({
          attributeId: idFilter().optional(),
          linked_user_id: z.string().optional(),
          source_provider: z.string().optional(),
        }),
        response: { 200: listEnvelope(mappingSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { attributeId, linked_user_id, source_provider, ...page } = request.query;
      const access = accessOf(request);
      const linkedUserId = linked_user_id ? (await services.linkedUsers.resolve(access, linked_user_id, 'linked_user_id')).id : undefined;
      const result = await services.fieldMapping.listMappings(access, page, { attributeId, linkedUserId, provider: source_provider });
      return { message: 'Mappings', statusCode: 200, data: result.items.map(presentMapping), next_cursor: result.nextCursor, prev_cursor: result.prevCursor };
    },
  );

  app.delete(
    '/field-mapping/attributes/:id',
    { config: { audit: { action: 'attribute.deleted', target: 'attribute' } }, schema: { tags, summary: 'Delete an attribute and its mappings', params: idParams, response: { 204: z.null(), ...errorResponses } } },
    async (request, reply) => {
      await services.fieldMapping.deleteAttribute(accessOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/field-mapping/mappings/:id',
    { config: { audit: { action: 'mapping.deleted', target: 'mapping' } }, schema: { tags, summary: 'Delete a mapping', params: idParams, response: { 204: z.null(), ...errorResponses } } },
    async (request, reply) => {
      await services.fieldMapping.deleteMapping(accessOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/field-mapping/remote-fields',
    {
      schema: {
        tags,
        summary: 'The custom fields of the connection’s provider, to choose what to map',
        headers: connectionTokenHeaders,
        querystring: z.object({
          provider: z.string().optional().describe('If sent, must be the connection’s provider.'),
          object_type: z.string().optional().describe('e.g. ticketing.ticket or crm.contact'),
        }),
        response: { 200: listEnvelope(remoteFieldSchema), ...errorResponses },
      },
    },
    async (request) => {
      const connection = await connectionOf(services, request);
      if (request.query.provider && request.query.provider !== connection.provider) {
        throw new AppError('validation_failed', `the connection is a ${connection.provider} connection`, { field: 'provider' });
      }
      const fields = await services.fieldMapping.remoteFields(connection, request.query.object_type);
      return { message: 'Remote fields', statusCode: 200, data: fields, next_cursor: null, prev_cursor: null };
    },
  );
};

