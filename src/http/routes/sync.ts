import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import type { JobRunner } from '../../jobs/runner';
import { AppError } from '../../core/errors';
import { deletionCheckStream } from '../../core/deletion-check';
import { accessOf } from '../auth';
import { connectionOf, connectionTokenHeaders } from '../connection-token';
import { envelope, errorResponses } from '../schemas';

const streamStatus = z
  .object({
    stream: z.string(),
    status: z
      .string()
      .describe(
        'never_run, idle, running, failed, waiting_for_rate_limit (the provider asked for a wait; the run goes on at resumes_at, nothing failed), ' +
          'or stalled (running, but its worker has not been heard of for a minute: it is being taken over)',
      ),
    resumes_at: z.string().nullable().describe('While waiting_for_rate_limit: when the run goes on.'),
    mode: z.string().nullable().describe('full or incremental: the current or last run'),
    records_in_run: z.number().int(),
    last_success_at: z.string().nullable(),
    last_error: z.string().nullable(),
    skipped_records: z.number().int().describe('Records of the current or last run the database could not store: left out, the run went on.'),
    skipped: z
      .array(z.object({ object_type: z.string(), remote_id: z.string(), sqlstate: z.string() }))
      .describe('The first 20 of them, by object type and provider id, with the database’s SQLSTATE.'),
    deletion_check: z
      .object({
        status: z.string().describe('never_run, idle, running, failed, waiting_for_rate_limit or stalled, as for a stream'),
        ids_listed: z.number().int().describe('Ids listed by the current or last check.'),
        marked_deleted: z.number().int().describe('Objects the last complete check marked deleted.'),
        last_success_at: z.string().nullable(),
        last_error: z.string().nullable(),
        next_at: z.string().nullable().describe('When it is due next (null: turned off for the project).'),
      })
      .nullable()
      .describe('Streams whose changes cannot show deletions: the periodic check that lists ids only and marks the objects no longer listed deleted. Null for streams that need none.'),
  })
  .meta({ id: 'SyncStreamStatus' });

