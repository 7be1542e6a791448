import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditService } from '../core/audit';
import { isDispatched } from './dispatch';

/** What a route's success means in the audit log (`config.audit` on the route). */
export interface RouteAudit {
  action: string;
  target: string;
  /** The target's id; by default the `:id` parameter, else the connection of the request (see `answerField`). */
  targetId?: (request: FastifyRequest, answer: Answer) => string | undefined;
  /** Named, non-secret facts; never copy a body or a header here. */
  details?: (request: FastifyRequest, answer: Answer) => Record<string, unknown>;
}

type Answer = { data?: Record<string, unknown> } & Record<string, unknown>;

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: RouteAudit;
  }
}

function defaultTargetId(request: FastifyRequest): string | undefined {
  const params = request.params as Record<string, unknown> | undefined;
  return typeof params?.id === 'string' ? params.id : request.connection?.id;
}

/** The target id from a field of the answer (in its `data`, or at its top level). */
export const answerField =
  (name: string) =>
  (_request: FastifyRequest, answer: Answer): string | undefined => {
    const value = answer.data?.[name] ?? answer[name];
    return typeof value === 'string' ? value : undefined;
  };

/** The target id from a path parameter. */
export const pathParam =
  (name: string) =>
  (request: FastifyRequest): string | undefined => {
    const value = (request.params as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? value : undefined;
  };

/**
 * The audit log of the API's control-plane routes: a route that declares `config.audit` gets one entry per
 * successful answer (not for replays of an Idempotency-Key), with the API key, request id and source address.
 */
export function registerAuditLog(app: FastifyInstance, service: AuditService) {
  app.addHook('onSend', async (request, reply, payload) => {
    const audit = request.routeOptions.config.audit;
    // A tool call of an AI agent is recorded once, as the tool call (src/mcp/audit.ts).
    if (!audit || !request.access || reply.statusCode >= 400 || reply.getHeader('idempotent-replayed') || isDispatched(request)) return payload;
    let answer: Answer = {};
    if (typeof payload === 'string' && payload.startsWith('{')) {
      try {
        answer = JSON.parse(payload) as Answer;
      } catch {
        // not JSON: the target comes from the request
      }
    }
    // The action happened: an entry that cannot be written is reported, the answer still sent.
    await service
      .record({
        projectId: request.access.projectId,
        actor: { type: 'api_key', id: request.access.apiKeyId },
        action: audit.action,
        target: { type: audit.target, id: (audit.targetId ?? defaultTargetId)(request, answer) },
        requestId: request.id,
        sourceAddress: request.ip,
        details: audit.details?.(request, answer),
      })
      .catch((err: Error) => request.log.error({ err: { message: err.message }, action: audit.action }, 'an audit entry could not be written'));
    return payload;
  });
}
