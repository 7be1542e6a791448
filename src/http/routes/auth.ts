import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import type { ApiKeyRow } from '../../store/control-plane.repo';
import { accessOf } from '../auth';
import { answerField } from '../audit';
import { envelope, errorResponses, idParams, isoDate, listEnvelope, pageQuery } from '../schemas';

const apiKeySchema = z
  .object({
    id_api_key: z.string(),
    key_name: z.string(),
    key_prefix: z.string().describe('The first characters of the key, to recognise it; the key itself is never shown again.'),
    id_project: z.string(),
    id_user: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    mcp_read_only: z.boolean().describe('AI agents (MCP) holding this key see read tools only.'),
    mcp_tools: z.array(z.string()).nullable().describe('The only MCP tools this key may call; null: every tool.'),
  })
  .meta({ id: 'ApiKey' });

const presentApiKey = (r: ApiKeyRow) => ({
  id_api_key: r.id,
  key_name: r.name,
  key_prefix: r.keyPrefix,
  id_project: r.projectId,
  id_user: r.userId,
  created_at: isoDate(r.createdAt),
  last_used_at: r.lastUsedAt ? isoDate(r.lastUsedAt) : null,
  revoked_at: r.revokedAt ? isoDate(r.revokedAt) : null,
  mcp_read_only: r.mcpReadOnly,
  mcp_tools: r.mcpTools ?? null,
});

export const authRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/auth/generate-apikey',
    {
      config: {
        audit: {
          action: 'api_key.created',
          target: 'api_key',
          targetId: answerField('id_api_key'),
          details: (_request, answer) => ({ key_name: answer.key_name, id_user: answer.id_user }),
        },
      },
      schema: {
        tags: ['auth'],
        summary: 'Generate an API key for a user of the caller’s project',
        body: z.strictObject({
          projectId: z.string().min(1),
          userId: z.string().min(1),
          keyName: z.string().trim().min(1).max(200),
          mcp_read_only: z.boolean().optional().describe('AI agents (MCP) holding this key see read tools only (docs/mcp.md).'),
          mcp_tools: z.array(z.string().min(1).max(100)).max(500).nullable().optional().describe('The only MCP tools this key may call (names as in tools/list); null or absent: every tool.'),
        }),
        response: {
          201: z.object({
            api_key: z.string().describe('The secret. Shown only in this response.'),
            id_api_key: z.string(),
            key_name: z.string(),
            id_project: z.string(),
            id_user: z.string(),
            created_at: z.string(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { mcp_read_only, mcp_tools, ...input } = request.body;
      const { row, apiKey } = await services.apiKeys.generate(accessOf(request), { ...input, mcp: { readOnly: mcp_read_only, tools: mcp_tools } });
      return reply.status(201).send({
        api_key: apiKey,
        id_api_key: row.id,
        key_name: row.name,
        id_project: row.projectId,
        id_user: row.userId,
        created_at: isoDate(row.createdAt),
      });
    },
  );

  app.get(
    '/auth/api-keys',
    {
      schema: {
        tags: ['auth'],
        summary: 'List the API keys of the caller’s project (secrets are never listed)',
        querystring: pageQuery,
        response: { 200: listEnvelope(apiKeySchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = await services.apiKeys.list(accessOf(request), request.query);
      return {
        message: 'API keys',
        statusCode: 200,
        data: page.items.map(presentApiKey),
        next_cursor: page.nextCursor,
        prev_cursor: page.prevCursor,
      };
    },
  );

  app.delete(
    '/auth/api-keys/:id',
    {
      config: { audit: { action: 'api_key.revoked', target: 'api_key' } },
      schema: {
        tags: ['auth'],
        summary: 'Revoke an API key (idempotent)',
        params: idParams,
        response: { 200: envelope(apiKeySchema), ...errorResponses },
      },
    },
    async (request) => {
      const row = await services.apiKeys.revoke(accessOf(request), request.params.id);
      return { message: 'API key revoked', statusCode: 200, data: presentApiKey(row) };
    },
  );
};
