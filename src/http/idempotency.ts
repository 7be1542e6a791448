import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { IdempotencyService } from '../core/idempotency';
import type { IdempotencyScope } from '../store/idempotency.repo';
import { requestContext, type RequestContext } from '../core/lost-attempt';

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

  // Every request runs in its own context: a retry that took over an interrupted claim marks it (lostAttempt),
  // and the provider client of every call the handler makes reads it.
  app.addHook('onRequest', (_request, _reply, done) => requestContext.run({} satisfies RequestContext, done));

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.access || !WRITES.has(request.method) || request.routeOptions.config.mcp) return;
    const decision = await service.begin(request.access.projectId, request.method, request.url.split('?')[0]!, String(key), {
      query: request.query,
      body: request.body,
    });
    if (decision.kind === 'proceed') {
      request.idempotencyScope = decision.scope;
      const store = requestContext.getStore();
      if (store) store.idempotencyScope = JSON.stringify({ ...decision.scope, claimedAt: decision.claimedAt.toISOString() });
      if (decision.lostAttempt) {
        if (!store) throw new Error('no request context: a resumed write cannot be run safely');
        store.lostAttempt = decision.lostAttempt;
      }
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
    let elementCodes: (string | undefined)[] | undefined;
    if (reply.statusCode >= 400 || reply.statusCode === 207) {
      try {
        const parsed = JSON.parse(body) as { details?: { code?: string }; data?: { details?: { code?: string } }[] };
        code = parsed.details?.code;
        // A batch's elements: each created object, or its error.
        if (reply.statusCode === 207 && Array.isArray(parsed.data)) elementCodes = parsed.data.map((e) => e?.details?.code);
      } catch {
        // not our error format: kept as it is
      }
    }
    const contentType = reply.getHeader('content-type');
    // Not kept (the database is gone): the claim times out and is answered outcome_unknown, never run twice.
    await service
      .finish(scope, { status: reply.statusCode, code, elementCodes, body, contentType: typeof contentType === 'string' ? contentType : null })
      .catch((err: Error) => request.log.warn({ err: { message: err.message } }, 'the answer of an idempotent write could not be kept'));
    return payload;
  });
}
