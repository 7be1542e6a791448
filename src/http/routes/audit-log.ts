import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import { isoDateTime } from '../../core/unified/common';
import type { AuditRow } from '../../store/audit.repo';
import { accessOf } from '../auth';
import { errorResponses, isoDate, listEnvelope, pageQuery } from '../schemas';

const auditEntry = z
  .object({
    id: z.string(),
    created_at: z.string(),
    action: z.string().describe('`<object>.<verb>`, e.g. `connection.created`, `api_key.revoked`, `passthrough.called`.'),
    actor: z.object({
      type: z.enum(['api_key', 'magic_link', 'dashboard_session', 'cli']).describe('An API key, an end customer on a magic link’s page, a dashboard session, or the CLI.'),
      id: z.string().nullable(),
    }),
    target: z.object({ type: z.string().nullable(), id: z.string().nullable() }),
    request_id: z.string().nullable(),
    source_address: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).describe('A few named, non-secret facts (provider, key name, method and path).'),
  })
  .meta({ id: 'AuditEntry' });

const present = (r: AuditRow) => ({
  id: r.id,
  created_at: isoDate(r.createdAt),
  action: r.action,
  actor: { type: r.actorType as z.infer<typeof auditEntry>['actor']['type'], id: r.actorId },
  target: { type: r.targetType, id: r.targetId },
  request_id: r.requestId,
  source_address: r.sourceAddress,
  details: r.details,
});

export const auditLogRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/audit-log',
    {
      schema: {
        tags: ['audit'],
        summary: 'Control-plane actions of the caller’s project, newest first',
        description: `Keys, connections, OAuth apps, magic links, connect settings, field mappings, syncs and passthrough calls: who did it, when, from where. Kept ${services.audit.retentionDays} days (OMNIPORT_AUDIT_RETENTION_DAYS).`,
        querystring: pageQuery.extend({
          action: z
            .string()
            .regex(/^[a-z_]+(\.[a-z_]*)?$/, 'an action (connection.created) or an object followed by a dot (connection.)')
            .optional()
            .describe('One action (`connection.created`), or every action on an object (`connection.`).'),
          actor_id: z.string().max(200).optional().describe('The id of the API key (or magic link) that acted.'),
          target_id: z.string().max(200).optional().describe('The id of the object acted on.'),
          created_after: isoDateTime.optional().describe('Entries at or after this time.'),
          created_before: isoDateTime.optional().describe('Entries before this time.'),
        }),
        response: { 200: listEnvelope(auditEntry), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await services.audit.list(
        accessOf(request),
        {
          action: q.action,
          actorId: q.actor_id,
          targetId: q.target_id,
          createdAfter: q.created_after ? new Date(q.created_after) : undefined,
          createdBefore: q.created_before ? new Date(q.created_before) : undefined,
        },
        { limit: q.limit, cursor: q.cursor },
      );
      return { message: 'Audit log', statusCode: 200, data: page.items.map(present), next_cursor: page.nextCursor, prev_cursor: page.prevCursor };
    },
  );
};
