import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../services';
import { AppError } from '../core/errors';
import { accessOf, presentedApiKey } from '../http/auth';
import { buildToolSpecs, type CollectedRoute, type ToolSpec } from './tools';
import { openSession, type McpSession } from './session';
import { OmniportMcp } from './server';

interface Live {
  session: McpSession;
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

/** Sessions idle this long are closed (an agent that went away without DELETE /mcp). */
const IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 1000;

/**
 * MCP over Streamable HTTP at /mcp: POST carries the client's messages (an initialize without
 * Mcp-Session-Id opens a session), GET the server's stream, DELETE ends the session. Every request is
 * authenticated by the API's own hook first (401 before any MCP exchange), and a session answers only the
 * API key that opened it.
 */
export function registerMcp(app: FastifyInstance, services: Services, routes: CollectedRoute[]) {
  let specs: ToolSpec[] | undefined;
  const toolSpecs = () => (specs ??= buildToolSpecs(routes));
  const sessions = new Map<string, Live>();

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, live] of sessions) if (now - live.lastSeen > IDLE_MS) void live.transport.close().finally(() => sessions.delete(id));
  }, 60_000);
  sweep.unref();
  // Open GET streams would keep the server from closing.
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    await Promise.all([...sessions.values()].map((live) => live.transport.close()));
    sessions.clear();
  });

  const sessionOf = (request: FastifyRequest): Live => {
    const id = request.headers['mcp-session-id'];
    const live = typeof id === 'string' ? sessions.get(id) : undefined;
    // Another key's session is answered like an unknown one.
    if (!live || live.session.apiKeyId !== accessOf(request).apiKeyId) {
      throw new AppError('not_found', 'unknown or expired MCP session (Mcp-Session-Id): send initialize again without it');
    }
    live.lastSeen = Date.now();
    return live;
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply, live: Live) => {
    const access = accessOf(request);
    // The SDK hands `auth` to every handler of this message: tool calls are dispatched as this caller.
    (request.raw as typeof request.raw & { auth?: unknown }).auth = {
      token: presentedApiKey(request),
      clientId: access.apiKeyId,
      scopes: [],
      extra: { requestId: request.id, ip: request.ip },
    };
    reply.hijack();
    // Hijacked: the onSend hooks that set it for every other answer do not run.
    reply.raw.setHeader('x-request-id', request.id);
    await live.transport.handleRequest(request.raw, reply.raw, request.body);
  };

  const config = { mcp: true };
  app.post('/mcp', { config, schema: { hide: true } }, async (request, reply) => {
    if (request.headers['mcp-session-id'] !== undefined) return handle(request, reply, sessionOf(request));
    if (!isInitializeRequest(request.body)) throw new AppError('bad_request', 'no Mcp-Session-Id: the first message of a session must be initialize');
    if (sessions.size >= MAX_SESSIONS) throw new AppError('rate_limited', `more than ${MAX_SESSIONS} open MCP sessions on this server: end some (DELETE /mcp) or retry later`);
    const session = await openSession(services, accessOf(request), request.headers, new Set(toolSpecs().map((s) => s.name)));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, live);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    const live: Live = { session, transport, lastSeen: Date.now() };
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await new OmniportMcp(app, services, toolSpecs, session).server().connect(transport);
    return handle(request, reply, live);
  });
  app.get('/mcp', { config, schema: { hide: true } }, async (request, reply) => handle(request, reply, sessionOf(request)));
  app.delete('/mcp', { config, schema: { hide: true } }, async (request, reply) => handle(request, reply, sessionOf(request)));

  return { toolSpecs, sessions };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The MCP endpoint: its replies are written by the SDK's transport (no Idempotency-Key, no audit of its own). */
    mcp?: boolean;
  }
}
