import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { IdempotencyService } from '../core/idempotency';
import type { IdempotencyScope } from '../store/idempotency.repo';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while a write with an Idempotency-Key runs: its answer is kept under this scope. */
    idempotencyScope?: IdempotencyScope;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const idempotencyHeader = z
  .string()
  .max(255)
  .optional()
  .describe(
    'A key of your own (a UUID) that makes this write safe to retry: the first answer is kept 24 hours and replayed (header `idempotent-replayed: true`) ' +
      'to a retry with the same key and request; another request with the same key is a 422, a retry while the first runs a 409.',
  );

/**
 * Idempotency-Key on every write of the API (not the public connect pages): after authentication and the
 * rate limit, a write with a key is claimed, replayed or refused (IdempotencyService); its answer — a
 * success or an error, sent by the handler or the error handler — is kept in onSend.
 */
export function registerIdempotency(app: FastifyInstance, service: IdempotencyService) {
  // Documented on every write operation of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.config?.public || !methods.some((m) => WRITES.has(m))) return;
    const schema = (route.schema ??= {});
    const headers = schema.headers as z.ZodObject | undefined;
    schema.headers = headers ? headers.extend({ 'idempotency-key': idempotencyHeader }) : z.object({ 'idempotency-key': idempotencyHeader });
  });

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.access || !WRITES.has(request.method)) return;
    const decision = await service.begin(request.access.projectId, request.method, request.url.split('?')[0]!, String(key), {
      query: request.query,
      body: request.body,
    });
    if (decision.kind === 'proceed') {
      request.idempotencyScope = decision.scope;
      return;
    }
    reply.header('idempotent-replayed', 'true');
    if (decision.contentType) reply.type(decision.contentType);
    return reply.code(decision.status).send(decision.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const scope = request.idempotencyScope;
    if (!scope) return payload;
    request.idempotencyScope = undefined;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    let code: string | undefined;
    if (reply.statusCode >= 400) {
      try {
        code = (JSON.parse(body) as { details?: { code?: string } }).details?.code;
      } catch {
        // not our error format: kept as it is
      }
    }
    const contentType = reply.getHeader('content-type');
    // Not kept (the database is gone): the claim times out and is answered outcome_unknown, never run twice.
    await service
      .finish(scope, { status: reply.statusCode, code, body, contentType: typeof contentType === 'string' ? contentType : null })
      .catch((err: Error) => request.log.warn({ err: { message: err.message } }, 'the answer of an idempotent write could not be kept'));
    return payload;
  });
}
