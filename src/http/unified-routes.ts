import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../services';
import { AppError } from '../core/errors';
import { isUuid } from '../core/access';
import { isoDateTime } from '../core/unified/common';
import { fieldFiltersOf, listFilterQuery } from '../core/unified/list-filters';
import { accessOf } from './auth';
import type { TimeField, UnifiedListFilter } from '../store/unified.repo';
import { connectionOf, connectionTokenHeaders, optionalConnectionOf, optionalConnectionTokenHeaders, remoteDataQuery } from './connection-token';
import { envelope, errorResponses, errorSchema, idParams, listEnvelope, pageQuery } from './schemas';

/** A filter by parent id (the ticket of comments) must be an Omniport id. */
function parentFilter(value: string | undefined): string | undefined {
  if (value !== undefined && !isUuid(value)) throw new AppError('validation_failed', 'must be an Omniport id', { field: 'ticket_id' });
  return value;
}

/** One result per element of a batch: the object, or its error. */
export function batchItems(results: import('../core/unified/objects').BatchItem[]) {
  return results.map((r) =>
    r.ok ? r.view : { statusCode: r.error.status, error: r.error.code, message: r.error.message, details: { ...r.error.details, code: r.error.code } },
  );
}

export const batchItemSchema = (schema: z.ZodType) => z.union([schema, errorSchema]);

/** `<name>_after` (inclusive) and `<name>_before` (exclusive) on one of the times of a stored object. */
function timeQuery<N extends string>(name: N, what: string, field: TimeField) {
  const note = `A list filtered on a time is ordered by it (${field}, then id; by modified_at first when several are filtered).`;
  return {
    [`${name}_after`]: isoDateTime.optional().describe(`Only objects ${what} at or after this time (${field}). ${note}`),
    [`${name}_before`]: isoDateTime.optional().describe(`Only objects ${what} before this time (${field}). ${note}`),
  } as Record<`${N}_after` | `${N}_before`, z.ZodOptional<typeof isoDateTime>>;
}

const TIME_QUERIES: [string, TimeField][] = [
  ['created', 'created_at'],
  ['modified', 'modified_at'],
  ['remote_created', 'remote_created_at'],
  ['remote_updated', 'remote_updated_at'],
];

/** The time ranges of a list's query. */
function timesOf(q: Record<string, unknown>): UnifiedListFilter['times'] {
  const date = (v: unknown) => (typeof v === 'string' ? new Date(v) : undefined);
  return Object.fromEntries(
    TIME_QUERIES.flatMap(([name, field]) => {
      const range = { after: date(q[`${name}_after`]), before: date(q[`${name}_before`]) };
      return range.after || range.before ? [[field, range]] : [];
    }),
  );
}

export const listQuery = pageQuery.extend(remoteDataQuery.shape).extend({
  ...timeQuery('created', 'that entered Omniport’s store', 'created_at'),
  ...timeQuery('modified', 'that last changed in Omniport’s store', 'modified_at'),
  ...timeQuery('remote_created', 'created in the provider', 'remote_created_at'),
  ...timeQuery('remote_updated', 'last changed in the provider', 'remote_updated_at'),
  include_deleted: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: include objects deleted in the provider (remote_was_deleted).'),
});

/**
 * Sends an envelope whose `data` the database already wrote as JSON text (stored views): the text is
 * spliced in, not parsed and re-encoded. The views' shape is the route's response schema, checked by the
 * tests that compare these answers with the ones built in JavaScript.
 */
function sendJson(reply: FastifyReply, envelope: Record<string, unknown>, dataJson: string) {
  const head = JSON.stringify(envelope);
  return reply.type('application/json; charset=utf-8').send(`${head.slice(0, -1)},"data":${dataJson}}`);
}

/** List and get routes of one unified object type. */
export function readRoutes(
  app: Parameters<FastifyPluginAsyncZod>[0],
  services: Services,
  tag: string,
  spec: { path: string; objectType: string; schema: z.ZodType; label: string; extraQuery?: z.ZodObject; parentFilter?: string },
) {
  app.get(
    spec.path,
    {
      schema: {
        tags: [tag],
        summary: `List ${spec.label}s of the connection (from Omniport's store, kept fresh by sync)`,
        headers: connectionTokenHeaders,
        querystring: listQuery.extend(listFilterQuery(spec.objectType).shape).extend(spec.extraQuery?.shape ?? {}),
        response: { 200: listEnvelope(spec.schema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const connection = await connectionOf(services, request);
      const q = request.query as z.infer<typeof listQuery> & Record<string, string | undefined>;
      const parentId = spec.parentFilter ? parentFilter(q[spec.parentFilter]) : undefined;
      const page = await services.objects.list(
        connection,
        spec.objectType,
        { limit: q.limit, cursor: q.cursor },
        {
          times: timesOf(q),
          includeDeleted: q.include_deleted,
          parentId,
          fields: fieldFiltersOf(spec.objectType, q),
        },
        { remoteData: q.remote_data },
      );
      const envelope = { message: `${spec.label}s`, statusCode: 200, next_cursor: page.nextCursor, prev_cursor: page.prevCursor };
      if (page.json) return sendJson(reply, envelope, `[${page.items.join(',')}]`);
      return { ...envelope, data: page.items };
    },
  );
  app.get(
    `${spec.path}/:id`,
    {
      schema: {
        tags: [tag],
        summary: `Get a ${spec.label} by id (the API key is enough)`,
        description: 'Answers the envelope, like list and create calls: the object is in data.',
        headers: optionalConnectionTokenHeaders,
        params: idParams,
        querystring: remoteDataQuery,
        response: { 200: envelope(spec.schema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const token = await optionalConnectionOf(services, request);
      const found = await services.objects.get(accessOf(request), spec.objectType, request.params.id, token, { remoteData: request.query.remote_data });
      if ('json' in found) return sendJson(reply, { message: spec.label, statusCode: 200 }, found.json);
      return { message: spec.label, statusCode: 200, data: found.view };
    },
  );
}

