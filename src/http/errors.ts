import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, errorCodes, type ErrorCode } from '../core/errors';
import { isDatabaseUnavailable, loggableError } from '../store/database';

interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details: Record<string, unknown> & { code: string; request_id: string };
}

function body(request: FastifyRequest, status: number, code: string, message: string, extra: Record<string, unknown> = {}): ErrorBody {
  return {
    statusCode: status,
    error: STATUS_CODES[status] ?? 'Error',
    message,
    details: { ...extra, code, request_id: String(request.id) },
  };
}

/** PostgreSQL error code of a database failure, wherever drizzle or the driver wrapped it. */
function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
};

/** The one mapper from domain, validation, parser, database and unexpected errors to the error body. */
export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    if (err.status >= 500) {
      // The provider's own message can quote the customer's data (an email it refused): only its status is logged.
      const { provider, provider_status: providerStatus } = err.details as { provider?: unknown; provider_status?: unknown };
      request.log.warn({ code: err.code, provider, provider_status: providerStatus }, `${err.code}${typeof provider === 'string' ? ` from ${provider}` : ''}`);
    }
    return reply.status(err.status).headers(err.headers).send(body(request, err.status, err.code, err.message, err.details));
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const issues = err.validation.map((v) => {
      const where = [err.validationContext ?? 'body', ...v.instancePath.split('/').filter(Boolean)].join('.');
      return { path: where, message: v.message ?? 'invalid' };
    });
    const first = issues[0];
    const message = first ? `${first.path}: ${first.message}` : 'invalid request';
    return reply.status(400).send(body(request, 400, 'validation_failed', message, { issues }));
  }
  const fastifyCode = err.code ? fastifyCodes[err.code] : undefined;
  if (fastifyCode) {
    const status = errorCodes[fastifyCode];
    return reply.status(status).send(body(request, status, fastifyCode, err.message));
  }
  if (err instanceof SyntaxError && err.statusCode === 400) {
    return reply.status(400).send(body(request, 400, 'malformed_json', `malformed JSON body: ${err.message}`));
  }
  if (isDatabaseUnavailable(err)) {
    request.log.warn({ err: loggableError(err) }, 'database unavailable');
    return reply
      .status(503)
      .header('retry-after', '5')
      .send(body(request, 503, 'database_unavailable', 'Omniport’s database cannot be reached right now; retry in a few seconds'));
  }
  const state = sqlState(err);
  if (state === '23505') return reply.status(409).send(body(request, 409, 'conflict', 'an object with the same unique value already exists'));
  if (state === '23503') return reply.status(409).send(body(request, 409, 'conflict', 'the object is referenced by, or references, another object'));
  if (isResponseSerializationError(err)) {
    request.log.error({ err: loggableError(err), issues: err.cause.issues }, 'response does not match its schema');
  } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return reply.status(err.statusCode).send(body(request, err.statusCode, 'bad_request', err.message));
  } else {
    request.log.error({ err: loggableError(err) }, 'unhandled error');
  }
  return reply.status(500).send(body(request, 500, 'internal_error', 'internal server error'));
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send(body(request, 404, 'route_not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
}

/** For hooks that answer before a route runs (authentication). */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: AppError) {
  return reply.status(err.status).headers(err.headers).send(body(request, err.status, err.code, err.message, err.details));
}