const realTimeStatus = z
  .object({
    active: z.boolean().describe('The provider pushes this connection’s changes to Omniport (a webhook exists); the scheduled sync runs either way.'),
    mode: z.string().nullable().describe('registered: Omniport created the provider’s webhook; manual: an admin pasted its address. Null when inactive.'),
    last_received_at: z.string().nullable().describe('When the last verified webhook request arrived.'),
  })
  .meta({ id: 'RealTimeStatus' });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const syncRoutes: FastifyPluginAsyncZod<{ services: Services; jobs: JobRunner }> = async (app, { services, jobs }) => {
  app.post(
    '/sync',
    {
      config: {
        audit: {
          action: 'sync.requested',
          target: 'connection',
          details: (request) => {
            const body = request.body as { full?: boolean; check_deletions?: boolean } | undefined;
            return { full: body?.full === true, ...(body?.check_deletions === true ? { check_deletions: true } : {}) };
          },
        },
      },
      schema: {
        tags: ['sync'],
        summary: 'Queue a sync of the connection now (runs in the background)',
        headers: connectionTokenHeaders,
        body: z
          .strictObject({
            full: z.boolean().optional().describe('Read everything again instead of changes only.'),
            check_deletions: z
              .boolean()
              .optional()
              .describe('Also run the deletion checks now (streams that cannot see deletions in their changes: ids listed, objects no longer listed marked deleted).'),
          })
          .optional(),
        response: { 202: envelope(z.object({ queued: z.array(z.string()) })), ...errorResponses },
      },
    },
    async (request, reply) => {
      const connection = await connectionOf(services, request);
      if (connection.status !== 'valid') throw new AppError('needs_reauth', `the ${connection.provider} connection needs to be authorised again`);
      const queued = await jobs.enqueueAll(connection.id, { full: request.body?.full });
      if (request.body?.check_deletions) queued.push(...(await jobs.enqueueDeletionChecks(connection.id)));
      return reply.status(202).send({ message: 'Sync queued', statusCode: 202, data: { queued } });
    },
  );

  app.get(
    '/sync/status',
    {
      schema: {
        tags: ['sync'],
        summary: 'Sync progress of the connection, per stream',
        headers: connectionTokenHeaders,
        response: { 200: envelope(z.object({ connection_status: z.string(), real_time: realTimeStatus, streams: z.array(streamStatus) })), ...errorResponses },
      },
    },
    async (request) => {
      const connection = await connectionOf(services, request);
      const states = new Map((await services.sync.status(connection.id)).map((s) => [s.stream, s]));
      const { deletionCheckIntervalMinutes } = await services.projects.get(connection.projectId);
      const checks = new Set(services.sync.deletions.streamsOf(connection));
      const deletionCheck = (stream: string) => {
        const key = deletionCheckStream(stream);
        if (!checks.has(key)) return null;
        const c = states.get(key);
        const since = c?.lastSuccessAt ?? connection.createdAt;
        return {
          status: c ? services.sync.displayStatus(c) : 'never_run',
          ids_listed: c?.recordsInRun ?? 0,
          marked_deleted: c?.changesInRun?.deleted ?? 0,
          last_success_at: iso(c?.lastSuccessAt ?? null),
          last_error: c?.lastError ?? null,
          next_at: deletionCheckIntervalMinutes === null ? null : iso(new Date(since.getTime() + deletionCheckIntervalMinutes * 60_000)),
        };
      };
      const streams = services.sync.streamsOf(connection).map((stream) => {
        const s = states.get(stream);
        return {
          stream,
          status: s ? services.sync.displayStatus(s) : 'never_run',
          mode: s?.mode ?? null,
          records_in_run: s?.recordsInRun ?? 0,
          last_success_at: iso(s?.lastSuccessAt ?? null),
          last_error: s?.lastError ?? null,
          skipped_records: s?.skippedInRun ?? 0,
          skipped: s?.skipped ?? [],
          resumes_at: s?.status === 'waiting_for_rate_limit' ? iso(s.resumeAt) : null,
          deletion_check: deletionCheck(stream),
        };
      });
      const realTime = await services.providerWebhooks.statusOf(connection.id);
      const real_time = { active: realTime.active, mode: realTime.mode, last_received_at: iso(realTime.lastReceivedAt) };
      return { message: 'Sync status', statusCode: 200, data: { connection_status: connection.status, real_time, streams } };
    },
  );

  app.get(
    '/project',
    {
      schema: {
        tags: ['project'],
        summary: 'The caller’s project and its settings',
        response: { 200: envelope(projectSchema), ...errorResponses },
      },
    },
    async (request) => {
      const project = await services.projects.get(accessOf(request).projectId);
      return { message: 'Project', statusCode: 200, data: presentProject(project) };
    },
  );

  app.patch(
    '/project',
    {
      config: {
        audit: { action: 'project.updated', target: 'project', targetId: (request) => request.access?.projectId, details: (request) => ({ fields: Object.keys(request.body as object) }) },
      },
      schema: {
        tags: ['project'],
        summary: 'Change the project’s settings',
        body: z.strictObject({
          sync_interval_minutes: z.number().int().min(5).max(7 * 24 * 60).optional().describe('How often every connection syncs.'),
          deletion_check_interval_minutes: z
            .number()
            .int()
            .min(15)
            .max(30 * 24 * 60)
            .nullable()
            .optional()
            .describe('How often streams that cannot see deletions in their changes list ids to find deleted objects; null turns it off.'),
          mcp_read_only: z.boolean().optional().describe('Every AI agent (MCP session) of the project sees read tools only (docs/mcp.md).'),
        }),
        response: { 200: envelope(projectSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { sync_interval_minutes, deletion_check_interval_minutes, mcp_read_only } = request.body;
      const project = await services.projects.updateSettings(accessOf(request).projectId, {
        ...(sync_interval_minutes !== undefined ? { syncIntervalMinutes: sync_interval_minutes } : {}),
        ...(deletion_check_interval_minutes !== undefined ? { deletionCheckIntervalMinutes: deletion_check_interval_minutes } : {}),
        ...(mcp_read_only !== undefined ? { mcpReadOnly: mcp_read_only } : {}),
      });
      return { message: 'Project updated', statusCode: 200, data: presentProject(project) };
    },
  );
};

const projectSchema = z
  .object({
    id_project: z.string(),
    name: z.string(),
    sync_interval_minutes: z.number().int(),
    deletion_check_interval_minutes: z.number().int().nullable().describe('null: deletion checks are off'),
    mcp_read_only: z.boolean().describe('Every AI agent (MCP session) of the project sees read tools only.'),
    created_at: z.string(),
  })
  .meta({ id: 'Project' });

const presentProject = (p: { id: string; name: string; syncIntervalMinutes: number; deletionCheckIntervalMinutes: number | null; mcpReadOnly: boolean; createdAt: Date }) => ({
  id_project: p.id,
  name: p.name,
  sync_interval_minutes: p.syncIntervalMinutes,
  deletion_check_interval_minutes: p.deletionCheckIntervalMinutes,
  mcp_read_only: p.mcpReadOnly,
  created_at: p.createdAt.toISOString(),
});
